"""What every part of the rules shares: recording what happened by itself, and changing one
player."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.games.gangster_dice.state import Happening, PlayerState, State


def note(state: State, *happenings: Happening) -> State:
    """``state`` having recorded what just happened (the narration reads it)."""
    return replace(state, happened=(*state.happened, *happenings))


def with_player(state: State, seat: int, **changes: Any) -> State:
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)
    return replace(state, players=tuple(players))


def update_player(state: State, seat: int, player: PlayerState) -> State:
    players = list(state.players)
    players[seat] = player
    return replace(state, players=tuple(players))


def removed(values: tuple[int, ...], taken: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """``values`` (a sorted hand) less one card for each of ``taken`` (all present)."""
    out = list(values)
    for v in taken:
        out.remove(v)
    return tuple(out)
