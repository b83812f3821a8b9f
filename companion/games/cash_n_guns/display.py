"""What the pages show besides the views: the box as printed (public), and each of a viewer's
legal choices as a button, labelled in the game's words.

A phone's buttons are the player's own moves. The table's way of recording every gun (an
``aim`` with ``"by": "table"``, sent by the host for the player) is legal but is not a phone's
button: the phone offers "Aim at ..." and "Confirm" instead.
"""

from __future__ import annotations

from typing import Any

from companion.games.cash_n_guns.actions import (
    Action,
    Aim,
    AimedBy,
    ConfirmAim,
    Courage,
    CourageChoice,
    Discard,
    Flip,
    Load,
    Privilege,
    Take,
    TakeToken,
)
from companion.games.cash_n_guns.box import LootKind, dollars
from companion.games.cash_n_guns.legal import legal_actions
from companion.games.cash_n_guns.state import Phase, State
from companion.protocol.errors import MalformedAction
from companion.protocol.game import Choice


def table_data(state: State) -> dict[str, Any]:
    """The box as the pages show it: the Loot deck, the paintings' table, the bonus."""
    return state.box.to_json()


def _label(state: State, seat: int, action: Action) -> tuple[str, str, dict[str, Any]]:
    """(group, label, extra hints) for one of ``seat``'s legal actions."""
    p = state.players[seat]
    if isinstance(action, Flip):
        card = state.box.card(action.cards[0])
        assert card is not None
        left = state.deck[state.box.cards.index(card)]
        return "flip", f"Flip a {card.label} ({left} in the deck)", {"card": card.id}
    if isinstance(action, Load):
        return (
            "load",
            f"Load a {action.card.label} ({p.holds(action.card)} in hand)",
            {"card": action.card.value},
        )
    if isinstance(action, Aim):
        change = state.phase is Phase.CHANGE_TARGET
        words = ("Aim at " if not change else "Change target to ") + (
            action.target or "nobody (too slow)"
        )
        return "aim", words, {"target": action.target}
    if isinstance(action, ConfirmAim):
        gun = p.gun
        assert gun is not None
        target = state.name(gun.target) if gun.target is not None else "nobody"
        return "confirm_aim", f"Confirm: I aim at {target}", {"target": target}
    if isinstance(action, Privilege):
        if action.order is None:
            return "privilege", "Let every aim stand", {"order": None}
        gun = state.players[state.seat(action.order)].gun
        assert gun is not None and gun.target is not None
        return (
            "privilege",
            f"Order {action.order} to change target (now on {state.name(gun.target)})",
            {"order": action.order},
        )
    if isinstance(action, CourageChoice):
        if action.choice is Courage.LIE_DOWN:
            return "courage", "Lie down (safe, no loot)", {"choice": action.choice.value}
        return (
            "courage",
            "Banzai! (stand: risk a wound, share the loot)",
            {"choice": action.choice.value},
        )
    if isinstance(action, Take):
        return "take", _take_label(state, seat, action.card), {"card": action.card}
    if isinstance(action, TakeToken):
        return "take", "Flip the New Godfather token (the Godfather next turn)", {"card": "token"}
    if isinstance(action, Discard):
        left = (p.bangs - 1) if action.card.value == "bang" else p.clicks
        return (
            "discard",
            f"Discard a {action.card.label} ({left} other in hand)",
            {"card": action.card.value},
        )
    return action.TYPE, action.TYPE, {}


def _take_label(state: State, seat: int, card_id: str) -> str:
    card = state.box.card(card_id)
    assert card is not None
    p = state.players[seat]
    if card.kind is LootKind.PAINTING:
        have = sum(1 for c in p.loot if c == card.id)
        return (
            f"Take a painting (a collection of {have + 1}: "
            f"{dollars(state.box.collection_value(have + 1))})"
        )
    if card.kind is LootKind.FIRST_AID_KIT:
        return (
            "Take the First aid kit (heals your " + f"{p.wounds} wounds)"
            if p.wounds
            else "Take the First aid kit (no wounds: no effect)"
        )
    if card.kind is LootKind.CLIP:
        return "Take the Clip (a Bang! from the discard pile, then discard a card)"
    return f"Take a {card.label}"


def choices(state: State, viewer: str | None) -> list[Choice]:
    """The viewer's own legal choices now, labelled for buttons."""
    if viewer is None or state.is_over:
        return []
    try:
        seat = state.seat(viewer)
    except MalformedAction:
        return []
    out = []
    for action in legal_actions(state, viewer):
        if isinstance(action, Aim) and action.by is AimedBy.TABLE:
            continue  # the table's way of recording a gun, not a phone's button
        group, label, extra = _label(state, seat, action)
        out.append(Choice(action.to_dict(), group, label, (), extra))
    return out
