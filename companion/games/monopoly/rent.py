"""Rent (Where Did You Land? 2): what a player owes for landing on another player's property.

- A location: the printed rent, doubled when the owner holds its whole colour group and none of
  it is mortgaged; with Hideouts or a Compound, the Title Deed's rent for them.
- A Vehicle: by how many Vehicles the owner has ($25, $50, $100, $200).
- Cops & Politicians: the dice times 4, or times 10 when the owner has both.
- A mortgaged property: no rent.

A card that sends a player to the nearest Vehicle or Cop/Politician changes its rent
(``multiplier``): twice a Vehicle's rent, or ten times a new roll of the dice.
"""

from __future__ import annotations

from companion.games.monopoly.board import Kind
from companion.games.monopoly.state import State


def rent_due(state: State, space: int, dice: tuple[int, ...], multiplier: int = 0) -> int:
    """The rent for landing on ``space`` with ``dice`` thrown (0 if none is due)."""
    h = state.holding(space)
    if h.owner is None or h.mortgaged:
        return 0
    s = state.board.spaces[space]
    bank = state.board.bank
    if s.kind is Kind.LOCATION:
        if h.compound:
            return s.rents[-1]
        if h.hideouts:
            return s.rents[h.hideouts]
        whole = all(
            state.holding(i).owner == h.owner and not state.holding(i).mortgaged
            for i in state.board.set_of(space)
        )
        return s.rents[0] * (2 if whole else 1)
    owned = max(1, state.count_owned(h.owner, s.kind))
    if s.kind is Kind.VEHICLE:
        return bank.vehicle_rents[owned - 1] * (multiplier or 1)
    return sum(dice) * (multiplier or bank.utility_multipliers[owned - 1])


def rent_words(state: State, space: int, multiplier: int = 0) -> str:
    """Why the rent is what it is, for the narration."""
    h = state.holding(space)
    s = state.board.spaces[space]
    if s.kind is Kind.LOCATION:
        if h.compound:
            return "with a Compound"
        if h.hideouts:
            return f"with {h.hideouts} Hideout{'s' if h.hideouts > 1 else ''}"
        return (
            "doubled: the whole colour group"
            if rent_due(state, space, ()) > s.rents[0]
            else "unimproved"
        )
    assert h.owner is not None
    owned = max(1, state.count_owned(h.owner, s.kind))
    if s.kind is Kind.VEHICLE:
        base = f"the owner has {owned} Vehicle{'s' if owned > 1 else ''}"
        return f"{base}, times {multiplier} by the card" if multiplier else base
    if multiplier:
        return f"the card says the dice times {multiplier}"
    times = state.board.bank.utility_multipliers[owned - 1]
    return f"the dice times {times}: the owner has {owned} of Cops & Politicians"
