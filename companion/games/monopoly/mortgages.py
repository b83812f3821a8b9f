"""Mortgages (Don't Wait for Your Turn 5 and 6).

- Mortgage an unimproved property (none of its colour group built on) for the value on the
  back of its Title Deed; no rent is collected on it.
- Repay it with the value plus 10% interest.
- A player who receives a mortgaged property (in a deal, or from a player bankrupt to them)
  must at once either repay it, or pay just the 10% and keep it mortgaged: repaying it later
  costs the 10% again.
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.monopoly.actions import KeepMortgaged, Mortgage, Unmortgage
from companion.games.monopoly.flow import Hold, hold, may_manage
from companion.games.monopoly.money import charge, interest
from companion.games.monopoly.sections import Rule
from companion.games.monopoly.state import EventKind, State
from companion.protocol.errors import RuleViolation


def _mine(state: State, seat: int, space: int, rule: str) -> str:
    name = state.space_name(space)
    h = state.holding(space)
    if h.owner != seat:
        owner = f"{state.name(h.owner)}'s" if h.owner is not None else "the Bank's"
        raise RuleViolation(rule, f"{name} is {owner}, not {state.name(seat)}'s")
    return name


def why_not_mortgage(state: State, seat: int, space: int) -> str | None:
    h = state.holding(space)
    if h.owner != seat:
        return "not theirs"
    if h.mortgaged:
        return f"{state.space_name(space)} is mortgaged already"
    built = [
        i
        for i in state.board.set_of(space)
        if state.board.spaces[i].building_cost and state.holding(i).buildings
    ]
    if built:
        return (
            f"sell the buildings of its group to the Bank first ({state.space_name(built[0])} "
            "has some)"
        )
    return None


def mortgage(state: State, seat: int, action: Mortgage) -> State:
    may_manage(state, seat, Rule.MORTGAGE, "mortgaging", raising=True)
    name = _mine(state, seat, action.space, Rule.MORTGAGE)
    why = why_not_mortgage(state, seat, action.space)
    if why is not None:
        raise RuleViolation(Rule.MORTGAGE, why)
    value = state.board.spaces[action.space].mortgage
    state = state.pay(seat, -value).with_holding(action.space, mortgaged=True)
    return state.log(
        EventKind.MORTGAGE,
        f"{state.name(seat)} mortgages {name} for ${value}.",
        seat,
        value,
        action.space,
    )


def repay_cost(state: State, space: int) -> int:
    value = state.board.spaces[space].mortgage
    return value + interest(state, value)


def _fee_due(state: State, seat: int, space: int) -> bool:
    return hold(state) is Hold.FEES and state.fees[0] == (seat, space)


def unmortgage(state: State, seat: int, action: Unmortgage) -> State:
    """Repay a mortgage (value plus 10%); for a property just received this settles its
    interest too."""
    if not _fee_due(state, seat, action.space):
        may_manage(state, seat, Rule.MORTGAGE, "repaying a mortgage")
    name = _mine(state, seat, action.space, Rule.MORTGAGE)
    if not state.holding(action.space).mortgaged:
        raise RuleViolation(Rule.MORTGAGE, f"{name} is not mortgaged")
    cost = repay_cost(state, action.space)
    cash = state.players[seat].cash
    if cash < cost:
        raise RuleViolation(
            Rule.MORTGAGE,
            f"repaying {name} costs ${cost} (the mortgage plus "
            f"{state.board.bank.mortgage_interest}%) and {state.name(seat)} has "
            f"${cash}",
        )
    state = state.pay(seat, cost).with_holding(action.space, mortgaged=False)
    state = replace(state, fees=tuple(f for f in state.fees if f != (seat, action.space)))
    return state.log(
        EventKind.MORTGAGE,
        f"{state.name(seat)} repays the mortgage on {name}: ${cost}.",
        seat,
        cost,
        action.space,
    )


def keep_mortgaged(state: State, seat: int, action: KeepMortgaged) -> State:
    """A mortgaged property received: pay only the 10% and keep it face down."""
    name = _mine(state, seat, action.space, Rule.DEAL)
    if not _fee_due(state, seat, action.space):
        raise RuleViolation(Rule.DEAL, f"{state.name(seat)} owes no interest on {name} now")
    fee = interest(state, state.board.spaces[action.space].mortgage)
    state = replace(state, fees=state.fees[1:])
    return charge(
        state,
        seat,
        None,
        fee,
        f"{state.board.bank.mortgage_interest}% interest to keep {name} mortgaged",
        action.space,
    )
