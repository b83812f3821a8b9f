"""3. Hold-Up and 4. Godfather's Privilege: who aims at whom, and the Godfather's order.

"On three, each player must hold at gunpoint another player": the guns are real foam guns, so
the companion is *told* where they point, by each player's phone or by the table recording
every gun with a few taps (``Aim.by``). The table's entry stands, and the player's phone may
confirm or correct it until the Godfather uses his privilege; the house rule
``aim_confirmation = "required"`` makes the privilege wait for every phone's confirmation.

"Once each player has chosen a target, the Godfather can order another player to change
target. The chosen player must choose a different target."
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.cash_n_guns.actions import Aim, AimedBy, ConfirmAim, Privilege
from companion.games.cash_n_guns.common import HOLD_UP, PRIVILEGE, require_alive, require_phase
from companion.games.cash_n_guns.state import Gun, Phase, State
from companion.protocol.errors import RuleViolation


def targets(state: State, seat: int) -> list[int]:
    """Whom ``seat`` may hold up: "another player", alive."""
    return [s for s in state.alive if s != seat]


def new_targets(state: State, seat: int) -> list[int]:
    """Where the player the Godfather ordered may aim: "a different target"."""
    assert state.order is not None
    return [s for s in targets(state, seat) if s != state.order[1]]


def may_be_ordered(state: State, seat: int) -> bool:
    """Whether the Godfather may order ``seat`` to change target: another player, holding
    someone up, with someone else to aim at."""
    gun = state.players[seat].gun
    return (
        seat != state.godfather
        and not state.players[seat].dead
        and gun is not None
        and gun.target is not None
        and any(s != gun.target for s in targets(state, seat))
    )


def unaimed(state: State) -> list[int]:
    return [s for s in state.alive if state.players[s].gun is None]


def unconfirmed(state: State) -> list[int]:
    """The guns the table recorded that still wait for their holder's confirmation, when
    the house rule demands it."""
    if state.rules.aim_confirmation != "required":
        return []
    return [
        s for s in state.alive if (gun := state.players[s].gun) is not None and not gun.confirmed
    ]


def aim(state: State, seat: int, action: Aim) -> State:
    require_phase(state, HOLD_UP, "aiming a gun", Phase.HOLD_UP, Phase.CHANGE_TARGET)
    name = state.name(seat)
    target = None if action.target is None else state.seat(action.target)
    if target is not None:
        if target == seat:
            raise RuleViolation(
                HOLD_UP, f"{name} must hold up another player, not themselves", public=None
            )
        require_alive(state, target, HOLD_UP)
    gun = Gun(target, action.by, confirmed=action.by is AimedBy.SELF)
    if state.phase is Phase.HOLD_UP:
        return state.with_player(seat, replace(state.players[seat], gun=gun))
    assert state.order is not None
    ordered, had = state.order
    if seat != ordered:
        raise RuleViolation(
            PRIVILEGE,
            f"only {state.name(ordered)}, whom the Godfather "
            "ordered, changes target now; every other gun stays where it is",
        )
    if target is None:
        raise RuleViolation(
            PRIVILEGE, f"{name} was ordered to choose a different target, not to hold nobody up"
        )
    if target == had:
        raise RuleViolation(
            PRIVILEGE, f"{name} must choose a different target than {state.name(had)}"
        )
    return _after_change(state.with_player(seat, replace(state.players[seat], gun=gun)))


def confirm_aim(state: State, seat: int, action: ConfirmAim) -> State:
    require_phase(state, HOLD_UP, "confirming an aim", Phase.HOLD_UP, Phase.CHANGE_TARGET)
    name = state.name(seat)
    gun = state.players[seat].gun
    if state.phase is Phase.CHANGE_TARGET:
        assert state.order is not None
        if seat != state.order[0]:
            raise RuleViolation(
                PRIVILEGE,
                "the Godfather has used his privilege: only "
                f"{state.name(state.order[0])}'s gun can still change",
            )
        if gun is not None and gun.target == state.order[1]:
            raise RuleViolation(PRIVILEGE, f"{name} must first aim at a different target")
    if gun is None:
        raise RuleViolation(HOLD_UP, f"no aim is recorded for {name} yet: nothing to confirm")
    if gun.confirmed:
        raise RuleViolation(HOLD_UP, f"{name}'s aim is already confirmed")
    state = state.with_player(seat, replace(state.players[seat], gun=replace(gun, confirmed=True)))
    return _after_change(state) if state.phase is Phase.CHANGE_TARGET else state


def privilege(state: State, seat: int, action: Privilege) -> State:
    require_phase(state, PRIVILEGE, "the Godfather's privilege", Phase.HOLD_UP)
    if seat != state.godfather:
        raise RuleViolation(
            PRIVILEGE,
            f"the privilege is the Godfather's "
            f"({state.name(state.godfather)}), not {state.name(seat)}'s",
        )
    waiting = unaimed(state)
    if waiting:
        raise RuleViolation(
            PRIVILEGE,
            "the privilege comes 'once each player has chosen a "
            f"target': no aim is recorded yet for "
            f"{', '.join(state.name(s) for s in waiting)}",
        )
    waiting = unconfirmed(state)
    if waiting:
        raise RuleViolation(
            HOLD_UP,
            "the table plays with every aim confirmed on its "
            "holder's phone (house rule aim_confirmation): waiting for "
            f"{', '.join(state.name(s) for s in waiting)}",
        )
    if action.order is None:
        return replace(state, phase=Phase.COURAGE)
    ordered = state.seat(action.order)
    if ordered == seat:
        raise RuleViolation(
            PRIVILEGE, "the Godfather orders another player to change target, not himself"
        )
    require_alive(state, ordered, PRIVILEGE)
    gun = state.players[ordered].gun
    assert gun is not None
    if gun.target is None:
        raise RuleViolation(
            PRIVILEGE, f"{action.order} holds nobody up: there is no target to change"
        )
    if not may_be_ordered(state, ordered):
        raise RuleViolation(
            PRIVILEGE,
            f"{action.order} has nobody else to aim at: "
            f"{state.name(gun.target)} is the only other player alive",
        )
    return replace(state, phase=Phase.CHANGE_TARGET, order=(ordered, gun.target))


def _after_change(state: State) -> State:
    """The ordered player's new aim is in (and confirmed if the table wants it): courage."""
    assert state.order is not None
    ordered, had = state.order
    gun = state.players[ordered].gun
    if gun is None or gun.target in (None, had) or unconfirmed(state):
        return state
    return replace(state, phase=Phase.COURAGE)
