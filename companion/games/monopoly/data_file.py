"""Reading and checking the edition's data files (TOML): the board with its Title Deeds, the
Friends and Enemies cards, and the "Don" cards.

The shipped files are mostly classic values and placeholders (the rulebook prints no value,
location name or card text), so an owner rewrites them from their own copy; every problem is
reported with its line and what to write instead, never guessed around. :func:`check` takes
any of the three files (its ``kind`` says which) and returns what it read and every problem.
This module parses text only: reading files is the caller's business. The format is in
``docs/monopoly-godfather.md``.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, TypeGuard

from companion.games.monopoly.board import (
    BOARD_SIZE,
    Bank,
    Board,
    Card,
    Deck,
    DonCard,
    Effect,
    Group,
    Kind,
    Space,
)

FORMAT = 1
SOURCE_KINDS = ("rulebook", "classic", "inferred", "placeholder", "owner")
# A source must say where in the rulebook, or why it was inferred; the others may add a note.
NEEDS_DETAIL = ("rulebook", "inferred")
CARDS_PER_DECK = 16  # Contents: 16 FRIENDS cards, 16 ENEMIES cards
DON_CARDS = 6  # Contents: 6 "Don" cards
_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")

_BANK_FIELDS = {
    "start_cash": int,
    "salary": int,
    "jail_fine": int,
    "jail_rolls": int,
    "hideouts": int,
    "compounds": int,
    "hideouts_per_compound": int,
    "speed_hideouts_per_compound": int,
    "speed_deeds": int,
    "mortgage_interest": int,
    "vehicle_rents": list,
    "utility_multipliers": list,
}
_SPACE_FIELDS = {
    Kind.GO: (),
    Kind.JAIL: (),
    Kind.FREE_PARKING: (),
    Kind.GO_TO_JAIL: (),
    Kind.LOCATION: ("group", "price", "rents", "building_cost", "mortgage"),
    Kind.VEHICLE: ("price", "mortgage"),
    Kind.UTILITY: ("price", "mortgage"),
    Kind.TAX: ("tax",),
    Kind.CARD: ("deck",),
}
_EFFECT_FIELDS = {
    Effect.COLLECT: ("amount",),
    Effect.PAY: ("amount",),
    Effect.PAY_EACH: ("amount",),
    Effect.COLLECT_EACH: ("amount",),
    Effect.MOVE_TO: ("space",),
    Effect.MOVE_TO_NEAREST: ("kind", "multiplier"),
    Effect.GO_BACK: ("steps",),
    Effect.GO_TO_JAIL: (),
    Effect.JAIL_FREE: (),
    Effect.REPAIRS: ("amount", "per_compound"),
}


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a data file, where it is, and how to fix it."""

    line: int | None
    message: str
    fix: str = ""
    warning: bool = False

    def format(self, filename: str) -> str:
        where = f"{filename}:{self.line}" if self.line else filename
        text = f"{where}: {'warning' if self.warning else 'error'}: {self.message}"
        return f"{text}\n    fix: {self.fix}" if self.fix else text


class DataError(ValueError):
    """A data file with errors; ``problems`` lists all of them."""

    def __init__(self, problems: list[Problem], filename: str) -> None:
        self.problems = problems
        self.filename = filename
        super().__init__("\n".join(p.format(filename) for p in problems if not p.warning))


class _Lines:
    """Where the n-th ``[[table]]`` of a file starts (tomllib keeps no positions)."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()

    def entry(self, table: str, index: int) -> int | None:
        seen = -1
        for no, line in enumerate(self.lines, 1):
            if line.strip() == f"[[{table}]]":
                seen += 1
                if seen == index:
                    return no
        return None

    def key(self, key: str) -> int | None:
        pattern = re.compile(rf"^\s*{re.escape(key)}\s*=")
        return next((no for no, line in enumerate(self.lines, 1) if pattern.match(line)), None)


class _Checker:
    def __init__(self, text: str) -> None:
        self.lines = _Lines(text)
        self.problems: list[Problem] = []
        self.sources: list[tuple[str, str]] = []

    def error(self, line: int | None, message: str, fix: str = "") -> None:
        self.problems.append(Problem(line, message, fix))

    def warn(self, line: int | None, message: str, fix: str = "") -> None:
        self.problems.append(Problem(line, message, fix, warning=True))

    @property
    def failed(self) -> bool:
        return any(not p.warning for p in self.problems)

    def unknown(
        self, table: dict[str, Any], allowed: set[str], where: str, line: int | None
    ) -> None:
        for key in sorted(set(table) - allowed):
            self.error(
                line, f"unknown key {key!r} in {where}", f"use: {', '.join(sorted(allowed))}"
            )

    def source(self, raw: Any, facts: list[str], where: str, line: int | None) -> None:
        """Record the source of each fact: ``source = "kind: detail"`` or a table of them
        by field (``default`` for the rest)."""
        if raw is None:
            self.error(
                line,
                f"{where} has no source",
                'add source = "placeholder: ..." (or rulebook, classic, inferred, owner)',
            )
            return
        table = {"default": raw} if isinstance(raw, str) else raw
        if not isinstance(table, dict):
            self.error(line, f"{where}: source must be text or a table of texts by field")
            return
        for key, value in table.items():
            if key != "default" and key not in facts:
                self.error(
                    line,
                    f"{where}: the source names {key!r}, which it does not have",
                    f"name one of: default, {', '.join(facts)}",
                )
            self._one_source(value, f"{where} {key}", line)
        for fact in facts:
            value = table.get(fact, table.get("default"))
            if value is None:
                self.error(
                    line,
                    f"{where}: no source for {fact}",
                    'add default = "..." to the source table',
                )
            elif isinstance(value, str):
                self.sources.append((f"{where}: {fact}", value))

    def _one_source(self, value: Any, where: str, line: int | None) -> None:
        if not isinstance(value, str):
            self.error(line, f'{where}: a source is text such as "classic: Boardwalk"')
            return
        kind, _, detail = value.partition(":")
        if kind.strip() not in SOURCE_KINDS:
            self.error(
                line,
                f"{where}: source {value!r} is not known",
                f"start it with one of {', '.join(SOURCE_KINDS)}",
            )
        elif kind.strip() in NEEDS_DETAIL and not detail.strip():
            self.error(
                line,
                f"{where}: a {kind} source says "
                + ("which section" if kind == "rulebook" else "why"),
                f'write "{kind}: ..."',
            )


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _load(text: str, c: _Checker) -> dict[str, Any] | None:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        c.error(int(m.group(1)) if m else None, f"not valid TOML: {exc}")
        return None
    if data.get("format") != FORMAT:
        c.error(c.lines.key("format"), f"format must be {FORMAT}", f"format = {FORMAT}")
    return data


# --- the board -------------------------------------------------------------------------------


def _bank(data: Any, c: _Checker) -> Bank | None:
    line = c.lines.key("start_cash")
    if not isinstance(data, dict):
        c.error(None, "the file has no [bank] table", "copy it from the shipped board.toml")
        return None
    c.unknown(data, {*_BANK_FIELDS, "source"}, "[bank]", line)
    values: dict[str, Any] = {}
    for key, kind in _BANK_FIELDS.items():
        value = data.get(key)
        where = c.lines.key(key) or line
        if kind is int:
            if _is_int(value) and value >= 0:
                values[key] = value
            else:
                c.error(where, f"[bank] {key} must be a whole number, not {value!r}")
        elif isinstance(value, list) and value and all(_is_int(v) and v > 0 for v in value):
            values[key] = tuple(value)
        else:
            c.error(where, f"[bank] {key} must be a list of amounts")
    c.source(data.get("source"), list(_BANK_FIELDS), "[bank]", line)
    if len(values) != len(_BANK_FIELDS):
        return None
    if values["mortgage_interest"] > 100:
        c.error(c.lines.key("mortgage_interest"), "mortgage_interest is a percentage")
    for key in ("hideouts_per_compound", "speed_hideouts_per_compound", "jail_rolls"):
        if values[key] < 1:
            c.error(c.lines.key(key), f"[bank] {key} must be at least 1")
    return Bank(**values)


def _groups(data: Any, c: _Checker) -> dict[str, tuple[str, str, int | None]]:
    out: dict[str, tuple[str, str, int | None]] = {}
    if not isinstance(data, list) or not data:
        c.error(None, "the board has no [[groups]]", "list the colour groups")
        return out
    for i, g in enumerate(data):
        line = c.lines.entry("groups", i)
        if not isinstance(g, dict):
            c.error(line, "a group is a table")
            continue
        c.unknown(g, {"id", "name", "colour", "source"}, "a group", line)
        gid = g.get("id")
        if not (isinstance(gid, str) and _ID.match(gid)):
            c.error(line, f"group id {gid!r} must be letters, digits, - _ or .")
            continue
        if gid in out:
            c.error(line, f"two groups have the id {gid!r}")
        name = g.get("name")
        if not isinstance(name, str) or not name.strip():
            c.error(line, f"group {gid} has no name")
        colour = g.get("colour")
        if not (isinstance(colour, str) and _COLOUR.match(colour)):
            c.error(line, f"group {gid}: colour {colour!r} is not #rrggbb", 'colour = "#1fb25a"')
        c.source(g.get("source"), ["name", "colour"], f"group {gid}", line)
        out[gid] = (str(name), str(colour), line)
    return out


def _space(i: int, s: Any, groups: dict[str, Any], c: _Checker) -> Space | None:
    line = c.lines.entry("spaces", i)
    if not isinstance(s, dict):
        c.error(line, "a space is a table")
        return None
    if s.get("index", i) != i:
        c.error(
            line,
            f"space {i} (counting from GO) says index = {s.get('index')!r}",
            f"list the spaces in order from GO: index = {i}",
        )
    try:
        kind = Kind(str(s.get("kind")))
    except ValueError:
        c.error(
            line,
            f"space {i}: kind {s.get('kind')!r} is not known",
            f"use one of: {', '.join(k.value for k in Kind)}",
        )
        return None
    fields = _SPACE_FIELDS[kind]
    c.unknown(s, {"index", "kind", "name", "source", *fields}, f"space {i} ({kind})", line)
    name = s.get("name")
    if not isinstance(name, str) or not name.strip():
        c.error(line, f"space {i} has no name")
        name = f"space {i}"
    c.source(s.get("source"), ["name", *fields], f"space {i} ({name})", line)
    values: dict[str, Any] = {}
    for f in fields:
        value = s.get(f)
        if f == "group":
            if value not in groups:
                c.error(
                    line,
                    f"{name}: group {value!r} is not one of the [[groups]]",
                    f"use one of: {', '.join(groups)}",
                )
                return None
        elif f == "deck":
            if value not in {d.value for d in Deck}:
                c.error(line, f"{name}: deck {value!r} is not friends or enemies")
                return None
            value = Deck(value)
        elif f == "rents":
            if not (
                isinstance(value, list)
                and len(value) == 6
                and all(_is_int(v) and v > 0 for v in value)
            ):
                c.error(
                    line,
                    f"{name}: rents are six amounts: unimproved, 1 to 4 Hideouts, a Compound",
                    "rents = [50, 200, 600, 1400, 1700, 2000]",
                )
                return None
            if any(b <= a for a, b in pairwise(value)):
                c.error(line, f"{name}: rents {value} do not rise with each building")
            value = tuple(value)
        elif not (_is_int(value) and value > 0):
            c.error(line, f"{name}: {f} must be a whole number of dollars, not {value!r}")
            return None
        values[f] = value
    if kind in (Kind.LOCATION, Kind.VEHICLE, Kind.UTILITY) and values["mortgage"] > values["price"]:
        c.error(
            line,
            f"{name}: the mortgage value ${values['mortgage']} is more than its "
            f"price ${values['price']}",
        )
    return Space(i, kind, name.strip(), **values)


def _check_board(data: dict[str, Any], c: _Checker) -> Board | None:
    top = {"format", "kind", "id", "name", "bank", "groups", "spaces"}
    c.unknown(data, top, "the file", None)
    board_id, name = data.get("id"), data.get("name")
    if not (isinstance(board_id, str) and _ID.match(board_id)):
        c.error(c.lines.key("id"), f"id {board_id!r} must be letters, digits, - _ or .")
    if not isinstance(name, str) or not name.strip():
        c.error(c.lines.key("name"), "the board has no name", 'name = "Our board"')
    bank = _bank(data.get("bank"), c)
    groups = _groups(data.get("groups"), c)
    raw = data.get("spaces")
    if not isinstance(raw, list) or len(raw) != BOARD_SIZE:
        c.error(
            None,
            f"the board has {len(raw) if isinstance(raw, list) else 0} spaces, not {BOARD_SIZE}",
            "list every space from GO, clockwise",
        )
        return None
    spaces = [_space(i, s, groups, c) for i, s in enumerate(raw)]
    if c.failed or bank is None or None in spaces:
        return None
    board_spaces = tuple(s for s in spaces if s is not None)
    if board_spaces[0].kind is not Kind.GO:
        c.error(c.lines.entry("spaces", 0), "the first space must be GO")
    for kind in (Kind.GO, Kind.JAIL, Kind.GO_TO_JAIL):
        found = [s.index for s in board_spaces if s.kind is kind]
        if len(found) != 1:
            c.error(None, f"the board needs exactly one {kind.value} space, not {len(found)}")
    members = {g: tuple(s.index for s in board_spaces if s.group == g) for g in groups}
    for gid, (gname, _, line) in groups.items():
        spaces_in = members[gid]
        if len(spaces_in) < 2:
            c.error(
                line,
                f"group {gname} has {len(spaces_in)} location(s): a colour group has at least two",
            )
        if len({board_spaces[i].building_cost for i in spaces_in}) > 1:
            c.error(line, f"the locations of {gname} have different building costs")
    for kind, table, what in (
        (Kind.VEHICLE, bank.vehicle_rents, "vehicle_rents"),
        (Kind.UTILITY, bank.utility_multipliers, "utility_multipliers"),
    ):
        count = sum(1 for s in board_spaces if s.kind is kind)
        if count and len(table) != count:
            c.error(
                c.lines.key(what),
                f"[bank] {what} has {len(table)} values for {count} {kind.value} spaces",
                "one value per how many the owner has",
            )
    if c.failed or not isinstance(board_id, str) or not isinstance(name, str):
        return None
    group_list = tuple(Group(gid, g[0], g[1], members[gid]) for gid, g in groups.items())
    return Board(board_id, name.strip(), board_spaces, group_list, bank, tuple(c.sources))


# --- the cards -------------------------------------------------------------------------------


def _card(i: int, raw: Any, c: _Checker, board: Board | None) -> Card | None:
    line = c.lines.entry("cards", i)
    if not isinstance(raw, dict):
        c.error(line, "a card is a table")
        return None
    card_id = raw.get("id")
    if not (isinstance(card_id, str) and _ID.match(card_id)):
        c.error(line, f"card id {card_id!r} must be letters, digits, - _ or .")
        return None
    try:
        effect = Effect(str(raw.get("effect")))
    except ValueError:
        c.error(
            line,
            f"card {card_id}: effect {raw.get('effect')!r} is not known",
            f"use one of: {', '.join(e.value for e in Effect)}",
        )
        return None
    fields = _EFFECT_FIELDS[effect]
    c.unknown(raw, {"id", "deck", "text", "effect", "source", *fields}, f"card {card_id}", line)
    if raw.get("deck") not in {d.value for d in Deck}:
        c.error(line, f"card {card_id}: deck {raw.get('deck')!r} is not friends or enemies")
        return None
    text = raw.get("text")
    if not isinstance(text, str) or not text.strip():
        c.error(line, f"card {card_id} has no text", "write what the card says")
        return None
    c.source(raw.get("source"), ["text", "effect"], f"card {card_id}", line)
    values: dict[str, Any] = {}
    for f in fields:
        value = raw.get(f)
        if f == "kind":
            if value not in (Kind.VEHICLE.value, Kind.UTILITY.value):
                c.error(line, f"card {card_id}: kind must be vehicle or utility")
                return None
            value = Kind(value)
        elif f == "space":
            if not (_is_int(value) and 0 <= value < BOARD_SIZE):
                c.error(line, f"card {card_id}: space must be a space number 0-39 (GO is 0)")
                return None
        elif not (_is_int(value) and (value > 0 or f == "per_compound")):
            c.error(line, f"card {card_id}: {f} must be a positive whole number")
            return None
        values[f] = value
    if board is not None and effect is Effect.MOVE_TO_NEAREST and not board.of_kind(values["kind"]):
        c.error(line, f"card {card_id}: the board has no {values['kind'].value} space")
    return Card(card_id, Deck(raw["deck"]), text.strip(), effect, **values)


def _check_cards(data: dict[str, Any], c: _Checker, board: Board | None) -> tuple[Card, ...]:
    c.unknown(data, {"format", "kind", "cards"}, "the file", None)
    raw = data.get("cards")
    if not isinstance(raw, list):
        c.error(None, "the file has no [[cards]]")
        return ()
    cards = [card for i, r in enumerate(raw) if (card := _card(i, r, c, board)) is not None]
    ids = [card.id for card in cards]
    for dup in sorted({x for x in ids if ids.count(x) > 1}):
        c.error(None, f"two cards have the id {dup!r}")
    for deck in Deck:
        n = sum(1 for card in cards if card.deck is deck)
        if n == 0:
            c.error(None, f"the {deck.value} deck has no cards")
        elif n != CARDS_PER_DECK:
            c.warn(
                None,
                f"the {deck.value} deck has {n} cards; the game has {CARDS_PER_DECK} (Contents)",
            )
    return tuple(cards)


def _check_dons(data: dict[str, Any], c: _Checker) -> tuple[DonCard, ...]:
    c.unknown(data, {"format", "kind", "dons"}, "the file", None)
    raw = data.get("dons")
    if not isinstance(raw, list) or not raw:
        c.error(None, "the file has no [[dons]]")
        return ()
    out: list[DonCard] = []
    for i, d in enumerate(raw):
        line = c.lines.entry("dons", i)
        if not isinstance(d, dict):
            c.error(line, "a Don card is a table")
            continue
        c.unknown(d, {"id", "name", "text", "source"}, "a Don card", line)
        don_id, name, text = d.get("id"), d.get("name"), d.get("text")
        if not (isinstance(don_id, str) and _ID.match(don_id)):
            c.error(line, f"Don card id {don_id!r} must be letters, digits, - _ or .")
            continue
        if any(x.id == don_id for x in out):
            c.error(line, f"two Don cards have the id {don_id!r}")
        if not (isinstance(name, str) and name.strip() and isinstance(text, str) and text.strip()):
            c.error(line, f"Don card {don_id} needs a name and a text")
            continue
        c.source(d.get("source"), ["name", "text"], f"Don card {don_id}", line)
        out.append(DonCard(don_id, name.strip(), text.strip()))
    if len(out) < DON_CARDS:
        c.warn(None, f"{len(out)} Don cards; the game has {DON_CARDS}, one for each player")
    return tuple(out)


# --- one entry for all three ----------------------------------------------------------------

Checked = Board | tuple[Card, ...] | tuple[DonCard, ...]


def check(
    text: str, board: Board | None = None
) -> tuple[str | None, Checked | None, list[Problem]]:
    """Check any of the edition's files: (its kind, what it holds or None if it has errors,
    every problem). Cards are checked against ``board`` when one is given."""
    c = _Checker(text)
    data = _load(text, c)
    if data is None:
        return None, None, c.problems
    kind = data.get("kind")
    result: Checked | None
    if kind == "board":
        result = _check_board(data, c)
    elif kind == "cards":
        result = _check_cards(data, c, board)
    elif kind == "dons":
        result = _check_dons(data, c)
    else:
        c.error(
            c.lines.key("kind"),
            f"kind {kind!r}: say which file this is",
            'kind = "board", "cards" or "dons"',
        )
        return None, None, c.problems
    return kind, (None if c.failed else result), c.problems


def placeholders(text: str) -> list[str]:
    """The facts of a file whose source is a placeholder (for the check's summary)."""
    c = _Checker(text)
    data = _load(text, c)
    if data is None:
        return []
    kind = data.get("kind")
    if kind == "board":
        _check_board(data, c)
    elif kind == "cards":
        _check_cards(data, c, None)
    elif kind == "dons":
        _check_dons(data, c)
    return [fact for fact, source in c.sources if source.strip().startswith("placeholder")]


def parse_board(text: str, filename: str) -> Board:
    board = parse(text, "board", filename)
    assert isinstance(board, Board)
    return board


def parse_cards(text: str, filename: str, board: Board) -> tuple[Card, ...]:
    cards = parse(text, "cards", filename, board)
    assert isinstance(cards, tuple)
    return tuple(c for c in cards if isinstance(c, Card))


def parse_dons(text: str, filename: str) -> tuple[DonCard, ...]:
    dons = parse(text, "dons", filename)
    assert isinstance(dons, tuple)
    return tuple(d for d in dons if isinstance(d, DonCard))


def parse(text: str, kind: str, filename: str, board: Board | None = None) -> Checked:
    """The contents of a file of ``kind``, or :class:`DataError` with every problem."""
    found, result, problems = check(text, board)
    if found is not None and found != kind:
        problems = [
            Problem(None, f"this is a {found} file, not a {kind} file", f'kind = "{kind}"'),
            *problems,
        ]
        result = None
    if result is None:
        raise DataError([p for p in problems if not p.warning], filename)
    return result


def report(text: str, filename: str) -> tuple[bool, list[str]]:
    """What ``companion board check --game monopoly-godfather FILE`` prints: every problem
    with its line and fix, then a summary; and whether the file can be used."""
    kind, result, problems = check(text)
    lines = [p.format(filename) for p in problems]
    errors = sum(1 for p in problems if not p.warning)
    if result is None:
        lines.append(
            f"{filename}: {errors} error(s). See docs/monopoly-godfather.md for the format."
        )
        return False, lines
    if isinstance(result, Board):
        what = (
            f"board {result.id!r}: {len(result.spaces)} spaces, "
            f"{len(result.properties)} Title Deeds in {len(result.groups)} colour groups"
        )
    elif kind == "cards":
        what = f"{len(result)} Friends and Enemies cards"
    else:
        what = f"{len(result)} Don cards"
    warned = len(problems)
    lines.append(f"{filename}: OK: {what}" + (f", {warned} warning(s)" if warned else "") + ".")
    count = len(placeholders(text))
    if count:
        lines.append(f"{count} facts are placeholders, not read from a real copy of the game.")
    return True, lines
