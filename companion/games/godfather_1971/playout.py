"""Random games the way a table might play them (``companion simulate``, the property tests,
the benchmarks): dice, shuffles and drawn cards from the ``rng`` it is given, and players who
mostly build next to their own pieces, take what they can, and end their turn now and then.

A placement is drawn by trying a few likely ones against the rules (cheap), falling back on
the full list of placements only when those fail."""

from __future__ import annotations

import random

from companion.games.godfather_1971.actions import (
    Action,
    BreakCard,
    Declare,
    Draw,
    EndTurn,
    Place,
    Roll,
    Shuffle,
)
from companion.games.godfather_1971.cards import Deck, break_deck
from companion.games.godfather_1971.fight import Placed, occupied, place
from companion.games.godfather_1971.layout import bits
from companion.games.godfather_1971.legal import (
    legal_actions,
    may_end_turn,
    placements,
    waiting_for,
)
from companion.games.godfather_1971.placing import (
    FIRST_TURN_HOODS,
    TURN_LIMIT,
    check_place,
    first_turn_hoods,
)
from companion.games.godfather_1971.rackets import Racket
from companion.games.godfather_1971.state import State, Step
from companion.protocol.errors import MalformedAction, RuleViolation

TRIES = 12


def chance_action(state: State, rng: random.Random) -> Shuffle | None:
    """The chance the game waits for that neither a die nor a player gives: the companion's
    decks shuffled (``cards: companion``), drawn from ``rng``; None when it waits for none.
    The record names the first seat, as the table's shuffle did before the companion drew it."""
    if state.step is not Step.SHUFFLE:
        return None
    decks = state.board.decks
    playing, good, bad = (tuple(rng.sample(decks.of(d), len(decks.of(d)))) for d in Deck)
    return Shuffle(state.name(0), playing, good, bad)


def random_action(state: State, rng: random.Random) -> Action:
    chance = chance_action(state, rng)
    if chance is not None:
        return chance
    [w] = waiting_for(state)
    if w.dice is not None:
        return Roll(w.player, (rng.randint(1, 6), rng.randint(1, 6)))
    decks = state.board.decks
    if state.step is Step.DRAW:  # physical cards: as if drawn from a shuffled deck
        return Draw(w.player, rng.choice(decks.playing))
    if state.step is Step.BREAK_CARD:
        assert state.turn is not None
        deck = break_deck(state.turn.roll)
        return BreakCard(w.player, rng.choice(decks.of(deck)))
    if state.step is not Step.PLACE:
        return rng.choice(legal_actions(state, w.player))
    return _turn(state, rng, w.player)


def _turn(state: State, rng: random.Random, player: str) -> Action:
    turn = state.turn
    assert turn is not None
    if state.rules.control == "declared":
        declares = [a for a in legal_actions(state, player) if isinstance(a, Declare)]
        if declares:
            return declares[0]
    must_place = turn.free_count > 0 or not may_end_turn(state)
    cash = state.players[turn.seat].cash
    if not must_place and (rng.random() < 0.25 or (cash < 400 and rng.random() < 0.5)):
        return EndTurn(player)
    for _ in range(TRIES):
        action = _likely_place(state, rng, player)
        if action is None:
            break
        try:
            check_place(state, action)
        except (RuleViolation, MalformedAction):
            continue
        return action
    options = [p for p, _ in placements(state)]
    if options:
        return rng.choice(options)
    return EndTurn(player)


def _likely_place(state: State, rng: random.Random, player: str) -> Place | None:
    """A placement a player might make: in a neighborhood where they have pieces (mostly),
    next to their own pieces (often), taking pieces when they can."""
    turn = state.turn
    assert turn is not None
    seat = turn.seat
    used = first_turn_hoods(state)
    hoods = []
    weights = []
    for i in state.open_hoods():
        hood = state.hoods[i]
        if TURN_LIMIT - turn.placed[i] <= 0:
            continue
        if turn.first and i not in used and len(used) >= FIRST_TURN_HOODS:
            continue
        if turn.free_count and hood.racket not in (None, turn.free):
            continue
        hoods.append(i)
        weights.append(4.0 if hood.pieces[seat] else 1.0)
    if not hoods:
        return None
    i = rng.choices(hoods, weights)[0]
    layout = state.board.layouts[i]
    hood = state.hoods[i]
    empty = layout.full & ~occupied(hood.pieces)
    if not empty:
        return None
    others = occupied(hood.pieces) & ~hood.pieces[seat]
    racket = hood.racket or turn.free or rng.choice(list(Racket))
    if rng.random() < 0.5:  # look for a taking move of one piece
        for pos in bits(layout.dilate(others) & empty):
            outcome = place(layout, hood.pieces, seat, 1 << pos)
            if isinstance(outcome, Placed) and outcome.taken:
                return Place(
                    player, layout.id, (layout.names[pos],), None if hood.racket else racket
                )
    near = layout.around(hood.pieces[seat]) & empty
    pool = near if near and rng.random() < 0.7 else empty
    pos = rng.choice(list(bits(pool)))
    return Place(player, layout.id, (layout.names[pos],), None if hood.racket else racket)
