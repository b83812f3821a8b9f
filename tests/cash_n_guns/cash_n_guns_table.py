"""A table of Ca$h 'n Guns as it stands, in a few lines (as FEN does for chess): ``table()``
plays a real setup and flip through the engine, ``arrange()`` puts wounds, hands and loot
where an example has them, and ``turn()`` plays steps 2 to 6 from dicts of who does what."""

from __future__ import annotations

from dataclasses import replace

from companion.gamefiles import GameFiles
from companion.games.cash_n_guns import (
    CASH_N_GUNS,
    Aim,
    AimedBy,
    Bullet,
    Courage,
    CourageChoice,
    Flip,
    HouseRules,
    Load,
    Privilege,
    Setup,
    State,
    Take,
    TakeToken,
    apply,
    new_game,
)
from companion.games.cash_n_guns.box_file import load_box
from companion.protocol import Seat

FILES = GameFiles(CASH_N_GUNS)
BOX = load_box(None, FILES)
NAMES = ("Maria", "Johnny", "Claire", "Vincent")
LOOT = (
    "bill-5000",
    "bill-10000",
    "bill-20000",
    "diamond-1000",
    "diamond-5000",
    "painting",
    "painting",
    "bill-5000",
)
BANG, CLICK = Bullet.BANG, Bullet.CLICK
BANZAI, DOWN = Courage.BANZAI, Courage.LIE_DOWN


def play(state: State, *actions) -> State:
    for a in actions:
        state = apply(state, a)
    return state


def start(names=NAMES, godfather: str | None = None, **rules: str) -> State:
    """Turn 1 before any Loot card is flipped."""
    return new_game(Setup(tuple(Seat(n) for n in names), HouseRules(**rules), godfather), BOX)


def table(names=NAMES, godfather: str | None = None, loot=LOOT, **rules: str) -> State:
    """Turn 1 with the Loot on offer: everyone is to choose a Bullet card."""
    state = start(names, godfather, **rules)
    return flip(state, loot)


def flip(state: State, loot=LOOT) -> State:
    return apply(state, Flip(state.name(state.godfather), tuple(loot)))


def arrange(state: State, **changes: dict) -> State:
    """Per-player changes, e.g. ``wounds={"Maria": 2}``, ``hand={"Maria": (bangs, clicks)}``,
    ``loot={"Maria": ("painting",)}``, ``dead={"Johnny": True}``."""
    for field, per_player in changes.items():
        for name, value in per_player.items():
            seat = state.seat(name)
            p = state.players[seat]
            if field == "hand":
                state = state.with_player(seat, replace(p, bangs=value[0], clicks=value[1]))
            else:
                state = state.with_player(seat, replace(p, **{field: value}))
    return state


def load_all(state: State, cards: dict[str, Bullet] | None = None) -> State:
    """2.: everyone alive puts a card down (a Click unless ``cards`` says otherwise)."""
    cards = cards or {}
    for s in state.alive:
        name = state.name(s)
        state = apply(state, Load(name, cards.get(name, CLICK)))
    return state


def aim_all(state: State, aims: dict[str, str | None], by: AimedBy = AimedBy.SELF) -> State:
    for shooter, target in aims.items():
        state = apply(state, Aim(shooter, target, by))
    return state


def choose(state: State, courage: dict[str, Courage] | None = None) -> State:
    """5.: everyone alive chooses (Banzai unless ``courage`` says otherwise)."""
    courage = courage or {}
    for s in state.alive:
        name = state.name(s)
        state = apply(state, CourageChoice(name, courage.get(name, BANZAI)))
    return state


def turn(
    state: State,
    aims: dict[str, str | None],
    cards: dict[str, Bullet] | None = None,
    courage: dict[str, Courage] | None = None,
    order: tuple[str, str] | None = None,
) -> State:
    """Steps 2 to 6: cards down, guns aimed, the privilege (``order``: who, and their new
    target), courage; the state after the card effects."""
    state = aim_all(load_all(state, cards), aims)
    godfather = state.name(state.godfather)
    if order is None:
        state = apply(state, Privilege(godfather, None))
    else:
        state = play(state, Privilege(godfather, order[0]), Aim(order[0], order[1]))
    return choose(state, courage)


def take(state: State, *shares: str) -> State:
    """7.: the shares in order; each is a card id or "token"; the sharer takes it."""
    for card in shares:
        who = state.name(state.sharer)
        state = apply(state, TakeToken(who) if card == "token" else Take(who, card))
    return state


def seated(state: State, name: str):
    return state.players[state.seat(name)]


def with_rules(state: State, **rules: str) -> State:
    return replace(state, rules=replace(state.rules, **rules))
