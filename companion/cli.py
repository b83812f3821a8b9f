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
from collections.abc import Callable, Mapping
from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.bots.bot import DEFAULT_LEVEL, LEVELS
from companion.gamefiles import GameFiles
from companion.games import DEFAULT, PLANNED, game, games
from companion.games.cash_n_guns import CASH_N_GUNS
from companion.games.cash_n_guns.box_file import SHIPPED as BOX_SHIPPED
from companion.games.cash_n_guns.box_file import check_report
from companion.games.godfather_1971 import GODFATHER_1971, check_tracing
from companion.games.godfather_1971.board import board_report, neighborhood_report, value_card
from companion.games.godfather_1971.data import DataError, neighborhood_file
from companion.games.monopoly import MONOPOLY
from companion.games.monopoly import data_file as monopoly_data
from companion.games.monopoly.edition import SHIPPED as MONOPOLY_SHIPPED
from companion.games.new_don import NEW_DON, BoardError, check_board
from companion.games.new_don.boards import SHIPPED, load_board
from companion.paths import default_data_dir
from companion.protocol import Action, MalformedAction, option_list
from companion.records import RecordError, parse_record, replay

if TYPE_CHECKING:  # the table is imported only by the commands that open it
    from companion.table import Game, TableService

COMMANDS = "godfather_companion.commands"  # entry-point group: add_parser(subparsers)


def _game_id(value: str) -> str:
    """An argparse type: a game this companion referees (the error names the others)."""
    try:
        return game(value).id
    except MalformedAction as exc:
        planned = [g for g in PLANNED if g not in {x.id for x in games()}]
        later = f" ({', '.join(planned)} are still to come)" if planned else ""
        raise argparse.ArgumentTypeError(f"{exc}{later}") from None


def _fail(message: str, code: int = 1) -> int:
    print(f"companion: {message}", file=sys.stderr)
    return code


def _no_data_files(game_id: str, table: Mapping[str, object]) -> int:
    return _fail(
        f"{game(game_id).name} has no data files of its own; this is for " + ", ".join(table)
    )


def cmd_board_check(args: argparse.Namespace) -> int:
    """One data file of a game's (a board traced, a box counted), or with no file every data
    file the game ships: each fact a rulebook lacks is data with a source, checked here."""
    entry = DATA_CHECKS.get(args.game)
    if entry is None:
        return _no_data_files(args.game, DATA_CHECKS)
    check, shipped_files = entry
    if args.file is not None:
        path = Path(args.file)
        try:
            text = path.read_text("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            return _fail(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}")
        return check(text, path)
    files = GameFiles(game(args.game))
    shipped = shipped_files(files)
    failed = []
    for name in shipped:
        if check(files.shipped(name), Path(name)) != 0:
            failed.append(name)
        print()
    print(
        f"{game(args.game).name}: {len(shipped)} shipped data file(s) checked"
        + (f", {len(failed)} with errors: {', '.join(failed)}" if failed else ", all OK")
        + "."
    )
    return 1 if failed else 0


def check_new_don_board(text: str, path: Path) -> int:
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


def check_1971_neighborhood(text: str, path: Path) -> int:
    """A tracing of one neighborhood of The Godfather Game (1971): every problem with its line
    and fix, then what was read, to compare with the printed board."""
    described, problems = check_tracing(text)
    for p in problems:
        print(p.format(str(path)))
    errors = sum(1 for p in problems if not p.warning)
    if described is None:
        print(
            f'\n{path}: {errors} error(s). See docs/godfather-1971.md, "Trace your own '
            'board", for the format.'
        )
        return 1
    print(described)
    warnings = len(problems)
    print(
        f"{path}: OK" + (f", {warnings} warning(s)" if warnings else "") + ". Compare the "
        "positions and neighbours above with your board."
    )
    return 0


def show_1971_board(which: str | None) -> int:
    files = GameFiles(GODFATHER_1971, Path.cwd())
    if which is None:
        print(board_report(files))
        return 0
    card = value_card(files)
    try:
        if which in card.order:
            text = files.shipped(neighborhood_file(which))
        else:
            text = Path(which).read_text("utf-8")
        print(neighborhood_report(text, card))
    except FileNotFoundError:
        return _fail(f"{which!r} is neither a neighborhood ({', '.join(card.order)}) nor a file")
    except (OSError, UnicodeDecodeError) as exc:
        return _fail(f"cannot read {which}: {getattr(exc, 'strerror', None) or exc}")
    except DataError as exc:
        return _fail(
            f"{which} has errors (companion board check --game godfather-1971 "
            f"{which} lists them):\n{exc}"
        )
    return 0


def check_monopoly_file(text: str, path: Path) -> int:
    ok, lines = monopoly_data.report(text, str(path))
    print("\n".join(lines))
    return 0 if ok else 1


def check_cash_n_guns_box(text: str, path: Path) -> int:
    """Ca$h 'n Guns' box file: the shipped one, or a table's own count of its deck."""
    ok, report = check_report(text, str(path))
    print(report)
    return 0 if ok else 1


def cmd_board_show(args: argparse.Namespace) -> int:
    show = BOARD_SHOWS.get(args.game)
    if show is None:
        return _no_data_files(args.game, BOARD_SHOWS)
    return show(args.board)


def show_new_don_board(which: str | None) -> int:
    try:
        board = load_board(which, 4, GameFiles(NEW_DON, Path.cwd()))
    except (OSError, BoardError) as exc:
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


# What `companion board check --game ID [FILE]` runs, per game with data files of its own: the
# check of one file, and the files the game ships (checked when no file is named).
DATA_CHECKS: dict[str, tuple[Callable[[str, Path], int], Callable[[GameFiles], list[str]]]] = {
    NEW_DON.id: (check_new_don_board, lambda _: [f"boards/{f}" for f in SHIPPED.values()]),
    GODFATHER_1971.id: (
        check_1971_neighborhood,
        lambda files: [neighborhood_file(h) for h in value_card(files).order],
    ),
    MONOPOLY.id: (check_monopoly_file, lambda _: list(MONOPOLY_SHIPPED.values())),
    CASH_N_GUNS.id: (check_cash_n_guns_box, lambda _: [BOX_SHIPPED]),
}
# What `board show --game ID [WHICH]` runs.
BOARD_SHOWS: dict[str, Callable[[str | None], int]] = {
    NEW_DON.id: show_new_don_board,
    GODFATHER_1971.id: show_1971_board,
}


def cmd_replay(args: argparse.Namespace) -> int:
    path = Path(args.file)
    log: list[str] = []
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        if args.json:
            print(json.dumps({"ok": False, "line": None, "rule": None, "reason": reason}))
        return _fail(f"cannot read {path}: {reason}")
    try:
        record = parse_record(text)

        def each(line: int, before: Any, action: Action, after: Any) -> None:
            if args.verbose:
                log.extend(
                    f"{line:>5}  {s}" for s in record.game.narrate(before, action, after, None)
                )

        try:  # files the setup names (a traced board) are beside the record
            state = replay(record, GameFiles(record.game, path.parent), each)
        except (OSError, BoardError) as exc:
            raise RecordError(
                record.setup_line, f"cannot read what the setup names: {exc}"
            ) from None
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
    rules = record.game
    scores = rules.score(state)
    if args.json:
        view = rules.player_view(state, None)
        print(
            json.dumps(
                {
                    "ok": True,
                    "game": rules.id,
                    "actions": len(record.actions),
                    "round": view.get("round"),
                    "phase": view.get("phase"),
                    "over": rules.is_over(state),
                    "end": view.get("end"),
                    "winners": list(scores["winners"]),
                    "scores": scores,
                    "state": view,
                },
                indent=2,
            )
        )
        return 0
    if log:
        print("\n".join(log) + "\n")
    print(f"{path}: {len(record.actions)} actions replayed, all legal ({rules.name}).")
    print(rules.summary(state))
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    path = Path(args.file)
    rules = game(args.game)
    try:
        scores = rules.score_position(path.read_text("utf-8"), GameFiles(rules, path.parent))
    except OSError as exc:
        return _fail(f"cannot read {path}: {exc.strerror}")
    except MalformedAction as exc:
        return _fail(f"{path}: {exc}")
    if args.json:
        print(json.dumps(scores, indent=2))
    else:
        print(rules.score_table(scores))
    return 0


def _bots_fit(args: argparse.Namespace, players: int) -> str | None:
    """Why ``--bots`` cannot seat that many, or None."""
    if not 0 <= args.bots <= players:
        return f"--bots must be 0 to {players} (the bots take the last seats)"
    return None


def cmd_simulate(args: argparse.Namespace) -> int:
    from companion.simulate import simulate_text

    low, high = game(args.game).players
    if not low <= args.players <= high:
        return _fail(f"--players must be {low} to {high} for {game(args.game).name}")
    if problem := _bots_fit(args, args.players):
        return _fail(problem)
    text, count = simulate_text(args.players, args.seed, args.game, args.bots, args.level)
    if args.out == "-":
        sys.stdout.write(text)
    else:
        Path(args.out).write_text(text, "utf-8")
        bots = f", {args.bots} of them bots" if args.bots else ""
        print(
            f"wrote {args.out}: a {args.players}-player game{bots}, {count} actions "
            f"(seed {args.seed}). Replay it with: companion replay {args.out}"
        )
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    rules = game(args.game)
    print(f'House rules of {rules.name} (set them in a record\'s setup line under "options"):\n')
    for info in option_list(rules):
        vals = ", ".join(json.dumps(v) for v in info.values)
        print(f"  {info.name}  [{vals}]  default {json.dumps(info.default)}\n      {info.text}\n")
    print("Details and reasons: docs/rules.md")
    return 0


def _service(args: argparse.Namespace) -> TableService:
    from companion.table import StorageError, TableService

    try:
        return TableService(Path(args.data))
    except StorageError as exc:
        raise SystemExit(_fail(str(exc), 2)) from None


def _game_line(saved: Game) -> str:
    rules = saved.rules
    names = ", ".join(s.name for s in saved.setup.seats)
    where = rules.progress(saved.state)
    if saved.is_over:
        where += ", won by " + " and ".join(rules.score(saved.state)["winners"])
    return (
        f"{saved.id}  {saved.status:<9} {rules.id:<14} {names}  "
        f"({where}; {len(saved.effective)} moves)"
    )


def cmd_games(args: argparse.Namespace) -> int:
    service = _service(args)
    saved = service.games(include_archived=args.all)
    for one in saved:
        print(_game_line(one))
    for game_id, reason in service.damaged.items():
        print(f"{game_id}  damaged   cannot be loaded, left untouched: {reason}")
    if not saved and not service.damaged:
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
    from companion.bots.bot import knowledge_for
    from companion.simulate import NAMES, play, play_with_bots

    rules = game(args.game)
    low, high = rules.players
    players = args.players or (max(low, args.bots) if args.bots else low + (high > low))
    if not low <= players <= high:
        return _fail(f"--players must be {low} to {high} for {rules.name}")
    if problem := _bots_fit(args, players):
        return _fail(problem)
    seed = args.seed if args.seed is not None else random.SystemRandom().randint(1, 10**6)
    # A game is played first (a blink at random, seconds with bots): it says whether
    # anything is rolled.
    moves = list(
        play_with_bots(seed, players, args.bots, args.level, args.game)
        if args.bots
        else play(random.Random(seed), players, None, args.game)
    )
    print(f"A simulated {players}-player game of {rules.name} (seed {seed}).")
    if args.bots:
        names = ", ".join(NAMES[players - args.bots : players])
        print(f"Bots play {names}; each move's reason is what the table may know.")
    if any(rules.is_roll(action) for _, action, _ in moves):
        print("Dice are simulated; hidden rolls stay hidden, as on the table screen.\n")
    else:
        print(
            "The players' moves are simulated; their secret choices stay hidden, as on the "
            "table screen.\n"
        )
    bots = set(NAMES[players - args.bots : players])
    knowledge = knowledge_for(rules)
    state = None
    for before, action, after in moves:
        for line in rules.narrate(before, action, after, None):
            print(line, flush=True)
        if action.player in bots and not rules.is_roll(action):
            reason = knowledge.reason(
                rules.table_data(before),
                rules.player_view(before, None),
                rules.action_view(before, action, None),
                rules.player_view(after, None),
            )
            if reason:
                print(f"    ({action.player}, a bot: {reason})", flush=True)
        if rules.progress(after) != rules.progress(before):
            print(f"\n-- {rules.progress(after)} --\n")
            time.sleep(args.delay * 4)
        time.sleep(args.delay)
        state = after
    assert state is not None
    print(rules.summary(state))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Table companion for the Godfather games: "
        + "; ".join(g.name for g in games())
        + ".",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def bot_options(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--bots",
            type=int,
            default=0,
            metavar="N",
            help="bots play the last N seats (the others play at random)",
        )
        p.add_argument(
            "--level",
            choices=list(LEVELS),
            default=None,
            help=f"the bots' level (default {DEFAULT_LEVEL})",
        )

    def game_option(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--game",
            default=DEFAULT,
            type=_game_id,
            metavar="ID",
            help=f"which game: {', '.join(g.id for g in games())} (default {DEFAULT})",
        )

    p = sub.add_parser("demo", help="play a simulated game, narrated in the terminal")
    game_option(p)
    p.add_argument(
        "--players",
        type=int,
        default=None,
        metavar="N",
        help="how many play (default: a common table for the game)",
    )
    p.add_argument("--seed", type=int, help="the same seed plays the same game")
    p.add_argument("--delay", type=float, default=0.05, help="seconds between lines")
    bot_options(p)
    p.set_defaults(func=cmd_demo)

    board = sub.add_parser("board", help="check or show a game's data files (boards, cards, box)")
    bsub = board.add_subparsers(dest="board_command", metavar="ACTION", required=True)
    p = bsub.add_parser(
        "check",
        help="validate a data file of your own (a board traced from "
        "your copy, a box counted), or every file the game ships",
    )
    game_option(p)
    p.add_argument(
        "file",
        nargs="?",
        help="new-don: a board; godfather-1971: one "
        "neighborhood; monopoly-godfather: its board, cards or Don cards; "
        "cash-n-guns: a box (default: every data file the game ships)",
    )
    p.set_defaults(func=cmd_board_check)
    p = bsub.add_parser("show", help="describe a shipped board or a board file")
    game_option(p)
    p.add_argument(
        "board",
        nargs="?",
        metavar="BOARD",
        help=f"new-don: {' or '.join(SHIPPED)} or a file (default 3-4); "
        "godfather-1971: a neighborhood id or file (default: the whole board)",
    )
    p.set_defaults(func=cmd_board_show)

    p = sub.add_parser("replay", help="replay a game record and score it")
    p.add_argument("file")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("-v", "--verbose", action="store_true", help="narrate every action")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("score", help="score a final position typed in by hand (TOML)")
    game_option(p)
    p.add_argument("file")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_score)

    p = sub.add_parser("simulate", help="write a random legal game as a record")
    game_option(p)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default="-", help="file to write (default: standard output)")
    bot_options(p)
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("rules", help="list the house-rule options and their defaults")
    game_option(p)
    p.set_defaults(func=cmd_rules)

    def data_option(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--data",
            default=str(default_data_dir()),
            metavar="DIR",
            help="the data folder holding the games database (default: %(default)s)",
        )

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

    # Commands from outer layers (``serve`` is the web app's) come in as plug-ins declared in
    # pyproject.toml, so the command line imports nothing of the layers built on it.
    for plugin in entry_points(group=COMMANDS):
        plugin.load()(sub)

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
        code: int = args.func(args)
        return code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
