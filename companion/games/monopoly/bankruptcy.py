"""Bankruptcy and the end of the game (Help! I'm in Debt!, How Do I Win?, Speed Play's End of
Game).

A player who owes more than they can raise, even by selling every building and mortgaging
every property, is bankrupt. Declaring it raises all of that first (the rulebook's "pay
whatever money you were able to raise"), then:

- to a player: they get the cash, every property (all mortgaged by now: they must repay each
  or pay its 10%) and the Get Out of Jail Free cards;
- to the Bank: the cash is gone, the cards go back under their decks and every property is
  auctioned unmortgaged.

The last player standing wins; in Speed Play the game ends at the first bankruptcy.
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.monopoly.actions import Bankrupt
from companion.games.monopoly.flow import Hold, hold, next_turn
from companion.games.monopoly.money import building_sale_value, liquidation_value, who
from companion.games.monopoly.sales import next_lot
from companion.games.monopoly.sections import Rule
from companion.games.monopoly.state import EventKind, Phase, State
from companion.protocol.errors import RuleViolation


def bankrupt(state: State, seat: int, action: Bankrupt) -> State:
    if hold(state) is not Hold.DEBT or state.debts[0].debtor != seat:
        raise RuleViolation(
            Rule.DEBT,
            f"{state.name(seat)} owes nothing unpaid: only a debt "
            "that cannot be paid makes a player bankrupt",
        )
    debt = state.debts[0]
    can = liquidation_value(state, seat)
    if can >= debt.amount:
        raise RuleViolation(
            Rule.DEBT,
            f"{state.name(seat)} owes ${debt.amount} and can raise "
            f"${can} by selling buildings and mortgaging: raise it and pay",
        )
    return go_bankrupt(state, seat, debt.creditor)


def _raise_everything(state: State, seat: int) -> State:
    """Every building sold to the Bank, every property mortgaged."""
    for space in state.owned_by(seat):
        cash = building_sale_value(state, space)
        if not state.holding(space).mortgaged:
            cash += state.board.spaces[space].mortgage
        state = state.pay(seat, -cash).with_holding(
            space, hideouts=0, compound=False, mortgaged=True
        )
    return state


def go_bankrupt(state: State, seat: int, creditor: int | None) -> State:
    name = state.name(seat)
    state = _raise_everything(state, seat)
    cash = state.players[seat].cash
    deeds = state.owned_by(seat)
    speed = state.rules.speed_play
    if creditor is not None:
        cards = state.players[seat].jail_cards
        c = state.players[creditor]
        state = state.with_player(creditor, cash=c.cash + cash, jail_cards=(*c.jail_cards, *cards))
        for space in deeds:
            state = state.with_holding(space, owner=creditor)
        fees = () if speed else tuple((creditor, s) for s in deeds)
        state = replace(state, fees=state.fees + fees)
    else:
        for space in deeds:
            state = state.with_holding(space, owner=None, mortgaged=False)
        state = replace(state, lots=state.lots + (() if speed else deeds))
    state = state.with_player(seat, cash=0, bankrupt=True, jail_cards=(), in_jail=False)
    state = replace(
        state,
        debts=tuple(d for d in state.debts if seat not in (d.debtor, d.creditor)),
        claims=tuple(c for c in state.claims if seat not in (c.owner, c.payer)),
        fees=tuple(f for f in state.fees if f[0] != seat),
        out_order=(*state.out_order, seat),
    )
    state = state.log(
        EventKind.BANKRUPT,
        f"{name} is bankrupt: {who(state, creditor)} gets "
        f"${cash}" + (f" and {len(deeds)} properties" if deeds else "") + ".",
        seat,
        cash,
    )
    if speed:
        return end_game(
            state,
            f"{name} went bankrupt: Speed Play ends and the players still in count their fortunes",
        )
    if len(state.active) == 1:
        winner = state.name(state.active[0])
        return end_game(state, f"{winner} is the last player standing")
    if seat == state.turn:
        state = next_turn(state)
    return next_lot(state)


def end_game(state: State, why: str) -> State:
    state = replace(
        state,
        phase=Phase.OVER,
        end=why,
        auction=None,
        lots=(),
        deal=None,
        debts=(),
        fees=(),
        placing=None,
        claims=(),
    )
    return state.log(EventKind.BANKRUPT, f"Game over: {why}.")
