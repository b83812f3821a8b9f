"""Resolution D and the Appendix: using the Favor track's abilities."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from companion.games.new_don.actions import UseFavor
from companion.games.new_don.board import ABILITY_TEXT, Ability
from companion.games.new_don.dice import Die
from companion.games.new_don.phases.common import (
    check_face,
    pool_text,
    replace_at,
    require_phase,
    spend,
)
from companion.games.new_don.phases.resolution import my_turn, neighborhood_index
from companion.games.new_don.state import Phase, State
from companion.protocol.errors import MalformedAction, RuleViolation


def use_favor(state: State, seat: int, a: UseFavor) -> State:
    require_phase(state, Phase.RESOLUTION, "favors are used")
    p = my_turn(state, seat, "Resolution D")
    if seat == state.godfather:
        raise RuleViolation("Resolution A", f"{p.name} is the Godfather, who cannot use favors")
    if a.spot not in state.board.favor_spots:
        raise MalformedAction(f"there is no Favor spot {a.spot}")
    if state.favor_count(seat, a.spot) == 0:
        raise RuleViolation(
            "Resolution D.i", f"{p.name} has no soldier on Favor spot {a.spot} to use"
        )
    state = _FAVOR_EFFECTS[_ability(state, a)](state, seat, a)
    # The soldier goes home: Resolution D.i.
    q = state.players[seat]
    spot = state.board.favor_spots.index(a.spot)
    return state.with_player(
        seat,
        house=q.house + 1,
        favor_tokens=replace_at(q.favor_tokens, spot, q.favor_tokens[spot] - 1),
    )


def _ability(state: State, a: UseFavor) -> Ability:
    """The ability printed on the spot, or on the "any" spot the one the player names."""
    printed = state.board.ability(a.spot)
    if printed is not Ability.ANY:
        if a.ability is not None and a.ability != printed.value:
            raise RuleViolation(
                "Resolution D", f"Favor spot {a.spot} is {ABILITY_TEXT[printed]}, not {a.ability}"
            )
        return printed
    if a.ability == Ability.ANY:
        raise MalformedAction("choose a concrete ability for the 'any' spot")
    named = next((x for x in Ability if x.value == a.ability), None)
    if named is None:
        raise MalformedAction(
            f"spot {a.spot} performs any action: say which with ability = one of "
            + ", ".join(x.value for x in Ability if x is not Ability.ANY)
        )
    return named


def _args(a: UseFavor, allowed: set[str], ability: Ability) -> None:
    values = (("dice", a.dice or None), ("die", a.die), ("to", a.to), ("from", a.from_))
    given = {k for k, v in values if v is not None}
    extra = given - allowed
    missing = allowed - given
    if extra or missing:
        raise MalformedAction(
            f"{ABILITY_TEXT[ability]} takes {', '.join(sorted(allowed))}"
            + (f"; not {', '.join(sorted(extra))}" if extra else "")
        )


def _favor_reroll(state: State, seat: int, a: UseFavor) -> State:
    _args(a, {"dice"}, Ability.FREE_REROLL)
    state = spend(state, seat, a.dice, True, "Appendix: Free Reroll")
    return state.with_player(seat, to_roll=len(a.dice), to_roll_sets_only=True)


def _change_die(state: State, seat: int, a: UseFavor, ability: Ability) -> State:
    _args(a, {"die", "to"}, ability)
    rule = f"Appendix: {ABILITY_TEXT[ability]}"
    die, to = a.die, a.to
    assert die is not None  # _args: it is given
    if not isinstance(to, int) or isinstance(to, bool):
        raise MalformedAction(f"{ABILITY_TEXT[ability]}: to must be a die face")
    check_face(die, "die")
    if ability is Ability.PLUS_MINUS_ONE:
        # A 7 or a 0 is what the rule forbids ("1 is low, 6 is high"), not a malformed move.
        options = " or ".join(str(v) for v in (die - 1, die + 1) if 1 <= v <= 6)
        if abs(to - die) != 1 or not 1 <= to <= 6:
            raise RuleViolation(
                rule, f"+/-1 turns a {die} into {options} (1 is low, 6 is high), not {to}"
            )
    check_face(to, "to")
    if to == die:
        raise RuleViolation(rule, f"the die already shows {die}")
    p = state.players[seat]
    # The changed die keeps its restriction, if it had one.
    old = sorted((d for d in p.dice if d.face == die), key=lambda d: (not d.sets_only,))
    if not old:
        raise RuleViolation(rule, f"{p.name} has no {die}; the dice left are {pool_text(p)}")
    dice = list(p.dice)
    dice.remove(old[0])
    dice.append(replace(old[0], face=to))
    return state.with_player(seat, dice=tuple(dice))


def _favor_extra(state: State, seat: int, a: UseFavor) -> State:
    _args(a, {"die"}, Ability.EXTRA_DIE)
    die = a.die
    assert die is not None  # _args: it is given
    check_face(die, "die")
    p = state.players[seat]
    same = [d for d in p.dice if d.face == die]
    if not same:
        raise RuleViolation(
            f"Appendix: {ABILITY_TEXT[Ability.EXTRA_DIE]}",
            f"the extra die must match one of {p.name}'s dice; they show {pool_text(p)}",
        )
    extra = Die(die, sets_only=all(d.sets_only for d in same), imaginary=True)
    return state.with_player(seat, dice=p.dice + (extra,))


def _favor_move(state: State, seat: int, a: UseFavor) -> State:
    _args(a, {"from", "to"}, Ability.MOVE)
    rule = "Appendix: Move to an empty adjacent neighborhood"
    start, to = a.from_, a.to
    assert start is not None  # _args: it is given
    if not isinstance(to, str):
        raise MalformedAction("the Move favor takes from and to as neighborhood ids")
    i, j = neighborhood_index(state, start), neighborhood_index(state, to)
    board = state.board
    if state.neighborhoods[i] != seat:
        raise RuleViolation(
            rule, f"{state.name(seat)} has no soldier on {board.neighborhoods[i].name}"
        )
    if not board.adjacent(start, to):
        near = ", ".join(board.neighbours(start)) or "none"
        raise RuleViolation(
            rule,
            f"{board.neighborhoods[j].name} is not next to {board.neighborhoods[i].name} "
            f"(its neighbours: {near})",
        )
    if state.neighborhoods[j] is not None:
        raise RuleViolation(rule, f"{board.neighborhoods[j].name} is not empty")
    hoods = replace_at(replace_at(state.neighborhoods, i, None), j, seat)
    return replace(state, neighborhoods=hoods)


_FAVOR_EFFECTS: dict[Ability, Callable[[State, int, UseFavor], State]] = {
    Ability.FREE_REROLL: _favor_reroll,
    Ability.PLUS_MINUS_ONE: lambda s, i, a: _change_die(s, i, a, Ability.PLUS_MINUS_ONE),
    Ability.TURN_DIE: lambda s, i, a: _change_die(s, i, a, Ability.TURN_DIE),
    Ability.EXTRA_DIE: _favor_extra,
    Ability.MOVE: _favor_move,
}
