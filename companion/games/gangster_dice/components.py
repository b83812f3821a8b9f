"""What is in the box: the dice and their symbols, the four influence tokens, the bid and favor
cards. The words are the rulebook's; the numbers come from ``data/components.toml``, where every
fact names its source (the white dice's double symbol is inferred: the rulebook's sentence is cut
off), and :func:`check_components` reports every problem of that file with its line.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any

from companion.games.gangster_dice.datafile import (
    Checker,
    DataFileError,
    Problem,
    Source,
    is_int,
)

COMPONENTS_FILE = "data/components.toml"
FORMAT = 1


class Colour(StrEnum):
    """A die's colour, in the order of the rulebook's list of components."""

    WHITE = "white"
    RED = "red"
    BLUE = "blue"


class Symbol(StrEnum):
    """The four symbols on the dice (The dice and symbols)."""

    GAVEL = "gavel"
    COCKTAIL = "cocktail"
    GUN = "gun"
    FINGER = "finger"

    @property
    def plural(self) -> str:
        return f"{self.value}s"


class Token(StrEnum):
    """The four influence tokens, in the order the rulebook describes them (which is also the
    order their effects are resolved in, docs/rules.md)."""

    LAWYER = "lawyer"
    SPEAKEASY = "speakeasy"
    STREETS = "streets"
    INVESTIGATOR = "investigator"

    @property
    def symbol(self) -> Symbol:
        """ "The gavel symbol is used to influence the Lawyer token, the cocktail is used to
        influence the Speakeasy, the gun is used to influence the Streets, and the pointing
        finger is used to influence the Investigator" (The dice and symbols)."""
        return _TOKEN_SYMBOL[self]

    @property
    def named(self) -> str:
        """As a sentence names it: "the Lawyer"."""
        return f"the {self.value.capitalize()}"

    @property
    def heading(self) -> str:
        """As a sentence begins with it: "The Lawyer"."""
        return f"The {self.value.capitalize()}"

    @classmethod
    def of(cls, symbol: Symbol) -> Token:
        return next(t for t in cls if t.symbol is symbol)


_TOKEN_SYMBOL = {
    Token.LAWYER: Symbol.GAVEL,
    Token.SPEAKEASY: Symbol.COCKTAIL,
    Token.STREETS: Symbol.GUN,
    Token.INVESTIGATOR: Symbol.FINGER,
}
TOKENS = tuple(Token)
COLOURS = tuple(Colour)


@dataclass(frozen=True, slots=True, order=True)
class Dice:
    """How many dice of each colour lie somewhere: a stash, a token, the box."""

    white: int = 0
    red: int = 0
    blue: int = 0

    @classmethod
    def of_colours(cls, colours: Iterable[Colour]) -> Dice:
        counts = {c: 0 for c in COLOURS}
        for c in colours:
            counts[Colour(c)] += 1
        return cls(*(counts[c] for c in COLOURS))

    @classmethod
    def each(cls, n: int) -> Dice:
        return cls(n, n, n)

    def count(self, colour: Colour) -> int:
        count: int = getattr(self, colour.value)
        return count

    @property
    def total(self) -> int:
        return self.white + self.red + self.blue

    def colours(self) -> tuple[Colour, ...]:
        """The colours present, in order."""
        return tuple(c for c in COLOURS if self.count(c))

    def listed(self) -> tuple[Colour, ...]:
        """One entry per die, in colour order."""
        return tuple(c for c in COLOURS for _ in range(self.count(c)))

    def plus(self, colour: Colour, n: int = 1) -> Dice:
        return Dice(*(self.count(c) + (n if c is colour else 0) for c in COLOURS))

    def __add__(self, other: Dice) -> Dice:
        return Dice(*(self.count(c) + other.count(c) for c in COLOURS))

    def __sub__(self, other: Dice) -> Dice:
        return Dice(*(self.count(c) - other.count(c) for c in COLOURS))

    def covers(self, other: Dice) -> bool:
        """Whether every die of ``other`` is here."""
        return all(self.count(c) >= other.count(c) for c in COLOURS)

    def __iter__(self) -> Iterator[tuple[Colour, int]]:
        return iter((c, self.count(c)) for c in COLOURS)

    def to_json(self) -> dict[str, int]:
        return {c.value: n for c, n in self}

    def describe(self) -> str:
        """ "2 red, 1 blue" ("no dice" when empty)."""
        parts = [f"{n} {c.value}" for c, n in self if n]
        return ", ".join(parts) if parts else "no dice"


@dataclass(frozen=True, slots=True)
class DieKind:
    """One colour of die: the symbol on each of its six faces (face number n is
    ``faces[n - 1]``; the numbers are the companion's) and the symbol it has two of."""

    colour: Colour
    faces: tuple[Symbol, ...]
    double: Symbol

    def face(self, number: int) -> Symbol:
        return self.faces[number - 1]

    def number(self, symbol: Symbol) -> int:
        """The first face number showing ``symbol`` (what a phone sends for a tapped symbol)."""
        return self.faces.index(symbol) + 1


@dataclass(frozen=True, slots=True)
class Components:
    """The contents of the box, as the data file gives them."""

    dice: tuple[DieKind, ...]  # in colour order
    per_colour: int
    per_player: int  # dice of each colour a player starts with
    on_speakeasy: int  # dice of each colour that start on the Speakeasy
    deck: tuple[int, ...]  # the favor deck's values, sorted (the +4s are apart)
    special_value: int
    special_count: int
    tutorial_hand: int
    bid_colours: tuple[str, ...]
    sources: tuple[tuple[str, Source], ...]  # (fact, where it comes from)

    def die(self, colour: Colour) -> DieKind:
        return self.dice[COLOURS.index(colour)]

    @property
    def all_dice(self) -> Dice:
        return Dice.each(self.per_colour)

    @property
    def favor_cards(self) -> int:
        return len(self.deck) + self.special_count

    def facts(self, kind: str) -> list[str]:
        """The facts from one kind of source ("placeholder", "inferred"), as people read them."""
        return [f"{fact}: {source.detail}" for fact, source in self.sources if source.kind == kind]

    def to_json(self) -> dict[str, Any]:
        """The box as the pages show it (public: it is printed)."""
        return {
            "dice": {
                d.colour.value: {
                    "faces": {str(n): s.value for n, s in enumerate(d.faces, 1)},
                    "double": d.double.value,
                    "count": self.per_colour,
                    "inferred": any(
                        f.startswith(f"dice.{d.colour.value}.") and s.kind == "inferred"
                        for f, s in self.sources
                    ),
                }
                for d in self.dice
            },
            "favor_deck": {str(v): self.deck.count(v) for v in sorted(set(self.deck))},
            "special": {"value": self.special_value, "count": self.special_count},
            "tutorial_hand": self.tutorial_hand,
            "bid_colours": list(self.bid_colours),
            "inferred": self.facts("inferred"),
            "placeholders": self.facts("placeholder"),
        }


def check_components(text: str) -> tuple[Components | None, list[Problem]]:
    """Parse and check a components file: the components (None if it has errors) and every
    problem."""
    c = Checker(text)
    data = c.read(text, {"dice", "favor", "bid_cards"}, FORMAT)
    if data is None:
        return None, c.problems
    sources: list[tuple[str, Source]] = []
    dice = _dice(c, data.get("dice"), sources)
    favor = _favor(c, data.get("favor"), sources)
    bid = data.get("bid_cards")
    bid_colours: tuple[str, ...] = ()
    if not isinstance(bid, dict):
        c.error(None, "[bid_cards] is missing", 'colours = ["yellow", "red", "blue", "green"]')
    else:
        c.unknown_keys(bid, {"colours", "source"}, "[bid_cards]")
        colours = bid.get("colours")
        if (
            not isinstance(colours, list)
            or len(colours) < 2
            or not all(isinstance(x, str) and x for x in colours)
            or len(set(colours)) != len(colours)
        ):
            c.error(
                c.line_of("[bid_cards]", "colours"),
                "[bid_cards] colours: one different colour per player, at least two",
                'colours = ["yellow", "red", "blue", "green"]',
            )
        else:
            bid_colours = tuple(colours)
        for fact, s in c.sources(
            bid.get("source"), ["colours"], "[bid_cards]", c.line_of("[bid_cards]")
        ).items():
            sources.append((f"bid_cards.{fact}", s))
    if c.problems or dice is None or favor is None:
        return None, c.problems
    per_colour, per_player, on_speakeasy, kinds = dice
    if per_player * len(bid_colours) + on_speakeasy > per_colour:
        c.error(
            c.line_of("per_player"),
            f"{len(bid_colours)} players with {per_player} dice of each colour and "
            f"{on_speakeasy} on the Speakeasy need more than the {per_colour} there are",
            "check per_colour, per_player and on_speakeasy against the rulebook",
        )
        return None, c.problems
    deck, special_value, special_count, hand = favor
    return Components(
        kinds,
        per_colour,
        per_player,
        on_speakeasy,
        deck,
        special_value,
        special_count,
        hand,
        bid_colours,
        tuple(sources),
    ), c.problems


def _count(c: Checker, table: dict[str, Any], key: str, where: str, low: int = 0) -> int | None:
    value = table.get(key)
    if not is_int(value) or value < low:
        c.error(
            c.line_of(where, key),
            f"{where} {key} must be a whole number of at least {low}",
            f"{key} = {max(low, 1)}",
        )
        return None
    return value


def _dice(
    c: Checker, raw: Any, sources: list[tuple[str, Source]]
) -> tuple[int, int, int, tuple[DieKind, ...]] | None:
    if not isinstance(raw, dict):
        c.error(None, "[dice] is missing", "see docs/gangster-dice.md for the format")
        return None
    c.unknown_keys(
        raw, {"colours", "per_colour", "per_player", "on_speakeasy", "source", *COLOURS}, "[dice]"
    )
    if raw.get("colours") != [col.value for col in COLOURS]:
        c.error(
            c.line_of("[dice]", "colours"),
            "[dice] colours must be white, red and blue",
            'colours = ["white", "red", "blue"]',
        )
    per_colour = _count(c, raw, "per_colour", "[dice]", 1)
    per_player = _count(c, raw, "per_player", "[dice]", 1)
    on_speakeasy = _count(c, raw, "on_speakeasy", "[dice]", 1)
    facts = ["colours", "per_colour", "per_player", "on_speakeasy"]
    for fact, s in c.sources(raw.get("source"), facts, "[dice]", c.line_of("[dice]")).items():
        sources.append((f"dice.{fact}", s))
    kinds = []
    for colour in COLOURS:
        kind = _die(c, colour, raw.get(colour.value), sources)
        if kind is not None:
            kinds.append(kind)
    if per_colour is None or per_player is None or on_speakeasy is None or len(kinds) != 3:
        return None
    return per_colour, per_player, on_speakeasy, tuple(kinds)


def _die(c: Checker, colour: Colour, raw: Any, sources: list[tuple[str, Source]]) -> DieKind | None:
    where = f"[dice.{colour.value}]"
    if not isinstance(raw, dict):
        c.error(None, f"{where} is missing", f"add {where} with faces = [six symbols]")
        return None
    c.unknown_keys(raw, {"faces", "source"}, where)
    line = c.line_of(where)
    for fact, s in c.sources(raw.get("source"), ["symbols", "numbers"], where, line).items():
        sources.append((f"dice.{colour.value}.{fact}", s))
    faces = raw.get("faces")
    names = [s.value for s in Symbol]
    if not (isinstance(faces, list) and len(faces) == 6 and all(f in names for f in faces)):
        c.error(
            c.line_of(where, "faces"),
            f"{where} faces: six symbols, one per face number 1-6",
            f"use {', '.join(names)}",
        )
        return None
    symbols = tuple(Symbol(f) for f in faces)
    # "Each die has 2 pointing fingers, 2 of one other symbol and 1 each of the remaining 2
    # symbols" (The dice and symbols).
    doubles = [s for s in Symbol if s is not Symbol.FINGER and symbols.count(s) == 2]
    singles = [s for s in Symbol if s is not Symbol.FINGER and symbols.count(s) == 1]
    if symbols.count(Symbol.FINGER) != 2 or len(doubles) != 1 or len(singles) != 2:
        c.error(
            c.line_of(where, "faces"),
            f"{where}: a die has 2 fingers, 2 of one other symbol and 1 each of the other "
            f"two (The dice and symbols); these faces have "
            + ", ".join(f"{symbols.count(s)} {s.value}" for s in Symbol),
            "list each face's symbol again from your own dice",
        )
        return None
    return DieKind(colour, symbols, doubles[0])


def _favor(
    c: Checker, raw: Any, sources: list[tuple[str, Source]]
) -> tuple[tuple[int, ...], int, int, int] | None:
    if not isinstance(raw, dict):
        c.error(None, "[favor] is missing", "see docs/gangster-dice.md for the format")
        return None
    c.unknown_keys(
        raw, {"deck", "special_value", "special_count", "tutorial_hand", "source"}, "[favor]"
    )
    deck_raw = raw.get("deck")
    deck: list[int] = []
    if not isinstance(deck_raw, dict) or not deck_raw:
        c.error(
            c.line_of("[favor]", "deck"),
            "[favor] deck: how many cards of each value",
            "deck = { 0 = 6, 1 = 12, 2 = 12, 3 = 6 }",
        )
    else:
        for value, n in deck_raw.items():
            if not value.isdigit() or not is_int(n) or n < 0:
                c.error(
                    c.line_of("[favor]", "deck"),
                    f"[favor] deck: {value} = {n!r} is not a value and a count",
                    "deck = { 0 = 6, 1 = 12, 2 = 12, 3 = 6 }",
                )
                continue
            deck += [int(value)] * n
    special_value = _count(c, raw, "special_value", "[favor]", 1)
    special_count = _count(c, raw, "special_count", "[favor]", 0)
    hand = _count(c, raw, "tutorial_hand", "[favor]", 1)
    facts = ["deck", "special_value", "special_count", "tutorial_hand"]
    for fact, s in c.sources(raw.get("source"), facts, "[favor]", c.line_of("[favor]")).items():
        sources.append((f"favor.{fact}", s))
    if special_value is None or special_count is None or hand is None or not deck:
        return None
    return tuple(sorted(deck)), special_value, special_count, hand


@lru_cache(maxsize=8)  # components are immutable: parse each text once
def parse_components(text: str, filename: str = COMPONENTS_FILE) -> Components:
    """The components ``text`` describes, or :class:`DataFileError` listing every problem."""
    components, problems = check_components(text)
    if components is None:
        raise DataFileError(problems, filename)
    return components
