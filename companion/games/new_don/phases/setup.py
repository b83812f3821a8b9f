"""Setup: the roll for the first Godfather (ties roll again), and the favors it gives."""

from __future__ import annotations

from dataclasses import replace

from companion.games.new_don.actions import GodfatherRoll
from companion.games.new_don.phases.common import check_face, place_on_favor, require_phase
from companion.games.new_don.phases.roll import start_roll_phase
from companion.games.new_don.state import Phase, State
from companion.protocol.errors import RuleViolation


def godfather_roll(state: State, seat: int, a: GodfatherRoll) -> State:
    require_phase(state, Phase.SETUP, "rolling for the first Godfather happens")
    check_face(a.face, "face")
    faces = dict(state.rolloff)
    if seat not in faces:
        leaders = ", ".join(state.name(s) for s in faces)
        raise RuleViolation("Setup", f"only {leaders} roll again: they tied for the highest roll")
    if faces[seat] is not None:
        raise RuleViolation("Setup", f"{state.name(seat)} has already rolled {faces[seat]}")
    faces[seat] = a.face
    if any(f is None for f in faces.values()):
        return replace(state, rolloff=tuple(faces.items()))
    best = max(f for f in faces.values() if f is not None)
    tied = [s for s, f in faces.items() if f == best]
    if len(tied) > 1:
        return replace(state, rolloff=tuple((s, None) for s in tied))
    godfather = tied[0]
    state = replace(state, rolloff=(), godfather=godfather)
    for s in range(len(state.players)):
        if s != godfather:
            state = place_on_favor(state, s, 6)
    return start_roll_phase(state)
