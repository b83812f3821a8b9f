"""The ``companion`` command line.

Every sub-command prints what a person needs and exits non-zero with a one-line reason when it
cannot do what was asked (a bad file, an illegal move in a record), never a traceback.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from companion.boards import SHIPPED, load_board
from companion.engine import OPTIONS, BoardError, check_board, player_view, score
from companion.engine.narrate import narrate
from companion.engine.record import RecordError, parse_record, replay
from companion.engine.rules import HouseRules
from companion.paths import default_data_dir
from companion.report import board_summary, scores_table


def _fail(message: str, code: int = 1) -> int:
    print(f"companion: {message}", file=sys.stderr)
    return code


def cmd_board_check(args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        text = path.read_text("utf-8")
    except OSError as exc:
        return _fail(f"cannot read {path}: {exc.strerror}")
    board, problems = check_board(text)
    for p in problems:
        print(p.format(str(path)))
    errors = sum(1 for p in problems if not p.warning)
    if board is None:
        print(f"\n{path}: {errors} error(s). See docs/boards.md for the format.")
        return 1
    placeholders = board.placeholders()
    print(
        f"{path}: OK: board {board.id!r} for {board.players[0]}-{board.players[1]} players, "
        f"{len(board.neighborhoods)} neighborhoods in 6 districts, "
        f"{len(board.adjacency)} borders ({len(board.bridges)} bridges)"
        + (f", {len(problems)} warning(s)" if problems else "")
        + "."
    )
    if placeholders:
        print(f"{len(placeholders)} facts are placeholders, not traced from a real board.")
    return 0


def cmd_board_show(args: argparse.Namespace) -> int:
    try:
        board = load_board(args.board, 4 if args.board is None else 0)
    except (KeyError, OSError, BoardError) as exc:
        return _fail(str(exc))
    print(f"{board.name}  (id {board.id}, {board.players[0]}-{board.players[1]} players)")
    for d in board.districts:
        print(
            f"\n{d.name}  face {d.face}  colour {d.colour}  points {'/'.join(map(str, d.points))}"
        )
        for i in board.in_district(d.face):
            n = board.neighborhoods[i]
            near = ", ".join(
                x + (" (bridge)" if frozenset((n.id, x)) in board.bridges else "")
                for x in board.neighbours(n.id)
            )
            print(f"  {n.id:<6} {n.name:<20} {n.requirement.describe():<26} next to {near}")
    t = board.muscle_track
    print(
        f"\nMuscle track: Zero Zone, {' '.join(t.letters)}, 1..{t.top}; the Godfather's red "
        f"spot is {t.godfather_space}"
    )
    print(f"Vegas spots: {' '.join(map(str, board.vegas_spots))}")
    print("Favor track: " + ", ".join(f"{s} {a.value}" for s, a in board.favor_track))
    ph = board.placeholders()
    if ph:
        print(f"\nPLACEHOLDERS ({len(ph)} facts not from the rulebook or a traced board):")
        print("  " + "\n  ".join(ph))
    return 0


def _read_record(path: Path, text: str):
    record = parse_record(text)
    try:
        board = load_board(record.setup.board, len(record.setup.seats), path.parent)
    except (KeyError, OSError, BoardError) as exc:
        raise RecordError(record.setup_line, f"board: {exc}") from None
    return record, board


def cmd_replay(args: argparse.Namespace) -> int:
    path = Path(args.file)
    log: list[str] = []

    def each(line, before, action, after) -> None:
        if args.verbose:
            log.extend(f"{line:>5}  {s}" for s in narrate(before, action, after))

    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        if args.json:
            print(json.dumps({"ok": False, "line": None, "rule": None, "reason": reason}))
        return _fail(f"cannot read {path}: {reason}")
    try:
        record, board = _read_record(path, text)
        state = replay(record, board, each)
    except RecordError as exc:
        if args.json:
            print(
                json.dumps(
                    {"ok": False, "line": exc.line, "rule": exc.rule, "reason": exc.reason},
                    indent=2,
                )
            )
        else:
            print("\n".join(log))
        return _fail(f"{path}: {exc}")
    scores = score(state)
    if args.json:
        print(
            json.dumps(
                {
                    "ok": True,
                    "actions": len(record.actions),
                    "round": state.round,
                    "phase": state.phase.value,
                    "over": state.is_over,
                    "end": player_view(state, None).get("end"),
                    "winners": list(scores.winners),
                    "scores": scores.to_dict(),
                    "state": player_view(state, None),
                },
                indent=2,
            )
        )
        return 0
    if log:
        print("\n".join(log) + "\n")
    print(f"{path}: {len(record.actions)} actions replayed, all legal.")
    print(board_summary(state))
    print()
    if not state.is_over:
        print("The game is not over yet; the score as it stands:")
    print(scores_table(scores))
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    from companion.score_file import ScoreFileError, read_position

    try:
        position = read_position(Path(args.file))
    except (ScoreFileError, OSError) as exc:
        return _fail(str(exc))
    scores = position.score()
    if args.json:
        print(json.dumps(scores.to_dict(), indent=2))
    else:
        print(scores_table(scores))
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    from companion.simulate import simulate_text

    if not 3 <= args.players <= 6:
        return _fail("--players must be 3 to 6")
    text, count = simulate_text(args.players, args.seed)
    if args.out == "-":
        sys.stdout.write(text)
    else:
        Path(args.out).write_text(text, "utf-8")
        print(
            f"wrote {args.out}: a {args.players}-player game, {count} actions "
            f"(seed {args.seed}). Replay it with: companion replay {args.out}"
        )
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    print('House rules (set them in a record\'s setup line under "options"):\n')
    for name, (values, default, text) in OPTIONS.items():
        vals = ", ".join(json.dumps(v) for v in values)
        print(f"  {name}  [{vals}]  default {json.dumps(default)}\n      {text}\n")
    print("Details and reasons: docs/rules.md")
    return 0


def _service(args: argparse.Namespace):
    from companion.table import StorageError, TableService

    try:
        return TableService(Path(args.data))
    except StorageError as exc:
        raise SystemExit(_fail(str(exc), 2)) from None


def _game_line(game) -> str:
    state = game.state
    names = ", ".join(p.name for p in state.players)
    if state.is_over:
        where = f"over after round {state.round}, won by {' and '.join(score(state).winners)}"
    else:
        where = f"round {state.round}, {state.phase.value.replace('_', ' ')} phase"
    return f"{game.id}  {game.status:<9} {names}  ({where}; {len(game.effective)} moves)"


def cmd_games(args: argparse.Namespace) -> int:
    service = _service(args)
    games = service.games(include_archived=args.all)
    for game in games:
        print(_game_line(game))
    for game_id, reason in service.damaged.items():
        print(f"{game_id}  damaged   cannot be loaded, left untouched: {reason}")
    if not games and not service.damaged:
        print(f"no games in {args.data}", file=sys.stderr)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from companion.table import Refused

    service = _service(args)
    try:
        text = service.export(args.game)
    except Refused as exc:
        return _fail(f"{exc}; list the games with: companion games --data {args.data}")
    if args.file == "-":
        sys.stdout.write(text)
    else:
        Path(args.file).write_text(text, "utf-8")
        print(f"wrote {args.file}: {_game_line(service.game(args.game))}")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from companion.table import Refused

    service = _service(args)
    try:
        text = Path(args.file).read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return _fail(f"cannot read {args.file}: {getattr(exc, 'strerror', None) or exc}")
    try:
        game = service.import_record(text)
    except Refused as exc:
        return _fail(f"{args.file}: {exc}")
    print(f"imported {args.file} as {_game_line(game)}")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    """A simulated game narrated in the terminal, as the table screen would tell it."""
    from companion.simulate import play

    seed = args.seed if args.seed is not None else random.SystemRandom().randint(1, 10**6)
    print(f"A simulated {args.players}-player game of The Godfather: A New Don (seed {seed}).")
    print("Dice are simulated; hidden rolls stay hidden, as on the table screen.\n")
    state = None
    for before, action, after in play(random.Random(seed), args.players, HouseRules()):
        for line in narrate(before, action, after):
            print(line, flush=True)
        if after.round != before.round or after.is_over:
            print("\n" + board_summary(after) + "\n")
            time.sleep(args.delay * 4)
        time.sleep(args.delay)
        state = after
    assert state is not None
    print(scores_table(score(state)))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Table companion for The Godfather: A New Don.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("demo", help="play a simulated game, narrated in the terminal")
    p.add_argument("--players", type=int, default=4, choices=range(3, 7), metavar="N")
    p.add_argument("--seed", type=int, help="the same seed plays the same game")
    p.add_argument("--delay", type=float, default=0.05, help="seconds between lines")
    p.set_defaults(func=cmd_demo)

    board = sub.add_parser("board", help="check or show a board file")
    bsub = board.add_subparsers(dest="board_command", metavar="ACTION", required=True)
    p = bsub.add_parser("check", help="validate a board file traced from a printed board")
    p.add_argument("file")
    p.set_defaults(func=cmd_board_check)
    p = bsub.add_parser("show", help="describe a shipped board or a board file")
    p.add_argument("board", nargs="?", help=f"{' or '.join(SHIPPED)} or a file (default 3-4)")
    p.set_defaults(func=cmd_board_show)

    p = sub.add_parser("replay", help="replay a game record and score it")
    p.add_argument("file")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("-v", "--verbose", action="store_true", help="narrate every action")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("score", help="score a final position typed in by hand (TOML)")
    p.add_argument("file")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_score)

    p = sub.add_parser("simulate", help="write a random legal game as a record")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default="-", help="file to write (default: standard output)")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("rules", help="list the house-rule options and their defaults")
    p.set_defaults(func=cmd_rules)

    def data_option(p: argparse.ArgumentParser) -> None:
        p.add_argument("--data", default=str(default_data_dir()), metavar="DIR",
                       help="the data folder holding the games database (default: %(default)s)")

    p = sub.add_parser("games", help="list the saved games, one per line")
    p.add_argument("--all", action="store_true", help="include archived games")
    data_option(p)
    p.set_defaults(func=cmd_games)

    p = sub.add_parser("export", help="write a saved game as a record (JSON Lines)")
    p.add_argument("game", help="the game id, as companion games shows it")
    p.add_argument("file", help="where to write it (- for standard output)")
    data_option(p)
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("import", help="add a game record to the saved games")
    p.add_argument("file")
    data_option(p)
    p.set_defaults(func=cmd_import)

    from web.cli import add_serve_parser

    add_serve_parser(sub)

    from companion.die.cli import add_die_parser, run_die

    add_die_parser(sub).set_defaults(func=run_die)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return args.func(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
