"""What a player may do now, and what the game waits for.

A placement of several pieces at once is legal whenever :func:`~apply.apply` accepts it;
:func:`placements` lists what a phone offers: every position a piece may go alone, and the
taking moves whose pieces must go down together (each alone would be taken at once).
Rolls and the shuffle are chance, never a choice: :func:`waiting_for` asks for the rolls,
and the shuffle is drawn by the companion (``playout.chance_action``).
"""

from __future__ import annotations

from companion.games.godfather_1971.actions import (
    Action,
    BreakCard,
    Declare,
    Draw,
    EndFingerman,
    EndTurn,
    Finger,
    GiveUp,
    Place,
    PlayCard,
    Sell,
)
from companion.games.godfather_1971.cards import Deck, break_deck
from companion.games.godfather_1971.closing import declarable
from companion.games.godfather_1971.fight import Forbidden, Placed, groups, occupied, place
from companion.games.godfather_1971.layout import bits, popcount
from companion.games.godfather_1971.placing import (
    FIRST_TURN_HOODS,
    TURN_LIMIT,
    first_turn_hoods,
    first_turn_needs,
)
from companion.games.godfather_1971.rackets import Racket
from companion.games.godfather_1971.state import State, Step
from companion.games.godfather_1971.turns import next_roller, opponents_pieces
from companion.protocol.game import DiceRequest, Waiting

DICE = "dice"  # the game's one pair of dice, shared by the table


def waiting_for(state: State) -> list[Waiting]:
    step = state.step
    if step is Step.OVER:
        return []
    if step is Step.SHUFFLE:
        return []  # chance: the companion draws the shuffle itself (chance_action)
    if step is Step.ROLL_FOR_FIRST:
        seat = next_roller(state)
        assert seat is not None
        return [
            Waiting(
                state.name(seat),
                "roll_for_first",
                DiceRequest(
                    2,
                    (DICE,),
                    ask=f"first:{state.moves}",
                    prompt="Roll the two dice to see who goes first",
                ),
            )
        ]
    assert state.turn is not None
    name = state.name(state.turn.seat)
    if step is Step.BREAKS_ROLL:
        return [
            Waiting(
                name,
                "breaks_roll",
                DiceRequest(
                    2,
                    (DICE,),
                    ask=f"breaks:{state.turn.number}",
                    prompt="Breaks of the Game: roll the two dice (even: a Good Break, odd: a Bad "
                    "Break)",
                ),
            )
        ]
    if step in (Step.LOSE_PIECES, Step.PENALTY):
        return [Waiting(name, "give_up")]
    return [Waiting(name, step.value)]


def _piece_actions(
    state: State,
    cls: type[Finger] | type[GiveUp] | type[Sell],
    pieces: list[tuple[int, int]],
    player: str,
) -> list[Action]:
    return [
        cls(player, state.board.layouts[i].id, state.board.layouts[i].names[pos])
        for i, pos in pieces
    ]


def legal_actions(state: State, player: str) -> list[Action]:
    seat = state.seat(player)
    step = state.step
    if (
        step in (Step.OVER, Step.SHUFFLE, Step.ROLL_FOR_FIRST, Step.BREAKS_ROLL)
        or state.turn is None
        or state.turn.seat != seat
    ):
        return []
    turn = state.turn
    decks = state.board.decks
    if step is Step.PLAY_CARD:
        return [PlayCard(player)]
    if step is Step.BREAK_CARD:
        deck = break_deck(turn.roll)
        return [BreakCard(player, code) for code in decks.kinds(deck)]
    if step is Step.DRAW:
        return [Draw(player, code) for code in decks.kinds(Deck.PLAYING)]
    if step is Step.FINGERMAN:
        return [
            *_piece_actions(state, Finger, opponents_pieces(state, seat), player),
            EndFingerman(player),
        ]
    if step is Step.LOSE_PIECES:
        return _piece_actions(state, GiveUp, state.bad_break_pieces(seat, turn.lose), player)
    if step is Step.PENALTY:
        return _piece_actions(
            state, GiveUp, [(i, p) for i, p in state.own_pieces(seat) if i == turn.penalty], player
        )
    if step is Step.SELL:
        return _piece_actions(state, Sell, state.bad_break_pieces(seat), player)
    return [*(p for p, _ in placements(state)), *turn_actions(state, player)]


def turn_actions(state: State, player: str) -> list[Action]:
    """The choices of the buying and positioning step besides placements."""
    seat = state.seat(player)
    out: list[Action] = []
    if state.rules.control == "declared":
        out += [
            Declare(player, state.board.layouts[i].id)
            for i in state.open_hoods()
            if state.hoods[i].declared is None and declarable(state, i) == seat
        ]
    if may_end_turn(state):
        out.append(EndTurn(player))
    return out


def may_end_turn(state: State) -> bool:
    turn = state.turn
    assert turn is not None
    if turn.free_count:
        return False
    return not (turn.first and len(first_turn_hoods(state)) < first_turn_needs(state))


def placements(state: State) -> list[tuple[Place, Placed]]:
    """The placements a phone offers now, each with its outcome: every legal single piece
    (with its racket, where the neighborhood is still unplayed), and the taking moves that
    need two or three pieces at once."""
    turn = state.turn
    assert turn is not None
    seat = turn.seat
    player = state.name(seat)
    cash = state.players[seat].cash
    used = first_turn_hoods(state)
    out: list[tuple[Place, Placed]] = []
    seen: set[tuple[int, int, Racket]] = set()
    for i in state.open_hoods():
        room = TURN_LIMIT - turn.placed[i]
        if room <= 0 or (turn.first and i not in used and len(used) >= FIRST_TURN_HOODS):
            continue
        hood = state.hoods[i]
        layout = state.board.layouts[i]
        rackets: list[Racket]
        if turn.free is not None and turn.free_count:
            if hood.racket not in (None, turn.free):
                continue
            rackets = [turn.free]
        else:
            rackets = [hood.racket] if hood.racket else list(Racket)

        def affordable(r: Racket, n: int) -> bool:
            free = min(turn.free_count, n) if r is turn.free else 0
            return (n - free) * r.cost <= cash

        singles = [r for r in rackets if affordable(r, 1)]
        if not singles:
            continue
        empty = layout.full & ~occupied(hood.pieces)
        others = occupied(hood.pieces) & ~hood.pieces[seat]
        illegal = 0
        for pos in bits(empty):
            near = layout.straight[pos]
            outcome: Placed | Forbidden
            if near & empty and not near & others:  # it stands, and touches nobody
                outcome = Placed(
                    tuple(m | 1 << pos if s == seat else m for s, m in enumerate(hood.pieces)), ()
                )
            else:
                outcome = place(layout, hood.pieces, seat, 1 << pos)
            if isinstance(outcome, Forbidden):
                illegal |= 1 << pos
                continue
            for r in singles:
                racket = None if hood.racket else r
                out.append((Place(player, layout.id, (layout.names[pos],), racket), outcome))
        if not illegal or room < 2:
            continue
        for seat_other, mask in enumerate(hood.pieces):
            if seat_other == seat:
                continue
            for group in groups(layout, mask):
                fence = layout.around(group)
                libs = fence & empty
                if not (libs & illegal) or not 2 <= popcount(libs) <= room:
                    continue
                if fence & ~libs & ~hood.pieces[seat]:
                    continue  # someone else's piece touches it: only one colour surrounds
                outcome = place(layout, hood.pieces, seat, libs)
                if isinstance(outcome, Forbidden):
                    continue
                for r in rackets:
                    key = (i, libs, r)
                    if affordable(r, popcount(libs)) and key not in seen:
                        seen.add(key)
                        out.append(
                            (
                                Place(
                                    player,
                                    layout.id,
                                    tuple(layout.names_of(libs)),
                                    None if hood.racket else r,
                                ),
                                outcome,
                            )
                        )
    return out
