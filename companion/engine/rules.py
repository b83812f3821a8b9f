"""House rules: named choices where the rulebook is silent or can be read two ways.

Each option has a documented default (``docs/rules.md`` explains every one and why). A game's
options are fixed at setup and written in its record, so a replay always uses the same rules.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from companion.engine.errors import MalformedAction

# option name -> (allowed values, default, one-line explanation)
OPTIONS: dict[str, tuple[tuple[Any, ...], Any, str]] = {
    "scoring": (
        ("standard", "friends_close"),
        "standard",
        "district scoring; friends_close is the 'Keep your friends close' variant",
    ),
    "tie_block": (
        ("lowest_place", "next_place"),
        "lowest_place",
        "three or more tied players: score the lowest place of the places they fill "
        "(lowest_place), or just the next place down (next_place)",
    ),
    "request_revealed_number": (
        ("allowed", "forbidden"),
        "allowed",
        "may the Godfather request the number the player revealed as their favor?",
    ),
    "empty_house": (
        ("skip", "from_vegas"),
        "skip",
        "a soldier is owed to the Favor track but the House is empty: place none (skip), or "
        "take one of that player's soldiers back from Vegas (from_vegas)",
    ),
    "straights_wrap": (
        (False, True),
        False,
        "do straights wrap around, so 5-6-1 and 6-1-2 count?",
    ),
    "leftover_dice": (
        ("any", "unusable_only"),
        "any",
        "may any unspent dice recruit and bet (any), or only dice that could not claim or "
        "muscle into a neighborhood (unusable_only)?",
    ),
    "empty_track_godfather": (
        ("stays", "seat_left"),
        "stays",
        "nobody is on the Muscle track at clean-up: the Godfather stays, or passes to the left",
    ),
}


@dataclass(frozen=True, slots=True)
class HouseRules:
    """The options a table chose; see :data:`OPTIONS` for what each means."""

    scoring: str = "standard"
    tie_block: str = "lowest_place"
    request_revealed_number: str = "allowed"
    empty_house: str = "skip"
    straights_wrap: bool = False
    leftover_dice: str = "any"
    empty_track_godfather: str = "stays"

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> HouseRules:
        data = data or {}
        if not isinstance(data, dict):
            raise MalformedAction("options must be an object of house-rule names to values")
        for key, value in data.items():
            if key not in OPTIONS:
                raise MalformedAction(
                    f"unknown house rule {key!r}; known: {', '.join(sorted(OPTIONS))}"
                )
            allowed = OPTIONS[key][0]
            if value not in allowed or type(value) is not type(allowed[0]):
                raise MalformedAction(
                    f"house rule {key} cannot be {value!r}; choose one of "
                    + ", ".join(repr(a) for a in allowed)
                )
        return cls(**data)

    def to_dict(self) -> dict[str, Any]:
        """Only the options that differ from the defaults, so records stay short."""
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if getattr(self, f.name) != OPTIONS[f.name][1]
        }
