"""``companion serve``: start the web companion and show the phones where to find it.

Wiring (in ``companion/cli.py``)::

    from web.cli import add_serve_parser
    add_serve_parser(sub)        # registers "serve" with its own func

It prints every address the table can use and a QR code of the first one, so the host points
a phone camera at the terminal instead of typing an IP address.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import segno

from companion.dice.assignment import TABLE
from companion.dice.sources import MODES, SourceError, SourceKind, SourceSpec
from companion.paths import default_data_dir
from companion.table import StorageError

if TYPE_CHECKING:
    from flask import Flask

    from web.tls import Prepared

DEFAULT_PORT = 8000
DICE_TEXT = {
    "simulated": "simulated: they roll by themselves when the game asks (--dice phone to tap "
    "real rolls on the phones instead).",
    "phone": "players tap the faces they rolled on their phones.",
    "bluetooth": "Pixels and GoDice smart dice over Bluetooth; phones can enter dice too. "
    "Pixels broadcast their faces in the clear: see the README.",
}


def add_serve_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    """Register ``serve``; its ``func`` runs the server until Ctrl-C."""
    p = subparsers.add_parser(
        "serve",
        help="start the web companion: table screen, phones, host page",
        description="Serve the table screen and the phones on the local network.",
    )
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help="port (default: %(default)s)")
    p.add_argument(
        "--host",
        default="0.0.0.0",
        help="address to listen on (default: every interface, so phones can join; "
        "127.0.0.1 keeps it to this machine)",
    )
    p.add_argument(
        "--data",
        default=str(default_data_dir()),
        metavar="DIR",
        help="the data folder holding the games database (default: %(default)s)",
    )
    p.add_argument(
        "--dice",
        choices=tuple(MODES),
        default="simulated",
        help="where rolls come from: simulated dice that roll by themselves (default, no "
        "hardware), phone (players tap their faces), or bluetooth (Pixels and GoDice); "
        "phones can always enter dice",
    )
    p.add_argument(
        "--roll-time",
        type=float,
        default=1.5,
        metavar="SECONDS",
        help="how long a simulated roll tumbles (default: %(default)s)",
    )
    p.add_argument(
        "--camera",
        action="append",
        default=[],
        metavar="SPEC[=OWNER]",
        help="read dice with a camera: picam, a device number or a folder of images, and whose "
        "dice it sees (a family's colour or a player's name; default the shared tray, 'table'); "
        "repeat for one camera per screen. Use with --dice phone.",
    )
    p.add_argument(
        "--die-port",
        action="append",
        default=[],
        metavar="PORT",
        help="read DIY dice on this serial port (auto: the first with a known USB id); "
        "pair them on the host page",
    )
    p.add_argument(
        "--die-ble",
        action="append",
        default=[],
        metavar="ADDRESS",
        help="read the DIY die with this HM-10 Bluetooth address (companion die list --scan "
        "shows them), or auto: every HM-10 in range; each holds one of the Pi's ~5 Bluetooth "
        "connections. Pair them on the host page",
    )
    p.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a name this companion also answers to (e.g. a DNS name on your network); it "
        "always answers to its IP addresses, localhost, its hostname and hostname.local",
    )
    p.add_argument(
        "--https",
        action="store_true",
        help="serve over HTTPS with a self-signed certificate made on first start in "
        "DIR/tls (each phone warns once: compare the fingerprint printed here); see "
        "docs/web.md for the trade-offs",
    )
    p.add_argument(
        "--cert",
        metavar="FILE",
        help="with --key: your own certificate (PEM, "
        "chain after it) instead of the self-signed one; implies --https",
    )
    p.add_argument("--key", metavar="FILE", help="the private key of --cert (PEM, unencrypted)")
    p.add_argument(
        "--club",
        metavar="URL",
        help="back every game up to this club server as it is played (companion club serve); "
        "the table never waits for it and catches up after an outage",
    )
    p.add_argument(
        "--table-token",
        default=os.environ.get("COMPANION_TABLE_TOKEN"),
        metavar="T",
        help="this table's token at the club (from companion club add-table; default "
        "$COMPANION_TABLE_TOKEN, which keeps it out of the process list)",
    )
    p.add_argument(
        "--club-ca",
        metavar="FILE",
        help="trust this certificate for an https:// club with its own certificate",
    )
    p.add_argument("--threads", type=int, default=None, help=argparse.SUPPRESS)
    p.add_argument("--no-qr", action="store_true", help="do not print the QR code")
    p.set_defaults(func=run_serve)
    return p


def addresses(host: str, port: int, scheme: str = "http") -> list[str]:
    from web.server import lan_addresses

    if host in ("0.0.0.0", "", "::"):
        ips = lan_addresses()
        return [f"{scheme}://{ip}:{port}/" for ip in ips] + [f"{scheme}://localhost:{port}/"]
    return [f"{scheme}://{host}:{port}/"]


def _certificate(args: argparse.Namespace, data: Path) -> Prepared:
    """The certificate to serve HTTPS with: ``--cert``/``--key``, else the self-signed one
    in the data folder (made, reused or remade). Raises CertificateError."""
    from web.server import lan_addresses
    from web.tls import CertificateError, Prepared, load, names_to_cover, self_signed

    wanted = names_to_cover(lan_addresses(), args.host) + [
        n for n in args.allow_host if n not in names_to_cover([], args.host)
    ]
    if args.cert is None:
        return self_signed(data, wanted)
    if args.key is None:
        raise CertificateError("--cert needs --key (the certificate's private key)")
    own = load(Path(args.cert), Path(args.key))
    news = f"your certificate, {args.cert}"
    missing = [n for n in wanted if n not in own.names and n not in ("localhost", "127.0.0.1")]
    if missing:
        news += f" (it does not name {', '.join(missing)}: a phone opening those will warn)"
    return Prepared(own, news)


def _print_https(prepared: Prepared) -> None:
    cert = prepared.certificate
    print(f"HTTPS: {prepared.news}.\nIt is valid for {', '.join(cert.names)}.")
    print(
        "Each phone warns the first time unless the certificate is signed by an authority it "
        "trusts;\non its warning page, check that the certificate's SHA-256 fingerprint is"
    )
    print(f"  {cert.fingerprint}")


def source_specs(args: argparse.Namespace) -> list[tuple[str, SourceSpec]]:
    """The dice sources named on the command line, each with the option that named it (for
    an error message): cameras, DIY dice on serial ports and over Bluetooth."""
    specs: list[tuple[str, SourceSpec]] = []
    for number, arg in enumerate(args.camera):
        device, _, owner = arg.partition("=")
        specs.append(
            (
                f"--camera {arg}",
                SourceSpec(
                    SourceKind.CAMERA,
                    {"spec": device, "owner": owner or TABLE, "name": f"cam{number}"},
                ),
            )
        )
    specs += [
        (f"--die-port {port}", SourceSpec(SourceKind.DIY_SERIAL, {"port": port}))
        for port in args.die_port
    ]
    specs += [
        (f"--die-ble {address}", SourceSpec(SourceKind.DIY_BLE, {"address": address}))
        for address in args.die_ble
    ]
    return specs


def _attach_sources(
    app: Flask, specs: list[tuple[str, SourceSpec]]
) -> tuple[str | None, list[str]]:
    """Start the sources named on the command line, feeding the table's dice: a reason if one
    cannot be opened, and the names of those started."""
    dice = app.extensions["companion"].dice
    names = []
    for flag, spec in specs:
        try:
            names.append(dice.add_source(spec).name)
        except SourceError as exc:
            return f"{flag}: {exc}", names
    return None, names


def run_serve(args: argparse.Namespace) -> int:
    """Start cheroot in this process (the table service is the single writer) and block."""
    from web.app import create_app
    from web.server import THREADS, make_server
    from web.streams import SPARE_THREADS
    from web.tls import CertificateError

    threads = args.threads or THREADS
    if args.club and not args.table_token:
        print(
            "companion: --club needs this table's token (--table-token, or "
            "$COMPANION_TABLE_TOKEN): the club's admin makes it with companion club "
            "add-table",
            file=sys.stderr,
        )
        return 2
    if threads < SPARE_THREADS + 16:
        print(
            f"companion: --threads must be at least {SPARE_THREADS + 16} (each open page "
            f"holds one, and {SPARE_THREADS} are kept for page loads and moves)",
            file=sys.stderr,
        )
        return 2
    data = Path(args.data)
    https = args.https or args.cert is not None or args.key is not None
    prepared = None
    if https:
        try:
            prepared = _certificate(args, data)
        except (CertificateError, OSError) as exc:
            print(f"companion: HTTPS: {exc}", file=sys.stderr)
            return 2 if isinstance(exc, CertificateError) else 1
    scheme = "https" if https else "http"
    urls = addresses(args.host, args.port, scheme)
    try:
        app = create_app(
            {
                "DATA_DIR": str(data),
                "PUBLIC_URL": urls[0],
                "DICE": args.dice,
                "DICE_ROLL_TIME": args.roll_time,
                "HTTPS": https,
                "MAX_STREAMS": threads - SPARE_THREADS,
                "ALLOWED_HOSTS": args.allow_host,
            }
        )
    except StorageError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 1
    tls = prepared.certificate if prepared else None
    server = make_server(app, args.host, args.port, threads, tls)
    try:
        server.prepare()  # binds the port and starts the worker threads
    except OSError as exc:
        print(
            f"companion: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}",
            file=sys.stderr,
        )
        app.extensions["companion"].close()
        return 1
    problem, extra = _attach_sources(app, source_specs(args))
    if problem:
        print(f"companion: {problem}", file=sys.stderr)
        server.stop()
        app.extensions["companion"].close()
        return 2
    port = server.bind_addr[1]
    urls = addresses(args.host, port, scheme)
    app.config["PUBLIC_URL"] = urls[0]
    owner = f"{urls[0]}?key={app.extensions['companion'].keys.owner_key}"
    print("Godfather companion is running. Open this on the table screen or any phone:")
    for url in urls:
        print(f"  {url}")
    print(
        f"\nTo start games from your phone, open the owner's link (keep it to yourself):\n  {owner}"
    )
    if not args.no_qr:
        print()
        segno.make(owner, error="m").terminal(compact=True)
        print(f"\nScan to open {urls[0]} as the table's owner (phones must be on the same Wi-Fi).")
    if prepared is not None:
        _print_https(prepared)
    print(f"Dice: {DICE_TEXT[args.dice]}")
    for name in extra:
        print(f"      and {name}.")
    club = _start_club_sync(args, app)
    print(f"Games are saved in {data}. Stop with Ctrl-C.", flush=True)

    def stop(*_: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    companion = app.extensions["companion"]
    try:
        server.serve()
    except KeyboardInterrupt:
        pass
    finally:
        companion.hub.close()  # end the streams so their threads return
        server.stop()  # requests in flight finish before the games database closes
        if club is not None:
            club.stop()
        companion.close()
    return 0


def _start_club_sync(args: argparse.Namespace, app: Any) -> Any:
    """With ``--club``: back every durable event up to the club from a thread of its own (the
    table service is followed from outside, and never waits for the network)."""
    if not args.club:
        return None
    from companion.club.sync import ClubSync

    try:
        sync = ClubSync(
            app.extensions["companion"].service, args.club, args.table_token, ca=args.club_ca
        ).start()
    except ValueError as exc:
        print(f"companion: --club: {exc}", file=sys.stderr)
        return None
    print(
        f"Club: every game is backed up to {args.club} as it is played (offline first: "
        "the table plays on without it)."
    )
    return sync
