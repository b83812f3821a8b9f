"""The Godfather Game (1971) tests: their helpers (``table``) live beside them."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
