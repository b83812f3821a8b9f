"""``companion club ...``: serve a club, manage its tables, bring a table's games back.

Plugged into the ``companion`` command line through the ``godfather_companion.commands``
entry point (``pyproject.toml``), so the command line imports nothing of the club or the web.

Secrets may come from the environment instead of the command line, where other users of the
machine could read them in the process list: ``COMPANION_CLUB_DB`` (the database URL, which
may hold a password), ``COMPANION_CLUB_ADMIN_KEY``, ``COMPANION_TABLE_TOKEN``.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path
from typing import Any

from companion.paths import default_data_dir

DEFAULT_PORT = 8100
ADMIN_ENV = "COMPANION_CLUB_ADMIN_KEY"
TOKEN_ENV = "COMPANION_TABLE_TOKEN"
DB_ENV = "COMPANION_CLUB_DB"
THREADS = 64  # pushes are short; pages reload every few seconds; no event streams here


def add_club_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "club",
        help="the club server: many tables, one PostgreSQL, every game backed up",
        description="Serve a club (every table live, finished games, the league), manage its "
        "tables, and restore a table's games. See docs/club.md.",
    )
    sub = p.add_subparsers(dest="club_command", metavar="COMMAND")

    def usage(_: argparse.Namespace) -> int:
        p.print_help()
        return 0

    p.set_defaults(func=usage)

    s = sub.add_parser("serve", help="serve the club's pages and the tables' sync")
    s.add_argument(
        "--db",
        default=os.environ.get(DB_ENV),
        metavar="URL",
        help=f"the PostgreSQL database (postgresql://USER@HOST/DB; default ${DB_ENV})",
    )
    s.add_argument("--port", type=int, default=DEFAULT_PORT, help="port (default: %(default)s)")
    s.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
    s.add_argument("--name", default="The club", help="the club's name on its pages")
    s.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a name this server also answers to (a DNS name)",
    )
    s.add_argument("--cert", metavar="FILE", help="serve HTTPS with this certificate (PEM)")
    s.add_argument("--key", metavar="FILE", help="the private key of --cert")
    s.add_argument("--threads", type=int, default=THREADS, help=argparse.SUPPRESS)
    s.set_defaults(func=run_serve)

    def admin(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--club", required=True, metavar="URL", help="the club's address")
        parser.add_argument(
            "--admin-key",
            default=os.environ.get(ADMIN_ENV),
            metavar="KEY",
            help=f"the club's admin key (default ${ADMIN_ENV})",
        )
        parser.add_argument(
            "--club-ca", metavar="FILE", help="trust this certificate for an https:// club"
        )

    a = sub.add_parser("add-table", help="add a table and print its token (admin)")
    a.add_argument("name", help="the table's name: table-07, Kitchen ...")
    admin(a)
    a.set_defaults(func=run_add_table)

    t = sub.add_parser("new-token", help="give a table a new token; the old one stops (admin)")
    t.add_argument("name")
    admin(t)
    t.set_defaults(func=run_new_token)

    ls = sub.add_parser("tables", help="list the tables: games, events, last heard (admin)")
    admin(ls)
    ls.set_defaults(func=run_tables)

    k = sub.add_parser("new-admin-key", help="make a new admin key, straight in the database")
    k.add_argument("--db", default=os.environ.get(DB_ENV), metavar="URL")
    k.set_defaults(func=run_new_admin_key)

    r = sub.add_parser(
        "restore",
        help="bring a table's games back from the club into a data "
        "folder (a Pi that lost its card); run it with companion serve stopped",
    )
    r.add_argument("--club", required=True, metavar="URL")
    r.add_argument(
        "--table-token",
        default=os.environ.get(TOKEN_ENV),
        metavar="T",
        help=f"the table's token (default ${TOKEN_ENV})",
    )
    r.add_argument(
        "--admin-key",
        default=os.environ.get(ADMIN_ENV),
        metavar="KEY",
        help="or the admin key, with --table",
    )
    r.add_argument("--table", help="the table to restore (with --admin-key)")
    r.add_argument("--club-ca", metavar="FILE")
    r.add_argument(
        "--data",
        default=str(default_data_dir()),
        metavar="DIR",
        help="the data folder to restore into (default: %(default)s)",
    )
    r.set_defaults(func=run_restore)

    pg = sub.add_parser("pg", help="a PostgreSQL of the club's own in a folder (initdb, pg_ctl)")
    pg.add_argument("action", choices=("start", "stop", "url"))
    pg.add_argument("folder", help="where the cluster lives (made on first start)")
    pg.add_argument(
        "--port",
        type=int,
        default=5433,
        help="names its Unix socket; no TCP port is opened (default: %(default)s)",
    )
    pg.set_defaults(func=run_pg)
    return p


def _fail(message: str, code: int = 1) -> int:
    print(f"companion club: {message}", file=sys.stderr)
    return code


# --- serve --------------------------------------------------------------------------------


def run_serve(args: argparse.Namespace) -> int:
    from companion.club.store import ClubStore, SchemaError
    from web.cli import addresses
    from web.club.app import create_club_app
    from web.server import make_server
    from web.tls import CertificateError, load

    if not args.db:
        return _fail(f"say which database: --db postgresql://... (or ${DB_ENV})", 2)
    if (args.cert is None) != (args.key is None):
        return _fail("--cert and --key go together", 2)
    try:
        tls = load(Path(args.cert), Path(args.key)) if args.cert else None
    except (CertificateError, OSError) as exc:
        return _fail(f"HTTPS: {exc}", 2)
    try:
        store = ClubStore(args.db, pool=min(16, max(4, args.threads // 4)))
    except SchemaError as exc:
        return _fail(str(exc))
    except Exception as exc:  # psycopg's errors: wrong URL, no server, no such database
        return _fail(f"cannot use the database: {str(exc).strip()}")
    app = create_club_app(store, {"CLUB_NAME": args.name, "ALLOWED_HOSTS": args.allow_host})
    server = make_server(app, args.host, args.port, args.threads, tls)
    try:
        server.prepare()
    except OSError as exc:
        store.close()
        return _fail(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}")
    scheme = "https" if tls else "http"
    urls = addresses(args.host, server.bind_addr[1], scheme)
    print(f"{args.name}: the club server is running. Every table, finished games, the league:")
    for url in urls:
        print(f"  {url}")
    admin_key = store.ensure_admin_key()
    if admin_key:
        print(
            "\nThe club's admin key (shown this once; keep it to yourself):\n"
            f"  {admin_key}\nAdd a table: companion club add-table NAME --club "
            f"{urls[0].rstrip('/')} "
            "--admin-key KEY"
        )
    print("Stop with Ctrl-C.", flush=True)

    def stop(*_: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    try:
        server.serve()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
        store.close()
    return 0


# --- the admin's ------------------------------------------------------------------------------


def _admin_client(args: argparse.Namespace) -> Any:
    from companion.club.client import ClubClient

    if not args.admin_key:
        raise SystemExit(_fail(f"this needs the club's admin key: --admin-key or ${ADMIN_ENV}", 2))
    return ClubClient(args.club, args.admin_key, ca=args.club_ca)


def _call(what: Any) -> tuple[int, dict[str, Any]]:
    from companion.club.client import ClubRefused, Unreachable

    try:
        return 0, what()
    except ClubRefused as exc:
        return _fail(exc.reason or str(exc)), {}
    except Unreachable as exc:
        return _fail(f"cannot reach the club: {exc}"), {}


def run_add_table(args: argparse.Namespace) -> int:
    from companion.club.wire import TABLES

    client = _admin_client(args)
    code, answer = _call(lambda: client.post(TABLES, {"name": args.name}))
    if code:
        return code
    print(
        f"Table {answer['table']} added. Its token (shown this once; it goes on that "
        f"table's Pi):\n  {answer['token']}\nOn the table's Pi:\n  companion serve "
        f"--club {args.club} --table-token {answer['token']}"
    )
    return 0


def run_new_token(args: argparse.Namespace) -> int:
    from companion.club.wire import TABLES

    client = _admin_client(args)
    code, answer = _call(lambda: client.post(f"{TABLES}/{args.name}/token", {}))
    if code:
        return code
    print(
        f"Table {answer['table']}'s new token (the old one no longer works):\n  {answer['token']}"
    )
    return 0


def run_tables(args: argparse.Namespace) -> int:
    from companion.club.wire import TABLES

    client = _admin_client(args)
    code, answer = _call(lambda: client.get(TABLES))
    if code:
        return code
    for t in answer["tables"]:
        seen = t["last_seen"][:19].replace("T", " ") if t["last_seen"] else "never"
        print(f"{t['name']:<20} {t['games']:>4} games {t['events']:>7} events   last heard {seen}")
    return 0


def run_new_admin_key(args: argparse.Namespace) -> int:
    from companion.club.store import ClubStore

    if not args.db:
        return _fail(f"say which database: --db postgresql://... (or ${DB_ENV})", 2)
    store = ClubStore(args.db, pool=1)
    try:
        print(f"The club's new admin key (the old one no longer works):\n  {store.new_admin_key()}")
    finally:
        store.close()
    return 0


# --- restore ----------------------------------------------------------------------------------


def run_restore(args: argparse.Namespace) -> int:
    from companion.club.client import ClubClient
    from companion.club.restore import restore
    from companion.club.wire import WireError
    from companion.table import StorageError

    if args.table:
        if not args.admin_key:
            return _fail("--table goes with --admin-key (a table's token names its table)", 2)
        token = args.admin_key
    elif args.table_token:
        token = args.table_token
    else:
        return _fail(
            f"this needs the table's token (--table-token or ${TOKEN_ENV}), or the "
            "admin key and --table",
            2,
        )
    client = ClubClient(args.club, token, ca=args.club_ca)
    data = Path(args.data)
    try:
        code, report_box = _call(lambda: {"report": restore(client, data, args.table)})
    except (WireError, StorageError) as exc:
        return _fail(f"nothing more was restored: {exc}")
    if code:
        return code
    report = report_box["report"]
    print(
        f"Table {report.table}: {len(report.restored)} games restored into {data}"
        + (f", {len(report.kept)} already there and left as they are" if report.kept else "")
        + "."
    )
    for game in report.restored:
        state = (
            "cannot be loaded: " + report.damaged[game.game_id]
            if game.game_id in report.damaged
            else "in play"
            if game.can_go_on
            else game.status
        )
        print(f"  {game.game_id}  {game.game:<12} {game.events:>5} events  {state}")
    _new_keys(data, report)
    return 1 if report.damaged else 0


def _new_keys(data: Path, report: Any) -> None:
    """The phones' keys were on the lost card too: new host keys for the games in play (the
    seats get new join codes from the host page)."""
    from companion.table import TableService
    from web.keys import KeyStore

    playing = [g for g in report.restored if g.can_go_on]
    if not playing:
        return
    service = TableService(data)
    keys = KeyStore(data)
    try:
        print(
            "\nThe phones' keys were on the lost card: each game in play has a new host "
            "link (open it on the\nhost's phone once companion serve runs; its seats get "
            "new codes there):"
        )
        for g in playing:
            players = [s.name for s in service.game(g.game_id).setup.seats]
            host, _ = keys.issue(g.game_id, players)
            print(f"  {g.game_id}: /host/{g.game_id}?key={host}")
    finally:
        keys.close()
        service.close()


# --- a PostgreSQL of one's own --------------------------------------------------------------


def run_pg(args: argparse.Namespace) -> int:
    from companion.club.localpg import LocalPostgres, LocalPostgresError

    try:
        pg = LocalPostgres(Path(args.folder), args.port)
        if args.action == "start":
            url = pg.start()
            print(
                f"PostgreSQL is running in {pg.folder} (Unix socket only). The club's "
                f"database:\n  {url}"
            )
        elif args.action == "stop":
            pg.stop()
            print(f"PostgreSQL in {pg.folder} stopped.")
        else:
            print(pg.url)
    except LocalPostgresError as exc:
        return _fail(str(exc))
    return 0
