"""The game record: JSON Lines, one action per line, the ``setup`` line first.

Written by the companion and writable by hand (``docs/game-record.md``): blank lines and lines
starting with ``#`` are skipped, so a record can carry notes. Parsing and replaying are pure;
reading the file is the caller's job.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from companion.engine.actions import Action, Setup, action_from_dict
from companion.engine.apply import apply, new_game
from companion.engine.board import Board
from companion.engine.errors import MalformedAction, RuleViolation
from companion.engine.state import State


class RecordError(ValueError):
    """A record that cannot be replayed: the line, and the rule or the reason."""

    def __init__(self, line: int, message: str, rule: str | None = None) -> None:
        self.line = line
        self.rule = rule
        self.reason = message
        super().__init__(f"line {line}: {message}" + (f" ({rule})" if rule else ""))


@dataclass(frozen=True, slots=True)
class Record:
    setup: Setup
    setup_line: int
    actions: tuple[tuple[int, Action], ...]  # (line number, action)


def parse_record(text: str) -> Record:
    """Parse a record's text; :class:`RecordError` names the first bad line."""
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
            if setup is None:
                setup = Setup.from_dict(data)
                setup_line = no
            else:
                actions.append((no, action_from_dict(data)))
        except MalformedAction as exc:
            raise RecordError(no, str(exc)) from None
    if setup is None:
        raise RecordError(1, 'the record is empty: it starts with a {"type": "setup", ...} line')
    return Record(setup, setup_line, tuple(actions))


def replay(
    record: Record,
    board: Board,
    each: Callable[[int, State, Action, State], None] | None = None,
) -> State:
    """Apply every action in order; the final state, or :class:`RecordError` at the first
    refused one. ``each(line, before, action, after)`` sees every step (for narration)."""
    try:
        state = new_game(record.setup, board)
    except RuleViolation as exc:
        raise RecordError(record.setup_line, exc.reason, exc.rule) from None
    for no, action in record.actions:
        try:
            after = apply(state, action)
        except RuleViolation as exc:
            raise RecordError(no, exc.reason, exc.rule) from None
        except MalformedAction as exc:
            raise RecordError(no, str(exc)) from None
        if each is not None:
            each(no, state, action, after)
        state = after
    return state


def dump_record(setup: Setup, actions: Iterable[Action | dict]) -> str:
    """A record's text: compact JSON, one line each, in the order given."""
    lines = [json.dumps(setup.to_dict(), separators=(", ", ": "))]
    for a in actions:
        lines.append(json.dumps(a if isinstance(a, dict) else a.to_dict(), separators=(", ", ": ")))
    return "\n".join(lines) + "\n"
