"""The character cards, from ``data/characters.toml``.

A character's ability and starting hand of favor cards are printed on the back of its card and
are not in the rulebook, so the shipped file holds placeholders for the owner to copy from their
own cards (:func:`check_characters` lists them). The companion deals a character's number of
favor cards and shows its ability on its player's phone; it does not enforce the ability: "the
rules on the card always trump the basic rules of the game" (Character Cards), and the table
applies them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from companion.games.gangster_dice.datafile import (
    Checker,
    DataFileError,
    Problem,
    Source,
    is_int,
)

CHARACTERS_FILE = "data/characters.toml"
FORMAT = 1
MAX_FAVORS = 8  # a hand larger than this is surely a typing mistake
MAX_NAME = 24  # characters, as a player's name


@dataclass(frozen=True, slots=True)
class Character:
    """One character card: its name, the favor cards its player starts with, its ability."""

    name: str
    favors: int
    ability: str
    sources: tuple[tuple[str, Source], ...]

    def placeholders(self) -> list[str]:
        return [fact for fact, s in self.sources if s.kind == "placeholder"]

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "favors": self.favors,
            "ability": self.ability,
            "placeholders": self.placeholders(),
        }


def check_characters(text: str) -> tuple[tuple[Character, ...] | None, list[Problem]]:
    """Parse and check a characters file: the characters (None if it has errors) and every
    problem."""
    c = Checker(text)
    data = c.read(text, {"character"}, FORMAT)
    if data is None:
        return None, c.problems
    entries = data.get("character")
    if not isinstance(entries, list) or not entries:
        c.error(None, "no [[character]] tables", "add one [[character]] per card")
        return None, c.problems
    out: list[Character] = []
    seen: set[str] = set()
    for i, raw in enumerate(entries):
        where = f"character {i + 1}"
        name = raw.get("name") if isinstance(raw, dict) else None
        line = c.line_of(f'"{name}"') if isinstance(name, str) else None
        if not isinstance(raw, dict):
            c.error(None, f"{where} is not a table", "[[character]] then name = ...")
            continue
        c.unknown_keys(raw, {"name", "favors", "ability", "source"}, where)
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
            c.error(
                line,
                f"{where}: name must be the card's name, 1 to {MAX_NAME} characters",
                'name = "Nancy Hughs"',
            )
            continue
        where = f"character {name!r}"
        if name.casefold() in seen:
            c.error(line, f"{where} is listed twice", "each card once")
        seen.add(name.casefold())
        favors = raw.get("favors")
        if not is_int(favors) or not 1 <= favors <= MAX_FAVORS:
            c.error(
                c.line_of(f'"{name}"', "favors"),
                f"{where}: favors is the number of favor cards on the back of the card, "
                f"1 to {MAX_FAVORS}, not {favors!r}",
                "favors = 3",
            )
            continue
        ability = raw.get("ability")
        if not isinstance(ability, str) or not ability.strip():
            c.error(
                c.line_of(f'"{name}"', "ability"),
                f"{where}: ability is the card's text",
                'ability = "..."',
            )
            continue
        sources = c.sources(
            raw.get("source"),
            ["name", "favors", "ability"],
            where,
            c.line_of(f'"{name}"', "source"),
        )
        out.append(Character(name, favors, ability.strip(), tuple(sources.items())))
    if c.problems:
        return None, c.problems
    return tuple(out), c.problems


@lru_cache(maxsize=8)  # characters are immutable: parse each text once
def parse_characters(text: str, filename: str = CHARACTERS_FILE) -> tuple[Character, ...]:
    """The characters ``text`` describes, or :class:`DataFileError` listing every problem."""
    characters, problems = check_characters(text)
    if characters is None:
        raise DataFileError(problems, filename)
    return characters
