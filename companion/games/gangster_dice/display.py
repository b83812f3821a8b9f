"""What the pages show besides the views: what is printed (the dice's faces, the tokens, the
cards), and each of a viewer's legal choices as a button with its label. Pure: labels are words,
like the narration."""

from __future__ import annotations

from typing import Any

from companion.games.gangster_dice.actions import (
    Action,
    Bid,
    ChooseCharacter,
    Load,
    PlaceOnStreets,
    Swap,
    TakeOff,
)
from companion.games.gangster_dice.components import TOKENS, Dice, Token
from companion.games.gangster_dice.legal import legal_actions
from companion.games.gangster_dice.state import State
from companion.protocol.game import Choice


def table_data(state: State) -> dict[str, Any]:
    """What is printed and public: the box's contents (each die's faces by face number: what a
    phone sends for a tapped symbol), the tokens and their symbols, the character cards."""
    return {
        "components": state.components.to_json(),
        "tokens": [
            {"token": t.value, "name": t.named.removeprefix("the "), "symbol": t.symbol.value}
            for t in TOKENS
        ],
        "characters": [c.to_json() for c in state.characters],
        "rulebook": "gangster-dice-rulebook.txt",
    }


def choices(state: State, viewer: str) -> list[Choice]:
    """The viewer's legal actions, labelled for buttons (group: what kind of choice)."""
    return [_choice(state, viewer, a) for a in legal_actions(state, viewer)]


def _choice(state: State, viewer: str, a: Action) -> Choice:
    seat = state.seat(viewer)
    p = state.players[seat]
    match a:
        case ChooseCharacter():
            card = next(c for c in state.characters if c.name == a.name)
            return Choice(
                a.to_dict(),
                "character",
                f"Play {card.name} ({card.favors} favor cards)",
                extra={"ability": card.ability},
            )
        case Bid():
            bonus = state.streets.total if state.controller(Token.STREETS) == seat else 0
            parts, scored = [], []
            for b in a.bids:
                score = p.shows(b.token.symbol) + b.favor + bonus
                parts.append(f"{b.token.heading} with a {b.favor}: scores {score}")
                scored.append({**b.to_json(), "score": score})
            label = "; ".join(parts)
            return Choice(
                a.to_dict(),
                "bid",
                label[0].upper() + label[1:],
                extra={"bids": scored, "current": p.bid == a.bids},
            )
        case Swap():
            if not a.give:
                return Choice(a.to_dict(), "swap", "Keep your dice")
            return Choice(
                a.to_dict(),
                "swap",
                f"Give {Dice.of_colours(a.give).describe()}, take "
                f"{Dice.of_colours(a.take).describe()}",
            )
        case PlaceOnStreets():
            if a.colour is None:
                return Choice(a.to_dict(), "streets", "Put no die on the Streets")
            return Choice(a.to_dict(), "streets", f"Put a {a.colour} die on the Streets")
        case Load():
            if a.colour is None:
                return Choice(a.to_dict(), "load", "Put no dice on the Investigator")
            n = state.givable(seat).count(a.colour)
            dice = f"{a.colour} die" if n == 1 else f"{n} {a.colour} dice"
            return Choice(a.to_dict(), "load", f"Put your {dice} on the Investigator")
        case TakeOff():
            if a.colour is None:
                return Choice(
                    a.to_dict(),
                    "take",
                    "Leave the dice on the Investigator (you control the Lawyer)",
                )
            return Choice(a.to_dict(), "take", f"Take a {a.colour} die off the Investigator")
    raise AssertionError(f"no label for {a!r}")
