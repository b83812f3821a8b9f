"""2. Choice of the Bullet card: "Each player secretly chooses a Bullet card (either a Click,
or a Bang!) and places it face-down in front of them. ... each card can only be used once!"

The card leaves the hand as it goes down, so it can never be chosen again; the guns are aimed
(3.) once every living player's card is down.
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.cash_n_guns.actions import Bullet, Load
from companion.games.cash_n_guns.common import BULLET, require_phase
from companion.games.cash_n_guns.state import Phase, State
from companion.protocol.errors import RuleViolation


def load(state: State, seat: int, action: Load) -> State:
    require_phase(state, BULLET, "choosing a Bullet card", Phase.BULLETS)
    p = state.players[seat]
    if p.loaded is not None:
        raise RuleViolation(BULLET, f"{p.name} has already put a Bullet card face-down this turn")
    if not p.holds(action.card):
        raise RuleViolation(
            BULLET,
            f"you hold no {action.card.label} card: each card can only be used once "
            f"(your hand: {p.bangs} Bang!, {p.clicks} Click)",
        )
    if action.card is Bullet.BANG:
        state = state.with_player(seat, replace(p, bangs=p.bangs - 1, loaded=action.card))
    else:
        state = state.with_player(seat, replace(p, clicks=p.clicks - 1, loaded=action.card))
    if all(state.players[s].loaded is not None for s in state.alive):
        state = replace(state, phase=Phase.HOLD_UP)
    return state
