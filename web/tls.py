"""The certificate for ``companion serve --https``: made on first start, or the table's own.

No public certificate authority signs for a private address such as 192.168.1.23, so a table
without a domain name of its own gets a self-signed certificate: every phone warns the first
time it opens the page, and the person at the table compares the fingerprint the terminal
printed with the one on the warning page before going on. The certificate is kept in the data
folder and reused, so a phone that accepted it once is not asked again, and made anew only
when it no longer names every address the companion answers on (the Pi joined another
network) or is about to expire.

What it is made for: browsers accept it as a server certificate (a subjectAltName for every
name and address, serverAuth, not a CA) and so do Apple's rules for any TLS server
certificate (SHA-256, at most 825 days). ECDSA P-256: the cheapest handshake for the Pi.
"""

from __future__ import annotations

import datetime
import ipaddress
import os
import secrets
import socket
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

FOLDER = "tls"  # in the data folder, mode 0700
CERT_FILE = "cert.pem"
KEY_FILE = "key.pem"  # mode 0600
VALIDITY = datetime.timedelta(days=825)  # Apple's most for any TLS server certificate
RENEW_BEFORE = datetime.timedelta(days=30)


class CertificateError(Exception):
    """A certificate or key that cannot be used; the message says which file and why."""


@dataclass(frozen=True)
class Certificate:
    """A certificate and key on disk, ready for the server."""

    cert: Path
    key: Path
    fingerprint: str  # SHA-256 of the certificate, as browsers show it: "3A:F0:..."
    names: tuple[str, ...]  # the host names and addresses it is valid for
    not_after: datetime.datetime


@dataclass(frozen=True)
class Prepared:
    """The certificate to serve with, and what was done to get it (for the terminal)."""

    certificate: Certificate
    news: str


def names_to_cover(lan: list[str], host: str = "0.0.0.0") -> list[str]:
    """Every name and address a phone or the Pi itself may open the companion by: the LAN
    addresses (or the one address it listens on), localhost, the host name and its mDNS
    ``.local`` name."""
    names = list(lan) if host in ("0.0.0.0", "", "::") else [host]
    names += ["localhost", "127.0.0.1"]
    hostname = socket.gethostname().split(".")[0]
    if hostname and hostname != "localhost":
        names += [hostname, f"{hostname}.local"]
    return list(dict.fromkeys(names))


def self_signed(data_dir: Path, names: list[str]) -> Prepared:
    """The self-signed certificate in ``data_dir/tls``: the one from last time when it still
    names every one of ``names`` and is not about to expire, else a new one."""
    folder = data_dir / FOLDER
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    folder.chmod(0o700)
    cert_path, key_path = folder / CERT_FILE, folder / KEY_FILE
    why = "the first start"
    if cert_path.exists() or key_path.exists():
        try:
            old = load(cert_path, key_path)
        except CertificateError as exc:
            why = f"the old one cannot be used ({exc})"
        else:
            missing = [n for n in names if n not in old.names]
            if missing:
                why = (
                    f"the old one did not name {', '.join(missing)}: phones that accepted it "
                    "will warn again"
                )
            elif old.not_after - _now() < RENEW_BEFORE:
                why = f"the old one expires on {old.not_after:%Y-%m-%d}"
            else:
                return Prepared(old, f"the self-signed certificate from last time, {cert_path}")
    made = _make(cert_path, key_path, names)
    return Prepared(made, f"a new self-signed certificate, {cert_path} ({why})")


def load(cert_path: Path, key_path: Path) -> Certificate:
    """A certificate and its private key from PEM files (the first certificate in the file
    is the server's; a chain may follow it)."""
    try:
        cert_pem = cert_path.read_bytes()
        key_pem = key_path.read_bytes()
    except OSError as exc:
        raise CertificateError(f"cannot read {exc.filename}: {exc.strerror}") from exc
    try:
        cert = x509.load_pem_x509_certificates(cert_pem)[0]
    except ValueError as exc:
        raise CertificateError(f"{cert_path} holds no PEM certificate") from exc
    try:
        key = serialization.load_pem_private_key(key_pem, password=None)
    except (ValueError, TypeError) as exc:
        raise CertificateError(f"{key_path} holds no unencrypted PEM private key") from exc
    raw = serialization.PublicFormat.SubjectPublicKeyInfo
    der = serialization.Encoding.DER
    if key.public_key().public_bytes(der, raw) != cert.public_key().public_bytes(der, raw):
        raise CertificateError(f"{key_path} is not the key of {cert_path}")
    return Certificate(
        cert_path,
        key_path,
        fingerprint(cert),
        _names(cert),
        cert.not_valid_after_utc,
    )


def fingerprint(cert: x509.Certificate) -> str:
    """The certificate's SHA-256 fingerprint in the colon-separated hex browsers show."""
    return cert.fingerprint(hashes.SHA256()).hex(":").upper()


def _names(cert: x509.Certificate) -> tuple[str, ...]:
    try:
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return ()
    return tuple(str(name.value) for name in san if isinstance(name, x509.DNSName | x509.IPAddress))


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def _make(cert_path: Path, key_path: Path, names: list[str]) -> Certificate:
    key = ec.generate_private_key(ec.SECP256R1())
    alt: list[x509.GeneralName] = []
    for name in names:
        try:
            alt.append(x509.IPAddress(ipaddress.ip_address(name)))
        except ValueError:
            alt.append(x509.DNSName(name))
    subject = x509.Name(
        [
            x509.NameAttribute(
                NameOID.COMMON_NAME, f"Godfather companion on {socket.gethostname()}"
            ),
        ]
    )
    start = _now() - datetime.timedelta(minutes=5)  # a phone whose clock is a little behind
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(int.from_bytes(secrets.token_bytes(16), "big") >> 1)
        .not_valid_before(start)
        .not_valid_after(start + VALIDITY)
        .add_extension(x509.SubjectAlternativeName(alt), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=False,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    key_pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    _write(key_path, key_pem, 0o600)  # the key first: a cert without its key is remade
    _write(cert_path, cert.public_bytes(serialization.Encoding.PEM), 0o644)
    return load(cert_path, key_path)


def _write(path: Path, data: bytes, mode: int) -> None:
    """Write ``path`` whole or not at all, created with ``mode`` (the key is never readable
    by others, not even for a moment)."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
