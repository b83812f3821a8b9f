"""``companion serve --https``: a self-signed certificate made on first start in the data
folder and reused after, pages, the API and event streams over real TLS, ``Secure`` cookies,
your own certificate with ``--cert``/``--key``; and a client that never finishes its handshake
stalls nobody else."""

from __future__ import annotations

import hashlib
import http.client
import json
import re
import signal
import socket
import ssl
import stat
import subprocess
import sys
import time
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives.serialization import Encoding

from web import create_app, tls
from web.server import start_in_thread

ROOT = Path(__file__).resolve().parents[2]
FINGERPRINT = re.compile(r"\b(?:[0-9A-F]{2}:){31}[0-9A-F]{2}\b")


class Serving:
    """``companion serve`` in its own process, as a person runs it."""

    def __init__(self, data: Path, *args: str) -> None:
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "companion",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--data",
                str(data),
                "--no-qr",
                *args,
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        lines: list[str] = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            lines.append(line)
            if not line or line.startswith("Games are saved in"):
                break
        self.out = "".join(lines)
        m = re.search(r"https://127\.0\.0\.1:(\d+)/", self.out)
        assert m, self.out
        self.port = int(m.group(1))

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(15)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()


def trusting(cert: Path) -> ssl.SSLContext:
    """A client that trusts this one certificate and nothing else, checking the name too."""
    return ssl.create_default_context(cafile=str(cert))


def request(port: int, ctx: ssl.SSLContext, method: str, path: str, body=None, headers=None):
    conn = http.client.HTTPSConnection("127.0.0.1", port, context=ctx, timeout=20)
    try:
        conn.request(
            method,
            path,
            body=None if body is None else json.dumps(body),
            headers={"Content-Type": "application/json", **(headers or {})},
        )
        resp = conn.getresponse()
        return resp.status, resp.headers, resp.read()
    finally:
        conn.close()


def test_serve_https_makes_a_certificate_and_serves_over_tls(tmp_path):
    serving = Serving(tmp_path, "--https")
    try:
        cert_path, key_path = tmp_path / "tls" / "cert.pem", tmp_path / "tls" / "key.pem"
        assert "http://" not in serving.out
        assert "a new self-signed certificate" in serving.out, serving.out
        cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
        printed = FINGERPRINT.findall(serving.out)
        assert printed == [
            hashlib.sha256(cert.public_bytes(Encoding.DER)).digest().hex(":").upper()
        ]
        alt = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
        assert "127.0.0.1" in [str(ip) for ip in alt.get_values_for_type(x509.IPAddress)]
        assert "localhost" in alt.get_values_for_type(x509.DNSName)
        assert stat.S_IMODE(key_path.stat().st_mode) == 0o600
        assert stat.S_IMODE(key_path.parent.stat().st_mode) == 0o700

        ctx = trusting(cert_path)
        status, headers, body = request(serving.port, ctx, "GET", "/")
        assert status == 200 and b"New game" in body
        assert "Secure" in headers["Set-Cookie"]

        status, headers, body = request(serving.port, ctx, "GET", "/api/csrf")
        cookie = headers["Set-Cookie"].split(";", 1)[0]
        assert "; Secure" in headers["Set-Cookie"]
        csrf = json.loads(body)["csrf"]
        status, headers, body = request(
            serving.port,
            ctx,
            "POST",
            "/api/games",
            {"players": ["Maria", "Johnny", "Claire"]},
            {"X-CSRF-Token": csrf, "Cookie": cookie},
        )
        assert status == 201, body
        game = json.loads(body)
        assert all(url.startswith("https://") for url in game["seats"].values())
        host_cookies = [c for c in headers.get_all("Set-Cookie") if c.startswith("host_")]
        assert host_cookies and all("; Secure" in c for c in host_cookies)

        conn = http.client.HTTPSConnection("127.0.0.1", serving.port, context=ctx, timeout=20)
        conn.request("GET", f"/api/games/{game['game_id']}/events?as=table")
        stream = conn.getresponse()
        assert stream.status == 200
        assert stream.readline().startswith(b"retry:")
        seen = b""
        while b"event: view" not in seen:
            seen += stream.readline()
        conn.close()
    finally:
        assert serving.stop() == 0

    again = Serving(tmp_path, "--https")
    try:
        assert "from last time" in again.out, again.out
        assert FINGERPRINT.findall(again.out) == printed
        status, _, _ = request(again.port, trusting(cert_path), "GET", "/")
        assert status == 200
    finally:
        assert again.stop() == 0


def test_a_certificate_is_remade_when_it_no_longer_names_every_address(tmp_path):
    first = tls.self_signed(tmp_path, ["127.0.0.1", "localhost"])
    assert "the first start" in first.news
    same = tls.self_signed(tmp_path, ["localhost", "127.0.0.1"])
    assert same.certificate.fingerprint == first.certificate.fingerprint
    assert "from last time" in same.news
    moved = tls.self_signed(tmp_path, ["192.168.1.40", "127.0.0.1", "localhost"])
    assert moved.certificate.fingerprint != first.certificate.fingerprint
    assert "did not name 192.168.1.40" in moved.news
    assert moved.certificate.names == ("192.168.1.40", "127.0.0.1", "localhost")


def test_a_key_that_is_not_the_certificates_own_is_replaced(tmp_path):
    tls.self_signed(tmp_path / "a", ["localhost"])
    tls.self_signed(tmp_path / "b", ["localhost"])
    (tmp_path / "b" / "tls" / "key.pem").write_bytes(
        (tmp_path / "a" / "tls" / "key.pem").read_bytes()
    )
    again = tls.self_signed(tmp_path / "b", ["localhost"])
    assert "cannot be used" in again.news and "is not the key of" in again.news
    tls.load(again.certificate.cert, again.certificate.key)  # a matching pair now


def test_serve_with_your_own_certificate(tmp_path):
    own = tls.self_signed(tmp_path / "elsewhere", ["127.0.0.1", "companion.example"]).certificate
    data = tmp_path / "data"
    serving = Serving(data, "--cert", str(own.cert), "--key", str(own.key))
    try:
        assert "your certificate" in serving.out
        assert FINGERPRINT.findall(serving.out) == [own.fingerprint]
        status, _, _ = request(serving.port, trusting(own.cert), "GET", "/")
        assert status == 200
        assert not (data / "tls").exists()  # no self-signed one was made
    finally:
        assert serving.stop() == 0


def test_cert_without_key_is_refused(tmp_path):
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "companion",
            "serve",
            "--data",
            str(tmp_path),
            "--cert",
            str(tmp_path / "cert.pem"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2 and "--cert needs --key" in r.stderr


def test_a_silent_client_does_not_stall_the_https_server(tmp_path):
    """A client that connects and never says hello (a port scanner) holds one worker for the
    socket timeout (10 s); everyone else is served as before. Were the handshakes done where
    connections are accepted, three silent clients would hold the next one for 30 s, past
    its 20 s timeout. Plain http:// gets told to use https:// instead of a dropped
    connection."""
    prepared = tls.self_signed(tmp_path, ["127.0.0.1"])
    app = create_app({"DATA_DIR": str(tmp_path), "HTTPS": True})
    running = start_in_thread(app, tls=prepared.certificate)
    silent = [socket.create_connection(("127.0.0.1", running.port)) for _ in range(3)]
    try:
        assert running.url.startswith("https://")
        status, _, body = request(running.port, trusting(prepared.certificate.cert), "GET", "/")
        assert status == 200 and b"New game" in body
        with socket.create_connection(("127.0.0.1", running.port), timeout=10) as plain:
            plain.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            reply = b""
            while chunk := plain.recv(4096):
                reply += chunk
        assert reply.startswith(b"HTTP/1.1 400") and b"https://" in reply
    finally:
        for s in silent:
            s.close()
        running.stop(app)
        app.extensions["companion"].close()
