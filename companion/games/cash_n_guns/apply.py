"""``apply(state, action)``: the only way a game moves on.

Every check happens before anything changes, and a refused action raises instead of returning,
so a rejected action leaves the caller's state exactly as it was. Refusals name the manual's
section ("Game turn, 4. Godfather's Privilege") and the facts of the table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from companion.games.cash_n_guns.actions import (
    Action,
    Aim,
    ConfirmAim,
    CourageChoice,
    Discard,
    Flip,
    Load,
    Privilege,
    Take,
    TakeToken,
)
from companion.games.cash_n_guns.bullets import load
from companion.games.cash_n_guns.common import EFFECTS, END, require_alive
from companion.games.cash_n_guns.courage import courage
from companion.games.cash_n_guns.hold_up import aim, confirm_aim, privilege
from companion.games.cash_n_guns.sharing import discard, take, take_token
from companion.games.cash_n_guns.state import State
from companion.games.cash_n_guns.turn import flip, new_game
from companion.protocol.errors import MalformedAction, RuleViolation

__all__ = ["apply", "new_game"]


def apply(state: State, action: Action) -> State:
    """The state after ``action``, or :class:`RuleViolation` / :class:`MalformedAction`."""
    if not isinstance(action, Action):
        raise MalformedAction(f"not an action: {action!r}")
    seat = state.seat(action.player)
    if state.is_over:
        raise RuleViolation(END, "the game is over: nothing more can be played")
    require_alive(state, seat, EFFECTS)
    return replace(_HANDLERS[type(action)](state, seat, action), moves=state.moves + 1)


_HANDLERS: dict[type[Action], Callable[[State, int, Any], State]] = {
    Flip: flip,
    Load: load,
    Aim: aim,
    ConfirmAim: confirm_aim,
    Privilege: privilege,
    CourageChoice: courage,
    Take: take,
    TakeToken: take_token,
    Discard: discard,
}
