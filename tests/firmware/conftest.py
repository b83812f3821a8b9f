"""Shared fixtures for the die tests: building the firmware in a temporary directory.

A test that needs a tool (gcc, avr-gcc, simavr's library) skips with the reason when the tool
is missing on a developer's machine, but fails under CI=true, where .ci/run installs them: a
green CI run must mean the firmware was really built and simulated.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
VECTORS = FIRMWARE / "protocol" / "vectors.txt"
TRACES = sorted((FIRMWARE / "traces").glob("*.csv"))
APT_HINT = (
    "apt-get install gcc-avr avr-libc simavr libsimavr-dev libsimavrparts1 libelf-dev pkg-config"
)


def require(*tools: str) -> None:
    """Skip (or, under CI=true, fail) unless every tool is on PATH / installed."""
    missing = [t for t in tools if not _have(t)]
    if not missing:
        return
    message = f"{', '.join(missing)} not installed ({APT_HINT})"
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true but {message}", pytrace=False)
    pytest.skip(message)


def _have(tool: str) -> bool:
    if tool == "libsimavr":
        return subprocess.run(
            ["pkg-config", "--exists", "simavr"], capture_output=True, check=False
        ).returncode == 0 if shutil.which("pkg-config") else False
    return shutil.which(tool) is not None


def parse_trace_expectations(path: Path) -> list[str]:
    """The readings a trace's scene should produce, from its ``# expect:`` lines."""
    return [
        line.removeprefix("# expect: ").strip()
        for line in path.read_text().splitlines()
        if line.startswith("# expect: ")
    ]


@pytest.fixture(scope="session")
def build_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One build directory for the session, outside the source tree."""
    return tmp_path_factory.mktemp("firmware-build")


@pytest.fixture(scope="session")
def make(build_dir: Path) -> Callable[..., Path]:
    """``make(target, VAR=value)``: build a firmware target into the session's build dir."""

    def run(*targets: str, **variables: str) -> Path:
        cmd = ["make", "-s", "-C", str(FIRMWARE), f"BUILD={build_dir}", *targets]
        cmd += [f"{k}={v}" for k, v in variables.items()]
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        assert proc.returncode == 0, f"{' '.join(cmd)} failed:\n{proc.stdout}\n{proc.stderr}"
        return build_dir

    return run
