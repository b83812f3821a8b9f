"""Engine scenario helpers (tests import this module): a table as it stands, like a FEN.

``table()`` plays a real setup through the engine; ``arrange()`` then puts soldiers, muscle
and dice where a rulebook example has them, so each test reads like the example it checks.
"""

from __future__ import annotations

from dataclasses import replace

from new_don_boards import shipped_board

from companion.games.new_don import (
    GodfatherRoll,
    HouseRules,
    Phase,
    Seat,
    Setup,
    State,
    apply,
    new_game,
)
from companion.games.new_don.dice import Die

NAMES = ("Maria", "Johnny", "Claire", "Vincent")


def table(names=NAMES, godfather: str = "Maria", rules: HouseRules | None = None) -> State:
    """A game just past Setup: ``godfather`` rolled highest; round 1, Roll phase."""
    board = shipped_board("3-4" if len(names) <= 4 else "5-6")
    state = new_game(Setup(tuple(Seat(n) for n in names), None, rules or HouseRules()), board)
    others = iter((5, 4, 3, 2, 1))
    for n in names:
        state = apply(state, GodfatherRoll(n, 6 if n == godfather else next(others)))
    assert state.phase is Phase.ROLL
    return state


def muscle_pos(state: State, label: str) -> int:
    track = state.board.muscle_track
    if label == "Zero Zone":
        return track.ZERO_ZONE
    if label in track.letters:
        return track.letters.index(label) + 1
    return track.number(int(label))


def arrange(
    state: State,
    *,
    phase: Phase | None = None,
    turn: str | None = None,
    dice: dict[str, list[int]] | None = None,
    muscle: dict[str, str] | None = None,
    held: dict[str, str] | None = None,
    favors: dict[str, dict[int, int]] | None = None,
    vegas: dict[int, str] | None = None,
    house: dict[str, int] | None = None,
) -> State:
    """Put the table in a given position. Soldiers placed on the map, favors and Vegas come
    out of the House, so the soldier count stays true."""
    if phase is not None:
        state = replace(state, phase=phase)
    if turn is not None:
        state = replace(state, turn=state.seat(turn), phase=Phase.RESOLUTION)
        state = replace(
            state, players=tuple(replace(p, to_roll=0, rolled=True) for p in state.players)
        )
    for name, faces in (dice or {}).items():
        state = state.with_player(
            state.seat(name), dice=tuple(Die(f) for f in faces), rolled=True, to_roll=0
        )
    for name, label in (muscle or {}).items():
        state = state.with_player(state.seat(name), muscle=muscle_pos(state, label))
    hoods = list(state.neighborhoods)
    for nid, name in (held or {}).items():
        seat = state.seat(name)
        hoods[state.board.index(nid)] = seat
        state = state.with_player(seat, house=state.players[seat].house - 1)
    state = replace(state, neighborhoods=tuple(hoods))
    for name, spots in (favors or {}).items():
        seat = state.seat(name)
        p = state.players[seat]
        tokens = [0] * len(p.favor_tokens)
        for spot, n in spots.items():
            tokens[state.board.favor_spots.index(spot)] = n
        moved = sum(tokens) - sum(p.favor_tokens)
        state = state.with_player(seat, favor_tokens=tuple(tokens), house=p.house - moved)
    spots = list(state.vegas)
    for number, name in (vegas or {}).items():
        seat = state.seat(name)
        spots[state.board.vegas_spots.index(number)] = seat
        state = state.with_player(seat, house=state.players[seat].house - 1)
    state = replace(state, vegas=tuple(spots))
    for name, n in (house or {}).items():
        state = state.with_player(state.seat(name), house=n)
    return state


def faces(state: State, name: str) -> list[int]:
    return sorted(d.face for d in state.players[state.seat(name)].dice)


def favor_spots(state: State, name: str) -> dict[int, int]:
    p = state.players[state.seat(name)]
    return {s: n for s, n in zip(state.board.favor_spots, p.favor_tokens, strict=True) if n}


def soldiers_total(state: State, name: str) -> int:
    return sum(state.soldiers(state.seat(name)).values())
