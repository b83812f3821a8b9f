"""Clean up: muscle reorganized, the new Godfather, dice refreshed, the game's end."""

from __future__ import annotations

from dataclasses import replace

from companion.games.new_don.phases.roll import start_roll_phase
from companion.games.new_don.state import Phase, State


def end_turn(state: State) -> State:
    nxt = state.left_of(state.turn_seat)
    if nxt != state.godfather:
        return replace(state, turn=nxt)
    return clean_up(state)


def clean_up(state: State) -> State:
    """Clean up: reorganize muscle, appoint the Godfather, refresh dice, check the game end."""
    track = state.board.muscle_track
    on_track = sorted(
        (i for i, p in enumerate(state.players) if p.muscle != track.ZERO_ZONE),
        key=lambda i: state.players[i].muscle,
    )
    muscle = [p.muscle for p in state.players]
    for rank, i in enumerate(on_track):
        muscle[i] = rank + 1  # slide left, keeping order: A, B, C...
    if on_track:
        godfather = on_track[-1]
        muscle[godfather] = track.godfather_position  # the red 3
    elif state.rules.empty_track_godfather == "seat_left":
        godfather = state.left_of(state.godfather_seat)
    else:
        godfather = state.godfather_seat
    players = tuple(
        replace(
            p,
            muscle=muscle[i],
            dice=(),
            to_roll=0,
            to_roll_sets_only=False,
            rolled=False,
            favor=None,
            vegas_taken=(),
            locked=(),
            vegas_pending=False,
            collected=(),
            absent=(),
            gave=None,
        )
        for i, p in enumerate(state.players)
    )
    state = replace(
        state,
        players=players,
        godfather=godfather,
        turn=None,
        vegas_faces=(),
    )
    if game_end_reason(state):
        return replace(state, phase=Phase.GAME_OVER)
    state = replace(state, round=state.round + 1)
    if any(s is not None for s in state.vegas):
        return replace(state, phase=Phase.VEGAS)
    # Nobody bet on Vegas: nothing to roll for (a roll the table makes anyway is still taken,
    # phases/vegas.py).
    return start_roll_phase(state)


def game_end_reason(state: State) -> str | None:
    """Why the game ends at this round's end, or None (Game End)."""
    board = state.board
    for d in board.districts:
        idx = board.in_district(d.face)
        if idx and all(state.neighborhoods[i] is not None for i in idx):
            return f"{d.name} is full"
    for p in state.players:
        if p.house == 0:
            return f"{p.name}'s House is empty"
    return None
