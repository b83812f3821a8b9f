"""What the pages show besides the views: the printed board to draw, and a viewer's legal
choices as buttons. A placement's choice carries its neighborhood, positions, racket, cost and
what it would take, so a phone can draw the neighborhood and let the player tap a position
(``group`` is ``place:<neighborhood>``); several taps make one placement, which the game
checks as a whole."""

from __future__ import annotations

from typing import Any

from companion.games.godfather_1971.actions import (
    Action,
    BreakCard,
    Declare,
    Draw,
    EndFingerman,
    EndTurn,
    Finger,
    GiveUp,
    PieceAct,
    Place,
    PlayCard,
    Sell,
)
from companion.games.godfather_1971.cards import Deck, break_deck, parse_card
from companion.games.godfather_1971.fight import Placed
from companion.games.godfather_1971.legal import legal_actions, placements, turn_actions
from companion.games.godfather_1971.placing import who_holds
from companion.games.godfather_1971.rackets import COST, Racket
from companion.games.godfather_1971.state import Cards, State, Step
from companion.protocol.errors import MalformedAction
from companion.protocol.game import Choice


def table_data(state: State) -> dict[str, Any]:
    """The printed board, the Racket Control Value card and the price list (public)."""
    board = state.board
    return {
        "neighborhoods": [
            {
                "id": layout.id,
                "name": layout.name,
                "size": layout.size,
                "positions": [
                    {"name": n, "row": r, "column": c}
                    for n, (r, c) in zip(layout.names, layout.cells, strict=True)
                ],
                "straight": sorted(
                    {
                        tuple(sorted((layout.names[i], n)))
                        for i in range(layout.size)
                        for n in layout.names_of(layout.straight[i])
                    }
                ),
                "values": {r.value: board.value(i, r) for r in Racket},
                "placeholder_shape": layout.placeholder,
            }
            for i, layout in enumerate(board.layouts)
        ],
        "rackets": [
            {"id": r.value, "title": r.card_name, "piece": r.piece, "cost": COST[r]} for r in Racket
        ],
        "decks": {
            d.value: {code: board.decks.of(d).count(code) for code in board.decks.kinds(d)}
            for d in Deck
        },
        "placeholders": len(board.placeholders()),
        "cards": state.cards.value,
    }


def _piece_label(state: State, action: PieceAct, verb: str) -> tuple[str, dict[str, Any]]:
    i = state.board.index(action.neighborhood)
    layout = state.board.layouts[i]
    racket = state.hoods[i].racket
    owner = who_holds(state, i, layout.index(action.position))
    whose = state.name(owner) + "'s" if owner is not None else "the"
    piece = racket.piece if racket else "piece"
    extra = {
        "neighborhood": layout.id,
        "position": action.position,
        "owner": state.name(owner) if owner is not None else None,
    }
    return f"{verb} {whose} {piece} on {action.position} in {layout.name}", extra


def _place_choice(state: State, action: Place, outcome: Placed) -> Choice:
    i = state.board.index(action.neighborhood)
    layout = state.board.layouts[i]
    turn = state.turn
    assert turn is not None
    racket = state.hoods[i].racket or action.racket
    assert racket is not None
    n = len(action.positions)
    free = min(turn.free_count, n) if racket is turn.free else 0
    cost = (n - free) * racket.cost
    price = "free" if not cost else f"${cost:,}"
    label = f"{layout.name} {'+'.join(action.positions)}: {racket.counted(n)} ({price})"
    takes = [
        {"owner": state.name(t.owner), "positions": layout.names_of(t.group)} for t in outcome.taken
    ]
    if takes:
        label += ", taking " + ", ".join(
            f"{t['owner']}'s {'+'.join(t['positions'])}" for t in takes
        )
    extra = {
        "neighborhood": layout.id,
        "positions": list(action.positions),
        "racket": racket.value,
        "cost": cost,
        "free": free,
        "takes": takes,
    }
    return Choice(action.to_dict(), f"place:{layout.id}", label, (), extra)


def _label(state: State, action: Action) -> tuple[str, str, dict[str, Any]]:
    if isinstance(action, PlayCard):
        hand = state.players[state.seat(action.player)].hand
        label = parse_card(hand, Deck.PLAYING).label if hand else "your card"
        return "play_card", f"Play your card: {label}", {}
    if isinstance(action, BreakCard):
        assert state.turn is not None  # a Break card is drawn in a turn
        deck = break_deck(state.turn.roll)
        return "break_card", f"I drew {parse_card(action.card, deck).label}", {"card": action.card}
    if isinstance(action, Draw):
        return (
            "draw",
            f"I drew {parse_card(action.card, Deck.PLAYING).label}",
            {"card": action.card},
        )
    if isinstance(action, Finger):
        label, extra = _piece_label(state, action, "Remove")
        return f"fingerman:{action.neighborhood}", label, extra
    if isinstance(action, EndFingerman):
        return "fingerman", "Remove no more pieces", {}
    if isinstance(action, GiveUp):
        label, extra = _piece_label(state, action, "Give up")
        return f"give_up:{action.neighborhood}", label.replace(f"{action.player}'s", "your"), extra
    if isinstance(action, Sell):
        label, extra = _piece_label(state, action, "Sell")
        racket = state.hoods[state.board.index(action.neighborhood)].racket
        half = racket.cost // 2 if racket else 0
        return (
            f"sell:{action.neighborhood}",
            label.replace(f"{action.player}'s", "your") + f" for ${half:,}",
            {**extra, "value": half},
        )
    if isinstance(action, Declare):
        name = state.board.layouts[state.board.index(action.neighborhood)].name
        return "declare", f"Declare CONTROL of {name}", {"neighborhood": action.neighborhood}
    if isinstance(action, EndTurn):
        draws = " and draw a card" if state.cards is Cards.COMPANION else ""
        return "end_turn", f"End my turn{draws}", {}
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
    rest = legal_actions(state, viewer)
    if (
        state.step is Step.PLACE
        and state.turn is not None
        and state.name(state.turn.seat) == viewer
    ):
        out += [_place_choice(state, a, o) for a, o in placements(state)]
        rest = turn_actions(state, viewer)
    for a in rest:
        group, label, extra = _label(state, a)
        out.append(Choice(a.to_dict(), group, label, (), extra))
    return out
