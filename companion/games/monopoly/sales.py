"""Buying property: at the listed price, or at the Banker's auction (Where Did You Land? 1,
Don't Wait for Your Turn 2).

An auction is open bidding in turn, on the phones: each bidder in turn bids more than the
highest bid (from $1, in cash they hold) or passes and is out; when everyone else has passed,
the last bid buys. Auctions come from a property declined at its price, from the properties
of a player bankrupt to the Bank (sold unmortgaged), and from a Hideout/Compound shortage
(opened at the listed price by the player who asked to build).
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.monopoly.actions import Bid, Buy, Decline, Pass
from companion.games.monopoly.flow import finish_landing, require_step
from companion.games.monopoly.sections import Rule
from companion.games.monopoly.state import Auction, EventKind, State, Step
from companion.protocol.errors import RuleViolation


def _landed(state: State, seat: int, space: int, doing: str) -> str:
    require_step(state, seat, (Step.BUY,), Rule.UNOWNED, doing)
    here = state.players[seat].position
    if space != here:
        raise RuleViolation(
            Rule.UNOWNED,
            f"{state.name(seat)} landed on {state.space_name(here)}, not {state.space_name(space)}",
        )
    return state.space_name(space)


def buy(state: State, seat: int, action: Buy) -> State:
    """Pay the Bank the listed price and take the Title Deed."""
    name = _landed(state, seat, action.space, "buy")
    price = state.board.spaces[action.space].price
    cash = state.players[seat].cash
    if cash < price:
        raise RuleViolation(
            Rule.UNOWNED,
            f"{name} costs ${price} and {state.name(seat)} has "
            f"${cash}: mortgage or sell first, or let it go to auction",
        )
    state = state.pay(seat, price).with_holding(action.space, owner=seat)
    state = state.log(
        EventKind.BUY, f"{state.name(seat)} buys {name} for ${price}.", seat, price, action.space
    )
    return finish_landing(state)


def decline(state: State, seat: int, action: Decline) -> State:
    """Not at the listed price: the Banker auctions it, the decliner bidding first."""
    name = _landed(state, seat, action.space, "decline")
    state = state.log(
        EventKind.AUCTION,
        f"{state.name(seat)} does not buy {name}: it goes up for auction.",
        seat,
        space=action.space,
    )
    return open_auction(finish_landing(state), action.space, seat)


def open_auction(
    state: State,
    lot: int | str,
    first: int,
    bidders: tuple[int, ...] | None = None,
    opening: int = 0,
    opener: int | None = None,
    requested: int | None = None,
) -> State:
    """Start the auction of ``lot``: bidders in turn from ``first``, clockwise (every player
    still in, unless ``bidders`` says who may bid). A shortage auction is opened by a bid:
    ``opener`` bid ``opening`` to build on ``requested``."""
    n = len(state.players)
    allowed = set(state.active if bidders is None else bidders)
    order = tuple(s for k in range(n) if (s := (first + k) % n) in allowed)
    if opener in order:  # the opener has spoken: the others answer, then back to them
        k = order.index(opener)
        order = order[k + 1 :] + order[: k + 1]
    if not order:
        return state
    auction = Auction(
        lot, order, order[0], high_bid=opening, high_bidder=opener, requested=requested
    )
    state = replace(state, auction=auction)
    return close_auction(state) if order[0] == opener else state


def lot_name(state: State, lot: int | str) -> str:
    return state.space_name(lot) if isinstance(lot, int) else f"a {lot.capitalize()}"


def _my_bid(state: State, seat: int, doing: str) -> Auction:
    a = state.auction
    if a is None:
        raise RuleViolation(Rule.AUCTION, f"there is no auction to {doing} in")
    if state.deal is not None:
        raise RuleViolation(Rule.AUCTION, "the auction waits for the deal's answer")
    if seat != a.turn:
        raise RuleViolation(
            Rule.AUCTION, f"it is {state.name(a.turn)}'s turn to bid, not {state.name(seat)}'s"
        )
    return a


def bid(state: State, seat: int, action: Bid) -> State:
    a = _my_bid(state, seat, "bid")
    cash = state.players[seat].cash
    if action.amount < 1 or action.amount <= a.high_bid:
        low = max(1, a.high_bid + 1)
        raise RuleViolation(
            Rule.AUCTION, f"a bid must be at least ${low} (the highest bid is ${a.high_bid})"
        )
    if action.amount > cash:
        raise RuleViolation(Rule.AUCTION, f"{state.name(seat)} has ${cash}: bids are made in cash")
    state = replace(state, auction=replace(a, high_bid=action.amount, high_bidder=seat))
    state = state.log(
        EventKind.AUCTION,
        f"{state.name(seat)} bids ${action.amount} for {lot_name(state, a.lot)}.",
        seat,
        action.amount,
    )
    return _next_bidder(state)


def pass_bid(state: State, seat: int, action: Pass) -> State:
    a = _my_bid(state, seat, "pass")
    state = replace(state, auction=replace(a, out=(*a.out, seat)))
    state = state.log(EventKind.AUCTION, f"{state.name(seat)} passes.", seat)
    return _next_bidder(state)


def _next_bidder(state: State) -> State:
    """The next bidder in turn still in, or the end: everyone else has passed."""
    a = state.auction
    assert a is not None
    n = len(a.order)
    start = a.order.index(a.turn)
    for k in range(1, n + 1):
        s = a.order[(start + k) % n]
        if s in a.out:
            continue
        if s == a.high_bidder:
            break  # back round to the highest bidder: nobody else bid
        return replace(state, auction=replace(a, turn=s))
    return close_auction(state)


def close_auction(state: State) -> State:
    """The last bid buys; with no bid at all, a property stays with the Bank."""
    a = state.auction
    assert a is not None
    state = replace(state, auction=None)
    name = lot_name(state, a.lot)
    if a.high_bidder is None:
        state = state.log(
            EventKind.AUCTION,
            f"Nobody bids: {name} stays with the Bank.",
            space=a.lot if isinstance(a.lot, int) else None,
        )
    else:
        winner = a.high_bidder
        state = state.pay(winner, a.high_bid)
        state = state.log(
            EventKind.AUCTION,
            f"{state.name(winner)} buys {name} for ${a.high_bid} at auction.",
            winner,
            a.high_bid,
            a.lot if isinstance(a.lot, int) else None,
        )
        if isinstance(a.lot, int):
            state = state.with_holding(a.lot, owner=winner, mortgaged=False)
        elif a.requested is not None and state.holding(a.requested).owner == winner:
            state = state.add_building(a.requested)  # where the winner asked to build
        else:
            state = replace(state, placing=(winner, a.lot))  # the winner says where
    return next_lot(state)


def next_lot(state: State) -> State:
    """Auction the next property of a player bankrupt to the Bank, if any are left."""
    if state.auction is not None or not state.lots:
        return state
    lot, rest = state.lots[0], state.lots[1:]
    state = replace(state, lots=rest)
    first = state.turn if not state.players[state.turn].bankrupt else state.left_of(state.turn)
    return open_auction(state, lot, first)
