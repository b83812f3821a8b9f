"""A Monopoly table as it stands, set up in a few lines (as FEN does for chess), so each test
reads like the rulebook's example it checks.

``table()`` starts a real game through the protocol (the first player named has the dice, no
Don cards unless asked); ``arrange()`` puts money, deeds, buildings and tokens where the
example has them; ``play()`` applies actions written as the record writes them.
"""

from __future__ import annotations

from typing import Any

from companion.gamefiles import GameFiles
from companion.games.monopoly import MONOPOLY, HouseRules, Setup, State, action_from_dict
from companion.games.monopoly.flow import start_turn
from companion.games.monopoly.state import Holding
from companion.protocol import RuleViolation, Seat

FILES = GameFiles(MONOPOLY)

# Spaces by number (the names are placeholders; the classic game's names in comments).
GO, JAIL, FREE_PARKING, GO_TO_JAIL = 0, 10, 20, 30
BROWN_1, BROWN_2 = 1, 3  # Mediterranean, Baltic: $60
FRIENDS_1, ENEMIES_1 = 2, 7  # Community Chest, Chance
LEGIT_TAX, BRIBERY = 4, 38  # Income Tax $200, Luxury Tax $100
FISHING_BOAT, GETAWAY_CAR, DELIVERY_TRUCK, PASSENGER_TRAIN = 5, 15, 25, 35
LIGHT_BLUE = (6, 8, 9)
PINK = (11, 13, 14)
COPS, POLITICIANS = 12, 28
ORANGE = (16, 18, 19)
RED = (21, 23, 24)
YELLOW = (26, 27, 29)
GREEN = (31, 32, 34)
DARK_BLUE_1, DARK_BLUE_2 = 37, 39  # Park Place $350, Boardwalk $400
DARK_BLUE = (37, 39)


def table(*names: str, deeds: dict[str, tuple[int, ...]] | None = None, **options: Any) -> State:
    """A game between ``names`` (Maria and Johnny when none), past setup: the first named
    has the dice. House rules as keyword arguments; in Speed Play, ``deeds`` says who was dealt
    which three Title Deeds."""
    names = names or ("Maria", "Johnny")
    opts = {"first_player": "first_seat", "don_cards": False, **options}
    setup = Setup(tuple(Seat(n) for n in names), HouseRules(**opts))
    state = MONOPOLY.new_game(setup, FILES)
    for name, spaces in (deeds or {}).items():
        for space in spaces:
            state = act(state, "take_deed", player=name, space=space)
    return state


def arrange(
    state: State,
    *,
    cash: dict[str, int] | None = None,
    at: dict[str, int] | None = None,
    own: dict[str, tuple[int, ...] | list[int]] | None = None,
    mortgaged: tuple[int, ...] = (),
    hideouts: dict[int, int] | None = None,
    compounds: tuple[int, ...] = (),
    jail: tuple[str, ...] = (),
    cards: dict[str, tuple[str, ...]] | None = None,
    turn: str | None = None,
) -> State:
    """Put the table in a position: cash, token positions, deeds (with their mortgages and
    buildings), players in Jail, Get Out of Jail Free cards, and whose dice it is."""
    for name, amount in (cash or {}).items():
        state = state.with_player(state.seat(name), cash=amount)
    for name, space in (at or {}).items():
        state = state.with_player(state.seat(name), position=space)
    for name, spaces in (own or {}).items():
        for space in spaces:
            state = state.with_holding(space, owner=state.seat(name))
    for space in mortgaged:
        state = state.with_holding(space, mortgaged=True)
    for space, n in (hideouts or {}).items():
        state = state.with_holding(space, hideouts=n)
    for space in compounds:
        state = state.with_holding(space, compound=True, hideouts=0)
    for name in jail:
        state = state.with_player(state.seat(name), in_jail=True, position=JAIL)
    for name, held in (cards or {}).items():
        state = state.with_player(state.seat(name), jail_cards=tuple(held))
    if turn is not None or jail:
        state = start_turn(state, state.seat(turn) if turn else state.turn)
    return state


def act(state: State, line: dict[str, Any] | str, **fields: Any) -> State:
    """Apply one action: a record line, or its type and fields (``act(s, "buy", player=...)``)."""
    data = {"type": line, **fields} if isinstance(line, str) else line
    return MONOPOLY.apply(state, action_from_dict(data))


def roll(state: State, player: str, a: int, b: int) -> State:
    return act(state, "roll", player=player, dice=[a, b])


def refused(state: State, line: dict[str, Any] | str, **fields: Any) -> RuleViolation:
    """The refusal of an action the rules forbid (the test fails if it is accepted)."""
    try:
        act(state, line, **fields)
    except RuleViolation as exc:
        return exc
    raise AssertionError(f"{line} {fields} was accepted")


def cash(state: State, name: str) -> int:
    return state.players[state.seat(name)].cash


def holding(state: State, space: int) -> Holding:
    return state.holding(space)


def owner(state: State, space: int) -> str | None:
    h = state.holding(space).owner
    return state.name(h) if h is not None else None


def doing(state: State) -> list[tuple[str, str]]:
    """Who the game waits on, and for what."""
    return [(w.player, w.does) for w in MONOPOLY.waiting_for(state)]
