"""Vegas: the Godfather rolls the red dice; winning bets take them, locked or to be rolled."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from companion.games.new_don.actions import KeepVegas, VegasRoll
from companion.games.new_don.dice import Die
from companion.games.new_don.phases.common import dice_text, require_phase
from companion.games.new_don.phases.roll import start_roll_phase
from companion.games.new_don.state import Phase, State
from companion.protocol.errors import MalformedAction, RuleViolation


def vegas_roll(state: State, seat: int, a: VegasRoll) -> State:
    if state.phase is Phase.ROLL and state.round == 1:
        raise RuleViolation(
            "Vegas",
            "round 1 has no Vegas phase: the red dice are first rolled "
            "in round 2 (skip on the first turn)",
        )
    if state.phase is Phase.ROLL and nobody_in_vegas(state):
        _check_vegas_roll(state, seat, a)
        return replace(state, vegas_faces=tuple(a.faces))  # the table's roll: nothing is won
    require_phase(state, Phase.VEGAS, "the red dice are rolled")
    _check_vegas_roll(state, seat, a)
    state = replace(state, vegas_faces=tuple(a.faces))
    vegas = list(state.vegas)
    for i, (number, owner) in enumerate(zip(state.board.vegas_spots, state.vegas, strict=True)):
        won = tuple(f for f in a.faces if f == number)
        if owner is None or not won:
            continue
        p = state.players[owner]
        state = state.with_player(
            owner, vegas_taken=p.vegas_taken + won, vegas_pending=True, house=p.house + 1
        )
        vegas[i] = None
    state = replace(state, vegas=tuple(vegas))
    if not any(p.vegas_pending for p in state.players):
        return start_roll_phase(state)
    return state


def nobody_in_vegas(state: State) -> bool:
    """Nobody has a soldier in Vegas, so the phase is skipped: nothing could happen. The
    rulebook's round still starts with "1. Vegas: The Godfather rolls Vegas dice (skip on the
    first turn)", so a table may roll the red dice anyway: that roll is accepted and recorded
    during the Roll phase, and wins nothing."""
    return all(s is None for s in state.vegas)


def _check_vegas_roll(state: State, seat: int, a: VegasRoll) -> None:
    if seat != state.godfather:
        raise RuleViolation(
            "Vegas",
            f"the Godfather, {state.name(state.godfather_seat)}, rolls the Vegas dice",
        )
    if state.vegas_faces:
        raise RuleViolation(
            "Vegas", f"the Vegas dice were already rolled: {dice_text(state.vegas_faces)}"
        )
    if len(a.faces) != state.board.vegas_dice:
        raise MalformedAction(
            f"the Vegas roll has {state.board.vegas_dice} dice, not {len(a.faces)}"
        )


def keep_vegas(state: State, seat: int, a: KeepVegas) -> State:
    require_phase(state, Phase.VEGAS, "Vegas dice are locked")
    p = state.players[seat]
    if not p.vegas_pending:
        if not state.vegas_faces:
            raise RuleViolation("Vegas", "the Godfather has not rolled the Vegas dice yet")
        raise RuleViolation("Vegas", f"{p.name} has no Vegas dice waiting to be kept or rolled")
    if Counter(a.lock) - Counter(p.vegas_taken):
        raise RuleViolation(
            "Vegas", f"{p.name} took {dice_text(p.vegas_taken)} from Vegas and can lock only those"
        )
    state = state.with_player(
        seat,
        locked=tuple(sorted(a.lock)),
        vegas_pending=False,
        dice=p.dice + tuple(Die(f) for f in sorted(a.lock)),
    )
    if not any(q.vegas_pending for q in state.players):
        return start_roll_phase(state)
    return state
