"""Actions: everything that can happen at a table of Gangster Dice, as small frozen records, and
the setup line. Each converts to and from a plain dict, the line format of the game record
(docs/gangster-dice.md).

Chance is an action too: the engine never rolls or shuffles. ``roll`` says which face each of a
player's dice shows (by face number: the data file says which symbol that is); ``shuffle`` gives
the order of a freshly shuffled favor deck (top card first), made by the companion, a simulated
table or a person writing a record. It has no player: nobody at the table chooses it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

from companion.games.gangster_dice.components import COLOURS, TOKENS, Colour, Token
from companion.games.gangster_dice.rules import HouseRules
from companion.protocol.errors import MalformedAction
from companion.protocol.options import options_from_dict, options_to_dict
from companion.protocol.seats import Seat, parse_seats

GAME_ID = "gangster-dice"
MAX_FAVOR = 99  # a favor value above this is a typing mistake, not a card


class CardsMode(StrEnum):
    """Who holds the cards: the companion deals every hand onto the phones and keeps the favor
    deck (``companion``), or the players keep their real cards and enter only what they reveal
    (``physical``)."""

    COMPANION = "companion"
    PHYSICAL = "physical"


CHARACTERS_VALUES = ("off", "on")


@dataclass(frozen=True, slots=True)
class Setup:
    """The record's first line: the players clockwise (each one's bid-card colour), who holds
    the cards, whether characters are played, and the house rules."""

    seats: tuple[Seat, ...]
    cards: CardsMode = CardsMode.COMPANION
    characters: bool = False
    options: HouseRules = field(default_factory=HouseRules)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "type": "setup",
            "game": GAME_ID,
            "players": [s.to_json() for s in self.seats],
        }
        if self.cards is not CardsMode.COMPANION:
            out["cards"] = self.cards.value
        if self.characters:
            out["characters"] = "on"
        if options_to_dict(self.options):
            out["options"] = options_to_dict(self.options)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Setup:
        unknown = set(data) - {"type", "game", "players", "cards", "characters", "options"}
        if unknown:
            raise MalformedAction(
                f"setup does not take {', '.join(sorted(unknown))}; it takes "
                "players, cards, characters and options"
            )
        seats = parse_seats(data.get("players"))
        cards = data.get("cards", CardsMode.COMPANION.value)
        if cards not in {m.value for m in CardsMode}:
            raise MalformedAction(f'cards must be "companion" or "physical", not {cards!r}')
        characters = data.get("characters", "off")
        if characters not in CHARACTERS_VALUES:
            raise MalformedAction(f'characters must be "off" or "on", not {characters!r}')
        return cls(
            seats,
            CardsMode(cards),
            characters == "on",
            options_from_dict(HouseRules, data.get("options")),
        )


@dataclass(frozen=True, slots=True)
class Shuffle:
    """Chance: the favor cards being shuffled, in their new order, top card first (at setup the
    whole deck, later the discard pile when the deck runs out)."""

    TYPE: ClassVar[str] = "shuffle"
    order: tuple[int, ...]

    @property
    def player(self) -> str:
        """Nobody at the table: a shuffle is chance, drawn by the companion."""
        return ""

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.TYPE, "order": list(self.order)}


@dataclass(frozen=True, slots=True)
class ChooseCharacter:
    """Character Cards: the character a player plays (chosen, or dealt with the real cards)."""

    TYPE: ClassVar[str] = "character"
    player: str
    name: str

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.TYPE, "player": self.player, "name": self.name}


def _die_key(pair: tuple[Colour, int]) -> tuple[int, int]:
    return COLOURS.index(pair[0]), pair[1]


@dataclass(frozen=True, slots=True)
class Roll:
    """Sequence of play: what each die of a player's stash shows, as face numbers 1-6 by colour
    (``data/components.toml`` says which symbol each face number is: 1 gavel, 2 cocktail, 3 gun,
    4 finger on every die; 5 the colour's double symbol; 6 finger)."""

    TYPE: ClassVar[str] = "roll"
    player: str
    dice: tuple[tuple[Colour, int], ...]

    def __post_init__(self) -> None:
        dice = ((Colour(c), n) for c, n in self.dice)
        object.__setattr__(self, "dice", tuple(sorted(dice, key=_die_key)))

    @classmethod
    def of(cls, player: str, dice: Mapping[Colour | str, Iterable[int]]) -> Roll:
        """``Roll.of("Maria", {"red": [3, 6]})``."""
        return cls(player, tuple((Colour(c), n) for c, faces in dice.items() for n in faces))

    def to_dict(self) -> dict[str, Any]:
        grouped = {
            c.value: [n for col, n in self.dice if col is c]
            for c in COLOURS
            if any(col is c for col, _ in self.dice)
        }
        return {"type": self.TYPE, "player": self.player, "dice": grouped}


@dataclass(frozen=True, slots=True)
class BidCard:
    """One bid card played with the favor card beside it: the token bid on, the favor's value."""

    token: Token
    favor: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "token", Token(self.token))

    def to_json(self) -> dict[str, Any]:
        return {"token": self.token.value, "favor": self.favor}


@dataclass(frozen=True, slots=True)
class Bid:
    """Sequence of play: a player's secret choice, a bid card and a favor card placed face down
    (two of each in the 2-Player Variant). A player may change it until everyone has chosen."""

    TYPE: ClassVar[str] = "bid"
    player: str
    bids: tuple[BidCard, ...]

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "bids", tuple(sorted(self.bids, key=lambda b: (TOKENS.index(b.token), b.favor)))
        )

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.TYPE, "player": self.player, "bids": [b.to_json() for b in self.bids]}


def _sorted_colours(colours: Iterable[Colour]) -> tuple[Colour, ...]:
    return tuple(sorted((Colour(c) for c in colours), key=COLOURS.index))


@dataclass(frozen=True, slots=True)
class Swap:
    """The Speakeasy, won again by its controller: give up to three dice from the stash for as
    many of the Speakeasy's (``give`` and ``take`` empty: keep one's dice)."""

    TYPE: ClassVar[str] = "swap"
    player: str
    give: tuple[Colour, ...] = ()
    take: tuple[Colour, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "give", _sorted_colours(self.give))
        object.__setattr__(self, "take", _sorted_colours(self.take))

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.TYPE,
            "player": self.player,
            "give": [c.value for c in self.give],
            "take": [c.value for c in self.take],
        }


@dataclass(frozen=True, slots=True)
class ColourChoice:
    """A choice of one colour of die, or none (``colour`` None)."""

    TYPE: ClassVar[str] = ""
    player: str
    colour: Colour | None

    def __post_init__(self) -> None:
        if self.colour is not None:
            object.__setattr__(self, "colour", Colour(self.colour))

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.TYPE,
            "player": self.player,
            "colour": self.colour.value if self.colour else None,
        }


@dataclass(frozen=True, slots=True)
class PlaceOnStreets(ColourChoice):
    """The Streets, won again by its controller: one die of that colour from the stash onto
    it, or none."""

    TYPE: ClassVar[str] = "streets"


@dataclass(frozen=True, slots=True)
class Load(ColourChoice):
    """The Investigator, won while another player has it: every die of one colour from the
    stash onto it (none, where the house rule lets a player decline)."""

    TYPE: ClassVar[str] = "load"


@dataclass(frozen=True, slots=True)
class TakeOff(ColourChoice):
    """The Investigator at the end of a round: its holder takes one die of that colour off it
    into their stash (none: the holder controls the Lawyer and leaves the dice there)."""

    TYPE: ClassVar[str] = "take"


Action = Shuffle | ChooseCharacter | Roll | Bid | Swap | PlaceOnStreets | Load | TakeOff
ACTION_TYPES: dict[str, type] = {
    cls.TYPE: cls
    for cls in (Shuffle, ChooseCharacter, Roll, Bid, Swap, PlaceOnStreets, Load, TakeOff)
}


# --- reading a record line --------------------------------------------------------------


def action_from_dict(data: Any) -> Action:
    """An action from a record line's dict, or :class:`MalformedAction` saying why not."""
    if not isinstance(data, dict):
        raise MalformedAction(f"an action is a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        raise MalformedAction(
            f"unknown action type {kind!r}; known: {', '.join(sorted(ACTION_TYPES))}"
        )
    if kind == "shuffle":
        _keys(data, kind, {"order"})
        order = data.get("order")
        if not isinstance(order, list) or not all(_is_value(v) for v in order):
            raise MalformedAction("shuffle: order must be the favor cards' values, top first")
        return Shuffle(tuple(order))
    player = data.get("player")
    if not isinstance(player, str) or not player:
        raise MalformedAction(f"{kind} needs the player who acts")
    if kind == "character":
        _keys(data, kind, {"player", "name"})
        name = data.get("name")
        if not isinstance(name, str) or not name:
            raise MalformedAction("character: name must be a character card's name")
        return ChooseCharacter(player, name)
    if kind == "roll":
        _keys(data, kind, {"player", "dice"})
        return _roll(player, data.get("dice"))
    if kind == "bid":
        _keys(data, kind, {"player", "bids"})
        return _bid(player, data.get("bids"))
    if kind == "swap":
        _keys(data, kind, {"player", "give", "take"}, optional={"give", "take"})
        return Swap(
            player,
            _colours(kind, "give", data.get("give", [])),
            _colours(kind, "take", data.get("take", [])),
        )
    _keys(data, kind, {"player", "colour"})
    colour = data.get("colour")
    chosen = None if colour is None else _colour(kind, "colour", colour)
    if kind == "streets":
        return PlaceOnStreets(player, chosen)
    if kind == "load":
        return Load(player, chosen)
    return TakeOff(player, chosen)


def _keys(data: dict[str, Any], kind: str, allowed: set[str], optional: Iterable[str] = ()) -> None:
    unknown = set(data) - allowed - {"type"}
    if unknown:
        raise MalformedAction(
            f"{kind} does not take {', '.join(sorted(unknown))}; "
            f"it takes: {', '.join(sorted(allowed))}"
        )
    missing = allowed - set(optional) - set(data)
    if missing:
        raise MalformedAction(f"{kind} needs {', '.join(sorted(missing))}")


def _is_value(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_FAVOR


def _colour(kind: str, key: str, value: Any) -> Colour:
    if value not in {c.value for c in COLOURS}:
        raise MalformedAction(
            f"{kind}: {key} must be a die colour (white, red or blue), not {value!r}"
        )
    return Colour(value)


def _colours(kind: str, key: str, value: Any) -> tuple[Colour, ...]:
    if not isinstance(value, list):
        raise MalformedAction(f"{kind}: {key} must be a list of die colours")
    return tuple(_colour(kind, key, v) for v in value)


def _roll(player: str, dice: Any) -> Roll:
    if not isinstance(dice, dict) or not dice:
        raise MalformedAction(
            'roll: dice must be {"white": [faces], "red": [...], "blue": [...]}, face numbers 1-6'
        )
    pairs = []
    for colour, faces in dice.items():
        c = _colour("roll", "dice", colour)
        if not isinstance(faces, list) or not all(
            isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= 6 for f in faces
        ):
            raise MalformedAction(
                f"roll: dice.{colour} must be a list of face numbers 1-6 "
                "(1 gavel, 2 cocktail, 3 gun, 4 finger, 5 the colour's "
                "double, 6 finger)"
            )
        pairs += [(c, f) for f in faces]
    return Roll(player, tuple(pairs))


def _bid(player: str, bids: Any) -> Bid:
    if not isinstance(bids, list) or not bids:
        raise MalformedAction('bid: bids must be a list of {"token": ..., "favor": ...}')
    cards = []
    for b in bids:
        if not isinstance(b, dict) or set(b) != {"token", "favor"}:
            raise MalformedAction('bid: each bid is {"token": "streets", "favor": 2}')
        if b["token"] not in {t.value for t in TOKENS}:
            raise MalformedAction(
                f"bid: token must be lawyer, speakeasy, streets or investigator, not {b['token']!r}"
            )
        if not _is_value(b["favor"]):
            raise MalformedAction(f"bid: favor must be a favor card's value, not {b['favor']!r}")
        cards.append(BidCard(Token(b["token"]), b["favor"]))
    return Bid(player, tuple(cards))
