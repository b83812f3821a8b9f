"""Everything a page or an event carries, built for one viewer at a time.

This module is the web app's only way to turn game state into JSON, and it only ever starts
from the engine's filters: :func:`player_view` for the position, :func:`action_view` (through
``narrate``) for what happened, and ``legal_actions`` of the viewer themself for the choices
offered. Nothing here reads a ``PlayerState`` directly, so nothing here can leak a hidden die.
The one exception is :func:`choices`, which works on the viewer's *own* legal actions.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from companion.engine import (
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
    RuleViolation,
    State,
    TakeFavor,
    UseFavor,
    apply,
    legal_actions,
    new_game,
    player_view,
    score,
)
from companion.engine.board import ABILITY_TEXT, Ability, Board
from companion.engine.errors import MalformedAction
from companion.engine.legal import set_actions
from companion.engine.narrate import narrate
from companion.engine.state import Phase
from companion.table import Game
from companion.table.service import PLAYER_UNDOABLE

LOG_TAIL = 120  # log lines sent with a full view; the table screen shows the recent ones


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


def _hood(state: State, nid: str) -> str:
    return state.board.neighborhoods[state.board.index(nid)].name


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
        n = board.neighborhoods[board.index(action.neighborhood)]
        return f"Claim {n.name} ({n.requirement.describe()}) with {_dice(action.dice)}"
    if isinstance(action, MuscleOut):
        i = board.index(action.neighborhood)
        victim = state.name(state.neighborhoods[i])
        return f"Muscle {victim} out of {board.neighborhoods[i].name} with {_dice(action.dice)}"
    if isinstance(action, Recruit):
        return f"Recruit with {_dice(action.dice)} (+{sum(action.dice)})"
    if isinstance(action, Bet):
        return f"Bet a {action.die} on Vegas {action.spot}"
    if isinstance(action, UseFavor):
        ability = Ability(action.ability or board.ability(action.spot))
        head = f"Favor {action.spot}"
        if ability is Ability.FREE_REROLL:
            return f"{head}: reroll {_dice(action.dice)} (sets only)"
        if ability in (Ability.PLUS_MINUS_ONE, Ability.TURN_DIE):
            return f"{head}: turn a {action.die} into a {action.to}"
        if ability is Ability.EXTRA_DIE:
            return f"{head}: count a {action.die} twice"
        return f"{head}: move {_hood(state, action.from_)} to {_hood(state, action.to)}"
    return action.TYPE


def _used(action: Action) -> list[int]:
    """The viewer's dice a choice spends (the builder matches the dice they tap)."""
    if isinstance(action, Claim | MuscleOut | Recruit | Reroll):
        return sorted(action.dice)
    if isinstance(action, Bet):
        return [action.die]
    if isinstance(action, UseFavor):
        return sorted(action.dice) if action.dice else ([action.die] if action.die else [])
    return []


def choices(state: State, viewer: str | None) -> list[dict[str, Any]]:
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
        item: dict[str, Any] = {
            "action": a.to_dict(),
            "group": a.TYPE,
            "label": _label(state, a),
            "dice": _used(a),
        }
        if isinstance(a, UseFavor):
            ability = Ability(a.ability or state.board.ability(a.spot))
            item["ability"] = ability.value
            if ability is not Ability.FREE_REROLL:  # a reroll's outcome is chance: no promise
                try:
                    new = _targets(apply(state, a), seat) - before
                except (RuleViolation, MalformedAction):  # legal_actions promises it applies
                    new = set()
                if new:
                    words = sorted(
                        ("claim " if kind == "claim" else "muscle into ") + _hood(state, nid)
                        for kind, nid in new
                    )
                    item["helps"] = "then: " + ", ".join(words)
        out.append(item)
    return out


# --- the log: the moves in effect, narrated for one viewer -------------------------------


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One line of the log before narration: an effective action, or a note (undo etc.)."""

    seq: int
    kind: str  # action | undo | correction | status
    actor: str
    payload: dict[str, Any]
    before: State | None = None
    action: Action | None = None
    after: State | None = None


def build_log(game: Game) -> list[LogEntry]:
    """The game's story: its effective actions replayed for their before/after states, with
    the undos, corrections and status changes noted where they happened."""
    state = new_game(game.setup, game.state.board)
    entries: list[LogEntry] = []
    for seq, action in game.effective:
        after = apply(state, action)
        entries.append(LogEntry(seq, "action", "", {}, state, action, after))
        state = after
    for e in game.events[1:]:
        if e.kind in ("undo", "correction", "status"):
            entries.append(LogEntry(e.seq, e.kind, e.actor, e.payload))
    entries.sort(key=lambda x: x.seq)
    return entries


def _who(actor: str) -> str:
    return "The host" if actor == "host" else actor.split(":", 1)[-1]


def note_lines(kind: str, actor: str, payload: dict[str, Any], viewer: str | None) -> list[str]:
    """Words for an undo, a correction or a status change. A correction's reason is the
    host's own words and may name a die, so only the host and the move's player read it."""
    if kind == "undo":
        undone = payload.get("undone", [])
        if actor.startswith("player:"):
            return [f"{_who(actor)} takes back their last move."]
        span = f"move {undone[0]}" if len(undone) == 1 else f"moves {undone[0]}–{undone[-1]}"
        return [f"The host undoes {span}."]
    if kind == "correction":
        was = payload.get("was", {})
        owner = was.get("player")
        head = f"The host corrects move {payload.get('target')} ({was.get('type')} by {owner})"
        if viewer is not None and viewer == owner:
            return [f"{head}: {payload.get('why')}"]
        return [head + "."]
    if kind == "status":
        status = payload.get("status")
        return {
            "finished": ["The host ends the game."],
            "active": ["The host reopens the game."],
            "archived": ["The game is archived."],
        }.get(status, [f"The game is {status}."])
    return []


def entry_lines(entry: LogEntry, viewer: str | None) -> list[str]:
    if entry.kind == "action" and entry.action is not None:
        return narrate(entry.before, entry.action, entry.after, viewer)
    return note_lines(entry.kind, entry.actor, entry.payload, viewer)


def log_json(entries: list[LogEntry], viewer: str | None, tail: int = LOG_TAIL) -> list[dict]:
    return [{"seq": e.seq, "lines": entry_lines(e, viewer)} for e in entries[-tail:]]


# --- the whole picture for one viewer ------------------------------------------------------


def can_undo(last_kind: str, last_action: Action | None, viewer: str | None) -> bool:
    """A player may take back their own last move if nobody acted since and it showed nothing
    (the table service's rule; the button only appears when the service would agree)."""
    return (
        viewer is not None
        and last_kind == "action"
        and last_action is not None
        and last_action.player == viewer
        and last_action.TYPE in PLAYER_UNDOABLE
    )


def picture(
    state: State,
    seq: int,
    status: str,
    viewer: str | None,
    *,
    last_kind: str = "",
    last_action: Action | None = None,
) -> dict[str, Any]:
    """The position as ``viewer`` may see it, their choices, and the score when it is over."""
    view = player_view(state, viewer)
    out: dict[str, Any] = {
        "seq": seq,
        "status": status,
        "viewer": viewer,
        "view": view,
        "choices": choices(state, viewer) if status == "active" else [],
        "can_undo": status == "active" and can_undo(last_kind, last_action, viewer),
    }
    if status != "active" and "scores" not in view:
        # The host ended the game early: score the position as it stands.
        out["scores"] = score(state).to_dict()
    elif "scores" in view:
        out["scores"] = view["scores"]
    return out


def game_picture(game: Game, viewer: str | None) -> dict[str, Any]:
    last = game.events[-1]
    last_action = game.effective[-1][1] if game.effective else None
    if game.effective and game.effective[-1][0] != last.seq:
        last_action = None
    return picture(
        game.state,
        game.seq,
        game.status,
        viewer,
        last_kind=last.kind,
        last_action=last_action,
    )
