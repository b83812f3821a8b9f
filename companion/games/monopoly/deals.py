"""Deals between players (Don't Wait for Your Turn 6): proposed on one phone, accepted or
rejected on the other.

A deal trades properties (unimproved: a group's buildings are sold first), cash and Get Out of
Jail Free cards, at any price the players agree. It must trade a property or a card: players
may never lend each other money (Play It Right!). Mortgaged properties received must at once be
repaid or kept for 10% (:mod:`.mortgages`). While a deal waits for its answer, the table
waits too, so nothing it names can change.
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.monopoly.actions import Accept, Offer, Propose, Reject, Withdraw
from companion.games.monopoly.flow import may_manage
from companion.games.monopoly.sections import Rule
from companion.games.monopoly.state import Deal, EventKind, State
from companion.protocol.errors import RuleViolation


def offer_words(state: State, offer: Offer) -> str:
    parts = [state.space_name(s) for s in offer.spaces]
    if offer.cards:
        n = len(offer.cards)
        parts.append(f"{n} Get Out of Jail Free card{'s' if n > 1 else ''}")
    if offer.cash:
        parts.append(f"${offer.cash}")
    return ", ".join(parts) or "nothing"


def why_not_trade(state: State, seat: int, offer: Offer) -> str | None:
    """Why ``seat`` cannot hand over ``offer``, or None."""
    me = state.players[seat]
    if offer.cash > me.cash:
        return f"{me.name} has ${me.cash}, not ${offer.cash}"
    for space in offer.spaces:
        name = state.space_name(space)
        h = state.holdings[space]
        if h is None:
            return f"{name} is no property"
        if h.owner != seat:
            return f"{name} is not {me.name}'s"
        built = [
            i
            for i in state.board.set_of(space)
            if state.holding(i).buildings and state.board.spaces[i].building_cost
        ]
        if built:
            return (
                f"{name}: sell the buildings of its group to the Bank first "
                f"({state.space_name(built[0])} has some)"
            )
    for card in offer.cards:
        if card not in me.jail_cards:
            return f"{me.name} has no Get Out of Jail Free card {card!r}"
    return None


def check_deal(state: State, deal: Deal) -> None:
    if deal.partner == deal.proposer:
        raise RuleViolation(Rule.DEAL, "a deal is made with another player")
    if state.players[deal.partner].bankrupt:
        raise RuleViolation(Rule.DEAL, f"{state.name(deal.partner)} is out of the game")
    if not (deal.give.spaces or deal.give.cards or deal.take.spaces or deal.take.cards):
        raise RuleViolation(
            Rule.NO_LOANS,
            "a deal trades property or Get Out of Jail Free "
            "cards: players may never loan each other money",
        )
    for seat, offer in ((deal.proposer, deal.give), (deal.partner, deal.take)):
        why = why_not_trade(state, seat, offer)
        if why is not None:
            raise RuleViolation(Rule.DEAL, why)


def may_propose(state: State, seat: int) -> None:
    """Refuse unless ``seat`` may propose a deal now: any time the table waits for nothing,
    or while they raise money they owe (a debt, a received mortgage's interest)."""
    may_manage(state, seat, Rule.DEAL, "a deal", raising=True)


def can_propose(state: State, seat: int) -> bool:
    """Whether ``seat`` may propose a deal now (a phone shows its deal drafter then)."""
    try:
        may_propose(state, seat)
    except RuleViolation:
        return False
    return True


def propose(state: State, seat: int, action: Propose) -> State:
    may_propose(state, seat)
    deal = Deal(seat, state.seat(action.to), action.give, action.take)
    check_deal(state, deal)
    state = replace(state, deal=deal)
    return state.log(
        EventKind.DEAL,
        f"{state.name(seat)} offers {action.to} "
        f"{offer_words(state, action.give)} for "
        f"{offer_words(state, action.take)}.",
        seat,
    )


def _answer(state: State, seat: int, doing: str) -> Deal:
    if state.deal is None:
        raise RuleViolation(Rule.DEAL, f"there is no deal to {doing}")
    if seat != state.deal.partner:
        raise RuleViolation(Rule.DEAL, f"the deal is {state.name(state.deal.partner)}'s to {doing}")
    return state.deal


def _hand_over(state: State, giver: int, getter: int, offer: Offer) -> State:
    state = state.pay(giver, offer.cash).pay(getter, -offer.cash)
    fees = list(state.fees)
    for space in offer.spaces:
        state = state.with_holding(space, owner=getter)
        if state.holding(space).mortgaged:
            fees.append((getter, space))
    g, r = state.players[giver], state.players[getter]
    state = state.with_player(
        giver, jail_cards=tuple(c for c in g.jail_cards if c not in offer.cards)
    )
    state = state.with_player(getter, jail_cards=(*r.jail_cards, *offer.cards))
    return replace(state, fees=tuple(fees))


def accept(state: State, seat: int, action: Accept) -> State:
    deal = _answer(state, seat, "accept")
    check_deal(state, deal)
    state = replace(state, deal=None)
    state = _hand_over(state, deal.proposer, deal.partner, deal.give)
    state = _hand_over(state, deal.partner, deal.proposer, deal.take)
    return state.log(EventKind.DEAL, f"{state.name(seat)} accepts: the deal is done.", seat)


def reject(state: State, seat: int, action: Reject) -> State:
    _answer(state, seat, "reject")
    return replace(state, deal=None).log(
        EventKind.DEAL, f"{state.name(seat)} rejects the deal.", seat
    )


def withdraw(state: State, seat: int, action: Withdraw) -> State:
    if state.deal is None or state.deal.proposer != seat:
        raise RuleViolation(Rule.DEAL, f"{state.name(seat)} has no deal waiting to withdraw")
    return replace(state, deal=None).log(
        EventKind.DEAL, f"{state.name(seat)} withdraws the deal.", seat
    )
