"""Everything the web sends a person, built for one viewer at a time: the one view module.

Replies, event-stream messages, the log, refusals, dice prompts and the host's list of moves
are all made here, and only from the game's own filters (``player_view``, ``action_view``,
``narrate``, and ``choices`` of the viewer themself) and from what the table service says
publicly. Nothing here reads a game's state itself, so nothing here can leak a hidden die;
``tests/web/test_web_views.py`` scrambles every secret and checks every payload kind.

A *viewer* is a player's name, or None for the table screen (and the host, who sees what the
table sees).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from companion.bots.hints import Suggestion
from companion.dice.assignment import DieRef
from companion.dice.hub import DiceEvent, DiceProblem, DieCounted, RollWanted, WhoseDie
from companion.dice.service import DiceService
from companion.games import AnyGame
from companion.protocol import Files
from companion.records import replay_actions
from companion.table import Event, Game, Refused

LOG_TAIL = 120  # log lines sent with a full view; the table screen shows the recent ones


# --- the log: the moves in effect, narrated for one viewer -------------------------------


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One line of the log before narration: an effective action, or a note (undo etc.)."""

    seq: int
    kind: str  # action | undo | correction | status | disclosed
    actor: str
    payload: dict[str, Any]
    before: Any = None
    action: Any = None
    after: Any = None


def build_log(game: Game, files: Files) -> list[LogEntry]:
    """The game's story: its effective actions replayed for their before/after states, with
    the undos, corrections and status changes noted where they happened."""
    entries: list[LogEntry] = []

    def each(seq: int, before: Any, action: Any, after: Any) -> None:
        entries.append(LogEntry(seq, "action", "", {}, before, action, after))

    replay_actions(game.rules, game.setup, game.effective, files, each)
    for e in game.events[1:]:
        if e.kind != "action":
            entries.append(LogEntry(e.seq, e.kind, e.actor, e.payload))
    entries.sort(key=lambda x: x.seq)
    return entries


def _who(actor: str) -> str:
    return "The host" if actor == "host" else actor.split(":", 1)[-1]


def note_lines(kind: str, actor: str, payload: dict[str, Any], viewer: str | None) -> list[str]:
    """Words for an undo, a correction, a status change or a disclosed record. A correction's
    reason is the host's own words and may name a die: only the move's player reads it."""
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
        }.get(str(status), [f"The game is {status}."])
    if kind == "disclosed":
        return [f"{_who(actor)} reads the record, every die in it: the game is over for good."]
    return []


def entry_lines(rules: AnyGame, entry: LogEntry, viewer: str | None) -> list[str]:
    if entry.kind == "action" and entry.action is not None:
        return rules.narrate(entry.before, entry.action, entry.after, viewer)
    return note_lines(entry.kind, entry.actor, entry.payload, viewer)


def log_json(
    rules: AnyGame, entries: list[LogEntry], viewer: str | None, tail: int = LOG_TAIL
) -> list[dict[str, Any]]:
    return [{"seq": e.seq, "lines": entry_lines(rules, e, viewer)} for e in entries[-tail:]]


def moves(rules: AnyGame, entries: list[LogEntry]) -> list[dict[str, Any]]:
    """The moves in effect as the table sees them: what the host picks from to undo or
    correct (hidden dice stay hidden even from the host)."""
    return [
        {
            "seq": e.seq,
            "type": e.action.TYPE,
            "player": e.action.player,
            "action": rules.action_view(e.before, e.action, None),
            "lines": entry_lines(rules, e, None),
        }
        for e in entries
        if e.kind == "action" and e.action is not None
    ]


# --- the whole picture for one viewer ------------------------------------------------------


def can_undo(rules: AnyGame, last_kind: str, last_action: Any, viewer: str | None) -> bool:
    """A player may take back their own last move if nobody acted since and the game allows
    it (the table service's rule; the button only appears when the service would agree)."""
    return (
        viewer is not None
        and last_kind == "action"
        and last_action is not None
        and last_action.player == viewer
        and rules.player_may_undo(last_action)
    )


def picture(
    rules: AnyGame,
    state: Any,
    seq: int,
    status: str,
    viewer: str | None,
    *,
    last_kind: str = "",
    last_action: Any = None,
) -> dict[str, Any]:
    """The position as ``viewer`` may see it, their choices, and the score once it is over
    (or ended by the host: the position scored as it stands)."""
    view = rules.player_view(state, viewer)
    active = status == "active" and not rules.is_over(state)
    out: dict[str, Any] = {
        "game": rules.id,
        "seq": seq,
        "status": status,
        "viewer": viewer,
        "view": view,
        "choices": (
            [c.to_dict() for c in rules.choices(state, viewer)]
            if active and viewer is not None
            else []
        ),
        "can_undo": status == "active" and can_undo(rules, last_kind, last_action, viewer),
        "dice_wanted": dice_wanted(rules, state, viewer) if active else [],
    }
    if not active:
        out["scores"] = rules.score(state)
    return out


def dice_wanted(rules: AnyGame, state: Any, viewer: str | None) -> list[dict[str, Any]]:
    """The rolls the game waits for from ``viewer`` (their own: a count can be a secret), with
    what to send back to ``POST .../dice/roll``."""
    if viewer is None:
        return []
    return [
        {
            "does": w.does,
            "count": w.dice.count,
            "faces": list(w.dice.faces),
            "prompt": w.dice.prompt,
            "ask": w.dice.ask,
        }
        for w in rules.waiting_for(state)
        if w.player == viewer and w.dice is not None
    ]


def game_picture(game: Game, viewer: str | None) -> dict[str, Any]:
    last = game.events[-1]
    last_action = game.effective[-1][1] if game.effective else None
    if game.effective and game.effective[-1][0] != last.seq:
        last_action = None
    return picture(
        game.rules,
        game.state,
        game.seq,
        game.status,
        viewer,
        last_kind=last.kind,
        last_action=last_action,
    )


def update(event: Event, viewer: str | None) -> dict[str, Any]:
    """One event as an ``update`` message for ``viewer``: what happened in words, the action
    as they may see it, and the picture after it."""
    rules = event.rules
    if event.kind == "action" and event.action is not None:
        lines = rules.narrate(event.before, event.action, event.state, viewer)
        action = rules.action_view(event.before, event.action, viewer)
        last_action = event.action
    else:
        lines = note_lines(event.kind, event.actor, event.payload, viewer)
        action = None
        last_action = None
    return {
        "kind": event.kind,
        "lines": lines,
        "action": action,
        **picture(
            rules,
            event.state,
            event.seq,
            event.status,
            viewer,
            last_kind=event.kind,
            last_action=last_action,
        ),
    }


# --- hints ---------------------------------------------------------------------------------


def hint(
    rules: AnyGame, state: Any, seq: int, viewer: str, suggestion: Suggestion
) -> dict[str, Any]:
    """A hint for ``viewer``: the suggested move with its button's label from the viewer's
    own choices (the suggestion was worked out from their own view: ``companion.bots``)."""
    choice = next((c for c in rules.choices(state, viewer) if c.action == suggestion.action), None)
    return {
        "seq": seq,
        "action": suggestion.action,
        "label": choice.label if choice is not None else suggestion.action.get("type"),
        "group": choice.group if choice is not None else None,
        "reason": suggestion.reason,
        "ms": round(suggestion.seconds * 1000),
    }


# --- refusals ---------------------------------------------------------------------------


@contextmanager
def private_refusals(acting: str | None, player: str | None) -> Iterator[None]:
    """An illegal-move reason may speak of the mover's own hidden dice: it goes to that
    player only. Anyone else (the host correcting a move) hears the game's public reason if
    it gave one, else only the rule."""
    try:
        yield
    except Refused as exc:
        if exc.code != "illegal" or acting == player:
            raise
        reason = exc.public
        if reason is None and exc.reason.startswith("move ") and ": " in exc.reason:
            reason = exc.reason.split(": ", 1)[0] + "; the reason concerns hidden dice"
        if reason is None:
            reason = (
                f"the rules do not allow that now; the reason concerns {player}'s hidden "
                "dice and is shown on their phone only"
            )
        raise Refused(exc.code, reason, exc.rule, exc.public) from None


class QuotedRefusal(Refused):
    """An illegal move refused with the rule it breaks in the rulebook's words (``quote``)
    and one line saying what the player can do instead (``instead``)."""

    def __init__(self, exc: Refused, quote: str, instead: str) -> None:
        super().__init__(exc.code, exc.reason, exc.rule, exc.public)
        self.quote = quote
        self.instead = instead

    def words(self) -> dict[str, str]:
        return {"quote": self.quote, **({"instead": self.instead} if self.instead else {})}


def rule_words(game: Game, rule: str | None) -> dict[str, str] | None:
    """The rulebook's words for ``rule``, from what the game prints (its ``table_data``
    may carry ``rulebook``: each section a refusal cites, with ``quote`` and ``instead``)."""
    if not rule:
        return None
    printed = game.rules.table_data(game.state).get("rulebook")
    words = printed.get(rule) if isinstance(printed, dict) else None
    if not isinstance(words, dict) or not isinstance(words.get("quote"), str):
        return None
    return {"quote": words["quote"], "instead": str(words.get("instead") or "")}


@contextmanager
def quoted_refusals(game_of: Callable[[], Game]) -> Iterator[None]:
    """An illegal move's refusal quotes the rule it breaks (the rulebook is public: the
    words go to whoever was refused, the host too). ``game_of`` gives the game as it stands
    (a refusal changed nothing)."""
    try:
        yield
    except Refused as exc:
        words = rule_words(game_of(), exc.rule) if exc.code == "illegal" else None
        if words is None:
            raise
        raise QuotedRefusal(exc, words["quote"], words["instead"]) from None


# --- dice events --------------------------------------------------------------------------


def dice_count(n: int) -> str:
    """ "1 die", "5 dice"."""
    return f"{n} {'die' if n == 1 else 'dice'}"


def dice_message(
    event: DiceEvent, viewer: str | None, nouns: dict[str, str] | None = None
) -> dict[str, Any] | None:
    """What ``viewer`` may see of one dice event, or None: the one filter for dice events.
    Counts and faces go to the roller only; everyone else hears at most "Maria is rolling".
    ``nouns`` names a die of each shared pool ("red die"), from the game's dice sets.
    RollDone reaches screens as the action itself, through the table service."""
    if isinstance(event, RollWanted):
        if viewer == event.player:
            return {
                "kind": "roll_wanted",
                "player": event.player,
                "does": event.does,
                "dice": event.dice,
                "text": event.prompt or f"Roll your {dice_count(event.dice)}",
            }
        return {"kind": "rolling", "player": event.player, "text": f"{event.player} is rolling"}
    if isinstance(event, DieCounted):
        if viewer != event.player:
            return None
        return {
            "kind": "counted",
            "player": event.player,
            "face": event.face,
            "have": event.have,
            "need": event.need,
            "text": f"{event.have} of {dice_count(event.need)} settled",
        }
    if isinstance(event, DiceProblem):
        # A problem names a die, never a face; one with no player is the table's to fix.
        if viewer != event.player:
            return None
        return {"kind": "problem", "player": event.player, "text": event.message}
    if isinstance(event, WhoseDie) and (viewer is None or viewer in event.candidates):
        # Whose die, never its face: the table screen names every candidate, the host page
        # gives each a button, a candidate's phone asks "yours?" (POST .../dice/whose).
        noun = (nouns or {}).get(event.pool, "shared die")
        names = " or ".join(event.candidates)
        text = (
            f"A {noun} landed: whose is it, {names}? Say so on your phone or the host page."
            if viewer is None
            else f"A {noun} landed while another player is rolling one too: is it yours?"
        )
        return {
            "kind": "whose_die",
            "die": ref_json(event.ref),
            "noun": noun,
            "candidates": list(event.candidates),
            "text": text,
        }
    return None


def progress_message(dice: DiceService, viewer: str) -> dict[str, Any] | None:
    """A (re)connecting phone's pending roll, so it shows "3 of 5" without waiting for the
    next die (events missed while it was away are not replayed)."""
    for wait in dice.hub.waiting():
        if wait.player == viewer:
            have, need = dice.hub.progress(viewer) or (0, wait.dice)
            prompt = wait.prompt or f"Roll your {dice_count(need)}"
            return {
                "kind": "progress",
                "player": viewer,
                "does": wait.does,
                "have": have,
                "need": need,
                "text": f"{prompt}: {have} of {need} settled" if have else prompt,
            }
    return None


def ref_json(ref: DieRef, dice: DiceService | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"source": ref.source, "die": ref.die_id}
    if dice is not None:
        last = dice.hub.last_readings().get(ref)
        if last is not None and last.battery is not None:
            out["battery"] = round(last.battery, 2)
    return out
