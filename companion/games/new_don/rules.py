"""House rules: named choices where the rulebook is silent or can be read two ways.

Each option is written once below: its values (the first is the default) and what it means;
``docs/rules.md`` explains every one and why its default. A game's options are fixed at setup and
written in its record, so a replay always uses the same rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.protocol.options import option


@dataclass(frozen=True, slots=True)
class HouseRules:
    """The options a table chose."""

    scoring: str = option(
        "standard",
        "friends_close",
        text="district scoring; friends_close is the 'Keep your friends close' variant",
    )
    friends_close_house: bool = option(
        False,
        True,
        text="with scoring = friends_close, is the House bonus scored the variant's way too? "
        "The rulebook words the variant for districts ('When scoring for each district'), so "
        "by default the House keeps the standard tie rule",
    )
    tie_block: str = option(
        "lowest_place",
        "next_place",
        text="three or more tied players: score the lowest place of the places they fill "
        "(lowest_place), or just the next place down (next_place)",
    )
    request_revealed_number: str = option(
        "allowed",
        "forbidden",
        text="may the Godfather request the number the player revealed as their favor?",
    )
    empty_house: str = option(
        "skip",
        "from_vegas",
        text="a soldier is owed to the Favor track but the House is empty: place none (skip), "
        "or take one of that player's soldiers back from Vegas (from_vegas)",
    )
    straights_wrap: bool = option(
        False, True, text="do straights wrap around, so 5-6-1 and 6-1-2 count?"
    )
    leftover_dice: str = option(
        "any",
        "unusable_only",
        text="may any unspent dice recruit and bet (any), or only dice that could not claim "
        "or muscle into a neighborhood (unusable_only)?",
    )
    empty_track_godfather: str = option(
        "stays",
        "seat_left",
        text="nobody is on the Muscle track at clean-up: the Godfather stays, or passes to "
        "the left",
    )
