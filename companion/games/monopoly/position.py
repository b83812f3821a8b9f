"""A final position typed in by hand (TOML), as ``companion score --game monopoly-godfather
FILE`` reads it: for tables that played without the companion and count their fortunes at the
end of a Speed Play game (cash, deeds at face value, mortgaged deeds at half, buildings at
cost), or want a stopped classic game valued the same way.
"""

from __future__ import annotations

import tomllib
from typing import Any

from companion.games.monopoly.board import Board, Kind
from companion.games.monopoly.data_file import DataError
from companion.games.monopoly.edition import load_edition
from companion.games.monopoly.scoring import fortune, scores
from companion.games.monopoly.state import Holding
from companion.protocol.errors import MalformedAction
from companion.protocol.game import Files

EXAMPLE = """\
speed_play = true                 # the valuation's Compounds: 3 Hideouts (false: 4)
bankrupt = ["Vincent"]            # who went bankrupt (scored nothing)

[players.Maria]
cash = 1320
deeds = ["Dark Blue 2", "Fishing Boat", 21]   # as named on the board, or space numbers
mortgaged = ["Brown 1"]                       # deeds face down
hideouts = { "Dark Blue 1" = 3, "Dark Blue 2" = 3 }
compounds = ["Red 1"]

[players.Johnny]
cash = 845
"""
_PLAYER_KEYS = {"cash", "deeds", "mortgaged", "hideouts", "compounds"}


class PositionError(MalformedAction):
    """A position that cannot be scored: the message says what to fix."""


def _space(board: Board, ref: Any, where: str) -> int:
    if isinstance(ref, int) and not isinstance(ref, bool):
        if not 0 <= ref < len(board.spaces):
            raise PositionError(f"{where}: there is no space {ref} (GO is 0)")
        index = ref
    elif isinstance(ref, str):
        found = [s.index for s in board.spaces if s.name.casefold() == ref.strip().casefold()]
        if not found and ref.strip().isdigit():
            return _space(board, int(ref), where)
        if not found:
            raise PositionError(f"{where}: no space is called {ref!r} on the board {board.name!r}")
        index = found[0]
    else:
        raise PositionError(f"{where}: {ref!r} is neither a space's name nor its number")
    if not board.spaces[index].is_property:
        raise PositionError(f"{where}: {board.spaces[index].name} is no property")
    return index


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise PositionError(f'{where} is a list, e.g. ["Dark Blue 2", 21]')
    return value


def _player(
    board: Board, name: str, data: Any, most: int, taken: dict[int, str]
) -> dict[int, Holding]:
    """One player's holdings; ``most`` Hideouts a location takes before its Compound."""
    if not isinstance(data, dict):
        raise PositionError(f"[players.{name}] is a table: cash = ..., deeds = [...]")
    unknown = set(data) - _PLAYER_KEYS
    if unknown:
        raise PositionError(
            f"[players.{name}]: unknown keys {', '.join(sorted(unknown))}; "
            f"use: {', '.join(sorted(_PLAYER_KEYS))}"
        )
    holdings: dict[int, Holding] = {}
    for key, mortgaged in (("deeds", False), ("mortgaged", True)):
        for ref in _list(data.get(key, []), f"{name}'s {key}"):
            i = _space(board, ref, f"{name}'s {key}")
            if i in taken:
                raise PositionError(
                    f"{board.spaces[i].name} is listed for {taken[i]} and "
                    f"{name}: a deed has one owner"
                )
            taken[i] = name
            holdings[i] = Holding(mortgaged=mortgaged)
    hideouts = data.get("hideouts", {})
    if not isinstance(hideouts, dict):
        raise PositionError(f'{name}\'s hideouts = {{ "Dark Blue 2" = 3 }}')
    built = [(ref, n) for ref, n in hideouts.items()] + [
        (ref, None) for ref in _list(data.get("compounds", []), f"{name}'s compounds")
    ]
    for ref, n in built:
        what = "hideouts" if n is not None else "compounds"
        i = _space(board, ref, f"{name}'s {what}")
        s = board.spaces[i]
        if s.kind is not Kind.LOCATION:
            raise PositionError(f"{name}: {s.name} is not a location and takes no buildings")
        h = holdings.get(i)
        if h is None or h.mortgaged:
            raise PositionError(
                f"{name}: {s.name} has buildings, so it must be in {name}'s deeds (unmortgaged)"
            )
        assert s.group is not None
        group = board.group(s.group)
        if not all(j in holdings and not holdings[j].mortgaged for j in group.spaces):
            raise PositionError(
                f"{name}: {s.name} has buildings, so {name} holds all of "
                f"{group.name} unmortgaged (Don't Wait for Your Turn 3)"
            )
        if n is None:
            if h.hideouts:
                raise PositionError(
                    f"{name}: {s.name} has a Compound and Hideouts: list it in one of the two"
                )
            holdings[i] = Holding(compound=True)
        elif not (isinstance(n, int) and 1 <= n <= most):
            raise PositionError(
                f"{name}: {s.name} = {n!r}: a location has 1 to {most} "
                "Hideouts (more is a Compound)"
            )
        elif h.compound:
            raise PositionError(f"{name}: {s.name} has a Compound and Hideouts")
        else:
            holdings[i] = Holding(hideouts=n)
    return holdings


def read_position(text: str, files: Files) -> dict[str, Any]:
    """Score the position ``text`` describes (format: :data:`EXAMPLE`)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PositionError(f"not valid TOML: {exc}") from None
    known = {"speed_play", "bankrupt", "players", "board"}
    unknown = set(data) - known
    if unknown:
        raise PositionError(
            f"unknown keys {', '.join(sorted(unknown))}; use: {', '.join(sorted(known))}"
        )
    players = data.get("players")
    if not isinstance(players, dict) or not players:
        raise PositionError(f"list each player under [players.Name], e.g.\n{EXAMPLE}")
    speed = data.get("speed_play", True)
    if not isinstance(speed, bool):
        raise PositionError("speed_play is true or false")
    board_ref = data.get("board")
    try:
        board = load_edition(files, board=board_ref if isinstance(board_ref, str) else None).board
    except (DataError, OSError) as exc:
        raise PositionError(f"the board: {exc}") from None
    bankrupt = _list(data.get("bankrupt", []), "bankrupt")
    if not all(isinstance(b, str) for b in bankrupt) or len(set(bankrupt)) != len(bankrupt):
        raise PositionError("bankrupt lists names, each once")
    per_compound = (
        board.bank.speed_hideouts_per_compound if speed else board.bank.hideouts_per_compound
    )
    taken: dict[int, str] = {}
    fortunes = {}
    built = [0, 0]  # Hideouts, Compounds on the board
    for name, entry in players.items():
        holdings = _player(board, name, entry, per_compound, taken)
        built[0] += sum(h.hideouts for h in holdings.values())
        built[1] += sum(h.compound for h in holdings.values())
        cash = entry.get("cash", 0)
        if not (isinstance(cash, int) and not isinstance(cash, bool) and cash >= 0):
            raise PositionError(f"{name}'s cash = {cash!r}: a whole number of dollars")
        if name in bankrupt and (holdings or cash):
            raise PositionError(
                f"{name} is bankrupt, so holds nothing: remove their cash and "
                "deeds, or take them off bankrupt"
            )
        fortunes[name] = fortune(board, cash, holdings, per_compound)
    for name in bankrupt:
        fortunes.setdefault(name, fortune(board, 0, {}, per_compound))
    for n, stock, what in (
        (built[0], board.bank.hideouts, "Hideouts"),
        (built[1], board.bank.compounds, "Compounds"),
    ):
        if n > stock:
            raise PositionError(f"{n} {what} are listed and the game has {stock}")
    if len(fortunes) - len(bankrupt) < 1:
        raise PositionError("at least one player must still be in")
    return scores(fortunes, list(bankrupt), speed, True, "a position typed in by hand")
