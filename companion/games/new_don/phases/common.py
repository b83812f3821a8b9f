"""What every phase shares: the rule each phase cites, and small checks and changes."""

from __future__ import annotations

from dataclasses import replace
from typing import TypeVar

from companion.games.new_don.dice import take
from companion.games.new_don.state import Phase, PlayerState, State
from companion.protocol.errors import MalformedAction, RuleViolation

PHASE_RULE = {
    Phase.SETUP: "Setup",
    Phase.VEGAS: "Vegas",
    Phase.ROLL: "Roll",
    Phase.OFFER: "Offer",
    Phase.RESOLUTION: "Resolution",
    Phase.GAME_OVER: "Game End",
}

T = TypeVar("T")


# --- small helpers -------------------------------------------------------------------------


def require_phase(state: State, phase: Phase, what: str) -> None:
    if state.phase is not phase:
        raise RuleViolation(
            PHASE_RULE[phase],
            f"it is the {state.phase.value.replace('_', ' ')} phase: {what} only in the "
            f"{phase.value} phase",
        )


def check_face(value: int, what: str) -> None:
    if not 1 <= value <= 6:
        raise MalformedAction(f"{what} must be a die face 1-6, not {value}")


def dice_text(values: tuple[int, ...] | list[int]) -> str:
    return "-".join(str(v) for v in sorted(values)) if values else "no dice"


def pool_text(p: PlayerState) -> str:
    return dice_text([d.face for d in p.dice])


def spend(state: State, seat: int, values: tuple[int, ...], for_sets: bool, rule: str) -> State:
    p = state.players[seat]
    if not values:
        raise RuleViolation(rule, "name the dice to spend")
    rest = take(p.dice, values, for_sets)
    if rest is None:
        restricted = take(p.dice, values, True) is not None
        if restricted:
            raise RuleViolation(
                "Appendix: Free Reroll",
                f"{p.name}'s dice {dice_text(values)} include dice rerolled by the Free Reroll "
                "favor, which can only be used to make sets",
            )
        raise RuleViolation(
            rule, f"{p.name} does not have {dice_text(values)}; the dice left are {pool_text(p)}"
        )
    return state.with_player(seat, dice=rest)


def place_on_favor(state: State, seat: int, spot: int) -> State:
    """A soldier from the House to a Favor spot; an empty House follows the house rule."""
    p = state.players[seat]
    i = state.board.favor_spots.index(spot)
    tokens = p.favor_tokens[:i] + (p.favor_tokens[i] + 1,) + p.favor_tokens[i + 1 :]
    if p.house > 0:
        return state.with_player(seat, house=p.house - 1, favor_tokens=tokens)
    if state.rules.empty_house == "from_vegas" and seat in state.vegas:
        j = state.vegas.index(seat)
        vegas = state.vegas[:j] + (None,) + state.vegas[j + 1 :]
        return replace(state.with_player(seat, favor_tokens=tokens), vegas=vegas)
    return state  # nothing to place: the favor is lost (house rule "empty_house")


def need_soldier(state: State, seat: int, rule: str) -> None:
    p = state.players[seat]
    if p.house == 0:
        raise RuleViolation(rule, f"{p.name}'s House is empty: there is no soldier to place")


def replace_at(t: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    return t[:i] + (value,) + t[i + 1 :]
