"""CONTROL established, declared, withheld or conceded; stalemated neighborhoods; the end.

"Once CONTROL is established in a Neighborhood it is closed for the remainder of the game.
All pieces except one of the controlling Player's are removed from the board." The player is
credited the Racket Control Value and "receives a cash BONUS (10% of RACKET CONTROL VALUE) on
each of his next three turns" ($680 "rounded off to $700": to the nearest $100, halves up).

"If CONTROL is achieved by no Player in a Neighborhood ... All pieces remain positioned on
the board as stalemated." The rulebook does not say when a neighborhood is stalemated; here it
is when no player may position a piece there any more (and, under declared CONTROL, nobody
holds a majority to declare), which is also when the game can end: "Play continues in the
remaining Neighborhoods until CONTROL is established in each."
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.godfather_1971.control import check
from companion.games.godfather_1971.fight import fenced, holds, majority
from companion.games.godfather_1971.placing import TURN_LIMIT, has_move
from companion.games.godfather_1971.state import Bonus, Declaration, Ruling, RulingKind, State
from companion.protocol.errors import RuleViolation

BONUS_TURNS = 3


def bonus_of(value: int) -> int:
    """10% of a Racket Control Value, rounded to the nearest $100 (halves up): $680 -> $700."""
    return (value // 10 + 50) // 100 * 100


def close(state: State, i: int, seat: int) -> State:
    """CONTROL established: one of the controller's pieces stays, the rest leave; the credit
    and the bonus on the next three turns."""
    hood = state.hoods[i]
    own = hood.pieces[seat]
    keep = own & -own
    pieces = tuple(keep if s == seat else 0 for s in range(len(hood.pieces)))
    assert hood.racket is not None  # a player holds a majority here, so pieces were placed
    value = state.board.value(i, hood.racket)
    hid = state.board.layouts[i].id
    p = state.players[seat]
    state = state.with_hood(i, pieces=pieces, controller=seat, declared=None)
    return state.with_player(
        seat,
        credits=(*p.credits, (hid, value)),
        bonuses=(*p.bonuses, Bonus(hid, bonus_of(value), BONUS_TURNS)),
    )


def stuck(state: State, i: int) -> bool:
    """Nobody may position a piece in this neighborhood any more."""
    layout = state.board.layouts[i]
    pieces = state.hoods[i].pieces
    return not any(has_move(layout, pieces, s, TURN_LIMIT) for s in range(len(pieces)))


def end_of_turn(state: State) -> State:
    """After a turn's placements: the CONTROL check of every open neighborhood (checked
    CONTROL), then the stalemates."""
    rules = state.rules
    rulings = list(state.rulings)
    for i in state.open_hoods():
        layout = state.board.layouts[i]
        hood = state.hoods[i]
        if rules.control == "checked":
            counts = [
                holds(layout, hood.pieces, s, rules.controlled_positions)
                for s in range(len(state.players))
            ]
            holder = max(range(len(counts)), key=lambda s: (counts[s], -s))
            verdict = check(
                layout, hood.pieces, holder, rules.controlled_positions, rules.control_broken_by
            )
            state = state.with_hood(i, verdict=verdict)
            if verdict.controls:
                state = close(state, i, holder)
                rulings.append(
                    Ruling(RulingKind.CONTROL, i, holder, verdict=verdict, board=hood.pieces)
                )
                continue
            if verdict.majority:
                rulings.append(
                    Ruling(RulingKind.NOT_YET, i, holder, verdict=verdict, board=hood.pieces)
                )
        elif hood.declared is not None or declarable(state, i) is not None:
            continue
        if stuck(state, i):
            state = state.with_hood(i, stalemated=True, declared=None)
            rulings.append(Ruling(RulingKind.STALEMATE, i, state.turn.seat if state.turn else 0))
    return replace(state, rulings=tuple(rulings))


def all_closed(state: State) -> bool:
    return not state.open_hoods()


# --- declared CONTROL (the rulebook's other version) -----------------------------------


def declarable(state: State, i: int) -> int | None:
    """The player holding an implicit majority here (pieces and every area fenced by them
    alone), who may declare CONTROL."""
    layout = state.board.layouts[i]
    pieces = state.hoods[i].pieces
    for s in range(len(pieces)):
        count = holds(layout, pieces, s, "fenced")
        if majority(layout, count):
            return s
    return None


def declare(state: State, i: int) -> State:
    turn = state.turn
    assert turn is not None
    layout = state.board.layouts[i]
    hood = state.hoods[i]
    if state.rules.control != "declared":
        raise RuleViolation(
            "Control",
            "CONTROL is checked by the companion at this table "
            "(house rule control = checked); nothing to declare",
        )
    if not hood.open:
        raise RuleViolation("Control", f"{layout.name} is closed")
    if hood.declared is not None:
        raise RuleViolation(
            "Control",
            f"{state.name(hood.declared.seat)} has declared CONTROL of {layout.name} already",
        )
    count = holds(layout, hood.pieces, turn.seat, "fenced")
    if not majority(layout, count):
        raise RuleViolation(
            "Control",
            f"you hold {count} of {layout.name}'s {layout.size} "
            f"positions (pieces and areas fenced by them): a majority is "
            f"{layout.size // 2 + 1}",
        )
    territory = hood.pieces[turn.seat] | fenced(layout, hood.pieces, turn.seat)
    state = state.with_hood(i, declared=Declaration(turn.seat, territory))
    return replace(state, rulings=(*state.rulings, Ruling(RulingKind.DECLARED, i, turn.seat)))


def challenges(before: State, after: State, i: int, move: int) -> State:
    """ "If an opponent positions a piece or pieces within the territory declared controlled,
    then CONTROL is withheld and the declaring Player is penalized 1 racket piece in that
    Neighborhood." Taking the declarer's pieces there challenges too (ruling)."""
    declared = before.hoods[i].declared
    mover = before.turn.seat if before.turn else None
    if declared is None or declared.seat == mover:
        return after
    lost = before.hoods[i].pieces[declared.seat] & ~after.hoods[i].pieces[declared.seat]
    if not (move & declared.territory or lost):
        return after
    p = after.players[declared.seat]
    after = after.with_hood(i, declared=None)
    after = after.with_player(declared.seat, penalties=(*p.penalties, i))
    return replace(
        after, rulings=(*after.rulings, Ruling(RulingKind.WITHHELD, i, mover or 0, placed=move))
    )


def concede(state: State, seat: int) -> State:
    """At the declarer's next turn every opponent has had theirs: standing declarations are
    conceded."""
    rulings = []
    for i, hood in enumerate(state.hoods):
        if hood.declared is not None and hood.declared.seat == seat and hood.open:
            rulings.append(Ruling(RulingKind.CONCEDED, i, seat, board=hood.pieces))
            state = close(state, i, seat)
    return replace(state, rulings=(*state.rulings, *rulings)) if rulings else state


def penalty_hood(state: State, seat: int) -> tuple[State, int | None]:
    """The next neighborhood where ``seat`` owes a piece and has one (others are void)."""
    p = state.players[seat]
    owed = list(p.penalties)
    while owed:
        i = owed[0]
        if state.hoods[i].open and state.hoods[i].pieces[seat]:
            return state.with_player(seat, penalties=tuple(owed)), i
        owed.pop(0)
    return state.with_player(seat, penalties=()), None
