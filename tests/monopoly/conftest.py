"""Monopoly tests: the scenario helpers (``monopoly_scenario.py``) are imported by name, as the
project's shared helpers in ``tests/helpers`` are; this folder is put on the path here. The
name is the game's own: a plain ``scenario`` would shadow A New Don's in ``tests/helpers``
(or be shadowed by it) when the whole suite runs."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
