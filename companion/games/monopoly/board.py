"""The printed game as data: the 40 spaces, the Title Deeds, the Bank's supplies, the Friends
and Enemies cards and the "Don" cards.

Nothing here is written in code: every value comes from the edition's data files
(``data/*.toml``, read by :mod:`companion.games.monopoly.data_file`), each fact with its source,
because the rulebook says only that "all property values are the same as in the original game"
and prints none of them, nor the edition's location names or card texts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

BOARD_SIZE = 40


class Kind(StrEnum):
    """What a space is (Where Did You Land?)."""

    GO = "go"
    LOCATION = "location"
    VEHICLE = "vehicle"  # the railroads of the classic game
    UTILITY = "utility"  # Cops & Politicians
    TAX = "tax"  # Bribery / Legitimate Business Tax
    CARD = "card"  # Friends or Enemies
    JAIL = "jail"
    FREE_PARKING = "free_parking"
    GO_TO_JAIL = "go_to_jail"


PROPERTY_KINDS = (Kind.LOCATION, Kind.VEHICLE, Kind.UTILITY)


class Deck(StrEnum):
    FRIENDS = "friends"
    ENEMIES = "enemies"


@dataclass(frozen=True, slots=True)
class Space:
    """One space of the board; properties carry their Title Deed."""

    index: int
    kind: Kind
    name: str
    group: str | None = None  # a location's colour group
    price: int = 0
    mortgage: int = 0
    rents: tuple[int, ...] = ()  # a location's: unimproved, 1-4 Hideouts, a Compound
    building_cost: int = 0  # a location's price of one Hideout (and of a Compound)
    tax: int = 0
    deck: Deck | None = None

    @property
    def is_property(self) -> bool:
        return self.kind in PROPERTY_KINDS


@dataclass(frozen=True, slots=True)
class Group:
    """A colour group of locations."""

    id: str
    name: str
    colour: str  # "#rrggbb", for the pages
    spaces: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Bank:
    """The Bank's rules in numbers."""

    start_cash: int  # each player's money at the start (Set It Up!)
    salary: int  # passing or landing on GO
    jail_fine: int
    jail_rolls: int  # tries at doubles before the fine must be paid
    hideouts: int  # the Bank's stock of Hideouts
    compounds: int
    hideouts_per_compound: int  # Hideouts on a location before a Compound (classic game)
    speed_hideouts_per_compound: int  # ... in Speed Play
    speed_deeds: int  # Title Deeds dealt free to each player in Speed Play
    mortgage_interest: int  # percent, paid to repay a mortgage or to keep a received one
    vehicle_rents: tuple[int, ...]  # by how many Vehicles the owner has
    utility_multipliers: tuple[int, ...]  # dice times this, by how many Cops & Politicians


@dataclass(frozen=True, slots=True)
class Board:
    """The board: spaces in order from GO, clockwise."""

    id: str
    name: str
    spaces: tuple[Space, ...]
    groups: tuple[Group, ...]
    bank: Bank
    sources: tuple[tuple[str, str], ...]  # (fact, source) for every fact in the file
    # Worked out once from the spaces (the rules ask for them at every step):
    jail: int = field(init=False, compare=False, repr=False)
    properties: tuple[int, ...] = field(init=False, compare=False, repr=False)
    _kinds: dict[Kind, tuple[int, ...]] = field(init=False, compare=False, repr=False)
    _sets: tuple[tuple[int, ...], ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        kinds = {k: tuple(s.index for s in self.spaces if s.kind is k) for k in Kind}
        groups = {g.id: g.spaces for g in self.groups}
        sets = tuple(
            groups[s.group] if s.kind is Kind.LOCATION and s.group else kinds[s.kind]
            for s in self.spaces
        )
        object.__setattr__(self, "jail", kinds[Kind.JAIL][0])
        object.__setattr__(self, "properties", tuple(s.index for s in self.spaces if s.is_property))
        object.__setattr__(self, "_kinds", kinds)
        object.__setattr__(self, "_sets", sets)

    def group(self, group_id: str) -> Group:
        return next(g for g in self.groups if g.id == group_id)

    def set_of(self, index: int) -> tuple[int, ...]:
        """The spaces a property's rent and building count with: its colour group, every
        Vehicle, or both Cops & Politicians."""
        return self._sets[index]

    def of_kind(self, kind: Kind) -> tuple[int, ...]:
        return self._kinds[kind]

    def placeholders(self) -> list[str]:
        return [fact for fact, source in self.sources if source.startswith("placeholder")]


class Effect(StrEnum):
    """What a Friends or Enemies card does: the kinds of card the classic decks hold."""

    COLLECT = "collect"  # from the Bank
    PAY = "pay"  # to the Bank
    PAY_EACH = "pay_each"  # to each other player
    COLLECT_EACH = "collect_each"  # from each other player
    MOVE_TO = "move_to"  # advance to a space (GO's salary if passing it)
    MOVE_TO_NEAREST = "move_to_nearest"  # the next Vehicle or Cop/Politician, special rent
    GO_BACK = "go_back"  # a number of spaces, no salary
    GO_TO_JAIL = "go_to_jail"
    JAIL_FREE = "jail_free"  # Get Out of Jail Free: kept until used or sold
    REPAIRS = "repairs"  # so much per Hideout and per Compound


@dataclass(frozen=True, slots=True)
class Card:
    """One Friends or Enemies card."""

    id: str
    deck: Deck
    text: str
    effect: Effect
    amount: int = 0  # collect, pay, pay_each, collect_each; repairs: per Hideout
    per_compound: int = 0  # repairs
    space: int | None = None  # move_to
    steps: int = 0  # go_back
    kind: Kind | None = None  # move_to_nearest: vehicle or utility
    multiplier: int = 0  # move_to_nearest: rent times this (vehicle) or the dice times this


@dataclass(frozen=True, slots=True)
class DonCard:
    """A "Don" card: its directive is the table's to apply; the companion only sees it is
    used once."""

    id: str
    name: str
    text: str


@dataclass(frozen=True, slots=True)
class Edition:
    """Everything printed: the board, the two decks and the Don cards."""

    board: Board
    cards: tuple[Card, ...]
    dons: tuple[DonCard, ...]
    placeholder_facts: int

    def card(self, card_id: str) -> Card | None:
        return next((c for c in self.cards if c.id == card_id), None)

    def deck(self, deck: Deck) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.deck is deck)

    def don(self, don_id: str) -> DonCard | None:
        return next((d for d in self.dons if d.id == don_id), None)
