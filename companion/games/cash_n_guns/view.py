"""What one person may see: the single filter between the engine and the world.

Every outbound path goes through :func:`player_view` or :func:`action_view`. A player sees
their own hand, the card they put down, their courage choice and their loot. Everyone else
sees what the table sees: how many cards a hand holds, that a card is down (not which), that a
player has chosen (not what, until all have chosen: the choices are shown at the same
instant), the guns, the wounds, who stands, the face-up discards, and (by default) only how
many Loot cards each player keeps face-down. :func:`scramble` redraws every one of those
secrets so the tests can prove no view depends on them.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from companion.games.cash_n_guns.actions import (
    Action,
    Bullet,
    Courage,
    CourageChoice,
    Discard,
    Load,
)
from companion.games.cash_n_guns.box import LootKind
from companion.games.cash_n_guns.legal import waiting_for
from companion.games.cash_n_guns.scoring import Haul, end_reason, score
from companion.games.cash_n_guns.state import Gangster, Phase, State
from companion.protocol.options import options_to_dict

HIDDEN = "hidden"
KEPT = (LootKind.BILL, LootKind.DIAMOND, LootKind.PAINTING)  # what a player keeps


def courage_public(state: State) -> bool:
    """Courage is shown at once: nobody's choice is seen while anyone still chooses."""
    return state.phase is not Phase.COURAGE


def loot_public(state: State) -> bool:
    """Kept Loot is face-down unless the table plays it face-up; the end shows it all."""
    return state.rules.kept_loot == "face_up" or state.is_over


def _card(state: State, card_id: str) -> dict[str, Any]:
    card = state.box.card(card_id)
    assert card is not None, card_id
    return {"card": card.id, "kind": card.kind.value, "value": card.value, "label": card.label}


def _player(state: State, seat: int, mine: bool) -> dict[str, Any]:
    p: Gangster = state.players[seat]
    gun = p.gun
    entry: dict[str, Any] = {
        "name": p.name,
        "colour": p.colour,
        "alive": not p.dead,
        "wounds": p.wounds,
        "godfather": seat == state.godfather,
        "cards_in_hand": p.hand,
        "card_down": p.loaded is not None,
        "gun": None
        if gun is None
        else {
            "target": None if gun.target is None else state.name(gun.target),
            "by": gun.by.value,
            "confirmed": gun.confirmed,
        },
        "courage_chosen": p.courage is not None,
        "courage": (
            p.courage.value if p.courage is not None and (mine or courage_public(state)) else None
        ),
        "standing": not p.dead and not p.down,
        "loot_cards": len(p.loot),
    }
    if mine or loot_public(state):
        haul = Haul.of(state.box, p.loot, p.wounds, not p.dead)
        entry["loot"] = [_card(state, c) for c in p.loot]
        entry["haul"] = {
            "bills": haul.bills,
            "diamonds": haul.diamonds,
            "diamond_cards": haul.diamond_cards,
            "paintings": haul.paintings,
            "paintings_value": state.box.collection_value(haul.paintings),
        }
    if mine:
        entry["hand"] = {"bang": p.bangs, "click": p.clicks}
        entry["card"] = p.loaded.value if p.loaded is not None else None
    return entry


def player_view(state: State, viewer: str | None) -> dict[str, Any]:
    """The game as ``viewer`` may see it (``None``: the table screen), as plain JSON."""
    me = state.seat(viewer) if viewer is not None else None
    name = state.name
    face_up = [d for d in state.discard if d.face_up]
    view: dict[str, Any] = {
        "viewer": viewer,
        "turn": state.turn,
        "turns": state.box.turns,
        "round": state.turn,
        "phase": state.phase.value,
        "moves": state.moves,
        "godfather": name(state.godfather),
        "players": [_player(state, i, i == me) for i in range(len(state.players))],
        "loot": {
            "on_offer": [_card(state, c) for c in state.table],
            "to_flip": (
                state.box.loot_per_turn - state.flipped if state.phase is Phase.LOOT else 0
            ),
            "deck_left": sum(state.deck),
            "deck": {c.id: left for c, left in zip(state.box.cards, state.deck, strict=True)},
            "token": "available" if state.token is None else name(state.token),
            "spent": len(state.spent),
        },
        "order": None
        if state.order is None
        else {"player": name(state.order[0]), "away_from": name(state.order[1])},
        "shots_turn": state.shots_turn,
        "shots": [
            {
                "shooter": name(s.shooter),
                "stood": s.stood,
                "target": None if s.target is None else name(s.target),
                "outcome": s.outcome.value,
                "card": s.card.value if s.card is not None else None,
            }
            for s in state.shots
        ],
        "sharing": None
        if state.phase is not Phase.SHARING
        else {
            "sharer": name(state.sharer) if state.sharer is not None else None,
            "clip": name(state.clip) if state.clip is not None else None,
            "standing": [name(s) for s in state.standing],
        },
        "discard": {
            "face_up": {b.value: sum(1 for d in face_up if d.card is b) for b in Bullet},
            "face_down": sum(1 for d in state.discard if not d.face_up),
        },
        "waiting": [{"player": w.player, "does": w.does} for w in waiting_for(state)],
        "options": options_to_dict(state.rules),
        "box": {"name": state.box.name, "placeholder_facts": len(state.box.placeholders())},
    }
    if state.is_over:
        view["end"] = end_reason(state)
        view["scores"] = score(state).to_dict()
    return view


def action_view(before: State, action: Action, viewer: str | None) -> dict[str, Any]:
    """An action as ``viewer`` may see it in a log or event stream: a Bullet card put down,
    a courage choice and a Clip's face-down discard are the mover's alone."""
    data = action.to_dict()
    if viewer == action.player:
        return data
    if isinstance(action, Load):
        data["card"] = HIDDEN
    elif isinstance(action, CourageChoice):
        data["choice"] = HIDDEN  # every choice is shown by the state once all are in
    elif isinstance(action, Discard) and before.rules.clip_discard == "face_down":
        data["card"] = HIDDEN
    return data


def scramble(state: State, viewer: str | None, rng: random.Random) -> State:
    """``state`` with everything ``viewer`` may not know drawn anew: other players' hands (of
    the same size), the cards they put down, their courage while anyone still chooses, the
    Loot they keep face-down, and every face-down discard."""
    me = state.seat(viewer) if viewer is not None else None
    keepable = [c.id for c in state.box.cards if c.kind in KEPT]
    players = list(state.players)
    for i, p in enumerate(players):
        if i == me:
            continue
        bangs = rng.randint(0, p.hand)
        p = replace(p, bangs=bangs, clicks=p.hand - bangs)
        if p.loaded is not None:
            p = replace(p, loaded=rng.choice(list(Bullet)))
        if p.courage is not None and not courage_public(state):
            p = replace(p, courage=rng.choice(list(Courage)))
        if not loot_public(state):
            p = replace(p, loot=tuple(rng.choice(keepable) for _ in p.loot))
        players[i] = p
    # Even a viewer's own face-down discards are redrawn: the pile does not say whose is
    # whose (a Clip may take any face-down Bang!), so no view may depend on them.
    pile = tuple(
        d if d.face_up else replace(d, card=rng.choice(list(Bullet))) for d in state.discard
    )
    return replace(state, players=tuple(players), discard=pile)
