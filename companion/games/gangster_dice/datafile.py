"""What the game's data files have in common: every fact names its source, and every problem is
reported with its line and what to write instead (as A New Don's board files are).

A source is ``"kind: detail"``: ``rulebook`` (printed in the rulebook: the section), ``card``
(copied from a physical card), ``inferred`` (follows from the rulebook: the reasoning),
``companion`` (this program's own convention) or ``placeholder`` (not known yet). This module
parses text only; reading a file is the platform's business.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, TypeGuard

SOURCE_KINDS = ("rulebook", "card", "inferred", "companion", "placeholder")


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a data file, where it is, and how to fix it."""

    line: int | None
    message: str
    fix: str = ""

    def format(self, filename: str) -> str:
        where = f"{filename}:{self.line}" if self.line else filename
        text = f"{where}: error: {self.message}"
        return f"{text}\n    fix: {self.fix}" if self.fix else text


class DataFileError(ValueError):
    """A data file with errors; ``problems`` lists every one, not just the first."""

    def __init__(self, problems: list[Problem], filename: str) -> None:
        self.problems = problems
        self.filename = filename
        super().__init__("\n".join(p.format(filename) for p in problems))


@dataclass(frozen=True, slots=True)
class Source:
    """Where one fact comes from."""

    kind: str
    detail: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.detail}" if self.detail else self.kind


class Checker:
    """Collects the problems of one file; finds the line a key or a value sits on."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.problems: list[Problem] = []

    def line_of(self, *needles: str) -> int | None:
        """The first line holding every needle, after the line holding the one before."""
        start = 0
        found = None
        for needle in needles:
            for no in range(start, len(self.lines)):
                if needle in self.lines[no]:
                    found, start = no + 1, no
                    break
            else:
                return found
        return found

    def read(self, text: str, keys: Iterable[str], fmt: int) -> dict[str, Any] | None:
        """The file's TOML (None if it is not TOML), its top-level keys and format checked."""
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            m = re.search(r"line (\d+)", str(exc))
            self.error(
                int(m.group(1)) if m else None,
                f"not valid TOML: {exc}",
                "see docs/gangster-dice.md for the format",
            )
            return None
        self.unknown_keys(data, {"format", *keys}, "the file")
        if data.get("format") != fmt:
            self.error(self.line_of("format"), f"format must be {fmt}", f"format = {fmt}")
        return data

    def error(self, line: int | None, message: str, fix: str = "") -> None:
        self.problems.append(Problem(line, message, fix))

    def unknown_keys(self, table: dict[str, Any], allowed: Iterable[str], where: str) -> None:
        allowed = set(allowed)
        for key in table:
            if key not in allowed:
                self.error(
                    self.line_of(key),
                    f"unknown key {key!r} in {where}",
                    f"use one of: {', '.join(sorted(allowed))}",
                )

    def sources(
        self, raw: Any, facts: Iterable[str], where: str, line: int | None
    ) -> dict[str, Source]:
        """``source = "kind: detail"`` for every fact, or a table naming facts apart (with an
        optional ``default``): each fact's :class:`Source`."""
        facts = list(facts)
        if raw is None:
            self.error(
                line,
                f"{where} has no source",
                'add source = "rulebook: <section>" (or "placeholder: <why>")',
            )
            return {}
        if isinstance(raw, str):
            raw = {"default": raw}
        if not isinstance(raw, dict):
            self.error(
                line, f"{where}: source must be a string or a table", 'source = "rulebook: setup"'
            )
            return {}
        out: dict[str, Source] = {}
        for key in raw:
            if key != "default" and key not in facts:
                self.error(
                    line,
                    f"{where}: source names {key!r}, which {where} does not have",
                    f"name one of: default, {', '.join(facts)}",
                )
        for fact in facts:
            value = raw.get(fact, raw.get("default"))
            if value is None:
                self.error(
                    line,
                    f"{where}: no source for {fact}",
                    f'add {fact} = "rulebook: <section>" to the source table',
                )
                continue
            source = parse_source(value)
            if source is None:
                self.error(
                    line,
                    f"{where}: the source of {fact} ({value!r}) is not "
                    '"kind: detail" with a known kind',
                    f"begin it with one of: {', '.join(SOURCE_KINDS)}",
                )
                continue
            out[fact] = source
        return out


_SOURCE = re.compile(r"^\s*([a-z]+)\s*(?::\s*(.*))?$", re.DOTALL)


def parse_source(value: Any) -> Source | None:
    if not isinstance(value, str):
        return None
    m = _SOURCE.match(value)
    if m is None or m.group(1) not in SOURCE_KINDS:
        return None
    return Source(m.group(1), (m.group(2) or "").strip())


def is_int(value: Any) -> TypeGuard[int]:
    """A whole number as TOML gives it (a bool is not one)."""
    return isinstance(value, int) and not isinstance(value, bool)
