"""What the pages show besides the views: the printed board, the cards and the Title Deeds
(public: they are on the table), and each of a viewer's legal choices as a button, labelled in
the game's words, grouped, with the hints a phone needs (a bid's range, a building's cost)."""

from __future__ import annotations

from typing import Any

from companion.games.monopoly.actions import (
    Accept,
    Action,
    AskRent,
    Bankrupt,
    Bid,
    Build,
    Buy,
    Decline,
    DonCardDealt,
    Draw,
    EndTurn,
    KeepMortgaged,
    Mortgage,
    Pass,
    PayFine,
    PlayDon,
    Reject,
    Sell,
    TakeDeed,
    TryDoubles,
    Unmortgage,
    UseJailCard,
    Withdraw,
)
from companion.games.monopoly.board import Edition
from companion.games.monopoly.buildings import shortage
from companion.games.monopoly.legal import legal_actions
from companion.games.monopoly.money import interest
from companion.games.monopoly.mortgages import repay_cost
from companion.games.monopoly.state import State
from companion.protocol.errors import MalformedAction
from companion.protocol.game import Choice


def table_data(edition: Edition) -> dict[str, Any]:
    """The printed board, its Title Deeds, the cards and the Don cards, as the pages draw
    them; ``placeholder_facts`` says how much of it is not from a real copy yet."""
    board = edition.board
    bank = board.bank
    return {
        "board": board.id,
        "name": board.name,
        "placeholder": edition.placeholder_facts > 0,
        "placeholder_facts": edition.placeholder_facts,
        "spaces": [
            {
                "index": s.index,
                "kind": s.kind.value,
                "name": s.name,
                "group": s.group,
                "price": s.price,
                "mortgage": s.mortgage,
                "rents": list(s.rents),
                "building_cost": s.building_cost,
                "tax": s.tax,
                "deck": s.deck.value if s.deck else None,
            }
            for s in board.spaces
        ],
        "groups": [
            {"id": g.id, "name": g.name, "colour": g.colour, "spaces": list(g.spaces)}
            for g in board.groups
        ],
        "bank": {
            "start_cash": bank.start_cash,
            "salary": bank.salary,
            "jail_fine": bank.jail_fine,
            "hideouts": bank.hideouts,
            "compounds": bank.compounds,
            "vehicle_rents": list(bank.vehicle_rents),
            "utility_multipliers": list(bank.utility_multipliers),
            "mortgage_interest": bank.mortgage_interest,
        },
        "cards": [
            {"id": c.id, "deck": c.deck.value, "text": c.text, "effect": c.effect.value}
            for c in edition.cards
        ],
        "dons": [{"id": d.id, "name": d.name} for d in edition.dons],  # texts: when played
    }


def _money(n: int) -> str:
    return f"${n}"


def label(state: State, action: Action) -> tuple[str, str, dict[str, Any]]:
    """A choice's (group, label, hints)."""

    def name(space: int) -> str:
        return state.space_name(space)

    spaces = state.board.spaces
    match action:
        case TakeDeed(space=space):
            return "deeds", f"Dealt: {name(space)}", {"space": space}
        case DonCardDealt(card=card):
            don = state.edition.don(card)
            return "don", f"My Don card: {don.name if don else card}", {}
        case PlayDon():
            return "don", "Play my Don card", {}
        case Buy(space=space):
            return (
                "buy",
                f"Buy {name(space)} for {_money(spaces[space].price)}",
                {"space": space, "price": spaces[space].price},
            )
        case Decline(space=space):
            return "buy", f"Auction {name(space)}", {"space": space}
        case Bid(amount=amount):
            a = state.auction
            assert a is not None
            return (
                "bid",
                f"Bid {_money(amount)}",
                {"min": max(1, a.high_bid + 1), "max": state.players[a.turn].cash},
            )
        case Pass():
            return "bid", "Pass", {}
        case Draw(card=card_id):
            drawn = state.edition.card(card_id)
            assert drawn is not None
            return "draw", drawn.text, {"card": card_id}
        case Build(space=space):
            building = state.next_building(space) or ""
            cost = spaces[space].building_cost
            auction = bool(state.placing is None and shortage(state, building))
            text = "Place the won" if state.placing else ("Bid for a" if auction else "Build a")
            price = "" if state.placing else f" ({_money(cost)})"
            return (
                "build",
                f"{text} {building.capitalize()} on {name(space)}{price}",
                {"space": space, "building": building, "cost": cost, "auction": auction},
            )
        case Sell(space=space):
            h = state.holding(space)
            building = "Compound" if h.compound else "Hideout"
            return (
                "sell",
                f"Sell a {building} on {name(space)} ({_money(spaces[space].building_cost // 2)})",
                {"space": space},
            )
        case Mortgage(space=space):
            return (
                "mortgage",
                f"Mortgage {name(space)} (+{_money(spaces[space].mortgage)})",
                {"space": space},
            )
        case Unmortgage(space=space):
            return (
                "mortgage",
                f"Repay the mortgage on {name(space)} ({_money(repay_cost(state, space))})",
                {"space": space},
            )
        case KeepMortgaged(space=space):
            fee = interest(state, spaces[space].mortgage)
            return (
                "mortgage",
                f"Keep {name(space)} mortgaged (pay {_money(fee)} interest)",
                {"space": space},
            )
        case PayFine():
            return "jail", f"Pay the {_money(state.board.bank.jail_fine)} fine", {}
        case UseJailCard():
            return "jail", "Use a Get Out of Jail Free card", {}
        case TryDoubles():
            return "jail", "Roll for doubles", {}
        case AskRent(space=space):
            claim = next(c for c in state.claims if c.space == space)
            return (
                "rent",
                f"Ask {state.name(claim.payer)} for {_money(claim.amount)} rent ({name(space)})",
                {"space": space},
            )
        case Accept():
            return "deal", "Accept the deal", {}
        case Reject():
            return "deal", "Reject the deal", {}
        case Withdraw():
            return "deal", "Withdraw my deal", {}
        case Bankrupt():
            return "debt", "Declare bankruptcy", {}
        case EndTurn():
            return "turn", "End my turn", {}
    return action.TYPE, action.TYPE, {}


def choices(state: State, viewer: str | None) -> list[Choice]:
    """The viewer's legal choices now, labelled for buttons."""
    if viewer is None or state.is_over:
        return []
    try:
        state.seat(viewer)
    except MalformedAction:
        return []
    out = []
    for a in legal_actions(state, viewer):
        group, text, extra = label(state, a)
        out.append(Choice(a.to_dict(), group, text, (), extra))
    return out
