"""The table service: the one authoritative copy of each game, and the only writer.

Phones, dice readers and the command line all submit here. Each submission names the sequence
number it was made against (a stale one is refused) and may carry an idempotency key (a double
tap is applied once). An accepted action is written to the event log and committed before it is
acknowledged or published, so a crash at any moment loses no acknowledged move.

Undo and corrections are events too: nothing is deleted, and the game is always the replay of
its log (``effective_actions``), re-checked by the engine.
"""

from __future__ import annotations

import logging
import random
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.gamefiles import GameFiles
from companion.games import AnyGame, game_of_setup
from companion.protocol import Action, Files, MalformedAction, RuleViolation, Setup
from companion.protocol.seats import SeatError, clean_line
from companion.records import Record, RecordError, dump_record, parse_record, replay, replay_actions
from companion.table.storage import Storage, StoredEvent

log = logging.getLogger(__name__)
CHANCE_ACTOR = "table"  # who records the chance the companion draws itself (a shuffle)
MAX_REASON = 200  # characters: a correction's reason is one line of the exported record


class Refused(Exception):
    """A submission the service will not take. ``code`` says what kind of mistake it is:
    ``malformed``, ``illegal`` (a rule; ``rule`` names it), ``stale``, ``forbidden``,
    ``not_found``, ``closed`` (the game is finished or archived, or its record was shown),
    ``not_over`` (the record of a game that can still go on).

    An ``illegal`` refusal's ``reason`` is for the player who acted (it may speak of their own
    hidden dice); ``public`` is what anyone else may hear (None: only the rule)."""

    def __init__(
        self, code: str, reason: str, rule: str | None = None, public: str | None = None
    ) -> None:
        self.code = code
        self.reason = reason
        self.rule = rule
        self.public = public
        super().__init__(reason + (f" ({rule})" if rule else ""))


@dataclass(frozen=True, slots=True)
class Event:
    """A durable change, as subscribers receive it: the stored event and the states around it."""

    game_id: str
    seq: int
    kind: str  # action | undo | correction | status | disclosed
    actor: str
    payload: dict[str, Any]
    before: Any  # the game's state before, and after
    state: Any
    rules: AnyGame  # the game the states are of
    status: str  # the game's status right after this event
    action: Action | None = None  # the game's action, for kind "action"


@dataclass(frozen=True, slots=True)
class Ack:
    seq: int
    state: Any
    duplicate: bool = False


@dataclass(frozen=True)
class Game:
    """One game as it stands: its log, the actions in effect, and the state they make."""

    id: str
    created_at: str
    status: str
    rules: AnyGame  # the game this is a game of (A New Don, ...)
    setup: Setup
    events: tuple[StoredEvent, ...]
    effective: tuple[tuple[int, Action], ...]  # (seq, action) after undos and corrections
    state: Any
    keys: dict[str, int] = field(default_factory=dict, compare=False)

    @property
    def seq(self) -> int:
        return self.events[-1].seq

    def record(self) -> str:
        return dump_record(self.setup, [a for _, a in self.effective])

    @property
    def disclosed(self) -> StoredEvent | None:
        """The event that showed this game's whole record (every hidden die) to someone, if
        any: from then on the game cannot go on."""
        return next((e for e in self.events if e.kind == "disclosed"), None)

    @property
    def can_go_on(self) -> bool:
        """Whether moves may still be made (or taken back into play): an active game whose
        rules have not ended it."""
        return self.status == "active" and not self.is_over

    @property
    def is_over(self) -> bool:
        """Whether the rules have ended the game."""
        return self.rules.is_over(self.state)


def _who(actor: str) -> str:
    """An actor as a sentence names it: ``player:Maria`` is Maria."""
    return "the host" if actor == "host" else actor.split(":", 1)[-1]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _effective(
    rules: AnyGame, events: list[StoredEvent] | tuple[StoredEvent, ...]
) -> list[tuple[int, Action]]:
    out: list[tuple[int, Action]] = []
    for e in events:
        if e.kind == "action":
            out.append((e.seq, rules.action_from_dict(e.payload)))
        elif e.kind == "undo":
            out = [(s, a) for s, a in out if s < e.payload["target"]]
        elif e.kind == "correction":
            fixed = rules.action_from_dict(e.payload["action"])
            out = [(s, fixed if s == e.payload["target"] else a) for s, a in out]
    return out


def _replay(game: Game, actions: list[tuple[int, Action]], files: Files) -> Any:
    """Replay (seq, action) pairs; a refusal names the seq of the action it refused."""
    try:
        return replay_actions(game.rules, game.setup, actions, files)
    except RecordError as exc:
        action = dict(actions).get(exc.line)
        what = f" ({action.TYPE} by {action.player})" if action is not None else ""
        raise Refused(
            "illegal",
            f"move {exc.line}{what} would no longer be legal: {exc.reason}",
            exc.rule,
        ) from None


def load_game(
    game_id: str,
    created_at: str,
    status: str,
    events: list[StoredEvent] | tuple[StoredEvent, ...],
    files: Callable[[AnyGame], Files],
) -> Game:
    """A game as its log makes it: the setup, the actions in effect after undos and
    corrections, and their replay. How the service loads every game on start, and how a copy
    of a log kept elsewhere (the club server's) is read the same way. Raises what a damaged
    log raises (:class:`Refused`, :class:`MalformedAction`, ``KeyError``, ...)."""
    rules = game_of_setup(events[0].payload)
    setup = rules.setup_from_dict(events[0].payload)
    effective = _effective(rules, events[1:])
    keys = {e.idem_key: e.seq for e in events if e.idem_key}
    game = Game(
        game_id, created_at, status, rules, setup, tuple(events), tuple(effective), None, keys
    )
    return replace(game, state=_replay(game, effective, files(rules)))


class TableService:
    """All games in one data folder. Thread-safe: one writer at a time, any number of readers."""

    def __init__(self, data_dir: Path, chance: random.Random | None = None) -> None:
        """``chance`` draws what no die and no player gives (a shuffle of the cards the
        companion holds); a test may pass a seeded one, the table never does."""
        self.data_dir = Path(data_dir)
        self._chance = chance or random.SystemRandom()
        self.storage = Storage(self.data_dir)
        self._lock = threading.RLock()
        self._games: dict[str, Game] = {}
        self._subscribers: list[tuple[str | None, Callable[[Event], None]]] = []
        self.damaged: dict[str, str] = {}  # game id -> why it cannot be loaded
        for game_id, created_at, status in self.storage.games():
            try:
                self._games[game_id] = self._load(game_id, created_at, status)
            except (Refused, MalformedAction, RuleViolation, KeyError, ValueError, OSError) as exc:
                # One game an older companion let in (or a hand-edited file) must not take
                # every other game down with it: it is left on disk untouched and reported.
                reason = exc.reason if isinstance(exc, Refused | RuleViolation) else str(exc)
                self.damaged[game_id] = reason
                log.warning("game %s cannot be loaded and is left untouched: %s", game_id, reason)
        for game_id in list(self._games):
            # A crash may have come between a move and the chance it made the game await.
            self._draw_chance(game_id)

    def files(self, rules: AnyGame) -> GameFiles:
        """A game's data files: shipped ones, and the user's in the data folder's ``boards``."""
        return GameFiles(rules, self.data_dir / "boards")

    def _replay(self, game: Game, actions: list[tuple[int, Action]]) -> Any:
        """Replay (seq, action) pairs; a refusal names the seq of the action it refused."""
        return _replay(game, actions, self.files(game.rules))

    def _load(self, game_id: str, created_at: str, status: str) -> Game:
        return load_game(game_id, created_at, status, self.storage.events(game_id), self.files)

    # --- reading -------------------------------------------------------------------------

    def games(self, include_archived: bool = False) -> list[Game]:
        with self._lock:
            return [g for g in self._games.values() if include_archived or g.status != "archived"]

    def game(self, game_id: str) -> Game:
        with self._lock:
            try:
                return self._games[game_id]
            except KeyError:
                raise Refused("not_found", f"there is no game {game_id!r}") from None

    # --- subscribing ---------------------------------------------------------------------

    def subscribe(
        self, callback: Callable[[Event], None], game_id: str | None = None
    ) -> Callable[[], None]:
        """Call ``callback`` with each new durable event (of one game, or all); in seq order,
        from the writer's thread, so it must be quick (put it on a queue). Returns unsubscribe."""
        entry = (game_id, callback)
        with self._lock:
            self._subscribers.append(entry)

        def unsubscribe() -> None:
            with self._lock:
                if entry in self._subscribers:
                    self._subscribers.remove(entry)

        return unsubscribe

    def _publish(self, event: Event) -> None:
        for game_id, callback in list(self._subscribers):
            if game_id is None or game_id == event.game_id:
                try:
                    callback(event)
                except Exception:  # the event is durable; one bad listener must not undo that
                    log.exception(
                        "a subscriber failed on event %s of game %s", event.seq, event.game_id
                    )

    # --- writing -------------------------------------------------------------------------

    def create_game(self, setup: dict[str, Any], actor: str = "host") -> Game:
        """A new game from a record's setup line (it names its ``game``)."""
        rules, chosen, state = self._new_state(setup)
        line = chosen.to_dict()
        with self._lock:
            game_id = self._new_id()
            created = _now()
            self.storage.create_game(game_id, created, line, actor)
            event = StoredEvent(game_id, 0, "setup", actor, line, None, created)
            game = Game(game_id, created, "active", rules, chosen, (event,), (), state, {})
            self._games[game_id] = game
            self._draw_chance(game_id)
            return self._games[game_id]

    def _new_state(self, data: dict[str, Any]) -> tuple[AnyGame, Setup, Any]:
        try:
            rules = game_of_setup(data)
            setup = rules.setup_from_dict(data)
            return rules, setup, rules.new_game(setup, self.files(rules))
        except MalformedAction as exc:
            raise Refused("malformed", str(exc)) from None
        except RuleViolation as exc:
            raise Refused("illegal", exc.reason, exc.rule) from None
        except OSError as exc:  # a traced board's file that cannot be read
            raise Refused("malformed", f"{exc.filename}: {exc.strerror}") from None

    def _new_id(self) -> str:
        game_id = secrets.token_hex(3)
        while game_id in self._games:
            game_id = secrets.token_hex(3)
        return game_id

    def submit(
        self,
        game_id: str,
        action: Action | dict[str, Any],
        *,
        actor: str,
        expected_seq: int,
        key: str | None = None,
    ) -> Ack:
        """Apply one action (the game's action, or its record line as a dict): stored and
        published before this returns, or :class:`Refused`."""
        with self._lock:
            game = self.game(game_id)
            if key is not None and key in game.keys:
                return Ack(game.keys[key], game.state, duplicate=True)
            self._open(game)
            self._fresh(game, expected_seq)
            action = self._action(game, action)
            self._authorise(game, actor, action)
            try:
                state = game.rules.apply(game.state, action)
            except MalformedAction as exc:
                raise Refused("malformed", str(exc)) from None
            except RuleViolation as exc:
                raise Refused("illegal", exc.reason, exc.rule, exc.public) from None
            status = "finished" if game.rules.is_over(state) else None
            ack = self._commit(
                game,
                "action",
                actor,
                action.to_dict(),
                key,
                state,
                (*game.effective, (game.seq + 1, action)),
                status,
                action,
            )
            self._draw_chance(game_id)
            return ack

    def submit_roll(
        self,
        game_id: str,
        player: str,
        faces: tuple[int, ...],
        *,
        actor: str,
        ask: str | None = None,
        key: str | None = None,
    ) -> Ack:
        """The faces of a roll the game is waiting for from ``player``, applied to the game as
        it is now. Rolls by different players do not conflict, so unlike :meth:`submit` this
        names no seq: it names the request (``ask``, from ``DiceRequest.ask``) and is refused
        as stale only if the game no longer asks this player for that roll."""
        with self._lock:
            game = self.game(game_id)
            if key is not None and key in game.keys:
                return Ack(game.keys[key], game.state, duplicate=True)
            self._open(game)
            wanted = [
                (w, w.dice)
                for w in game.rules.waiting_for(game.state)
                if w.player == player and w.dice is not None
            ]
            if not wanted:
                raise Refused("stale", f"the game is not waiting for a roll from {player}")
            request = next((w for w, dice in wanted if ask is None or dice.ask == ask), None)
            if request is None:
                raise Refused("stale", f"the roll {player} was asked for has been made; look again")
            try:
                action = game.rules.roll_action(request, faces)
            except (MalformedAction, IndexError) as exc:
                raise Refused("malformed", str(exc)) from None
            return self.submit(game_id, action, actor=actor, expected_seq=game.seq, key=key)

    def undo(
        self,
        game_id: str,
        *,
        actor: str,
        expected_seq: int,
        target: int | None = None,
        key: str | None = None,
    ) -> Ack:
        """Take back moves: a player their own last move, before anyone else has acted; the
        host anything, back to ``target`` (that move and every later one). Logged, never hidden."""
        with self._lock:
            game = self.game(game_id)
            if key is not None and key in game.keys:
                return Ack(game.keys[key], game.state, duplicate=True)
            if not (actor == "host" and game.status == "finished"):
                self._open(game)  # the host may take back the move that ended a game
            self._not_disclosed(game)
            self._fresh(game, expected_seq)
            if not game.effective:
                raise Refused("illegal", "there is nothing to undo")
            target = self._undo_target(game, actor, target)
            effective = tuple((s, a) for s, a in game.effective if s < target)
            state = self._replay(game, list(effective))
            undone = [s for s, _ in game.effective if s >= target]
            ack = self._commit(
                game,
                "undo",
                actor,
                {"target": target, "undone": undone},
                key,
                state,
                effective,
                "active" if game.status == "finished" else None,
            )
            self._draw_chance(game_id)
            return ack

    def _undo_target(self, game: Game, actor: str, target: int | None) -> int:
        """The first move ``actor`` may take back (it and every later one go): the host's
        choice (the last move when None), or a player's own last move if nobody has acted
        since and it rolled no die and showed nothing."""
        if actor == "host":
            target = game.effective[-1][0] if target is None else target
            if target not in {s for s, _ in game.effective}:
                raise Refused("malformed", f"move {target} is not a move in effect")
            return target
        seq, last = game.effective[-1]
        name = actor.removeprefix("player:")
        if game.events[-1].seq != seq or last.player != name or not actor.startswith("player:"):
            raise Refused(
                "forbidden",
                "only the player who made the last move can undo "
                "it, before anyone else acts; the host can undo anything",
            )
        if not game.rules.player_may_undo(last):
            raise Refused(
                "forbidden",
                f"a {last.TYPE} cannot be taken back: it rolled "
                "dice or showed something to the table; ask the host",
            )
        if target not in (None, seq):
            raise Refused("forbidden", "a player can undo only their last move")
        return seq

    def correct(
        self,
        game_id: str,
        *,
        actor: str,
        target: int,
        action: Action | dict[str, Any],
        why: str,
        expected_seq: int,
        key: str | None = None,
    ) -> Ack:
        """The host fixes what was recorded ("that die was misread: it shows a 4"). The engine
        re-checks every later move; a correction that would break one is refused, naming it."""
        with self._lock:
            game = self.game(game_id)
            if key is not None and key in game.keys:
                return Ack(game.keys[key], game.state, duplicate=True)
            if actor != "host":
                raise Refused("forbidden", "only the host corrects the record")
            try:
                why = clean_line(why, "the reason for a correction", MAX_REASON)
            except SeatError as exc:
                raise Refused("malformed", f"say why, on one line: {exc}") from None
            self._fresh(game, expected_seq)
            self._not_disclosed(game)
            fixed = self._action(game, action)
            original = dict(game.effective).get(target)
            if original is None:
                raise Refused("malformed", f"move {target} is not a move in effect")
            if (fixed.TYPE, fixed.player) != (original.TYPE, original.player):
                raise Refused(
                    "malformed",
                    f"move {target} is a {original.TYPE} by "
                    f"{original.player}; a correction fixes its details, not who or what",
                )
            effective = tuple((s, fixed if s == target else a) for s, a in game.effective)
            state = self._replay(game, list(effective))
            payload = {
                "target": target,
                "action": fixed.to_dict(),
                "was": original.to_dict(),
                "why": why,
            }
            status = (
                "finished"
                if game.rules.is_over(state)
                else ("active" if game.status == "finished" else None)
            )
            ack = self._commit(game, "correction", actor, payload, key, state, effective, status)
            self._draw_chance(game_id)
            return ack

    def set_status(self, game_id: str, status: str, *, actor: str = "host") -> Game:
        """finish (the host ends the game early), archive, or reopen."""
        if status not in ("active", "finished", "archived"):
            raise Refused("malformed", f"unknown status {status!r}")
        with self._lock:
            game = self.game(game_id)
            if status == "active":
                self._not_disclosed(game)
            if game.status != status:
                self._commit(
                    game,
                    "status",
                    actor,
                    {"status": status},
                    None,
                    game.state,
                    game.effective,
                    status,
                )
            self._draw_chance(game_id)  # a reopened game may await a shuffle
            return self._games[game_id]

    def _open(self, game: Game) -> None:
        if game.status != "active":
            raise Refused("closed", f"game {game.id} is {game.status}")

    def _not_disclosed(self, game: Game) -> None:
        """A game whose record was shown cannot be played on: whoever read it knows every
        hidden die (the host too), so reopening it, or taking a move back into play, would
        let them play on with that knowledge."""
        shown = game.disclosed
        if shown is not None:
            raise Refused(
                "closed",
                f"the record of game {game.id}, with every hidden die, was shown to "
                f"{_who(shown.actor)} (move {shown.seq}): the game cannot go on",
            )

    def _fresh(self, game: Game, expected_seq: int) -> None:
        if expected_seq != game.seq:
            raise Refused(
                "stale",
                f"the game has moved on: it is at move {game.seq}, and this "
                f"was made at move {expected_seq}; look again and retry",
            )

    def _action(self, game: Game, action: Action | dict[str, Any]) -> Action:
        """The game's action for a record line (a dict), or the action itself."""
        if not isinstance(action, dict):
            return action
        try:
            parsed: Action = game.rules.action_from_dict(action)
        except MalformedAction as exc:
            raise Refused("malformed", str(exc)) from None
        return parsed

    def _draw_chance(self, game_id: str) -> None:
        """Record the chance a game awaits that neither a die nor a player gives (its
        ``chance_action``: a shuffle of the cards the companion holds for the players), drawn
        here and stored like any move, so the record replays exactly. Called with the lock
        held after every change that may make a game await it."""
        for _ in range(100):  # a game awaits a few draws in a row at most; never loop forever
            game = self._games[game_id]
            if not game.can_go_on:
                return
            action = game.rules.chance_action(game.state, self._chance)
            if action is None:
                return
            state = game.rules.apply(game.state, action)
            self._commit(
                game,
                "action",
                CHANCE_ACTOR,
                action.to_dict(),
                None,
                state,
                (*game.effective, (game.seq + 1, action)),
                "finished" if game.rules.is_over(state) else None,
                action,
            )
        raise RuntimeError(f"game {game_id} kept asking for chance: a bug in its rules")

    def _authorise(self, game: Game, actor: str, action: Action) -> None:
        if game.rules.is_chance(action):
            if actor == CHANCE_ACTOR:
                return
            raise Refused(
                "forbidden",
                f"a {action.TYPE} is chance: the companion draws it "
                "itself, and nobody at the table may choose it",
            )
        if actor == "host" or actor == f"player:{action.player}":
            return
        if (actor == "dice" or actor.startswith("dice:")) and game.rules.is_roll(action):
            return
        raise Refused("forbidden", f"{actor} cannot act for {action.player}")

    def _commit(
        self,
        game: Game,
        kind: str,
        actor: str,
        payload: dict[str, Any],
        key: str | None,
        state: Any,
        effective: tuple[tuple[int, Action], ...],
        status: str | None,
        action: Action | None = None,
    ) -> Ack:
        event = StoredEvent(game.id, game.seq + 1, kind, actor, payload, key, _now())
        self.storage.append(event, status)  # durable before anything else happens
        keys = {**game.keys, key: event.seq} if key else game.keys
        new = replace(
            game,
            events=(*game.events, event),
            effective=tuple(effective),
            state=state,
            status=status or game.status,
            keys=keys,
        )
        self._games[game.id] = new
        self._publish(
            Event(
                game.id,
                event.seq,
                kind,
                actor,
                payload,
                game.state,
                state,
                game.rules,
                new.status,
                action,
            )
        )
        return Ack(event.seq, state)

    # --- records ------------------------------------------------------------------------

    def export(self, game_id: str) -> str:
        """The game's record (``docs/game-record.md``): the moves in effect, with a note of
        every undo and correction so the audit trail travels with it."""
        game = self.game(game_id)
        notes = [f"# Game {game.id}, started {game.created_at}, {game.status}."]
        for e in game.events:
            if e.kind == "undo":
                notes.append(f"# {e.actor} undid moves {e.payload['undone']}")
            elif e.kind == "correction":
                notes.append(
                    f"# {e.actor} corrected move {e.payload['target']}: {e.payload['why']}"
                )
        return "\n".join(notes) + "\n" + game.record()

    def disclose(self, game_id: str, *, actor: str) -> str:
        """The record of a game that cannot go on, for someone who was at the table.

        The record shows every die, hidden ones too, so it is refused while the game can go
        on; once it is shown, a ``disclosed`` event says to whom, and the game can no longer
        be reopened (``_not_disclosed``). Showing it again adds nothing to the log."""
        with self._lock:
            game = self.game(game_id)
            if game.can_go_on:
                raise Refused(
                    "not_over",
                    "the record shows every die, hidden ones too: it can be read once the "
                    "game is over (or the host ends it)",
                )
            if game.disclosed is None:
                self._commit(game, "disclosed", actor, {}, None, game.state, game.effective, None)
            return self.export(game_id)

    def import_record(self, text: str, actor: str = "host") -> Game:
        """A new game from a record; every line is checked by the engine first."""
        try:
            record: Record = parse_record(text)
        except RecordError as exc:
            raise Refused("malformed", str(exc)) from None
        try:
            state = replay(record, self.files(record.game))
        except RecordError as exc:
            raise Refused("illegal", f"line {exc.line}: {exc.reason}", exc.rule) from None
        except OSError as exc:  # a traced board's file that cannot be read
            raise Refused("malformed", f"{exc.filename}: {exc.strerror}") from None
        setup = record.setup
        with self._lock:
            game_id = self._new_id()
            now = _now()
            moves = [
                StoredEvent(game_id, i, "action", actor, a.to_dict(), None, now)
                for i, (_, a) in enumerate(record.actions, 1)
            ]
            status = "finished" if record.game.is_over(state) else "active"
            self.storage.create_game(game_id, now, setup.to_dict(), actor, moves, status)
            first = StoredEvent(game_id, 0, "setup", actor, setup.to_dict(), None, now)
            effective = tuple((e.seq, a) for e, (_, a) in zip(moves, record.actions, strict=True))
            game = Game(
                game_id, now, status, record.game, setup, (first, *moves), effective, state, {}
            )
            self._games[game_id] = game
            return game

    def close(self) -> None:
        self.storage.close()
