"""Where the companion keeps its data when no ``--data DIR`` is given."""

from __future__ import annotations

import os
from pathlib import Path


def default_data_dir() -> Path:
    """``$COMPANION_DATA``, else the XDG data folder (``~/.local/share/godfather-companion``)."""
    if os.environ.get("COMPANION_DATA"):
        return Path(os.environ["COMPANION_DATA"])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "godfather-companion"
