"""Reading and checking the box file (TOML): every problem with its line and what to write.

A table that counts its own deck edits this file, so :func:`check_box` reports every problem
at once, not the first, with the rule of the manual it would break. This module parses text
only: reading the file is the caller's business (the engine does no I/O). The format is
documented in docs/cash-n-guns.md ("The box").
"""

from __future__ import annotations

import functools
import itertools
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.games.cash_n_guns.box import (
    Box,
    Fact,
    LootCard,
    LootKind,
    Source,
    dollars,
    whole,
)
from companion.protocol.game import Files
from companion.protocol.seats import MAX_SEATS

FORMAT = 1
GAME = "cash-n-guns"
SHIPPED = "box.toml"
FEWEST = 3  # the Godfather's privilege orders a player to aim at a *different* other player
# What the manual prints on the cards ("Values of the Loot cards"), to warn of a typing slip.
PRINTED = {LootKind.BILL: (5000, 10000, 20000), LootKind.DIAMOND: (1000, 5000, 10000)}

# Each table of the file: its fields (besides source, section and why).
_TABLES: dict[str, tuple[str, ...]] = {
    "players": ("fewest", "most"),
    "turns": ("count",),
    "loot_per_turn": ("count",),
    "bullets": ("bang", "click"),
    "wounds": ("deadly",),
    "diamond_bonus": ("value",),
    "paintings": ("values",),
    "special_cards": ("cards",),
}
_LOOT_FIELDS = ("kind", "value", "count")
_NOTES = ("source", "section", "why")
_TOP = {"format", "game", "name", "loot", *_TABLES}


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a box file, where it is, and how to fix it."""

    line: int | None
    message: str
    fix: str = ""
    warning: bool = False

    def format(self, filename: str) -> str:
        where = f"{filename}:{self.line}" if self.line else filename
        text = f"{where}: {'warning' if self.warning else 'error'}: {self.message}"
        return f"{text}\n    fix: {self.fix}" if self.fix else text


class BoxError(ValueError):
    """A box file with errors; ``problems`` lists every one of them."""

    def __init__(self, problems: list[Problem], filename: str = SHIPPED) -> None:
        self.problems = problems
        super().__init__("\n".join(p.format(filename) for p in problems if not p.warning))


class _Lines:
    """The line a table or a key is on (tomllib keeps no positions)."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.headers = [
            (no, m.group(1))
            for no, line in enumerate(self.lines, 1)
            if (m := re.match(r"^\s*\[\[?\s*([A-Za-z0-9_.-]+)\s*\]\]?", line))
        ]

    def table(self, name: str, index: int = 0) -> tuple[int, int] | None:
        found = [i for i, (_, h) in enumerate(self.headers) if h == name]
        if index >= len(found):
            return None
        i = found[index]
        end = self.headers[i + 1][0] - 1 if i + 1 < len(self.headers) else len(self.lines)
        return self.headers[i][0], end

    def key(self, key: str, table: str | None = None, index: int = 0) -> int | None:
        span: tuple[int, int] | None
        if table is None:
            span = (1, self.headers[0][0] - 1 if self.headers else len(self.lines))
        else:
            span = self.table(table, index)
            if span is None:
                return None
        pattern = re.compile(rf"^\s*{re.escape(key)}\s*=")
        for no in range(span[0], span[1] + 1):
            if pattern.match(self.lines[no - 1]):
                return no
        return span[0] if table is not None else None


class _Checker:
    def __init__(self, text: str) -> None:
        self.lines = _Lines(text)
        self.problems: list[Problem] = []
        self.facts: list[Fact] = []

    def error(self, line: int | None, message: str, fix: str = "") -> None:
        self.problems.append(Problem(line, message, fix))

    def warn(self, line: int | None, message: str, fix: str = "") -> None:
        self.problems.append(Problem(line, message, fix, warning=True))

    def unknown(
        self,
        table: dict[str, Any],
        allowed: set[str],
        where: str,
        line_of: Callable[[str], int | None],
    ) -> None:
        for key in table:
            if key not in allowed:
                self.error(
                    line_of(key),
                    f"unknown key {key!r} in {where}",
                    f"use one of: {', '.join(sorted(allowed))}",
                )

    def sources(
        self, table: dict[str, Any], fields: tuple[str, ...], name: str, line: int | None
    ) -> None:
        """Record where each field of ``table`` comes from, and demand the note each source
        needs: a rulebook fact its section, an inferred one its reasoning."""
        raw = table.get("source")
        if raw is None:
            self.error(
                line,
                f"{name} has no source",
                'add source = "rulebook" (with section), "inferred" (with why) or "placeholder"',
            )
            return
        per_field = {"default": raw} if isinstance(raw, str) else raw
        if not isinstance(per_field, dict):
            self.error(
                line,
                f"{name}: source must be a word or a table",
                'source = "placeholder", or source = { default = "rulebook", '
                'count = "placeholder" }',
            )
            return
        for key in per_field:
            if key != "default" and key not in fields:
                self.error(
                    line,
                    f"{name}: source names {key!r}, which {name} does not have",
                    f"name one of: default, {', '.join(fields)}",
                )
        used: set[Source] = set()
        for f in fields:
            value = per_field.get(f, per_field.get("default"))
            if value is None:
                self.error(
                    line,
                    f"{name}: no source for {f}",
                    f'add {f} = "placeholder" (or a default) to the source table',
                )
                continue
            try:
                source = Source(value)
            except ValueError:
                self.error(
                    line,
                    f"{name}: source {value!r} is not known",
                    f"use one of: {', '.join(s.value for s in Source)}",
                )
                continue
            used.add(source)
            note = table.get("section") if source is Source.RULEBOOK else table.get("why")
            label = f"{name}.{f}" if len(fields) > 1 else name
            self.facts.append(Fact(label, source, note if isinstance(note, str) else ""))
        if Source.RULEBOOK in used and not isinstance(table.get("section"), str):
            self.error(
                line,
                f"{name} cites the rulebook but not where",
                'add section = "Game turn, 2. ..." naming the manual\'s section',
            )
        if Source.INFERRED in used and not isinstance(table.get("why"), str):
            self.error(
                line,
                f"{name} is inferred but does not say how",
                'add why = "..." with the reasoning',
            )
        if Source.PLACEHOLDER in used and not isinstance(table.get("why"), str):
            self.warn(
                line,
                f"{name} is a placeholder with no note of what to check",
                'add why = "Count the ... in your box"',
            )

    def count(
        self, table: dict[str, Any], key: str, name: str, line: int | None, least: int, fix: str
    ) -> int | None:
        value = table.get(key)
        if not whole(value) or value < least:
            self.error(
                line, f"{name}.{key} must be a whole number of at least {least}, not {value!r}", fix
            )
            return None
        return value


def check_box(text: str) -> tuple[Box | None, list[Problem]]:
    """Parse and check a box file: the box (None if it has errors) and every problem."""
    c = _Checker(text)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        c.error(
            int(m.group(1)) if m else None,
            f"not valid TOML: {exc}",
            "check the quotes, brackets and commas on that line",
        )
        return None, c.problems
    L = c.lines

    c.unknown(data, _TOP, "the top level", lambda k: L.key(k) or (L.table(k) or (None,))[0])
    if data.get("format") != FORMAT:
        c.error(
            L.key("format"),
            f"format must be {FORMAT}, not {data.get('format')!r}",
            f"write format = {FORMAT} at the top",
        )
    if data.get("game") != GAME:
        c.error(
            L.key("game"),
            f"this file is for the game {data.get('game')!r}, not {GAME}",
            f'game = "{GAME}"',
        )
    raw_name = data.get("name")
    name = raw_name if isinstance(raw_name, str) else "a box"

    tables: dict[str, dict[str, Any]] = {}
    for key, fields in _TABLES.items():
        table = data.get(key)
        span = L.table(key)
        line = span[0] if span else None
        if not isinstance(table, dict):
            c.error(
                line,
                f"the box needs a [{key}] table",
                "see the shipped box.toml for every table and its fields",
            )
            table = {}
        c.unknown(table, {*fields, *_NOTES}, f"[{key}]", functools.partial(L.key, table=key))
        if table:
            c.sources(table, fields, key, line)
        tables[key] = table

    def at(table: str, key: str) -> int | None:
        return L.key(key, table)

    players = tables["players"]
    fewest = c.count(
        players,
        "fewest",
        "players",
        at("players", "fewest"),
        FEWEST,
        f"fewest = 4 (at least {FEWEST}: the Godfather's privilege makes a "
        "player aim at a different player)",
    )
    most = c.count(players, "most", "players", at("players", "most"), FEWEST, "most = 8")
    if most is not None and most > MAX_SEATS:
        c.error(
            at("players", "most"),
            f"players.most is {most}: the companion seats at most {MAX_SEATS}",
            f"most = {MAX_SEATS}",
        )
        most = None
    if fewest is not None and most is not None and fewest > most:
        c.error(
            at("players", "fewest"),
            f"players.fewest ({fewest}) is more than players.most ({most})",
            "fewest = 4, most = 8",
        )
    turns = c.count(tables["turns"], "count", "turns", at("turns", "count"), 1, "count = 8")
    per_turn = c.count(
        tables["loot_per_turn"],
        "count",
        "loot_per_turn",
        at("loot_per_turn", "count"),
        1,
        "count = 8",
    )
    bullets = tables["bullets"]
    bangs = c.count(bullets, "bang", "bullets", at("bullets", "bang"), 0, "bang = 3")
    clicks = c.count(bullets, "click", "bullets", at("bullets", "click"), 0, "click = 5")
    if bangs is not None and clicks is not None and turns is not None and bangs + clicks != turns:
        c.error(
            at("bullets", "bang"),
            f"each player holds {bangs} Bang! and {clicks} Click, "
            f"{bangs + clicks} cards for {turns} turns: the manual says 'You have 8 cards, "
            "one for each turn' (Game turn, 2.)",
            f"make bang + click = {turns}",
        )
    deadly = c.count(tables["wounds"], "deadly", "wounds", at("wounds", "deadly"), 1, "deadly = 3")
    bonus = c.count(
        tables["diamond_bonus"],
        "value",
        "diamond_bonus",
        at("diamond_bonus", "value"),
        0,
        "value = 60000",
    )
    values = tables["paintings"].get("values")
    paintings: tuple[int, ...] | None = None
    if not (isinstance(values, list) and values and all(whole(v) and v >= 0 for v in values)):
        c.error(
            at("paintings", "values"),
            "paintings.values must list what 1, 2, 3 ... paintings are worth, in dollars",
            "values = [4000, 12000, 30000, ...]",
        )
    elif any(b < a for a, b in itertools.pairwise(values)):
        c.error(
            at("paintings", "values"),
            f"a bigger collection of paintings is worth less than a smaller one: {values}",
            "list the values from 1 painting up",
        )
    else:
        paintings = tuple(values)
    specials = tables["special_cards"].get("cards", [])
    if specials != []:
        c.error(
            at("special_cards", "cards"),
            f"special cards {specials!r}: the engine plays none (the manual describes none)",
            "cards = []",
        )

    loot = _check_loot(c, data.get("loot"), turns, per_turn, paintings)

    c.problems.sort(key=lambda p: (p.line is None, p.line or 0))
    if (
        any(not p.warning for p in c.problems)
        or fewest is None
        or most is None
        or turns is None
        or per_turn is None
        or bangs is None
        or clicks is None
        or deadly is None
        or bonus is None
        or paintings is None
    ):
        return None, c.problems
    return Box(
        name,
        (fewest, most),
        turns,
        per_turn,
        bangs,
        clicks,
        deadly,
        bonus,
        paintings,
        loot,
        tuple(c.facts),
    ), c.problems


def _check_loot(
    c: _Checker,
    raw: Any,
    turns: int | None,
    per_turn: int | None,
    paintings: tuple[int, ...] | None,
) -> tuple[tuple[LootCard, int], ...]:
    L = c.lines
    if not isinstance(raw, list) or not raw:
        c.error(None, "the box has no Loot deck", "add [[loot]] tables: kind, value, count")
        return ()
    loot: list[tuple[LootCard, int]] = []
    seen: dict[str, int] = {}
    for i, entry in enumerate(raw):
        span = L.table("loot", i)
        line = span[0] if span else None

        def at(k: str, i: int = i) -> int | None:
            return L.key(k, "loot", i)

        if not isinstance(entry, dict):
            c.error(line, f"Loot card #{i + 1} must be a [[loot]] table")
            continue
        c.unknown(entry, {*_LOOT_FIELDS, *_NOTES}, f"Loot card #{i + 1}", at)
        kind = next((k for k in LootKind if k.value == entry.get("kind")), None)
        if kind is None:
            c.error(
                at("kind"),
                f"Loot card #{i + 1}: kind {entry.get('kind')!r} is not one the manual describes",
                f"kind = one of {', '.join(k.value for k in LootKind)}",
            )
            continue
        value = entry.get("value", 0)
        if kind.valued:
            if not whole(value) or value <= 0:
                c.error(
                    at("value"),
                    f"Loot card #{i + 1}: a {kind.value} prints its value in dollars",
                    "value = 5000",
                )
                continue
            if value not in PRINTED[kind]:
                c.warn(
                    at("value"),
                    f"a {dollars(value)} {kind.value}: the manual prints "
                    f"{kind.value}s of {', '.join(dollars(v) for v in PRINTED[kind])} "
                    "(Values of the Loot cards)",
                    "check the card",
                )
        elif "value" in entry:
            c.error(
                at("value"),
                f"Loot card #{i + 1}: a {kind.value} has no printed value"
                + (
                    " (a painting is worth what its collection is worth)"
                    if kind is LootKind.PAINTING
                    else ""
                ),
                "remove the value line",
            )
            continue
        card = LootCard(kind, value if kind.valued else 0)
        count = entry.get("count")
        if not whole(count) or count < 0:
            c.error(
                at("count"),
                f"{card.id}: count must be how many the deck holds, not {count!r}",
                "count = 3",
            )
            continue
        if card.id in seen:
            c.error(
                line,
                f"{card.id} is listed twice (first on line {seen[card.id]})",
                "add the counts together in one [[loot]] table",
            )
            continue
        seen[card.id] = line or 0
        c.sources(
            entry, _LOOT_FIELDS if kind.valued else ("kind", "count"), f"loot {card.id}", line
        )
        loot.append((card, count))
    total = sum(n for _, n in loot)
    first = (L.table("loot", 0) or (None,))[0]
    if turns is not None and per_turn is not None and total != turns * per_turn:
        c.error(
            first,
            f"the Loot deck holds {total} cards, but {turns} turns of {per_turn} "
            f"need {turns * per_turn}: 'The game ends once the 8th turn is over - once all "
            "the Loot cards have been distributed' (End of the Game)",
            f"make the counts add up to {turns * per_turn}",
        )
    painted = sum(n for card, n in loot if card.kind is LootKind.PAINTING)
    if paintings is not None and painted > len(paintings):
        c.error(
            first,
            f"the deck holds {painted} paintings but [paintings] values "
            f"collections of at most {len(paintings)}",
            f"list the value of collections up to {painted} paintings",
        )
    return tuple(loot)


def parse_box(text: str, filename: str = SHIPPED) -> Box:
    """The box in ``text``, or :class:`BoxError` listing every problem."""
    box, problems = check_box(text)
    if box is None:
        raise BoxError(problems, filename)
    return box


@functools.lru_cache(maxsize=8)  # a box is immutable: parse each text once
def _parsed(text: str, name: str) -> Box:
    return parse_box(text, name)


def load_box(ref: str | None, files: Files) -> Box:
    """The shipped box, or a box file of the user's (``ref``: its name in their folder)."""
    if ref is None:
        return _parsed(files.shipped(SHIPPED), SHIPPED)
    return _parsed(files.user(ref), ref)


def check_report(text: str, filename: str = SHIPPED) -> tuple[bool, str]:
    """What a box check prints: every problem with its line and fix, then a verdict with the
    deck's make-up and how many facts are placeholders. ``ok`` is False if it has errors."""
    box, problems = check_box(text)
    lines = [p.format(filename) for p in problems]
    if box is None:
        errors = sum(1 for p in problems if not p.warning)
        lines.append(f"\n{filename}: {errors} error(s). See docs/cash-n-guns.md (The box).")
        return False, "\n".join(lines)
    warnings = f", {len(problems)} warning(s)" if problems else ""
    lines.append(
        f"{filename}: OK: {box.players[0]}-{box.players[1]} players, {box.turns} turns of "
        f"{box.loot_per_turn} Loot cards, {box.bangs} Bang! and {box.clicks} Click each"
        f"{warnings}."
    )
    lines.append("Loot deck: " + ", ".join(f"{n} x {c.label}" for c, n in box.loot) + ".")
    placeholders = box.placeholders()
    if placeholders:
        lines.append(f"{len(placeholders)} facts are placeholders, not from the manual:")
        lines += [f"  {p}" for p in placeholders]
    return True, "\n".join(lines)
