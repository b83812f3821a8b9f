"""Who sits at the table: players' names and colours, checked once for every way in, and the
rule for any line of text a person types that the table shows.

A name is shown on every screen, read aloud by the narration, put in HTML and JSON, and keys a
player's seat, so it must be printable text of a sane length. Everything that creates a game
(the web API, the home page's form, ``companion import``, a hand-written record) reaches
:func:`check_seats` through ``Setup.from_dict``, so the rule lives here alone.

What is refused, and why:

- control characters (NUL, newlines, tabs): they break log lines and the record's one line
  per move;
- format characters such as the right-to-left override (U+202E) or a zero-width space: they
  reorder or hide the text around them on the table screen; the zero-width joiner (U+200D)
  alone is kept, because emoji such as a family or a flag with a sign need it;
- lone surrogates, private-use and unassigned code points: they cannot be encoded as UTF-8 or
  mean nothing on another device;
- more than :data:`MAX_NAME` characters: a name must fit a phone's bar and a TV's score chart.

Colours are a closed set (:data:`COLOURS`, the pages draw each one), and two seats may not
share one: dice are paired to a family by its colour.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from companion.protocol.errors import MalformedAction

MAX_NAME = 24  # characters (code points, after NFC)
MAX_SEATS = 8  # no game here seats more; a bound on what a request can make us store

COLOURS = (
    "red",
    "blue",
    "green",
    "yellow",
    "black",
    "white",
    "purple",
    "orange",
    "pink",
    "brown",
)

_ZWJ = "\u200d"
_REFUSED_CATEGORIES = {
    "Cc": "a control character",
    "Cf": "an invisible formatting character",
    "Cs": "a broken character (a lone surrogate)",
    "Co": "a private-use character",
    "Cn": "an unassigned character",
    "Zl": "a line break",
    "Zp": "a paragraph break",
}


class SeatError(ValueError):
    """A name or colour that cannot be used; the message says which and why."""


@dataclass(frozen=True, slots=True)
class Seat:
    """One player at the table, as the record's setup line names them (clockwise)."""

    name: str
    colour: str | None = None

    def to_json(self) -> str | dict[str, str]:
        """The record's way: a bare name, or ``{name, colour}``."""
        return self.name if self.colour is None else {"name": self.name, "colour": self.colour}


def parse_seats(players: object) -> tuple[Seat, ...]:
    """The seats of a setup line's ``players`` (names, or ``{name, colour}`` objects):
    :class:`MalformedAction` saying what is wrong with the first bad one."""
    if not isinstance(players, list):
        raise MalformedAction("setup needs players: a list of names, clockwise")
    if len(players) > MAX_SEATS:
        raise MalformedAction(f"at most {MAX_SEATS} players sit at a table")
    seats = []
    try:
        for p in players:
            if isinstance(p, dict) and set(p) <= {"name", "colour"}:
                seats.append(Seat(clean_name(p.get("name")), clean_colour(p.get("colour"))))
            elif isinstance(p, str):
                seats.append(Seat(clean_name(p)))
            else:
                raise MalformedAction(
                    f"a player is a name or {{name, colour}}, not {type(p).__name__}"
                )
        check_distinct([s.name for s in seats], [s.colour for s in seats])
    except SeatError as exc:
        raise MalformedAction(str(exc)) from None
    return tuple(seats)


def clean_line(raw: object, what: str, max_length: int) -> str:
    """Text a person typed that the table will show on one line (a name, the reason for a
    correction): NFC, spaces trimmed and runs of spaces made one, printable, at most
    ``max_length`` characters. Raises :class:`SeatError` naming the first bad character."""
    if not isinstance(raw, str):
        raise SeatError(f"{what} is text, not {type(raw).__name__}")
    for ch in raw:  # checked before normalising: NFC cannot take a lone surrogate
        refused = _REFUSED_CATEGORIES.get(unicodedata.category(ch))
        if refused is not None and ch != _ZWJ:
            raise SeatError(f"{_shown(raw)}: {what} cannot contain {refused} (U+{ord(ch):04X})")
    text = " ".join(unicodedata.normalize("NFC", raw).split())  # runs of spaces made one
    if not text:
        raise SeatError(f"{what} cannot be empty")
    if len(text) > max_length:
        raise SeatError(
            f"{_shown(text[:max_length])}…: {what} is at most {max_length} characters "
            f"(this one has {len(text)})"
        )
    return text


def clean_name(raw: object) -> str:
    """A player's name as it will be stored (see :func:`clean_line`)."""
    return clean_line(raw, "a player's name", MAX_NAME)


def clean_colour(raw: object) -> str | None:
    """A colour from :data:`COLOURS` (any case), or None for none."""
    if raw is None:
        return None
    if not isinstance(raw, str) or raw.strip().lower() not in COLOURS:
        raise SeatError(f"colour must be one of {', '.join(COLOURS)}, not {_shown(raw)}")
    return raw.strip().lower()


def name_key(name: str) -> str:
    """What makes two names the same name: case, width and joiners do not count."""
    return unicodedata.normalize("NFKC", name.replace(_ZWJ, "")).casefold()


def check_distinct(names: Iterable[str], colours: Iterable[str | None]) -> None:
    """No two seats with the same name (as :func:`name_key` sees it) or the same colour."""
    seen: dict[str, str] = {}
    for name in names:
        other = seen.setdefault(name_key(name), name)
        if other is not name:
            raise SeatError(f"two players are called {other!r} and {name!r}: names must differ")
    taken: set[str] = set()
    for colour in colours:
        if colour is None:
            continue
        if colour in taken:
            raise SeatError(f"two players have the colour {colour}: each family has its own")
        taken.add(colour)


def _shown(value: object) -> str:
    """A value quoted for an error message, safe to print anywhere (no control characters)."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
