"""Friends and Enemies (Where Did You Land? 3): the player takes the top card of the deck and
follows it at once; a Get Out of Jail Free card is kept until used or sold.

The cards are the real decks on the table, so the table says which card was drawn (``draw``);
the companion then does what the card does. Which cards there are, and what each does, is the
edition's data (``data/cards.toml``): the rulebook prints none of their texts.
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.monopoly.actions import Draw
from companion.games.monopoly.board import Card, Effect
from companion.games.monopoly.flow import finish_landing, go_to_jail, require_step
from companion.games.monopoly.money import charge
from companion.games.monopoly.sections import Rule
from companion.games.monopoly.state import EventKind, State, Step
from companion.games.monopoly.turns import advance, land
from companion.protocol.errors import RuleViolation


def drawable(state: State) -> tuple[Card, ...]:
    """The cards that can be drawn now: the awaited deck, less the Get Out of Jail Free cards
    players hold."""
    if state.drawing is None:
        return ()
    held = state.jail_cards_held()
    return tuple(c for c in state.edition.deck(state.drawing) if c.id not in held)


def draw(state: State, seat: int, action: Draw) -> State:
    require_step(state, seat, (Step.DRAW,), Rule.CARDS, "enter the card drawn")
    card = state.edition.card(action.card)
    deck = state.drawing
    assert deck is not None
    if card is None or card.deck is not deck:
        raise RuleViolation(
            Rule.CARDS, f"{action.card!r} is not a card of the {deck.value.capitalize()} deck"
        )
    holder = next((p.name for p in state.players if card.id in p.jail_cards), None)
    if holder is not None:
        raise RuleViolation(
            Rule.CARDS, f"{holder} holds that Get Out of Jail Free card: it is not in the deck"
        )
    state = state.log(EventKind.CARD, f"{state.name(seat)}'s card: {card.text}", seat)
    return follow(state, seat, card)


def follow(state: State, seat: int, card: Card) -> State:
    """Do what the card says."""
    me = state.players[seat]
    size = len(state.board.spaces)
    match card.effect:
        case Effect.COLLECT:
            state = state.pay(seat, -card.amount)
            return finish_landing(
                state.log(
                    EventKind.PAY, f"The Bank pays {me.name} ${card.amount}.", seat, card.amount
                )
            )
        case Effect.PAY:
            return finish_landing(charge(state, seat, None, card.amount, "the card"))
        case Effect.PAY_EACH:
            for other in state.active:
                if other != seat:
                    state = charge(state, seat, other, card.amount, "the card")
            return finish_landing(state)
        case Effect.COLLECT_EACH:
            for other in state.active:
                if other != seat:
                    state = charge(state, other, seat, card.amount, "the card")
            return finish_landing(state)
        case Effect.MOVE_TO:
            assert card.space is not None
            steps = (card.space - me.position) % size or size
            return advance(state, seat, steps, by_card=True)
        case Effect.MOVE_TO_NEAREST:
            assert card.kind is not None
            targets = state.board.of_kind(card.kind)
            steps = min((t - me.position) % size or size for t in targets)
            return advance(replace(state, card_rent=card.multiplier), seat, steps, by_card=True)
        case Effect.GO_BACK:
            to = (me.position - card.steps) % size
            state = state.with_player(seat, position=to)
            state = state.log(
                EventKind.MOVE,
                f"{me.name} goes back {card.steps} to {state.space_name(to)}.",
                seat,
                -card.steps,
                to,
            )
            return land(state, seat)
        case Effect.GO_TO_JAIL:
            return go_to_jail(state, seat, "the card")
        case Effect.JAIL_FREE:
            state = state.with_player(seat, jail_cards=(*me.jail_cards, card.id))
            return finish_landing(state)
        case Effect.REPAIRS:
            owned = state.owned_by(seat)
            hideouts = sum(state.holding(i).hideouts for i in owned)
            compounds = sum(state.holding(i).compound for i in owned)
            total = card.amount * hideouts + card.per_compound * compounds
            return finish_landing(
                charge(
                    state, seat, None, total, f"repairs: {hideouts} Hideouts, {compounds} Compounds"
                )
            )
    raise AssertionError(f"an effect this module forgot: {card.effect}")
