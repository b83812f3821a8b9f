"""The printed board, as data: districts, neighborhoods, tracks.

A board is loaded from a TOML file (see ``docs/boards.md`` and
:mod:`companion.games.new_don.board_file`) and never changes during a game. Every fact keeps
its source (``rulebook``, ``placeholder`` or ``traced``) so a person can always see which parts
of the shipped boards are guesses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from companion.games.new_don.dice import is_straight, straights_containing

# Where each fact of a board comes from, by field: ("points", "placeholder").
Sources = tuple[tuple[str, str], ...]


class SetKind(StrEnum):
    PAIR = "pair"
    TRIPLE = "triple"
    FOUR = "four"
    STRAIGHT = "straight"


SET_SIZE = {SetKind.PAIR: 2, SetKind.TRIPLE: 3, SetKind.FOUR: 4, SetKind.STRAIGHT: 3}


class Ability(StrEnum):
    """The Favor track abilities (Appendix)."""

    FREE_REROLL = "free_reroll"
    PLUS_MINUS_ONE = "plus_minus_one"
    MOVE = "move_to_empty_adjacent"
    TURN_DIE = "turn_die"
    EXTRA_DIE = "extra_die"
    ANY = "any"


ABILITY_TEXT = {
    Ability.FREE_REROLL: "Free Reroll",
    Ability.PLUS_MINUS_ONE: "+/-1 to a die",
    Ability.MOVE: "Move to an empty adjacent neighborhood",
    Ability.TURN_DIE: "Turn 1 die to any side",
    Ability.EXTRA_DIE: "Treat 1 die as 2 dice with the same number",
    Ability.ANY: "Perform any action",
}


@dataclass(frozen=True, slots=True)
class Requirement:
    """The set printed under a neighborhood.

    ``straight`` holds the three faces of a given straight; it is empty for a straight
    neighborhood that takes any straight of three including the district's face, which is
    how the rulebook words it ("need to include the number indicated in that neighborhood").
    """

    kind: SetKind
    face: int
    straight: tuple[int, ...] = ()

    def matches(self, values: tuple[int, ...], wrap: bool = False) -> bool:
        """Whether exactly these dice faces make this set: value and size both count."""
        if len(values) != SET_SIZE[self.kind]:
            return False
        if self.kind is SetKind.STRAIGHT:
            if self.straight:
                return sorted(values) == sorted(self.straight)
            return self.face in values and is_straight(values, wrap)
        return all(v == self.face for v in values)

    def sets(self, wrap: bool = False) -> tuple[tuple[int, ...], ...]:
        """Every set of dice faces that fills this neighborhood, each sorted."""
        if self.kind is SetKind.STRAIGHT:
            return (self.straight,) if self.straight else straights_containing(self.face, wrap)
        return ((self.face,) * SET_SIZE[self.kind],)

    def describe(self) -> str:
        if self.kind is SetKind.STRAIGHT:
            if self.straight:
                return "straight " + "-".join(str(v) for v in self.straight)
            return f"any straight with a {self.face}"
        word = {SetKind.PAIR: "pair", SetKind.TRIPLE: "three", SetKind.FOUR: "four"}[self.kind]
        return f"{word} of {self.face}s"


@dataclass(frozen=True, slots=True)
class District:
    face: int
    name: str
    colour: str
    points: tuple[int, ...]  # for 1st, 2nd, 3rd place
    sources: Sources = ()


@dataclass(frozen=True, slots=True)
class Neighborhood:
    id: str
    name: str
    district: int  # the district's die face
    requirement: Requirement
    at: tuple[float, float] | None = None  # position on the drawn map, if the file gives one
    sources: Sources = ()


@dataclass(frozen=True, slots=True)
class MuscleTrack:
    """Zero Zone, then lettered spaces (worth zero but above the Zero Zone), then 1..top.

    Positions are plain integers so "higher on the Muscle track" is ``>``: 0 is the Zero Zone,
    1..len(letters) the letters, and number n is ``len(letters) + n``.
    """

    letters: tuple[str, ...]
    top: int
    godfather_space: int  # the red 3

    ZERO_ZONE = 0

    def number(self, n: int) -> int:
        return len(self.letters) + n

    @property
    def highest(self) -> int:
        return self.number(self.top)

    @property
    def godfather_position(self) -> int:
        return self.number(self.godfather_space)

    def label(self, position: int) -> str:
        if position == self.ZERO_ZONE:
            return "Zero Zone"
        if position <= len(self.letters):
            return self.letters[position - 1]
        return str(position - len(self.letters))

    def value(self, position: int) -> int:
        """What a space counts for: letters and the Zero Zone count as zero."""
        return max(0, position - len(self.letters))


@dataclass(frozen=True, slots=True)
class Board:
    id: str
    name: str
    players: tuple[int, int]  # fewest and most players this side is for
    soldiers_per_player: int
    dice_per_player: int
    vegas_dice: int
    districts: tuple[District, ...]
    neighborhoods: tuple[Neighborhood, ...]
    adjacency: frozenset[frozenset[str]]
    bridges: frozenset[frozenset[str]]
    muscle_track: MuscleTrack
    vegas_spots: tuple[int, ...]  # the number printed on each spot
    favor_track: tuple[tuple[int, Ability], ...]  # spot number -> ability
    sources: Sources = ()
    _index: dict[str, int] = field(default_factory=dict, compare=False, repr=False, hash=False)

    def __post_init__(self) -> None:
        self._index.update({n.id: i for i, n in enumerate(self.neighborhoods)})

    def index(self, neighborhood_id: str) -> int:
        return self._index[neighborhood_id]

    def neighborhood(self, neighborhood_id: str) -> Neighborhood:
        return self.neighborhoods[self._index[neighborhood_id]]

    def has(self, neighborhood_id: str) -> bool:
        return neighborhood_id in self._index

    def district(self, face: int) -> District:
        return next(d for d in self.districts if d.face == face)

    def in_district(self, face: int) -> list[int]:
        return [i for i, n in enumerate(self.neighborhoods) if n.district == face]

    def adjacent(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self.adjacency

    def neighbours(self, neighborhood_id: str) -> list[str]:
        out: list[str] = []
        for pair in self.adjacency:
            if neighborhood_id in pair:
                out.extend(x for x in pair if x != neighborhood_id)
        return sorted(out)

    def ability(self, spot: int) -> Ability:
        return dict(self.favor_track)[spot]

    @property
    def favor_spots(self) -> tuple[int, ...]:
        return tuple(spot for spot, _ in self.favor_track)

    def placeholders(self) -> list[str]:
        """Human-readable list of the facts on this board that are not from the rulebook."""
        out = [f"board: {k}" for k, s in self.sources if s == "placeholder"]
        for d in self.districts:
            out += [f"district {d.face}: {k}" for k, s in d.sources if s == "placeholder"]
        for n in self.neighborhoods:
            out += [f"neighborhood {n.id}: {k}" for k, s in n.sources if s == "placeholder"]
        return out
