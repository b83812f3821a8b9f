"""``python -m vision``: see :mod:`vision.cli`."""

import sys

from vision.cli import main

sys.exit(main())
