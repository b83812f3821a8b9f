"""House rules: where the rulebook can be read two ways, each reading is an option written
once here (values, the first the default, and what it means); docs/rules.md explains each one
and why its default. They are fixed at setup and written in the record."""

from __future__ import annotations

from dataclasses import dataclass

from companion.protocol.options import option


@dataclass(frozen=True, slots=True)
class HouseRules:
    control: str = option(
        "checked",
        "declared",
        text="checked: the companion proves that no opponent's next turn (up to three pieces, "
        "taking moves included) can reduce a majority and gives CONTROL at once; declared: "
        "the rulebook's other version, where a player declares CONTROL of an implicit "
        "majority and it is conceded unless an opponent plays into it on their next turn",
    )
    controlled_positions: str = option(
        "enclosed",
        "fenced",
        text="which empty positions a player controls: enclosed (every straight neighbour is "
        "his piece, so a lone opponent's piece there would be taken at once) or fenced (any "
        "empty area fenced by his pieces alone and the border, if it is less than half the "
        "neighborhood)",
    )
    control_broken_by: str = option(
        "any_reduction",
        "lose_majority",
        text="what an opponent's turn must do to deny CONTROL: reduce the positions held at "
        "all (any_reduction, as the rulebook's second diagram), or take away the majority",
    )
    first_player: str = option(
        "roll",
        "first_seat",
        text="who goes first: the highest roll of the dice (ties roll again), or the first "
        "player of the setup",
    )
    bad_break_shortfall: str = option(
        "forgiven",
        "debt",
        text="a Bad Break costs more than a player's cash and all his pieces fetch: the rest "
        "is forgiven, or stays owed and is taken from his next money",
    )
