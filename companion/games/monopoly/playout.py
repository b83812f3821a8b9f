"""A random next action, the way a sensible table plays: for ``companion simulate`` and
``demo``, the property tests and the benchmarks. The randomness comes in as a parameter.

The simulated players buy what they land on when they can spare the money, bid up to about a
property's price, build whenever they have a colour group and cash to spare, settle debts by
mortgaging before selling buildings, offer cash for the last property of a colour group, and
accept an offer only when it pays well. Games of the classic rules end by bankruptcy: the
players trade to complete colour groups more readily as the game goes on (a real table's
impatience), so a game with every group split cannot stall for ever.
"""

from __future__ import annotations

import random

from companion.games.monopoly.actions import (
    Action,
    AskRent,
    Bid,
    Build,
    Buy,
    Decline,
    DonCardDealt,
    EndTurn,
    KeepMortgaged,
    Mortgage,
    Offer,
    Pass,
    PayFine,
    PlayDon,
    Propose,
    Reject,
    Roll,
    Sell,
    TakeDeed,
    TryDoubles,
    Unmortgage,
    UseJailCard,
)
from companion.games.monopoly.board import Kind
from companion.games.monopoly.flow import hold
from companion.games.monopoly.legal import legal_actions, managing_actions, waiting_for
from companion.games.monopoly.mortgages import repay_cost
from companion.games.monopoly.state import Phase, State

RESERVE = 150  # cash a simulated player likes to keep for rent


def random_action(state: State, rng: random.Random) -> Action:
    """One next action: dice where dice are awaited, else a sensible choice of a waiting
    player (and now and then an owner asking for rent, under the rent=ask house rule)."""
    if state.claims and state.phase is Phase.PLAY and hold(state) is None and rng.random() < 0.9:
        claim = rng.choice(state.claims)
        return AskRent(state.name(claim.owner), claim.space)
    w = rng.choice(waiting_for(state))
    if w.dice is not None:
        return Roll(w.player, (rng.randint(1, 6), rng.randint(1, 6)))
    seat = state.seat(w.player)
    choose = _CHOOSERS.get(w.does)
    if choose is not None:
        return choose(state, seat, rng)
    return rng.choice(legal_actions(state, w.player))


def _deed(state: State, seat: int, rng: random.Random) -> Action:
    free = [i for i in state.board.properties if state.holding(i).owner is None]
    return TakeDeed(state.name(seat), rng.choice(free))


def _don(state: State, seat: int, rng: random.Random) -> Action:
    # The real deck deals each card once: the simulated dealer knows which are left.
    dealt = {p.don for p in state.players}
    left = [d.id for d in state.edition.dons if d.id not in dealt]
    return DonCardDealt(state.name(seat), rng.choice(left))


def _value_to(state: State, seat: int, space: int) -> float:
    """What a property is worth to a player: its price, more if it completes their group."""
    price = state.board.spaces[space].price
    others = [i for i in state.board.set_of(space) if i != space]
    if others and all(state.holding(i).owner == seat for i in others):
        return price * 2.0
    return price


def _bid(state: State, seat: int, rng: random.Random) -> Action:
    a = state.auction
    assert a is not None
    name = state.name(seat)
    cash = state.players[seat].cash
    if isinstance(a.lot, int):
        worth = _value_to(state, seat, a.lot)
    else:
        worth = 1.3 * min(
            state.board.spaces[i].building_cost
            for i in state.owned_by(seat)
            if state.board.spaces[i].kind is Kind.LOCATION
        )
    limit = min(worth * rng.uniform(0.5, 1.2), cash - RESERVE / 3)
    amount = a.high_bid + rng.choice((1, 5, 10, 20))
    return Bid(name, amount) if amount <= limit else Pass(name)


def _answer(state: State, seat: int, rng: random.Random) -> Action:
    deal = state.deal
    assert deal is not None
    name = state.name(seat)
    options = legal_actions(state, name)
    if not any(a.TYPE == "accept" for a in options):
        return Reject(name)
    got = deal.give.cash + sum(state.board.spaces[i].price for i in deal.give.spaces)
    gave = deal.take.cash + sum(_value_to(state, seat, i) for i in deal.take.spaces)
    eager = min(0.9, 0.3 + state.round / 200)
    good = got >= 1.4 * gave and state.players[seat].cash + deal.give.cash >= deal.take.cash
    return (
        next(a for a in options if a.TYPE == "accept")
        if good and rng.random() < eager
        else Reject(name)
    )


def _raise(state: State, seat: int, rng: random.Random) -> Action:
    """Mortgage what builds nothing first, then sell buildings; bankrupt only when nothing
    is left to raise."""
    options = legal_actions(state, state.name(seat))
    mortgages = [a for a in options if isinstance(a, Mortgage)]
    loose = [a for a in mortgages if not state.owns_set(seat, a.space)]
    sells = [a for a in options if isinstance(a, Sell)]
    bankrupt = [a for a in options if a.TYPE == "bankrupt"]
    for group in (loose, mortgages, sells, bankrupt):
        if group:
            return rng.choice(group)
    return rng.choice(options)


def _fees(state: State, seat: int, rng: random.Random) -> Action:
    _, space = state.fees[0]
    name = state.name(seat)
    if state.players[seat].cash >= repay_cost(state, space) + 2 * RESERVE:
        return Unmortgage(name, space)
    return KeepMortgaged(name, space)


def _place(state: State, seat: int, rng: random.Random) -> Action:
    return rng.choice(legal_actions(state, state.name(seat)))


def _jail(state: State, seat: int, rng: random.Random) -> Action:
    me = state.players[seat]
    if me.jail_cards:
        return UseJailCard(me.name)
    if me.cash >= state.board.bank.jail_fine + 2 * RESERVE and rng.random() < 0.5:
        return PayFine(me.name)
    return TryDoubles(me.name)


def _buy(state: State, seat: int, rng: random.Random) -> Action:
    me = state.players[seat]
    space = me.position
    price = state.board.spaces[space].price
    spare = me.cash - price
    if spare >= 0 and (spare >= RESERVE / 2 or rng.random() < 0.5) and rng.random() < 0.95:
        return Buy(me.name, space)
    return Decline(me.name, space)


def _deal_offer(state: State, seat: int, rng: random.Random) -> Action | None:
    """Cash for the properties that would complete one of this player's colour groups, all
    held by one other player."""
    me = state.players[seat]
    for group in rng.sample(state.board.groups, len(state.board.groups)):
        mine = [i for i in group.spaces if state.holding(i).owner == seat]
        missing = [i for i in group.spaces if i not in mine]
        owners = {state.holding(i).owner for i in missing}
        if not mine or not missing or len(owners) != 1 or None in owners:
            continue
        if any(state.holding(i).buildings for i in group.spaces):
            continue
        price = sum(state.board.spaces[i].price for i in missing)
        offer = int(price * rng.uniform(1.3, 2.2))
        if offer > me.cash - RESERVE:
            continue
        partner = owners.pop()
        assert partner is not None
        return Propose(
            me.name, state.name(partner), Offer(cash=offer), Offer(spaces=tuple(missing))
        )
    return None


def _end_turn(state: State, seat: int, rng: random.Random) -> Action:
    """Before passing the dice: build, repay, make an offer, now and then play the Don card."""
    name = state.name(seat)
    me = state.players[seat]
    options = managing_actions(state, seat)
    builds = [
        a
        for a in options
        if isinstance(a, Build) and me.cash - state.board.spaces[a.space].building_cost >= RESERVE
    ]
    if builds and rng.random() < 0.9:
        return rng.choice(builds)
    repays = [
        a
        for a in options
        if isinstance(a, Unmortgage) and me.cash - repay_cost(state, a.space) >= 3 * RESERVE
    ]
    if repays and rng.random() < 0.5:
        return rng.choice(repays)
    if rng.random() < min(0.5, 0.1 + state.round / 300):
        offer = _deal_offer(state, seat, rng)
        if offer is not None:
            return offer
    if me.don is not None and not me.don_played and rng.random() < 0.02:
        return PlayDon(name)
    return EndTurn(name)


def _draw(state: State, seat: int, rng: random.Random) -> Action:
    return rng.choice(legal_actions(state, state.name(seat)))


_CHOOSERS = {
    "deeds": _deed,
    "don_card": _don,
    "answer_deal": _answer,
    "bid": _bid,
    "raise_cash": _raise,
    "mortgage_fees": _fees,
    "place_building": _place,
    "jail": _jail,
    "buy": _buy,
    "draw": _draw,
    "end_turn": _end_turn,
}
