"""``python -m companion``: the same as the ``companion`` command."""

import sys

from companion.cli import main

sys.exit(main())
