"""The Ca$h 'n Guns tests import their scenario helper (``cash_n_guns_table``) from here."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
