"""Money between players and the Bank: paying, owing (Help! I'm in debt!), and what a player
could raise by selling and mortgaging.

A payment a player can make is made at once: nobody counts paper money. One they cannot make
becomes a :class:`~companion.games.monopoly.state.Debt`, and the game waits for them to raise
the cash (sell buildings, mortgage, deal) or go bankrupt; it is paid the moment they can.
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.monopoly.state import Debt, EventKind, State


def interest(state: State, mortgage: int) -> int:
    """The mortgage interest on a mortgage value, whole dollars rounded up (10% of $75 is
    $8, as modern Title Deeds print the repay value)."""
    return -(-mortgage * state.board.bank.mortgage_interest // 100)


def who(state: State, seat: int | None) -> str:
    return "the Bank" if seat is None else state.name(seat)


def transfer(state: State, debtor: int, creditor: int | None, amount: int) -> State:
    state = state.pay(debtor, amount)
    return state if creditor is None else state.pay(creditor, -amount)


def charge(
    state: State,
    debtor: int,
    creditor: int | None,
    amount: int,
    reason: str,
    space: int | None = None,
) -> State:
    """``debtor`` pays ``amount`` for ``reason`` now if they can (and owe nobody already),
    else owes it."""
    if amount <= 0:
        return state
    owes = any(d.debtor == debtor for d in state.debts)
    if state.players[debtor].cash >= amount and not owes:
        state = transfer(state, debtor, creditor, amount)
        return state.log(
            EventKind.PAY,
            f"{state.name(debtor)} pays {who(state, creditor)} ${amount} ({reason}).",
            debtor,
            amount,
            space,
        )
    state = replace(state, debts=(*state.debts, Debt(debtor, creditor, amount, reason)))
    return state.log(
        EventKind.DEBT,
        f"{state.name(debtor)} owes {who(state, creditor)} "
        f"${amount} ({reason}) and has ${state.players[debtor].cash}: "
        "they must raise the money or go bankrupt.",
        debtor,
        amount,
        space,
    )


def settle_debts(state: State) -> State:
    """Pay every debt, in order, whose debtor now has the cash."""
    while state.debts and state.players[state.debts[0].debtor].cash >= state.debts[0].amount:
        d = state.debts[0]
        state = transfer(replace(state, debts=state.debts[1:]), d.debtor, d.creditor, d.amount)
        state = state.log(
            EventKind.PAY,
            f"{state.name(d.debtor)} pays {who(state, d.creditor)} ${d.amount} ({d.reason}).",
            d.debtor,
            d.amount,
        )
    return state


def building_sale_value(state: State, space: int) -> int:
    """What selling every building on a location back to the Bank brings (half price; a
    Compound is sold with the Hideouts it is exchanged for)."""
    h = state.holding(space)
    half = state.board.spaces[space].building_cost // 2
    if h.compound:
        return half * (1 + state.hideouts_per_compound)
    return half * h.hideouts


def liquidation_value(state: State, seat: int) -> int:
    """Cash plus everything the Bank would give for ``seat``'s buildings and mortgages: what
    they can raise without another player (Help! I'm in debt!)."""
    total = state.players[seat].cash
    for space in state.owned_by(seat):
        total += building_sale_value(state, space)
        if not state.holding(space).mortgaged:
            total += state.board.spaces[space].mortgage
    return total
