"""House rules of Gangster Dice: named choices where the rulebook is silent or can be read two
ways. Each is written once below (its values, the default first, and what it means);
docs/rules.md explains each and why its default. A game's options are in its record's setup line,
so a replay always uses the same rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.protocol.options import option


@dataclass(frozen=True, slots=True)
class HouseRules:
    """The options a table chose."""

    spent_fours: str = option(
        "stack",
        "discard",
        text="a played special +4 favor card goes back to the face-up stack of +4s (stack), "
        "or onto the discard pile to be shuffled into the deck like any favor card (discard)",
    )
    investigator_load: str = option(
        "required",
        "optional",
        text="a player who wins the Investigator from another player's hands must place all "
        "dice of a colour on it (required), or may decline to place any (optional)",
    )
