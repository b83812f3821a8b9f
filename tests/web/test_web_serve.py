"""``companion serve`` as a person runs it: it prints where to go and a QR code, serves the
pages from one process, and stops cleanly on SIGTERM (systemd) with exit code 0."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVE = (
    "import argparse, sys; from web.cli import add_serve_parser; "
    "p = argparse.ArgumentParser(); s = p.add_subparsers(); add_serve_parser(s); "
    "a = p.parse_args(sys.argv[1:]); sys.exit(a.func(a))"
)


def test_serve_prints_the_address_and_a_qr_code_then_serves(tmp_path):
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            SERVE,
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--data",
            str(tmp_path),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: list[str] = []
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            lines.append(line)
            if line.startswith("Games are saved in"):
                break
        out = "".join(lines)
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", out)
        assert m, out
        assert "█" in out or "▀" in out, "no QR code in:\n" + out  # segno's terminal blocks
        assert f"Scan to open {m.group(0)}" in out
        with urllib.request.urlopen(m.group(0), timeout=10) as resp:
            assert resp.status == 200 and b"New game" in resp.read()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(15) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_serve_refuses_too_few_threads(tmp_path):
    r = subprocess.run(
        [sys.executable, "-c", SERVE, "serve", "--threads", "4", "--data", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2 and "at least 60" in r.stderr
