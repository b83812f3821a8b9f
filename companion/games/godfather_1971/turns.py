"""The order of play: who goes first, and the four things that happen in every turn after the
first ("He plays the card in his hand. He has the option to purchase playing pieces. He
positions his pieces on the board. He draws a card from the playing deck"), with the cards'
effects (The Cards) and the bonuses of CONTROL.

Money the bank pays goes through :func:`receive`, so a debt left by a Bad Break (the ``debt``
house rule) is paid off first.
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.godfather_1971.actions import (
    BreakCard,
    Draw,
    EndFingerman,
    EndTurn,
    Finger,
    GiveUp,
    PieceAct,
    PlayCard,
    Roll,
    Shuffle,
)
from companion.games.godfather_1971.cards import Card, CardError, Deck, Kind, break_deck, parse_card
from companion.games.godfather_1971.closing import (
    all_closed,
    concede,
    end_of_turn,
    penalty_hood,
)
from companion.games.godfather_1971.placing import (
    first_turn_hoods,
    first_turn_needs,
    hood_index,
    position_index,
    settle_free,
    who_holds,
)
from companion.games.godfather_1971.state import Cards, State, Step, Turn
from companion.protocol.errors import MalformedAction, RuleViolation

START_CASH = 3000  # Preparation: "The banker distributes $3,000 to each Player."


def receive(state: State, seat: int, amount: int) -> State:
    """The bank pays ``seat``; a Bad Break's debt is settled first."""
    p = state.players[seat]
    paid = min(p.debt, amount)
    return state.with_player(seat, cash=p.cash + amount - paid, debt=p.debt - paid)


# --- before the first turn -------------------------------------------------------------


def after_setup(state: State) -> State:
    """The decks are ready: roll for the first player, or the first seat begins."""
    if state.rules.first_player == "roll":
        return replace(
            state,
            step=Step.ROLL_FOR_FIRST,
            rolloff=tuple((s, None) for s in range(len(state.players))),
        )
    return start_turn(state, 0)


def shuffle(state: State, action: Shuffle) -> State:
    decks = state.board.decks
    for deck, given in (
        (Deck.PLAYING, action.playing),
        (Deck.GOOD, action.good),
        (Deck.BAD, action.bad),
    ):
        if sorted(given) != sorted(decks.of(deck)):
            raise RuleViolation(
                "Preparation",
                f"{deck.phrase} is {len(decks.of(deck))} cards "
                "(docs/godfather-1971.md); the shuffle must list each once, "
                f"in its new order ({len(given)} listed)",
            )
    return after_setup(replace(state, deck=action.playing, good=action.good, bad=action.bad))


def next_roller(state: State) -> int | None:
    return next((s for s, total in state.rolloff if total is None), None)


def roll_for_first(state: State, action: Roll) -> State:
    seat = state.seat(action.player)
    if next_roller(state) != seat:
        who = next_roller(state)
        raise RuleViolation(
            "To Start",
            f"it is {state.name(who)}'s roll for the first turn"
            if who is not None
            else "every player has rolled",
        )
    total = sum(action.faces)
    rolloff = tuple((s, total if s == seat else t) for s, t in state.rolloff)
    state = replace(state, rolloff=rolloff)
    if next_roller(state) is not None:
        return state
    best = max(t for _, t in rolloff if t is not None)
    tied = [s for s, t in rolloff if t == best]
    if len(tied) > 1:  # the tied players roll again
        return replace(state, rolloff=tuple((s, None) for s in tied))
    return start_turn(state, tied[0])


# --- a turn ---------------------------------------------------------------------------------


def start_turn(state: State, seat: int) -> State:
    """A player's turn begins: declarations conceded, bonuses paid, penalties owed, then the
    held card (every turn but the first)."""
    p = state.players[seat]
    number = state.turn.number + 1 if state.turn is not None else 1
    state = replace(
        state, turn=Turn(seat, number, not p.started, (0,) * len(state.hoods)), step=Step.PLACE
    )
    if p.started:
        state = concede(state, seat)
        if all_closed(state):
            return replace(state, step=Step.OVER)
        bonuses = []
        for b in state.players[seat].bonuses:
            state = receive(state, seat, b.amount)
            if b.turns > 1:
                bonuses.append(replace(b, turns=b.turns - 1))
        state = state.with_player(seat, bonuses=tuple(bonuses))
    return after_penalties(state)


def after_penalties(state: State) -> State:
    """Declared CONTROL withheld: the declarer gives up a piece there before anything else."""
    assert state.turn is not None
    state, hood = penalty_hood(state, state.turn.seat)
    if hood is not None:
        return replace(state.with_turn(penalty=hood), step=Step.PENALTY)
    state = state.with_turn(penalty=None)
    turn = state.turn
    assert turn is not None
    if state.players[turn.seat].hand is not None and not turn.first:
        return replace(state, step=Step.PLAY_CARD)
    return replace(state, step=Step.PLACE)


def play_card(state: State, action: PlayCard) -> State:
    """The Play A: the held card is played, face up, and goes to the bottom of its deck."""
    assert state.turn is not None
    seat = state.turn.seat
    code = state.players[seat].hand
    assert code is not None
    card = parse_card(code, Deck.PLAYING)
    state = state.with_player(seat, hand=None).with_turn(card=code)
    if state.cards is Cards.COMPANION:
        state = replace(state, deck=(*state.deck, code))
    if card.kind is Kind.MONEY:
        return replace(receive(state, seat, card.money), step=Step.PLACE)
    if card.kind is Kind.RACKET:
        state = state.with_turn(free=card.racket, free_count=card.pieces)
        return settle_free(replace(state, step=Step.PLACE))
    if card.kind is Kind.BREAKS:
        return replace(state, step=Step.BREAKS_ROLL)
    return fingerman(state)


def fingerman(state: State) -> State:
    """ "The Player who draws this card may remove any three of his opponents' pieces from the
    board": none to remove, and the card is void."""
    assert state.turn is not None
    if not opponents_pieces(state, state.turn.seat):
        return replace(state.with_turn(fingers=0), step=Step.PLACE)
    return replace(state.with_turn(fingers=3), step=Step.FINGERMAN)


def opponents_pieces(state: State, seat: int) -> list[tuple[int, int]]:
    out = []
    for s in range(len(state.players)):
        if s != seat:
            out += state.own_pieces(s)
    return out


def breaks_roll(state: State, action: Roll) -> State:
    """Breaks of the Game: "if he rolls an even number, he draws a card from the GOOD BREAK
    pack; if odd, from the BAD BREAK pack"."""
    state = state.with_turn(roll=action.faces)
    deck = break_deck(action.faces)
    if state.cards is Cards.PHYSICAL:
        return replace(state, step=Step.BREAK_CARD)
    pile = state.good if deck is Deck.GOOD else state.bad
    code, rest = pile[0], (*pile[1:], pile[0])  # drawn, then to the bottom of its deck
    state = replace(state, good=rest) if deck is Deck.GOOD else replace(state, bad=rest)
    return apply_break(state, parse_card(code, deck))


def break_card(state: State, action: BreakCard) -> State:
    assert state.turn is not None
    deck = break_deck(state.turn.roll)
    try:
        card = parse_card(action.card, deck)
    except CardError as exc:
        raise RuleViolation(
            "The Cards",
            f"the roll was {sum(state.turn.roll)}, "
            f"{'even' if deck is Deck.GOOD else 'odd'}: the card comes from "
            f"{deck.phrase}. {exc}",
        ) from None
    return apply_break(state, card)


def apply_break(state: State, card: Card) -> State:
    assert state.turn is not None
    seat = state.turn.seat
    state = state.with_turn(break_card=card.code)
    if card.kind is Kind.GOOD:
        state = receive(state, seat, card.money)
        if card.pieces:
            state = state.with_turn(free=card.racket, free_count=card.pieces)
        return settle_free(replace(state, step=Step.PLACE))
    state = state.with_turn(owed=card.money)
    if card.pieces:
        # "If he has no pieces on the board of the racket stipulated, that part of the
        # penalty is void"; with no more than the card asks, they all go.
        have = state.bad_break_pieces(seat, card.racket)
        if len(have) > card.pieces:
            state = state.with_turn(lose=card.racket, lose_count=card.pieces)
            return replace(state, step=Step.LOSE_PIECES)
        for i, pos in have:
            state = remove(state, seat, i, pos)
    return settle_owed(state)


def settle_owed(state: State) -> State:
    """A Bad Break's money: paid from cash; short, the player converts pieces at half their
    cost ("This is the only situation in which previously positioned pieces may be converted
    to cash"); with none left, the rest is forgiven or owed (house rule)."""
    assert state.turn is not None
    seat = state.turn.seat
    owed = state.turn.owed
    p = state.players[seat]
    if p.cash >= owed:
        state = state.with_player(seat, cash=p.cash - owed)
    elif state.bad_break_pieces(seat):
        return replace(state, step=Step.SELL)
    else:
        debt = owed - p.cash if state.rules.bad_break_shortfall == "debt" else 0
        state = state.with_player(seat, cash=0, debt=p.debt + debt)
    return replace(state.with_turn(owed=0), step=Step.PLACE)


def remove(state: State, seat: int, i: int, pos: int) -> State:
    hood = state.hoods[i]
    pieces = tuple(m & ~(1 << pos) if s == seat else m for s, m in enumerate(hood.pieces))
    return state.with_hood(i, pieces=pieces)


def _piece(state: State, action: PieceAct, stalemated: bool = False) -> tuple[int, int, int | None]:
    """(neighborhood, position, whose piece) an action names; closed neighborhoods refused
    (a stalemated one's pieces may still pay a Bad Break, if ``stalemated``)."""
    i = hood_index(state, action.neighborhood)
    layout = state.board.layouts[i]
    pos = position_index(layout, action.position)
    hood = state.hoods[i]
    if not (hood.open or (stalemated and hood.stalemated)):
        raise RuleViolation("Control", f"{layout.name} is closed: its pieces stay as they are")
    return i, pos, who_holds(state, i, pos)


def finger(state: State, action: Finger) -> State:
    assert state.turn is not None
    seat = state.turn.seat
    i, pos, owner = _piece(state, action)
    if owner is None or owner == seat:
        where = f"{action.position} in {state.board.layouts[i].name}"
        raise RuleViolation(
            "The Cards",
            f"the Fingerman removes opponents' pieces; {where} is "
            + ("empty" if owner is None else "yours"),
        )
    left = state.turn.fingers - 1
    state = remove(state, owner, i, pos).with_turn(fingers=left)
    if left == 0 or not opponents_pieces(state, seat):
        return replace(state, step=Step.PLACE)
    return state


def end_fingerman(state: State, action: EndFingerman) -> State:
    return replace(state, step=Step.PLACE)


def give_up(state: State, action: GiveUp) -> State:
    """A Bad Break's pieces, or declared CONTROL's penalty: one of the player's own."""
    turn = state.turn
    assert turn is not None
    i, pos, owner = _piece(state, action, stalemated=state.step is Step.LOSE_PIECES)
    name = state.board.layouts[i].name
    if owner != turn.seat:
        raise RuleViolation(
            "The Cards" if state.step is Step.LOSE_PIECES else "Control",
            f"{action.position} in {name} is not one of your pieces",
        )
    if state.step is Step.PENALTY:
        if turn.penalty is not None and i != turn.penalty:
            raise RuleViolation(
                "Control", f"the penalty is a piece in {state.board.layouts[turn.penalty].name}"
            )
        state = remove(state, owner, i, pos)
        p = state.players[owner]
        state = state.with_player(owner, penalties=p.penalties[1:])
        return after_penalties(state)
    racket = state.hoods[i].racket
    if racket is not turn.lose:
        # A piece is on the board, so its neighborhood has a racket; the step has a Bad Break.
        assert racket is not None and turn.lose is not None
        raise RuleViolation(
            "The Cards",
            f"the Bad Break takes {turn.lose.pieces}; {name} is a {racket.card_name} neighborhood",
        )
    state = remove(state, owner, i, pos)
    left = turn.lose_count - 1
    state = state.with_turn(lose_count=left, lose=turn.lose if left else None)
    if left and state.bad_break_pieces(owner, turn.lose):
        return state
    return settle_owed(state.with_turn(lose=None, lose_count=0))


def sell(state: State, action: PieceAct) -> State:
    turn = state.turn
    assert turn is not None
    i, pos, owner = _piece(state, action, stalemated=True)
    if owner != turn.seat:
        raise RuleViolation(
            "The Cards",
            f"{action.position} in {state.board.layouts[i].name} is not one of your pieces",
        )
    racket = state.hoods[i].racket
    assert racket is not None
    state = remove(state, owner, i, pos)
    state = state.with_player(owner, cash=state.players[owner].cash + racket.cost // 2)
    return settle_owed(state)


def end_turn(state: State, action: EndTurn) -> State:
    turn = state.turn
    assert turn is not None
    if turn.free_count:
        assert turn.free is not None
        raise RuleViolation(
            "The Play A",
            f"the card's {turn.free.counted(turn.free_count)} must "
            "be positioned first, free of charge",
        )
    if turn.first and len(first_turn_hoods(state)) < first_turn_needs(state):
        raise RuleViolation(
            "To Start",
            "the first turn positions one to three pieces in each "
            f"of {first_turn_needs(state)} neighborhoods; you have used "
            f"{len(first_turn_hoods(state))}",
        )
    state = state.with_player(turn.seat, started=True)
    state = end_of_turn(state)
    if all_closed(state):
        return replace(state, step=Step.OVER)
    if state.cards is Cards.PHYSICAL:
        return replace(state, step=Step.DRAW)
    card, deck = state.deck[0], state.deck[1:]
    state = replace(state.with_player(turn.seat, hand=card), deck=deck)
    return start_turn(state, (turn.seat + 1) % len(state.players))


def draw(state: State, action: Draw) -> State:
    assert state.turn is not None
    try:
        parse_card(action.card, Deck.PLAYING)
    except CardError as exc:
        raise MalformedAction(f"draw: {exc}") from None
    seat = state.turn.seat
    state = state.with_player(seat, hand=action.card)
    return start_turn(state, (seat + 1) % len(state.players))
