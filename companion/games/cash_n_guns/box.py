"""What is in the box: the facts the manual's missing set-up pages held (how many play, each
player's Bullet cards, the Loot deck), read from ``box.toml`` with a source for each fact.

The engine never guesses one of them in code: it reads a :class:`Box` (``box_file`` parses and
checks the file), so a table that counts its own deck can correct a placeholder in one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeGuard


class LootKind(StrEnum):
    """The Loot cards the manual describes ("Values of the Loot cards")."""

    BILL = "bill"
    DIAMOND = "diamond"
    PAINTING = "painting"
    FIRST_AID_KIT = "first-aid-kit"
    CLIP = "clip"

    @property
    def valued(self) -> bool:
        """Whether each card prints its own value (bills and diamonds); a painting is worth
        what its collection is worth, and kits and clips are worth nothing at the end."""
        return self in (LootKind.BILL, LootKind.DIAMOND)


class Source(StrEnum):
    RULEBOOK = "rulebook"  # the manual says it (with the section)
    INFERRED = "inferred"  # reasoned (with the reasoning)
    PLACEHOLDER = "placeholder"  # a stand-in until someone counts a real box


def dollars(amount: int) -> str:
    return f"${amount:,}"


def whole(value: object) -> TypeGuard[int]:
    """A whole number as TOML gives it (a bool is not one)."""
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True, order=True)
class LootCard:
    """One kind of Loot card. Its :attr:`id` is how records and buttons name it."""

    kind: LootKind
    value: int = 0  # dollars, for bills and diamonds

    @property
    def id(self) -> str:
        return f"{self.kind.value}-{self.value}" if self.kind.valued else self.kind.value

    @property
    def label(self) -> str:
        if self.kind.valued:
            return f"{dollars(self.value)} {self.kind.value}"
        return {
            LootKind.PAINTING: "painting",
            LootKind.FIRST_AID_KIT: "First aid kit",
            LootKind.CLIP: "Clip",
        }[self.kind]


@dataclass(frozen=True, slots=True)
class Fact:
    """Where one fact of the box comes from: ``note`` is the manual's section for a rulebook
    fact, the reasoning for an inferred one, what to check for a placeholder."""

    name: str
    source: Source
    note: str


@dataclass(frozen=True, slots=True)
class Box:
    name: str
    players: tuple[int, int]  # fewest and most
    turns: int
    loot_per_turn: int
    bangs: int  # each player's Bang! cards at the start
    clicks: int  # and Click cards
    deadly_wounds: int  # a player with this many wounds or more dies
    diamond_bonus: int
    painting_values: tuple[int, ...]  # a collection of 1, 2, ... paintings is worth
    loot: tuple[tuple[LootCard, int], ...]  # each kind of card and how many the deck holds
    facts: tuple[Fact, ...]

    @property
    def deck_size(self) -> int:
        return sum(count for _, count in self.loot)

    @property
    def cards(self) -> tuple[LootCard, ...]:
        return tuple(card for card, _ in self.loot)

    def card(self, card_id: str) -> LootCard | None:
        return next((c for c, _ in self.loot if c.id == card_id), None)

    def label(self, card_id: str) -> str:
        """A card's name in words ("$5,000 bill"), or its id if the box has no such card."""
        card = self.card(card_id)
        return card.label if card is not None else card_id

    def collection_value(self, paintings: int) -> int:
        """What a collection of ``paintings`` paintings is worth at the end."""
        if paintings <= 0:
            return 0
        return self.painting_values[min(paintings, len(self.painting_values)) - 1]

    def placeholders(self) -> list[str]:
        """Every fact that is a stand-in, with what to check."""
        return [
            f"{f.name}: {f.note}" if f.note else f.name
            for f in self.facts
            if f.source is Source.PLACEHOLDER
        ]

    def to_json(self) -> dict[str, Any]:
        """The box as the pages show it (public: it is printed on the cards)."""
        return {
            "name": self.name,
            "players": list(self.players),
            "turns": self.turns,
            "loot_per_turn": self.loot_per_turn,
            "bullets": {"bang": self.bangs, "click": self.clicks},
            "deadly_wounds": self.deadly_wounds,
            "diamond_bonus": self.diamond_bonus,
            "painting_values": list(self.painting_values),
            "loot": [
                {"card": c.id, "kind": c.kind.value, "value": c.value, "label": c.label, "count": n}
                for c, n in self.loot
            ],
            "placeholder_facts": len(self.placeholders()),
            "sources": [
                {"fact": f.name, "source": f.source.value, "note": f.note} for f in self.facts
            ],
        }
