"""What every benchmark prints with its figures: the machine, and percentiles."""

from __future__ import annotations

import platform
from pathlib import Path


def cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith(("model name", "Model")):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown cpu"


def describe() -> str:
    return f"machine: {platform.machine()}, {cpu()}, Python {platform.python_version()}"


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, nearest rank."""
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]
