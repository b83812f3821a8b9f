"""What the pages show of A New Don besides the views: the printed board to draw, and each of
a viewer's legal choices as a button (its label, the dice it spends, and for favors what they
would open up). Pure: labels are words, like the narration."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from companion.games.new_don.actions import (
    Action,
    Bet,
    ChooseFavorSpot,
    Claim,
    KeepVegas,
    MuscleOut,
    Pass,
    Recruit,
    Request,
    Reroll,
    RevealFavor,
    TakeFavor,
    UseFavor,
)
from companion.games.new_don.apply import apply
from companion.games.new_don.board import ABILITY_TEXT, Ability, Board
from companion.games.new_don.legal import legal_actions
from companion.games.new_don.phases.resolution import set_actions
from companion.games.new_don.state import Phase, State
from companion.games.new_don.view import player_view
from companion.protocol.errors import MalformedAction, RuleViolation
from companion.protocol.game import Choice


def board_json(board: Board) -> dict[str, Any]:
    """The printed board as the pages draw it (public: it is on the table for all to see)."""
    track = board.muscle_track
    placeholders = board.placeholders()
    return {
        "id": board.id,
        "name": board.name,
        "placeholder": bool(placeholders),
        "placeholder_facts": len(placeholders),
        "districts": [
            {"face": d.face, "name": d.name, "colour": d.colour, "points": list(d.points)}
            for d in board.districts
        ],
        "neighborhoods": [
            {
                "id": n.id,
                "name": n.name,
                "district": n.district,
                "set": n.requirement.describe(),
                "at": list(n.at) if n.at else None,
            }
            for n in board.neighborhoods
        ],
        "adjacency": sorted(sorted(pair) for pair in board.adjacency),
        "bridges": sorted(sorted(pair) for pair in board.bridges),
        "muscle_track": {
            "labels": [track.label(p) for p in range(track.highest + 1)],
            "godfather_position": track.godfather_position,
        },
        "vegas_spots": list(board.vegas_spots),
        "favor_track": [
            {"spot": s, "ability": a.value, "text": ABILITY_TEXT[a]} for s, a in board.favor_track
        ],
    }


# --- choices: the viewer's own legal actions, labelled for buttons ------------------------


def _dice(values: Iterable[int]) -> str:
    return "-".join(str(v) for v in sorted(values))


def _targets(state: State, seat: int) -> set[tuple[str, str]]:
    return {(a.TYPE, a.neighborhood) for a in set_actions(state, seat)}


def _label(state: State, action: Action) -> str:
    board = state.board
    if isinstance(action, KeepVegas):
        return f"Lock {_dice(action.lock)}" if action.lock else "Lock none (roll them all)"
    if isinstance(action, RevealFavor):
        return f"Show a {action.face}"
    if isinstance(action, TakeFavor):
        fav = player_view(state, None)["players"][state.seat(action.target)]["favor"]
        return f"Take {action.target}'s favor" + (f" (a {fav})" if fav else "")
    if isinstance(action, Request):
        return f"Ask {action.target} for a {action.number}"
    if isinstance(action, ChooseFavorSpot):
        return f"Soldier to Favor spot {action.spot} ({ABILITY_TEXT[board.ability(action.spot)]})"
    if isinstance(action, Reroll):
        return f"Reroll {_dice(action.dice)}"
    if isinstance(action, Pass):
        return "Keep my dice" if state.phase is Phase.OFFER else "End my turn"
    if isinstance(action, Claim):
        n = board.neighborhood(action.neighborhood)
        return f"Claim {n.name} ({n.requirement.describe()}) with {_dice(action.dice)}"
    if isinstance(action, MuscleOut):
        holder = state.neighborhoods[board.index(action.neighborhood)]
        assert holder is not None  # one muscles out only a neighborhood someone holds
        n = board.neighborhood(action.neighborhood)
        return f"Muscle {state.name(holder)} out of {n.name} with {_dice(action.dice)}"
    if isinstance(action, Recruit):
        return f"Recruit with {_dice(action.dice)} (+{sum(action.dice)})"
    if isinstance(action, Bet):
        return f"Bet a {action.die} on Vegas {action.spot}"
    if isinstance(action, UseFavor):
        return _favor_label(board, action)
    return action.TYPE


def _ability(board: Board, action: UseFavor) -> Ability:
    """The ability a legal favor uses: the one named on the "any" spot, else the printed one."""
    return Ability(action.ability or board.ability(action.spot))


def _favor_label(board: Board, action: UseFavor) -> str:
    ability = _ability(board, action)
    head = f"Favor {action.spot}"
    if ability is Ability.FREE_REROLL:
        return f"{head}: reroll {_dice(action.dice)} (sets only)"
    if ability in (Ability.PLUS_MINUS_ONE, Ability.TURN_DIE):
        return f"{head}: turn a {action.die} into a {action.to}"
    if ability is Ability.EXTRA_DIE:
        return f"{head}: count a {action.die} twice"
    start, to = action.from_, action.to
    assert isinstance(start, str) and isinstance(to, str)  # the Move favor's legal form
    return f"{head}: move {board.neighborhood(start).name} to {board.neighborhood(to).name}"


def _used(action: Action) -> list[int]:
    """The viewer's dice a choice spends (the builder matches the dice they tap)."""
    if isinstance(action, Claim | MuscleOut | Recruit | Reroll):
        return sorted(action.dice)
    if isinstance(action, Bet):
        return [action.die]
    if isinstance(action, UseFavor):
        return sorted(action.dice) if action.dice else ([action.die] if action.die else [])
    return []


def choices(state: State, viewer: str | None) -> list[Choice]:
    """The viewer's legal choices now, each with a label, the dice it spends, and for favors
    what it would open up ("then: claim 4B") so the phone can say which favors help."""
    if viewer is None or state.is_over:
        return []
    try:
        seat = state.seat(viewer)
    except MalformedAction:
        return []
    actions = legal_actions(state, viewer)
    before = _targets(state, seat) if any(isinstance(a, UseFavor) for a in actions) else set()
    out = []
    for a in actions:
        extra: dict[str, Any] = {}
        if isinstance(a, UseFavor):
            ability = _ability(state.board, a)
            extra["ability"] = ability.value
            if ability is not Ability.FREE_REROLL:  # a reroll's outcome is chance: no promise
                try:
                    new = _targets(apply(state, a), seat) - before
                except (RuleViolation, MalformedAction):  # legal_actions promises it applies
                    new = set()
                if new:
                    words = sorted(
                        ("claim " if kind == "claim" else "muscle into ")
                        + state.board.neighborhood(nid).name
                        for kind, nid in new
                    )
                    extra["helps"] = "then: " + ", ".join(words)
        if isinstance(a, RevealFavor | KeepVegas):
            # Everyone makes these at once ("each player simultaneously reveals one die"):
            # another player's move meanwhile changes nothing about them, so a phone may send
            # one again when it was refused as stale and is still offered.
            extra["simultaneous"] = True
        out.append(Choice(a.to_dict(), a.TYPE, _label(state, a), tuple(_used(a)), extra))
    return out
