"""The Pi's systemd unit and its one-command installer, checked without a Pi.

The installer's --dry-run --root writes the files it would install under a temporary root and
prints the commands it would run, so the unit it really installs is the one checked here.
"""

from __future__ import annotations

import configparser
import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import ROOT


@pytest.fixture(scope="module")
def dry_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    root = tmp_path_factory.mktemp("pi-root")
    proc = subprocess.run(
        [
            "bash",
            str(ROOT / "deploy" / "install.sh"),
            "--dry-run",
            "--root",
            str(root),
            "--hostname",
            "godfather",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return root, proc.stdout


def _unit(root: Path) -> configparser.ConfigParser:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(root / "etc" / "systemd" / "system" / "godfather-companion.service")
    return unit


def test_unit_starts_the_companion_at_boot_and_restarts_it(dry_run: tuple[Path, str]) -> None:
    unit = _unit(dry_run[0])
    service = unit["Service"]
    assert service["ExecStart"] == (
        "/opt/godfather-companion/.venv/bin/companion serve --port 8000 "
        "--data /var/lib/godfather-companion"
    )
    assert service["Restart"] == "on-failure"
    assert service["User"] == "companion"
    assert set(service["SupplementaryGroups"].split()) == {"dialout", "video", "bluetooth"}
    assert unit["Install"]["WantedBy"] == "multi-user.target"
    assert "@" not in (dry_run[0] / "etc/systemd/system/godfather-companion.service").read_text()


def test_installer_enables_the_service_and_names_the_pi_for_phones(
    dry_run: tuple[Path, str],
) -> None:
    out = dry_run[1]
    for step in (
        "systemctl enable godfather-companion.service",
        "systemctl restart godfather-companion.service",
        "hostnamectl set-hostname godfather",
        "apt-get install",
        "avahi-daemon",
        "usermod -aG dialout companion",
        "scripts/bootstrap",
    ):
        assert step in out
    assert "http://godfather.local:8000" in out


def test_unit_passes_systemd_analyze_where_available(dry_run: tuple[Path, str]) -> None:
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze not installed (it is on Raspberry Pi OS)")
    unit = dry_run[0] / "etc/systemd/system/godfather-companion.service"
    proc = subprocess.run(
        ["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, check=False
    )
    # Missing /opt/... on this machine is expected; a syntax error is not.
    assert "Unknown key" not in proc.stderr and "Invalid" not in proc.stderr, proc.stderr
