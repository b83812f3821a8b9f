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

from companion.die.protocol import Reading, WireState

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
        return (
            subprocess.run(
                ["pkg-config", "--exists", "simavr"], capture_output=True, check=False
            ).returncode
            == 0
            if shutil.which("pkg-config")
            else False
        )
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


def simulate(
    make: Callable[..., Path], trace: str, *rx: tuple[int, bytes], vcc_mv: int = 3900
) -> bytes:
    """Build the replay firmware for ``trace``, run it under simavr, return its UART bytes."""
    require("avr-gcc", "make", "pkg-config", "libsimavr", "gcc")
    build = make("sim")
    make(str(build / f"replay-{trace}.elf"))
    cmd = [str(build / "die_sim"), "-v", str(vcc_mv), "-t", "30000"]
    for at_ms, data in rx:
        cmd += ["-r", f"{at_ms}:{data.hex()}"]
    proc = subprocess.run(
        [*cmd, str(build / f"replay-{trace}.elf")], capture_output=True, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr.decode()
    assert b"stopped after" in proc.stderr  # it ended by itself, at the end of the trace
    return proc.stdout


def describe(r: Reading) -> str:
    """A reading in the trace files' ``# expect:`` words."""
    if r.state is WireState.SETTLED:
        return f"settled face={r.face} roll={r.roll}"
    if r.state is WireState.COCKED:
        return f"cocked roll={r.roll}"
    return r.state.name.lower()


def collapse(words: list[str]) -> list[str]:
    """Drop repeats: heartbeats restate the state every 2 s."""
    return [w for i, w in enumerate(words) if i == 0 or words[i - 1] != w]
