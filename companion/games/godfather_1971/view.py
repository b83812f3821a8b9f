"""What one person may see: the single filter between the game and the world.

A player's held card is seen by that player alone; when the companion keeps the decks, their
order is seen by nobody (the shuffle itself is hidden in every log). Everything else is on
the table: the board, the cash the Banker pays out, the cards as they are played.

The view is rich enough to draw the table: every neighborhood with its pieces, its racket,
the positions each player encloses, the count each holds against the majority it needs, and
each ruling with its picture (the positions that fence a capture; the placement that would
break a CONTROL and what it would take).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from companion.games.godfather_1971.actions import Action, Draw, Shuffle
from companion.games.godfather_1971.cards import Deck, break_deck, parse_card
from companion.games.godfather_1971.control import Verdict
from companion.games.godfather_1971.fight import controlled, holds
from companion.games.godfather_1971.layout import Layout, bits
from companion.games.godfather_1971.legal import waiting_for
from companion.games.godfather_1971.scoring import end_reason, score
from companion.games.godfather_1971.state import Cards, Hood, Ruling, RulingKind, State, Step
from companion.protocol.options import options_to_dict

HIDDEN = "hidden"


def card_json(code: str | None, deck: Deck) -> dict[str, Any] | None:
    if code is None:
        return None
    return {"code": code, "label": parse_card(code, deck).label}


def _positions(layout: Layout, mask: int) -> list[str]:
    return layout.names_of(mask)


def _by_position(state: State, layout: Layout, masks: tuple[int, ...]) -> dict[str, str]:
    """Whose each position is, in the layout's reading order."""
    owner = {}
    for seat, mask in enumerate(masks):
        for i in bits(mask):
            owner[i] = state.players[seat].name
    return {layout.names[i]: owner[i] for i in sorted(owner)}


def verdict_json(state: State, layout: Layout, verdict: Verdict) -> dict[str, Any]:
    out: dict[str, Any] = {
        "player": state.name(verdict.holder),
        "holds": verdict.holds,
        "of": verdict.size,
        "needs": verdict.size // 2 + 1,
        "majority": verdict.majority,
        "controls": verdict.controls,
        "breach": None,
    }
    b = verdict.breach
    if b is not None:
        out["breach"] = {
            "by": state.name(b.by),
            "placements": [_positions(layout, m) for m in b.moves],
            "takes": _positions(layout, b.taken),
            "fence": _positions(layout, b.fence),
            "enters": _positions(layout, b.entered),
            "leaves": b.after,
        }
    return out


def ruling_json(state: State, r: Ruling) -> dict[str, Any]:
    layout = state.board.layouts[r.hood]
    out: dict[str, Any] = {
        "kind": r.kind.value,
        "neighborhood": layout.id,
        "player": state.name(r.seat),
    }
    if r.kind is RulingKind.CAPTURE:
        out["placed"] = _positions(layout, r.placed)
        out["taken"] = [
            {
                "owner": state.name(t.owner),
                "positions": _positions(layout, t.group),
                "fence": _positions(layout, t.fence),
            }
            for t in r.taken
        ]
    if r.kind is RulingKind.WITHHELD:
        out["placed"] = _positions(layout, r.placed)
    if r.verdict is not None:
        out["check"] = verdict_json(state, layout, r.verdict)
    if r.board:
        out["board"] = _by_position(state, layout, r.board)
    return out


def hood_json(state: State, i: int) -> dict[str, Any]:
    layout = state.board.layouts[i]
    hood: Hood = state.hoods[i]
    mode = state.rules.controlled_positions
    seats = range(len(state.players))
    enclosed = tuple(controlled(layout, hood.pieces, s, mode) for s in seats)
    status = (
        "controlled" if hood.controller is not None else "stalemated" if hood.stalemated else "open"
    )
    return {
        "id": layout.id,
        "name": layout.name,
        "size": layout.size,
        "needs": layout.size // 2 + 1,
        "racket": (
            None
            if hood.racket is None
            else {
                "id": hood.racket.value,
                "title": hood.racket.card_name,
                "piece": hood.racket.piece,
                "cost": hood.racket.cost,
                "value": state.board.value(i, hood.racket),
            }
        ),
        "status": status,
        "controller": state.name(hood.controller) if hood.controller is not None else None,
        "pieces": _by_position(state, layout, hood.pieces),
        "enclosed": _by_position(state, layout, enclosed),
        "held": {state.name(s): holds(layout, hood.pieces, s, mode) for s in seats},
        "placed_this_turn": state.turn.placed[i] if state.turn is not None else 0,
        "declared": (
            None
            if hood.declared is None
            else {
                "player": state.name(hood.declared.seat),
                "territory": _positions(layout, hood.declared.territory),
            }
        ),
        "check": verdict_json(state, layout, hood.verdict) if hood.verdict else None,
        "placeholder_shape": layout.placeholder,
    }


def turn_json(state: State) -> dict[str, Any] | None:
    t = state.turn
    if t is None:
        return None
    deck = break_deck(t.roll)
    return {
        "player": state.name(t.seat),
        "number": t.number,
        "first": t.first,
        "card": card_json(t.card, Deck.PLAYING),
        "free": (
            {"racket": t.free.value, "piece": t.free.piece, "count": t.free_count}
            if t.free is not None and t.free_count
            else None
        ),
        "voided": t.voided,
        "roll": list(t.roll),
        "break_card": card_json(t.break_card, deck) if t.break_card else None,
        "fingers": t.fingers if state.step is Step.FINGERMAN else 0,
        "lose": (
            {"racket": t.lose.value, "piece": t.lose.piece, "count": t.lose_count}
            if t.lose is not None and t.lose_count
            else None
        ),
        "owed": t.owed,
        "penalty": state.board.layouts[t.penalty].id if t.penalty is not None else None,
    }


def player_view(state: State, viewer: str | None) -> dict[str, Any]:
    """The game as ``viewer`` may see it (None: the table screen), as plain JSON."""
    players = []
    for seat, p in enumerate(state.players):
        entry: dict[str, Any] = {
            "name": p.name,
            "colour": p.colour,
            "cash": p.cash,
            "debt": p.debt,
            "holds_card": p.hand is not None,
            "credits": [{"neighborhood": h, "value": v} for h, v in p.credits],
            "bonuses": [
                {"neighborhood": b.hood, "amount": b.amount, "turns": b.turns} for b in p.bonuses
            ],
            "penalties": [state.board.layouts[i].id for i in p.penalties],
            "pieces": sum(
                len(state.board.layouts[i].names_of(h.pieces[seat]))
                for i, h in enumerate(state.hoods)
                if h.controller is None
            ),
        }
        if p.name == viewer:
            entry["hand"] = card_json(p.hand, Deck.PLAYING)
        players.append(entry)
    view: dict[str, Any] = {
        "viewer": viewer,
        "step": state.step.value,
        "phase": state.step.value,
        "round": state.turn.number if state.turn is not None else 0,
        "moves": state.moves,
        "cards": state.cards.value,
        "turn": turn_json(state),
        "players": players,
        "neighborhoods": [hood_json(state, i) for i in range(len(state.hoods))],
        "rulings": [ruling_json(state, r) for r in state.rulings],
        "ruled_at": state.ruled_at,
        "rolloff": {state.name(s): t for s, t in state.rolloff},
        "decks": (
            {"playing": len(state.deck), "good": len(state.good), "bad": len(state.bad)}
            if state.cards is Cards.COMPANION
            else None
        ),
        "waiting": [
            {"player": w.player, "does": w.does, **({"dice": w.dice.count} if w.dice else {})}
            for w in waiting_for(state)
        ],
        "options": options_to_dict(state.rules),
    }
    if state.is_over:
        view["end"] = end_reason(state)
        view["scores"] = score(state)
    return view


def action_view(before: State, action: Action, viewer: str | None) -> dict[str, Any]:
    """An action as ``viewer`` may see it in a log: the card drawn is the drawer's; the decks'
    order is nobody's."""
    data = action.to_dict()
    if isinstance(action, Shuffle):
        for deck in ("playing", "good", "bad"):
            data[deck] = HIDDEN
    elif isinstance(action, Draw) and viewer != action.player:
        data["card"] = HIDDEN
    return data


def scramble(state: State, viewer: str | None, rng: random.Random) -> State:
    """``state`` with every secret ``viewer`` may not see drawn anew: the other players' held
    cards and the order of the companion's decks."""
    held = {
        s: p.hand for s, p in enumerate(state.players) if p.name != viewer and p.hand is not None
    }
    players = list(state.players)
    if state.cards is Cards.COMPANION:
        pool = [*state.deck, *held.values()]
        rng.shuffle(pool)
        for s in held:
            players[s] = replace(players[s], hand=pool.pop())
        good, bad = list(state.good), list(state.bad)
        rng.shuffle(good)
        rng.shuffle(bad)
        return replace(
            state, players=tuple(players), deck=tuple(pool), good=tuple(good), bad=tuple(bad)
        )
    kinds = state.board.decks.playing
    for s in held:
        players[s] = replace(players[s], hand=rng.choice(kinds))
    return replace(state, players=tuple(players))
