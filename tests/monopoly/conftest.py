"""Monopoly tests: the scenario helpers (``scenario.py``) are imported by name, as the
project's shared helpers in ``tests/helpers`` are; this folder is put on the path here."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
