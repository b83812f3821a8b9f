"""``companion serve`` with hardware sources named on the command line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def _serve_with_camera(
    tmp_path: Path, camera: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``companion serve --camera CAMERA`` run to its end (which a good camera never reaches)."""
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "companion",
            "serve",
            "--port",
            "0",
            "--host",
            "127.0.0.1",
            "--data",
            str(tmp_path / "data"),
            "--no-qr",
            "--dice",
            "phone",
            "--camera",
            camera,
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env=os.environ | (env or {}),
    )


def test_a_camera_that_cannot_be_opened_is_a_clear_error(tmp_path):
    done = _serve_with_camera(tmp_path, "/no/such=red")
    assert done.returncode == 2
    assert "--camera /no/such=red: '/no/such' is not 'picam', a device number" in done.stderr


def test_a_camera_whose_calibration_is_broken_is_a_clear_error_at_start(tmp_path):
    # The rig's calibration is read when the camera is added, not later on a reader thread.
    import cv2
    import numpy as np

    shots = tmp_path / "shots"
    shots.mkdir()
    cv2.imwrite(str(shots / "frame.png"), np.full((120, 160, 3), 128, np.uint8))
    broken = tmp_path / "vision-calibration.json"
    broken.write_text('{"die_px": "big"}')
    done = _serve_with_camera(tmp_path, f"{shots}=red", {"VISION_CALIBRATION": str(broken)})
    assert done.returncode == 2
    assert f"--camera {shots}=red: {broken}: die_px must be a size in pixels" in done.stderr


def test_serve_names_every_dice_source_for_the_registry():
    """--camera, --die-port and --die-ble become registry specs, each with the option that
    named it (an error message quotes it)."""
    import argparse

    from web.cli import add_serve_parser, source_specs

    parser = argparse.ArgumentParser()
    add_serve_parser(parser.add_subparsers())
    args = parser.parse_args(
        [
            "serve",
            "--dice",
            "phone",
            "--camera",
            "0=red",
            "--camera",
            "picam",
            "--die-port",
            "auto",
            "--die-ble",
            "C8:FD:19:00:00:07",
            "--die-ble",
            "auto",
        ]
    )
    assert [(flag, spec.kind, dict(spec.options)) for flag, spec in source_specs(args)] == [
        ("--camera 0=red", "camera", {"spec": "0", "owner": "red", "name": "cam0"}),
        ("--camera picam", "camera", {"spec": "picam", "owner": "table", "name": "cam1"}),
        ("--die-port auto", "diy-serial", {"port": "auto"}),
        ("--die-ble C8:FD:19:00:00:07", "diy-ble", {"address": "C8:FD:19:00:00:07"}),
        ("--die-ble auto", "diy-ble", {"address": "auto"}),
    ]
