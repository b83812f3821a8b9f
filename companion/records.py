"""The game record, for every game: JSON Lines, the ``setup`` line first (naming its
``game``, A New Don when it names none), then one action per line.

Written by the companion and writable by hand (``docs/game-record.md``): blank lines and lines
starting with ``#`` are skipped, so a record can carry notes. This is the one replay of the
companion: the command line, the table service and the pages' log all replay through
:func:`replay`. Parsing and replaying are pure; reading the record's file is the caller's job.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from companion.games import AnyGame, game_of_setup
from companion.protocol import Action, Files, MalformedAction, RuleViolation, Setup


class RecordError(ValueError):
    """A record that cannot be replayed: the line, and the rule or the reason."""

    def __init__(self, line: int, message: str, rule: str | None = None) -> None:
        self.line = line
        self.rule = rule
        self.reason = message
        super().__init__(f"line {line}: {message}" + (f" ({rule})" if rule else ""))


@dataclass(frozen=True, slots=True)
class Record:
    game: AnyGame
    setup: Setup
    setup_line: int
    actions: tuple[tuple[int, Action], ...]  # (line number, action)


def parse_record(text: str) -> Record:
    """Parse a record's text; :class:`RecordError` names the first bad line."""
    game: AnyGame | None = None
    setup: Setup | None = None
    setup_line = 0
    actions: list[tuple[int, Action]] = []
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise RecordError(no, f"not valid JSON: {exc.msg} at column {exc.colno}") from None
        try:
            if game is None:
                game = game_of_setup(data)
                setup = game.setup_from_dict(data)
                setup_line = no
            else:
                actions.append((no, game.action_from_dict(data)))
        except MalformedAction as exc:
            raise RecordError(no, str(exc)) from None
    if game is None or setup is None:
        raise RecordError(1, 'the record is empty: it starts with a {"type": "setup", ...} line')
    return Record(game, setup, setup_line, tuple(actions))


# (line or seq, the state before, the action, the state after); a state is the game's own.
Step = Callable[[int, Any, Action, Any], None]


def replay_actions(
    game: AnyGame,
    setup: Setup,
    actions: Iterable[tuple[int, Action]],
    files: Files,
    each: Step | None = None,
) -> Any:
    """Start ``game`` from ``setup`` and apply (number, action) pairs in order: the final
    state, or :class:`RecordError` naming the number (a line, or a move's seq) of the first
    refused one (number 0 for the setup). ``each(number, before, action, after)`` sees every
    step, for narration and the log."""
    try:
        state = game.new_game(setup, files)
    except RuleViolation as exc:
        raise RecordError(0, exc.reason, exc.rule) from None
    for number, action in actions:
        try:
            after = game.apply(state, action)
        except RuleViolation as exc:
            raise RecordError(number, exc.reason, exc.rule) from None
        except MalformedAction as exc:
            raise RecordError(number, str(exc)) from None
        if each is not None:
            each(number, state, action, after)
        state = after
    return state


def replay(record: Record, files: Files, each: Step | None = None) -> Any:
    """Replay a parsed record; :class:`RecordError` names the line of the first refusal."""
    try:
        return replay_actions(record.game, record.setup, record.actions, files, each)
    except RecordError as exc:
        if exc.line == 0:
            raise RecordError(record.setup_line, exc.reason, exc.rule) from None
        raise


def dump_record(setup: Setup, actions: Iterable[Action]) -> str:
    """A record's text: compact JSON, one line each, in the order given."""
    lines = [setup.to_dict()] + [a.to_dict() for a in actions]
    return "".join(json.dumps(line, separators=(", ", ": ")) + "\n" for line in lines)
