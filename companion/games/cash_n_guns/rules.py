"""House rules of Ca$h 'n Guns: where the manual can be read two ways, or leaves a choice to
the table. Each option is written once (its values, the first the default, and what it means);
docs/rules.md explains every one and why its default."""

from __future__ import annotations

from dataclasses import dataclass

from companion.protocol.options import option


@dataclass(frozen=True, slots=True)
class HouseRules:
    """The options a table chose."""

    split_ends: str = option(
        "last_card",
        "everything",
        text="the loot sharing ends with the last Loot card taken, the New Godfather token "
        "may be left (last_card), or only once the token is taken too (everything)",
    )
    unshared_loot: str = option(
        "stays",
        "discarded",
        text="nobody is standing to share the loot: the Loot cards stay on the table for the "
        "next turn (stays), or are discarded (discarded)",
    )
    clip_discard: str = option(
        "face_down",
        "face_up",
        text="the card a Clip makes its taker discard goes to the discard pile face-down, a "
        "secret (face_down), or face-up (face_up)",
    )
    kept_loot: str = option(
        "face_down",
        "face_up",
        text="players keep their Loot cards face-down, as the manual suggests: the table shows "
        "how many each has (face_down), or face-up for all to count (face_up)",
    )
    aim_confirmation: str = option(
        "optional",
        "required",
        text="an aim the table records for a player stands unless that player corrects it "
        "(optional), or must be confirmed on that player's phone before the Godfather's "
        "privilege (required)",
    )
