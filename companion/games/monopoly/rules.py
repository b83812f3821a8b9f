"""House rules of Monopoly: The Godfather edition: named choices where the rulebook offers a
variant or can be read two ways. Each is written once (values, the default first, and what it
means); ``docs/rules.md`` explains why each default."""

from __future__ import annotations

from dataclasses import dataclass

from companion.protocol.options import option


@dataclass(frozen=True, slots=True)
class HouseRules:
    """The options a table chose."""

    speed_play: bool = option(
        False,
        True,
        text="the Speed Play short game: three Title Deeds dealt free, a Compound after three "
        "Hideouts, leave Jail on your next turn, and the game ends at the first bankruptcy",
    )
    rent: str = option(
        "automatic",
        "ask",
        text="the Banker collects rent as soon as a player lands (automatic), or the owner must "
        "ask for it before the next player rolls, as the rulebook says (ask)",
    )
    don_cards: bool = option(
        True,
        False,
        text='deal each player a "Don" card, usable once (For custom Godfather gameplay)',
    )
    first_player: str = option(
        "roll",
        "first_seat",
        text="who goes first: the highest roll of the two dice (roll), or the first player "
        "named (first_seat)",
    )
    mortgaged_count: bool = option(
        True,
        False,
        text="do mortgaged Vehicles and Cops & Politicians count in how many the owner has, "
        "for the rent of the others?",
    )
