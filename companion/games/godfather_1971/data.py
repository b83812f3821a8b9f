"""The game's data files: the neighborhoods' positions, the Racket Control Value card and the
decks, read and checked (pure: text in, the data or every problem out; reading files is the
platform's business).

The rules print neither the board nor the deck, so most of those facts are placeholders until
an owner traces their own copy; every fact says where it comes from (``source``): ``rulebook
(where)``, ``inferred: why``, ``placeholder: why`` or ``traced``. :func:`check_neighborhood`
is what an owner runs on a tracing: it reports every problem with its line and a fix, and
:func:`describe` prints the positions and neighbours it read, to compare with the board.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from companion.games.godfather_1971.cards import CardError, Deck, parse_card
from companion.games.godfather_1971.layout import ROWS, Layout, grid_layout
from companion.games.godfather_1971.rackets import Racket

FORMAT = 1
SOURCE_KINDS = ("rulebook", "inferred", "placeholder", "traced")
VALUES_FILE = "data/racket-control-value.toml"
CARDS_FILE = "data/cards.toml"
_SOURCE = re.compile(r"^(rulebook|inferred|placeholder|traced)\b\s*(.*)$", re.S)
_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_POSITION = re.compile(r"^[A-Z][1-9][0-9]?$")
COLUMNS = {  # the card's columns, as the file names them
    "bookmaking": Racket.BOOKIE,
    "extortion": Racket.STRONGARM,
    "bootlegging": Racket.BOOTLEGGER,
    "loan_sharking": Racket.LOAN_SHARK,
    "hijacking": Racket.HIJACKER,
}
_RACKET_INDEX = {r: i for i, r in enumerate(Racket)}
MAX_POSITIONS = 64  # a neighborhood bigger than this is a typo in the map


def neighborhood_file(hood: str) -> str:
    return f"data/neighborhoods/{hood}.toml"


# What a TOML value is, as the checks below need it (the values of a parsed file are Any).


def _int(value: object) -> TypeGuard[int]:
    """A whole number (TOML's ``true`` is not one)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _table(value: object) -> TypeGuard[dict[str, Any]]:
    """A TOML table (its keys are always strings)."""
    return isinstance(value, dict)


def source_kind(source: str) -> str:
    """Where a fact comes from: rulebook, inferred, placeholder or traced (a source that says
    none of these counts as a placeholder)."""
    m = _SOURCE.match(source)
    return m.group(1) if m else "placeholder"


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a data file, where, and how to fix it."""

    line: int | None
    message: str
    fix: str = ""
    warning: bool = False

    def format(self, filename: str) -> str:
        where = f"{filename}:{self.line}" if self.line else filename
        text = f"{where}: {'warning' if self.warning else 'error'}: {self.message}"
        return f"{text}\n    fix: {self.fix}" if self.fix else text


class DataError(ValueError):
    """A data file with errors: ``problems`` lists them all."""

    def __init__(self, filename: str, problems: list[Problem]) -> None:
        self.filename = filename
        self.problems = problems
        super().__init__("\n".join(p.format(filename) for p in problems if not p.warning))


@dataclass(frozen=True, slots=True)
class Fact:
    """One fact of the data and where it comes from."""

    what: str
    source: str

    @property
    def kind(self) -> str:
        return source_kind(self.source)


class _Checker:
    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.problems: list[Problem] = []

    def error(self, line: int | None, message: str, fix: str = "") -> None:
        self.problems.append(Problem(line, message, fix))

    def line_of(self, pattern: str, start: int = 1, nth: int = 0) -> int | None:
        """The line (from ``start``) where ``pattern`` (a regex) matches for the nth time."""
        rx = re.compile(pattern)
        seen = 0
        for no in range(start, len(self.lines) + 1):
            if rx.search(self.lines[no - 1]):
                if seen == nth:
                    return no
                seen += 1
        return None

    def key(self, key: str, start: int = 1) -> int | None:
        return self.line_of(rf'^\s*"?{re.escape(key)}"?\s*=', start)

    def source(self, raw: Any, line: int | None, where: str, facts: list[str]) -> dict[str, str]:
        """``source = "kind ..."`` or ``{default = ..., fact = ...}`` (inline or a [source]
        table starting on ``line``): one source per fact."""
        if isinstance(raw, str):
            raw = {"default": raw}
        if not _table(raw) or not raw:
            self.error(
                line, f"{where} has no source", 'add source = "traced" (or "placeholder: why")'
            )
            return {}
        out = {}
        for key, value in raw.items():
            at = (
                self.key(key, line)
                if line and self.lines[line - 1].lstrip().startswith("[")
                else None
            ) or line
            if key != "default" and key not in facts:
                self.error(
                    at,
                    f"{where}: the source names {key!r}, which is no fact here",
                    f"name one of: default, {', '.join(facts)}",
                )
                continue
            m = _SOURCE.match(value) if isinstance(value, str) else None
            if m is None:
                self.error(
                    at,
                    f"{where}: source {value!r} does not say where the fact comes from",
                    f"start it with one of: {', '.join(SOURCE_KINDS)}",
                )
            elif m.group(1) == "inferred" and not m.group(2).strip(" :"):
                self.error(
                    at,
                    f"{where}: an inferred fact needs its reasoning",
                    'write source = "inferred: <why>"',
                )
        for f in facts:
            value = raw.get(f, raw.get("default"))
            if value is None:
                self.error(
                    line,
                    f"{where}: no source for {f}",
                    'add default = "traced" to the source table',
                )
            elif isinstance(value, str):  # anything else was reported above
                out[f] = value
        return out


def _toml(c: _Checker, text: str) -> dict[str, Any] | None:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        c.error(
            int(m.group(1)) if m else None,
            f"not valid TOML: {exc}",
            "check quotes, brackets and commas on that line",
        )
        return None


def _unknown(
    c: _Checker, data: dict[str, Any], allowed: set[str], where: str, start: int = 1
) -> None:
    for key in data:
        if key not in allowed:
            c.error(
                c.key(key, start),
                f"unknown key {key!r} in {where}",
                f"use one of: {', '.join(sorted(allowed))}",
            )


# --- neighborhoods ------------------------------------------------------------------------

_HOOD_KEYS = {"format", "id", "name", "map", "cut", "join", "source"}


@dataclass(frozen=True, slots=True)
class Neighborhood:
    """A neighborhood file read: its layout and the sources of its facts."""

    layout: Layout
    facts: tuple[Fact, ...]


def _pairs(
    c: _Checker, data: dict[str, Any], key: str, names: set[str], straight: dict[str, set[str]]
) -> list[tuple[str, str]]:
    raw = data.get(key, [])
    line = c.key(key)
    ok: list[tuple[str, str]] = []
    if not isinstance(raw, list):
        c.error(line, f"{key} must be a list of pairs", f'{key} = [["C4", "C5"]]')
        return ok
    for pair in raw:
        if not (
            isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair)
        ):
            c.error(line, f"{key}: {pair!r} is not a pair of positions", f'{key} = [["C4", "C5"]]')
            continue
        a, b = pair
        missing = [p for p in pair if p not in names]
        if missing:
            c.error(
                line,
                f"{key}: {', '.join(missing)} is not a position of this map",
                "positions are named by row letter and column number from the map: "
                + ", ".join(sorted(names)[:4])
                + " ...",
            )
            continue
        if a == b:
            c.error(line, f"{key}: {a} is paired with itself", "name two different positions")
            continue
        if key == "cut" and b not in straight[a]:
            c.error(
                line,
                f"cut: {a} and {b} are not straight neighbours on the map, so there "
                "is nothing to cut",
                "cut only positions side by side in a row or column",
            )
            continue
        if key == "join" and b in straight[a]:
            c.error(line, f"join: {a} and {b} are straight neighbours already", "remove the pair")
            continue
        ok.append((a, b))
    return ok


def check_neighborhood(text: str) -> tuple[Neighborhood | None, list[Problem]]:
    """Read and check a neighborhood file: the neighborhood (None if it has errors) and every
    problem found."""
    c = _Checker(text)
    data = _toml(c, text)
    if data is None:
        return None, c.problems
    _unknown(c, data, _HOOD_KEYS, "a neighborhood file")
    if data.get("format") != FORMAT:
        c.error(
            c.key("format"),
            f"format must be {FORMAT}, found {data.get('format')!r}",
            f"write format = {FORMAT} at the top",
        )
    hid = data.get("id")
    if not isinstance(hid, str) or not _ID.match(hid):
        c.error(
            c.key("id"),
            "the neighborhood needs an id: lower-case letters, digits and -",
            'id = "park-west"',
        )
        hid = "neighborhood"
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        c.error(c.key("name"), "the neighborhood needs its printed name", 'name = "Park West"')
        name = hid
    raw_map = data.get("map")
    map_line = c.key("map")
    before_map = len(c.problems)  # a bad id or name still lets the map and cuts be checked
    rows: list[str] = []
    if not isinstance(raw_map, str):
        c.error(
            map_line,
            "map is missing: one line of o and . per row of positions",
            'map = """\no o o\no o o\n"""',
        )
    else:
        rows = [r.replace(" ", "") for r in raw_map.strip("\n").splitlines()]
        for i, row in enumerate(rows):
            bad = sorted(set(row) - {"o", "."})
            if bad:
                c.error(
                    (map_line or 0) + 1 + i if map_line else None,
                    f"map row {i + 1} has {', '.join(map(repr, bad))}: only o (a position) "
                    "and . (none) are allowed",
                    "draw each position as o, gaps as .",
                )
        if len(rows) > len(ROWS):
            c.error(map_line, f"the map has {len(rows)} rows; at most {len(ROWS)}", "")
        if any(len(r) > 99 for r in rows):
            c.error(map_line, "a map row is longer than 99 positions", "")
    if len(c.problems) > before_map:
        return None, c.problems
    layout = grid_layout(hid, name, rows)
    if layout.size == 0:
        c.error(map_line, "the map has no positions", "draw each position as o")
        return None, c.problems
    if layout.size > MAX_POSITIONS:
        c.error(
            map_line,
            f"the map has {layout.size} positions; a neighborhood has at most {MAX_POSITIONS}",
            "check the map for stray o's",
        )
        return None, c.problems
    names = set(layout.names)
    straight = {n: set(layout.names_of(layout.straight[i])) for i, n in enumerate(layout.names)}
    cut = _pairs(c, data, "cut", names, straight)
    join = _pairs(c, data, "join", names, straight)
    sources = c.source(
        data.get("source"),
        c.line_of(r"^\s*(\[source\]|source\s*=)"),
        "the neighborhood",
        ["name", "map"],
    )
    if c.problems:
        return None, c.problems
    placeholder = source_kind(sources["map"]) == "placeholder"
    layout = grid_layout(hid, name, rows, cut, join, placeholder)
    lonely = [layout.names[i] for i in range(layout.size) if not layout.straight[i]]
    if lonely and layout.size > 1:
        c.problems.append(
            Problem(
                map_line,
                f"{', '.join(lonely)} touch no other position "
                "in a straight line: a piece there can never be surrounded",
                "check the map, or join them to their neighbours",
                warning=True,
            )
        )
    parts = _parts(layout)
    if parts > 1:
        c.problems.append(
            Problem(
                map_line,
                f"the positions fall into {parts} separate parts",
                "check the map and the cuts",
                warning=True,
            )
        )
    facts = (
        Fact(f"{name}: its name", sources["name"]),
        Fact(f"{name}: its {layout.size} positions and their neighbours", sources["map"]),
    )
    return Neighborhood(layout, facts), c.problems


def _parts(layout: Layout) -> int:
    rest = layout.full
    n = 0
    while rest:
        rest &= ~layout.flood(rest & -rest, rest)
        n += 1
    return n


def describe(layout: Layout) -> str:
    """The positions as read, drawn with their names, and each one's neighbours: what an owner
    compares with the printed board."""
    rows = max(r for r, _ in layout.cells) + 1
    cols = max(c for _, c in layout.cells) + 1
    at = {cell: layout.names[i] for i, cell in enumerate(layout.cells)}
    lines = [
        f"{layout.name} ({layout.id}): {layout.size} positions"
        + (" (placeholder shape)" if layout.placeholder else "")
    ]
    for r in range(rows):
        lines.append("  " + " ".join(f"{at.get((r, c), '.'):>3}" for c in range(cols)))
    lines.append("Neighbours (straight; diagonal):")
    for i, n in enumerate(layout.names):
        lines.append(
            f"  {n:>3}: {' '.join(layout.names_of(layout.straight[i])) or '-'};"
            f" {' '.join(layout.names_of(layout.diagonal[i])) or '-'}"
        )
    return "\n".join(lines)


# --- the Racket Control Value card ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ValueCard:
    """The Racket Control Value card: a value per neighborhood and racket, in the card's
    row order, with each value's source."""

    order: tuple[str, ...]
    values: tuple[tuple[int, ...], ...]  # per row, in Racket order
    facts: tuple[Fact, ...]

    def value(self, hood: str, racket: Racket) -> int:
        return self.values[self.order.index(hood)][_RACKET_INDEX[racket]]


def check_values(text: str) -> tuple[ValueCard | None, list[Problem]]:
    c = _Checker(text)
    data = _toml(c, text)
    if data is None:
        return None, c.problems
    _unknown(c, data, {"format", "row"}, "the value card")
    if data.get("format") != FORMAT:
        c.error(c.key("format"), f"format must be {FORMAT}", f"write format = {FORMAT}")
    rows = data.get("row")
    if not isinstance(rows, list) or not rows:
        c.error(None, "the card has no rows", "add one [[row]] per neighborhood")
        return None, c.problems
    order: list[str] = []
    values: list[tuple[int, ...]] = []
    facts: list[Fact] = []
    for n, row in enumerate(rows):
        start = c.line_of(r"^\s*\[\[row\]\]", nth=n) or 1
        if not _table(row):
            c.error(start, f"row {n + 1} is not a table", "write each row as [[row]] with its keys")
            continue
        _unknown(c, row, {"neighborhood", "source", *COLUMNS}, f"row {n + 1}", start)
        hood = row.get("neighborhood")
        if not isinstance(hood, str) or not _ID.match(hood):
            c.error(start, f"row {n + 1} needs neighborhood = an id", 'neighborhood = "harlem"')
            continue
        if hood in order:
            c.error(start, f"{hood} has two rows", "keep one")
            continue
        cells = []
        for col in COLUMNS:
            v = row.get(col)
            if not _int(v) or v <= 0 or v % 100:
                c.error(
                    c.key(col, start) or start,
                    f"{hood}: {col} must be a value in dollars, a multiple of $100 (found {v!r})",
                    f"{col} = 5500",
                )
                v = 0
            cells.append(v)
        sources = c.source(row.get("source"), c.key("source", start) or start, hood, list(COLUMNS))
        order.append(hood)
        values.append(tuple(cells))
        for col, r in COLUMNS.items():
            if col in sources:
                facts.append(
                    Fact(
                        f"{hood} {r.card_name}: ${cells[list(COLUMNS).index(col)]:,}", sources[col]
                    )
                )
    if c.problems:
        return None, c.problems
    return ValueCard(tuple(order), tuple(values), tuple(facts)), c.problems


# --- the decks ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Decks:
    """Every card of each deck, repeats written out, in the file's order."""

    playing: tuple[str, ...]
    good: tuple[str, ...]
    bad: tuple[str, ...]
    facts: tuple[Fact, ...] = field(default=())

    def of(self, deck: Deck) -> tuple[str, ...]:
        return {Deck.PLAYING: self.playing, Deck.GOOD: self.good, Deck.BAD: self.bad}[deck]

    def kinds(self, deck: Deck) -> tuple[str, ...]:
        """Each different card once, in the file's order."""
        return tuple(dict.fromkeys(self.of(deck)))


def check_cards(text: str) -> tuple[Decks | None, list[Problem]]:
    c = _Checker(text)
    data = _toml(c, text)
    if data is None:
        return None, c.problems
    _unknown(c, data, {"format", *(d.value for d in Deck)}, "the cards file")
    if data.get("format") != FORMAT:
        c.error(c.key("format"), f"format must be {FORMAT}", f"write format = {FORMAT}")
    decks: dict[Deck, list[str]] = {}
    facts: list[Fact] = []
    for deck in Deck:
        entries = data.get(deck.value)
        if not isinstance(entries, list) or not entries:
            c.error(None, f"{deck.phrase} has no cards", f"add [[{deck.value}]] entries")
            continue
        cards: list[str] = []
        for n, entry in enumerate(entries):
            start = c.line_of(rf"^\s*\[\[{deck.value}\]\]", nth=n) or 1
            if not _table(entry):
                c.error(
                    start,
                    f"{deck.value} card {n + 1} is not a table",
                    f"write each card as [[{deck.value}]] with its keys",
                )
                continue
            _unknown(c, entry, {"card", "count", "source"}, f"[[{deck.value}]] {n + 1}", start)
            try:
                code = parse_card(entry.get("card"), deck).code
            except CardError as exc:
                c.error(c.key("card", start) or start, str(exc), "see the codes at the top")
                continue
            count = entry.get("count", 1)
            if not _int(count) or not 1 <= count <= 60:
                c.error(
                    c.key("count", start) or start, f"{code}: count must be 1 to 60", "count = 3"
                )
                continue
            sources = c.source(
                entry.get("source"),
                c.key("source", start) or start,
                f"{deck.value} card {code}",
                ["card", "count"],
            )
            facts += [
                Fact(f"{deck.value} card {code}", sources.get("card", "placeholder")),
                Fact(
                    f"{deck.value} card {code}: {count} in the deck",
                    sources.get("count", "placeholder"),
                ),
            ]
            cards += [code] * count
        decks[deck] = cards
    if c.problems:
        return None, c.problems
    return Decks(
        tuple(decks[Deck.PLAYING]), tuple(decks[Deck.GOOD]), tuple(decks[Deck.BAD]), tuple(facts)
    ), c.problems
