"""``companion serve`` with hardware sources named on the command line."""

from __future__ import annotations

import subprocess
import sys


def test_a_camera_that_cannot_be_opened_is_a_clear_error(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "companion", "serve", "--port", "0", "--host", "127.0.0.1",
         "--data", str(tmp_path), "--no-qr", "--dice", "phone", "--camera", "/no/such=red"],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2
    assert "--camera /no/such=red: '/no/such' is not 'picam', a device number" in done.stderr
