"""The Play B and C: buying and positioning pieces.

"No Player may position a piece in a Neighborhood unless that Neighborhood is completely
unplayed upon or the piece he wishes to play is in the same racket already being fought for
there. He may play in as many Neighborhoods as he wishes, but he may position no more than
three men in any one Neighborhood in a single turn." Pieces a card gives are free and go down
first ("positioned immediately"); the rest are bought from the bank as they are positioned.
On a player's first turn the pieces go into exactly two neighborhoods (To Start).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations

from companion.games.godfather_1971.actions import Place
from companion.games.godfather_1971.fight import Forbidden, Placed, occupied, place
from companion.games.godfather_1971.layout import Layout, bits
from companion.games.godfather_1971.rackets import Racket
from companion.games.godfather_1971.state import Ruling, RulingKind, State
from companion.protocol.errors import MalformedAction, RuleViolation

TURN_LIMIT = 3  # "no more than three men in any one Neighborhood in a single turn"
FIRST_TURN_HOODS = 2  # To Start: "in any two Neighborhoods of his choosing"


def hood_index(state: State, hood: str) -> int:
    try:
        return state.board.index(hood)
    except KeyError:
        in_play = ", ".join(layout.id for layout in state.board.layouts)
        raise MalformedAction(
            f"{hood!r} is not a neighborhood in play; in play: {in_play}"
        ) from None


def position_index(layout: Layout, position: str) -> int:
    try:
        return layout.index(position)
    except KeyError:
        raise MalformedAction(
            f"{layout.name} has no position {position!r} "
            f"(it has {layout.names[0]} to {layout.names[-1]})"
        ) from None


def pieces_word(racket: Racket | None, n: int) -> str:
    return racket.counted(n) if racket else f"{n} piece{'s' if n != 1 else ''}"


def who_holds(state: State, i: int, pos: int) -> int | None:
    for seat, mask in enumerate(state.hoods[i].pieces):
        if mask >> pos & 1:
            return seat
    return None


def first_turn_hoods(state: State) -> set[int]:
    """The neighborhoods the active player has positioned pieces in this turn."""
    assert state.turn is not None
    return {i for i, n in enumerate(state.turn.placed) if n}


def first_turn_needs(state: State) -> int:
    """How many neighborhoods a first turn must use: two, or every open one if fewer."""
    return min(FIRST_TURN_HOODS, len(state.open_hoods()))


@dataclass(frozen=True, slots=True)
class Plan:
    """A placement checked against the rules, ready to apply."""

    hood: int
    move: int
    racket: Racket
    free: int  # pieces from the card
    cost: int  # dollars for the rest
    outcome: Placed


def check_place(state: State, action: Place) -> Plan:
    """Every rule a placement must meet, in the order a referee would say them."""
    turn = state.turn
    assert turn is not None
    seat = turn.seat
    i = hood_index(state, action.neighborhood)
    layout = state.board.layouts[i]
    hood = state.hoods[i]
    if hood.controller is not None:
        raise RuleViolation(
            "Control",
            f"{layout.name} is closed: {state.name(hood.controller)} "
            "has CONTROL there, and no more play can occur on it",
        )
    if hood.stalemated:
        raise RuleViolation(
            "Control", f"{layout.name} is stalemated: nobody can position a piece there any more"
        )
    if (
        turn.first
        and i not in first_turn_hoods(state)
        and len(first_turn_hoods(state)) >= FIRST_TURN_HOODS
    ):
        used = " and ".join(state.board.layouts[j].name for j in sorted(first_turn_hoods(state)))
        raise RuleViolation(
            "To Start",
            f"a first turn positions pieces in two neighborhoods; you have chosen {used}",
        )
    racket = hood.racket or action.racket or turn.free
    if racket is None:
        raise MalformedAction(
            f"place: nobody has played {layout.name} yet: say which racket "
            "(racket: bookie, strongarm, bootlegger, loan-shark or hijacker)"
        )
    if hood.racket is not None and action.racket not in (None, hood.racket):
        raise RuleViolation(
            "The Play C",
            f"{layout.name}'s racket is {hood.racket.card_name}: "
            f"only {hood.racket.pieces} may be positioned there, not "
            f"{action.racket.pieces}",
        )
    if turn.free_count and racket is not turn.free:
        assert turn.free is not None
        raise RuleViolation(
            "The Play A",
            f"your {turn.free.counted(turn.free_count)} from the "
            f"card must be positioned first, and {layout.name} "
            + (
                f"is a {racket.card_name} neighborhood"
                if hood.racket
                else f"would become a {racket.card_name} neighborhood"
            ),
        )
    n = len(action.positions)
    if len(set(action.positions)) != n:
        raise MalformedAction("place: a position is named twice")
    if turn.placed[i] + n > TURN_LIMIT:
        raise RuleViolation(
            "The Play C",
            f"no more than three pieces in one neighborhood in a "
            f"turn: you have positioned {turn.placed[i]} in {layout.name} "
            f"this turn",
        )
    move = 0
    for p in action.positions:
        pos = position_index(layout, p)
        owner = who_holds(state, i, pos)
        if owner is not None:
            whose = "yours" if owner == seat else f"{state.name(owner)}'s"
            raise RuleViolation(
                "The Play C",
                f"{p} in {layout.name} is occupied ({whose}): pieces go on unoccupied positions",
            )
        move |= 1 << pos
    free = min(turn.free_count, n) if racket is turn.free else 0
    cost = (n - free) * racket.cost
    cash = state.players[seat].cash
    if cost > cash:
        raise RuleViolation(
            "The Play B", f"{pieces_word(racket, n - free)} cost ${cost:,}; you have ${cash:,}"
        )
    outcome = place(layout, hood.pieces, seat, move)
    if isinstance(outcome, Forbidden):
        lost = layout.names_of(outcome.group & move)
        raise RuleViolation(
            "Fighting for Control",
            f"{'a piece' if len(lost) == 1 else 'pieces'} on {', '.join(lost)} in {layout.name} "
            f"would be taken at once, surrounded by {state.name(outcome.by)}'s pieces on "
            f"{', '.join(layout.names_of(outcome.fence))}: no piece may be positioned where it "
            "will immediately be taken, unless it is part of a taking move",
        )
    return Plan(i, move, racket, free, cost, outcome)


def apply_place(state: State, action: Place) -> State:
    plan = check_place(state, action)
    turn = state.turn
    assert turn is not None
    seat = turn.seat
    i = plan.hood
    placed = list(turn.placed)
    placed[i] += len(action.positions)
    state = state.with_hood(i, pieces=plan.outcome.pieces, racket=plan.racket)
    state = state.with_player(seat, cash=state.players[seat].cash - plan.cost)
    state = state.with_turn(
        placed=tuple(placed),
        free_count=turn.free_count - plan.free,
        free=turn.free if turn.free_count - plan.free else None,
    )
    if plan.outcome.taken:
        state = replace(
            state,
            rulings=(
                *state.rulings,
                Ruling(
                    RulingKind.CAPTURE,
                    i,
                    seat,
                    plan.outcome.taken,
                    plan.move,
                    board=plan.outcome.pieces,
                ),
            ),
        )
    return settle_free(state)


def has_move(layout: Layout, pieces: tuple[int, ...], seat: int, room: int) -> bool:
    """Whether ``seat`` may position any piece here (up to ``room`` at once)."""
    empty = layout.full & ~occupied(pieces)
    if not empty:
        return False
    for i in bits(empty):
        if layout.straight[i] & empty:  # a piece touching an empty position stands
            return True
    singles = [1 << i for i in bits(empty)]
    if any(not isinstance(place(layout, pieces, seat, m), Forbidden) for m in singles):
        return True
    if room >= 2:
        for k in range(2, min(room, len(singles)) + 1):
            for combo in combinations(singles, k):
                if not isinstance(place(layout, pieces, seat, sum(combo)), Forbidden):
                    return True
    return False


def free_room(state: State) -> bool:
    """Whether the pieces a card gave can still go anywhere this turn."""
    turn = state.turn
    assert turn is not None
    for i in state.open_hoods():
        hood = state.hoods[i]
        room = TURN_LIMIT - turn.placed[i]
        if room <= 0 or hood.racket not in (None, turn.free):
            continue
        if has_move(state.board.layouts[i], hood.pieces, turn.seat, min(room, turn.free_count)):
            return True
    return False


def settle_free(state: State) -> State:
    """Free pieces that can go nowhere are void (a card pertaining to closed neighborhoods,
    or every neighborhood of that racket full for this turn)."""
    turn = state.turn
    if turn is None or not turn.free_count or free_room(state):
        return state
    return state.with_turn(free=None, free_count=0, voided=turn.voided + turn.free_count)
