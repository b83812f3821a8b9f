"""The registry: every game the companion referees, by the id its records carry.

Each game is a package beside this file implementing :class:`companion.protocol.Game`; adding
one is a line here (see docs/architecture.md). Nothing in a game imports this module.
"""

from __future__ import annotations

from typing import Any

from companion.games.cash_n_guns import CASH_N_GUNS
from companion.games.gangster_dice import GANGSTER_DICE
from companion.games.godfather_1971 import GODFATHER_1971
from companion.games.monopoly import MONOPOLY
from companion.games.new_don import NEW_DON
from companion.protocol import Game, MalformedAction

AnyGame = Game[Any, Any, Any]

DEFAULT = NEW_DON.id  # a record whose setup line names no game is A New Don's (the first one)
# The ids are fixed: records and saved games name them.
PLANNED = ("new-don", "gangster-dice", "cash-n-guns", "monopoly-godfather", "godfather-1971")

_SHIPPED: tuple[AnyGame, ...] = (NEW_DON, GANGSTER_DICE, CASH_N_GUNS, GODFATHER_1971, MONOPOLY)
_GAMES: dict[str, AnyGame] = {g.id: g for g in _SHIPPED}


def games() -> list[AnyGame]:
    """Every game this companion referees, in the order people see them."""
    return list(_GAMES.values())


def game(game_id: str) -> AnyGame:
    """The game with this id; :class:`MalformedAction` naming the ones there are."""
    found = _GAMES.get(game_id)
    if found is None:
        raise MalformedAction(
            f"no game {game_id!r} here; the companion referees: {', '.join(_GAMES)}"
        )
    return found


def game_of_setup(data: object) -> AnyGame:
    """The game a record's setup line is for (``"game"``, A New Don when absent)."""
    game_id = data.get("game", DEFAULT) if isinstance(data, dict) else DEFAULT
    if not isinstance(game_id, str):
        raise MalformedAction('"game" must be a game id such as "new-don"')
    return game(game_id)


def register(new: AnyGame) -> None:
    """Add a game (a test's tiny game, a plug-in); an id already taken is refused."""
    if new.id in _GAMES and _GAMES[new.id] is not new:
        raise ValueError(f"a game {new.id!r} is already registered")
    _GAMES[new.id] = new


def unregister(game_id: str) -> None:
    """Remove a game added with :func:`register` (tests clean up after themselves)."""
    if game_id == DEFAULT:
        raise ValueError("A New Don cannot be removed")
    _GAMES.pop(game_id, None)
