"""``companion die``: find DIY dice, calibrate them, give them an id and a colour, blink them.

The lead wires this into the main command line with :func:`add_die_parser` and
:func:`run_die`. Every sub-command talks to the die through a *link* (serial by default, or an
HM-10 with ``--ble``) that retries lost commands, so the same code serves a die on a USB cable
and one across the table.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import queue
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any, Protocol, TextIO

from .protocol import (
    ACK_HELP,
    COLOURS,
    DIE_ID_ANY,
    Ack,
    AckStatus,
    Command,
    Info,
    Sample,
    blink_command,
    calibrate_command,
    die_name,
    set_colour_command,
    set_id_command,
    status_command,
    stream_command,
)
from .serial_source import CommandTimeout, SerialDieSource, SerialLink, find_die_ports

EXIT_OK = 0
EXIT_REFUSED = 1  # the die answered no
EXIT_NO_DIE = 2  # nothing answered


class Link(Protocol):
    """What the sub-commands need from a transport: one command, one answer."""

    def request(self, make: Callable[[int], Command]) -> tuple[Ack, Info | None]: ...


def _where(default: object) -> argparse.ArgumentParser:
    """The options that say which die to talk to, accepted before or after the sub-command.

    A fresh parser per use: argparse shares action objects between parents and children, so
    one set of defaults would leak into the other.
    """
    where = argparse.ArgumentParser(add_help=False)
    where.add_argument(
        "--port", default=default, help="serial port of the die or hub (default: found by USB id)"
    )
    where.add_argument(
        "--ble",
        metavar="ADDRESS",
        default=default,
        help="an HM-10 die's Bluetooth address, instead of a serial port",
    )
    where.add_argument(
        "--die",
        type=int,
        default=default,
        metavar="ID",
        help="the die to address when several share a hub (default: any)",
    )
    return where


def add_die_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    """Register ``die`` and its sub-commands on the main parser's ``subparsers``."""
    die = subparsers.add_parser(
        "die",
        parents=[_where(None)],
        help="DIY smart dice: list, calibrate, set id/colour, blink",
        description="Set up and check DIY smart dice (see hardware.md).",
    )
    die.set_defaults(die_command=None)
    sub = die.add_subparsers(dest="die_command", metavar="COMMAND")

    def add(name: str, **kw: Any) -> argparse.ArgumentParser:
        # SUPPRESS: a --port given before the sub-command is not overwritten by its default.
        return sub.add_parser(name, parents=[_where(argparse.SUPPRESS)], **kw)

    p = add("list", help="find attached dice and show their set-up")
    p.add_argument("--scan", action="store_true", help="also scan Bluetooth for HM-10 dice")

    p = add("calibrate", help="teach the die its faces, one at a time (guided)")
    p.add_argument(
        "--face",
        type=int,
        choices=range(1, 7),
        metavar="N",
        help="recalibrate this face only (default: reset and do all six)",
    )

    p = add("set-id", help="give the die a number, 1..65534")
    p.add_argument("new_id", type=int, metavar="ID")

    p = add("set-colour", help="record the die's colour")
    p.add_argument("colour", choices=COLOURS[1:])

    p = add("blink", help="blink the die's LED to find it")
    p.add_argument("--times", type=int, default=5, help="how many blinks, 1..25 (default 5)")

    p = add("watch", help="print the die's readings as they change")
    p.add_argument("--seconds", type=float, default=None, help="stop after this long")

    p = add("record", help="record raw accelerometer samples as a trace CSV (firmware/traces)")
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--out", type=argparse.FileType("w"), default="-")
    return die


@contextlib.contextmanager
def _serial_link(port: str | None) -> Iterator[tuple[SerialLink, SerialDieSource]]:
    src = SerialDieSource(port, retry_min=0.2, retry_max=1.0).start()
    try:
        yield SerialLink(src), src
    finally:
        src.stop()


@contextlib.contextmanager
def _link(args: argparse.Namespace) -> Iterator[Link]:
    if args.ble:
        from .ble_source import BleDieSource, BleLink

        ble = BleLink(BleDieSource(args.ble))
        try:
            yield ble
        finally:
            ble.close()
    else:
        with _serial_link(args.port) as (link, _src):
            yield link


def _describe(info: Info) -> str:
    faces = "".join(str(f) for f in sorted(info.calibrated_faces)) or "none (factory table)"
    battery = (
        "USB power"
        if info.battery_mv is None or info.battery_mv >= 4500
        else (f"{info.battery_mv / 1000:.2f} V")
    )
    ident = die_name(info.die_id) + (
        " (no id yet: companion die set-id N)" if info.die_id == 0 else ""
    )
    return (
        f"{ident}  colour {info.colour}  firmware {info.firmware}  "
        f"calibrated faces {faces}  battery {battery}"
    )


def run_die(
    args: argparse.Namespace,
    *,
    prompt: Callable[[str], str] = input,
    out: TextIO | None = None,
) -> int:
    """Run one ``companion die`` sub-command; returns the process exit status."""
    out = out or sys.stdout

    def say(text: str) -> None:
        print(text, file=out, flush=True)

    target = DIE_ID_ANY if args.die is None else args.die
    try:
        if args.die_command in (None, "list"):
            return _list(args, say)
        if args.die_command == "watch":
            return _watch(args, say)
        if args.die_command == "record":
            return _record(args, say)
        with _link(args) as link:
            if args.die_command == "calibrate":
                return _calibrate(link, args.face, target, say, prompt)
            make: Callable[[int], Command]
            if args.die_command == "set-id":
                make = functools.partial(set_id_command, die_id=args.new_id, target=target)
            elif args.die_command == "set-colour":
                make = functools.partial(set_colour_command, colour=args.colour, target=target)
            else:
                make = functools.partial(blink_command, times=args.times, target=target)
            ack, _ = link.request(make)
            if ack.status is not AckStatus.OK:
                say(f"die refused: {ACK_HELP[ack.status]}")
                return EXIT_REFUSED
            _, info = link.request(lambda s: status_command(s, target))
            say("ok: " + _describe(info) if info else "ok")
            return EXIT_OK
    except CommandTimeout as exc:
        say(f"no answer: {exc}")
        return EXIT_NO_DIE
    except ValueError as exc:
        say(f"error: {exc}")
        return EXIT_REFUSED


def _list(args: argparse.Namespace, say: Callable[[str], None]) -> int:
    found = 0
    target = DIE_ID_ANY if args.die is None else args.die
    if args.ble or getattr(args, "scan", False):
        found += _list_ble(args, say)
    if not args.ble:
        ports = [args.port] if args.port else find_die_ports()
        if not ports:
            say("no USB serial board with a known id is plugged in (use --port to name one)")
        for port in ports:
            try:
                with _serial_link(port) as (link, _src):
                    _, info = link.request(lambda s: status_command(s, target))
            except CommandTimeout:
                say(f"{port}: no die answered")
                continue
            found += 1
            say(f"{port}: " + (_describe(info) if info else "a die (no status)"))
    return EXIT_OK if found else EXIT_NO_DIE


def _list_ble(args: argparse.Namespace, say: Callable[[str], None]) -> int:
    import asyncio

    from .ble_source import BleDieSource, BleLink, discover_hm10

    target = DIE_ID_ANY if args.die is None else args.die
    addresses = [args.ble] if args.ble else [d.address for d, _ in asyncio.run(discover_hm10())]
    if not addresses:
        say("no HM-10 module in Bluetooth range")
    found = 0
    for address in addresses:
        link = BleLink(BleDieSource(address, scan_timeout=5.0))
        try:
            _, info = link.request(lambda s: status_command(s, target))
        except CommandTimeout:
            say(f"{address}: an HM-10, but no die answered")
            continue
        finally:
            link.close()
        found += 1
        say(f"{address}: " + (_describe(info) if info else "a die"))
    return found


def _calibrate(
    link: Link,
    face: int | None,
    target: int,
    say: Callable[[str], None],
    prompt: Callable[[str], str],
) -> int:
    faces = [face] if face else list(range(1, 7))
    say("Calibration: for each face, lay the die on a flat table with that face UP, take your")
    say("hand away, then press Enter. (q then Enter stops; what is done is kept.)")
    if face is None:
        # Start clean so the "same side as another face" check only compares this session's.
        ack, _ = link.request(lambda s: calibrate_command(s, 0, target))
        if ack.status is not AckStatus.OK:
            say(f"die refused to reset its face table: {ACK_HELP[ack.status]}")
            return EXIT_REFUSED
    for f in faces:
        while True:
            if prompt(f"Face {f} up, then Enter: ").strip().lower().startswith("q"):
                say("stopped.")
                return EXIT_REFUSED
            status = _calibrate_one(link, f, target)
            if status is AckStatus.OK:
                say(f"  face {f} recorded")
                break
            say(f"  not recorded: {ACK_HELP[status]}")
    _, info = link.request(lambda s: status_command(s, target))
    if info:
        say("done: " + _describe(info))
    say("Check it: companion die watch, then roll a few times.")
    return EXIT_OK


def _calibrate_one(link: Link, face: int, target: int, settle_wait: float = 3.0) -> AckStatus:
    # The die needs 0.3 s of stillness after it is put down; Enter often comes sooner.
    deadline = time.monotonic() + settle_wait
    while True:
        ack, _ = link.request(lambda s: calibrate_command(s, face, target))
        if ack.status is not AckStatus.MOVING or time.monotonic() > deadline:
            return ack.status
        time.sleep(0.25)


def _watch(args: argparse.Namespace, say: Callable[[str], None]) -> int:
    if args.ble:
        say("watch reads serial dice; for BLE use the companion itself")
        return EXIT_REFUSED
    end = None if args.seconds is None else time.monotonic() + args.seconds
    with SerialDieSource(args.port) as src:
        try:
            while end is None or time.monotonic() < end:
                r = src.get(timeout=0.2)
                if r is None:
                    continue
                face = f" face {r.face}" if r.face else ""
                battery = f" battery {r.battery:.0%}" if r.battery is not None else ""
                say(f"{r.die_id} {r.state.value}{face} roll {r.roll}{battery}")
        except KeyboardInterrupt:
            pass
    return EXIT_OK


def _record(args: argparse.Namespace, say: Callable[[str], None]) -> int:
    """Stream raw samples into the trace CSV format the firmware tests read."""
    target = DIE_ID_ANY if args.die is None else args.die
    with _serial_link(args.port) as (link, src):
        ack, _ = link.request(lambda s: stream_command(s, True, target))
        if ack.status is not AckStatus.OK:
            say(f"die refused to stream: {ACK_HELP[ack.status]}")
            return EXIT_REFUSED
        f = args.out
        f.write("# Recorded with companion die record\n# rate_hz=50 counts_per_g=16384\n")
        f.write("# expect: (write what happened, one line per reading, see traces/*.csv)\n")
        f.write("ax,ay,az\n")
        end = time.monotonic() + args.seconds
        n = 0
        while time.monotonic() < end:
            try:
                msg = src.replies.get(timeout=0.2)
            except queue.Empty:
                continue
            if isinstance(msg, Sample):
                f.write(f"{msg.x},{msg.y},{msg.z}\n")
                n += 1
        link.request(lambda s: stream_command(s, False, target))
        f.flush()
    say(f"{n} samples recorded")
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    """Stand-alone entry (``python -m companion.die.cli``) until the lead wires the main CLI."""
    parser = argparse.ArgumentParser(prog="companion")
    add_die_parser(parser.add_subparsers(dest="command", required=True))
    return run_die(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
