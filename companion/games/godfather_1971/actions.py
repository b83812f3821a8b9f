"""Actions and the setup line: one small frozen dataclass per kind, each a line of the game
record (``to_dict``), read back by :func:`action_from_dict`. The record format is documented
in docs/godfather-1971.md."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from companion.games.godfather_1971.rackets import Racket, parse_racket
from companion.games.godfather_1971.rules import HouseRules
from companion.games.godfather_1971.state import Cards
from companion.protocol.errors import MalformedAction
from companion.protocol.options import options_from_dict, options_to_dict
from companion.protocol.seats import Seat, parse_seats

GAME_ID = "godfather-1971"


@dataclass(frozen=True, slots=True)
class Setup:
    seats: tuple[Seat, ...]
    options: HouseRules = field(default_factory=HouseRules)
    neighborhoods: tuple[str, ...] | int | None = None  # None: all eight; n: the n smallest
    traced: tuple[tuple[str, str], ...] = ()  # (neighborhood, a user's file) tracings
    cards: Cards = Cards.PHYSICAL

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "type": "setup",
            "game": GAME_ID,
            "players": [s.to_json() for s in self.seats],
        }
        if self.neighborhoods is not None:
            out["neighborhoods"] = (
                self.neighborhoods
                if isinstance(self.neighborhoods, int)
                else list(self.neighborhoods)
            )
        if self.traced:
            out["traced"] = dict(self.traced)
        if self.cards is not Cards.PHYSICAL:
            out["cards"] = self.cards.value
        if options_to_dict(self.options):
            out["options"] = options_to_dict(self.options)
        return out

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Setup:
        known = {"type", "game", "players", "options", "neighborhoods", "traced", "cards"}
        unknown = set(data) - known
        if unknown:
            raise MalformedAction(
                f"setup has unknown keys {', '.join(sorted(unknown))}; "
                f"known: {', '.join(sorted(known))}"
            )
        seats = parse_seats(data.get("players"))
        hoods = data.get("neighborhoods")
        if hoods is not None:
            if isinstance(hoods, int) and not isinstance(hoods, bool):
                if not 1 <= hoods <= 8:
                    raise MalformedAction(
                        "neighborhoods: a short game is played on 1 to 8 neighborhoods"
                    )
            elif (
                isinstance(hoods, list)
                and hoods
                and len(hoods) <= 8
                and all(isinstance(h, str) for h in hoods)
                and len(set(hoods)) == len(hoods)
            ):
                hoods = tuple(hoods)
            else:
                raise MalformedAction(
                    "neighborhoods: a number (the short game on that many "
                    'of the smallest) or a list of ids, e.g. ["midtown", '
                    '"the-docks"]'
                )
        traced = data.get("traced", {})
        if not isinstance(traced, dict) or not all(
            isinstance(k, str) and isinstance(v, str) and v for k, v in traced.items()
        ):
            raise MalformedAction(
                "traced: an object of neighborhood id to your file, e.g. "
                '{"park-west": "my-park-west.toml"}'
            )
        cards = data.get("cards", Cards.PHYSICAL.value)
        if cards not in {c.value for c in Cards}:
            raise MalformedAction(
                'cards: "physical" (players enter the cards they draw) or '
                '"companion" (the companion keeps and deals the decks)'
            )
        return Setup(
            seats,
            options_from_dict(HouseRules, data.get("options")),
            hoods,
            tuple(sorted(traced.items())),
            Cards(cards),
        )


@dataclass(frozen=True, slots=True)
class Act:
    TYPE: ClassVar[str] = ""
    player: str

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.TYPE, "player": self.player}


@dataclass(frozen=True, slots=True)
class Roll(Act):
    """The two dice: who goes first, or the Breaks of the Game."""

    TYPE: ClassVar[str] = "roll"
    faces: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {**Act.to_dict(self), "faces": list(self.faces)}


@dataclass(frozen=True, slots=True)
class Shuffle(Act):
    """The companion's decks in the order the table shuffled them (top first): chance, made
    by whoever shuffles, never a player's choice."""

    TYPE: ClassVar[str] = "shuffle"
    playing: tuple[str, ...] = ()
    good: tuple[str, ...] = ()
    bad: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            **Act.to_dict(self),
            "playing": list(self.playing),
            "good": list(self.good),
            "bad": list(self.bad),
        }


@dataclass(frozen=True, slots=True)
class PlayCard(Act):
    """The Play A: play the held card."""

    TYPE: ClassVar[str] = "play_card"


@dataclass(frozen=True, slots=True)
class BreakCard(Act):
    """Physical cards: the Good or Bad Break card drawn after the roll (face up)."""

    TYPE: ClassVar[str] = "break_card"
    card: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {**Act.to_dict(self), "card": self.card}


@dataclass(frozen=True, slots=True)
class Draw(Act):
    """Physical cards: the card drawn to hold for the next turn (The Play D); secret."""

    TYPE: ClassVar[str] = "draw"
    card: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {**Act.to_dict(self), "card": self.card}


@dataclass(frozen=True, slots=True)
class PieceAct(Act):
    """An action on one piece on the board."""

    neighborhood: str = ""
    position: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {**Act.to_dict(self), "neighborhood": self.neighborhood, "position": self.position}


@dataclass(frozen=True, slots=True)
class Finger(PieceAct):
    """Fingerman: remove one opponent's piece (up to three)."""

    TYPE: ClassVar[str] = "finger"


@dataclass(frozen=True, slots=True)
class EndFingerman(Act):
    """Remove no more pieces with this Fingerman."""

    TYPE: ClassVar[str] = "end_fingerman"


@dataclass(frozen=True, slots=True)
class GiveUp(PieceAct):
    """Give up one of one's own pieces: a Bad Break's pieces, or declared CONTROL's penalty."""

    TYPE: ClassVar[str] = "give_up"


@dataclass(frozen=True, slots=True)
class Sell(PieceAct):
    """Convert one of one's pieces to cash at half its cost, to pay a Bad Break."""

    TYPE: ClassVar[str] = "sell"


@dataclass(frozen=True, slots=True)
class Place(Act):
    """Position one to three pieces in one neighborhood at once: free ones from a card first,
    the rest bought. ``racket`` chooses the racket of a neighborhood nobody has played yet."""

    TYPE: ClassVar[str] = "place"
    neighborhood: str = ""
    positions: tuple[str, ...] = ()
    racket: Racket | None = None

    def to_dict(self) -> dict[str, Any]:
        out = {
            **Act.to_dict(self),
            "neighborhood": self.neighborhood,
            "positions": list(self.positions),
        }
        if self.racket is not None:
            out["racket"] = self.racket.value
        return out


@dataclass(frozen=True, slots=True)
class Declare(Act):
    """Declared CONTROL (the rulebook's other version of CONTROL)."""

    TYPE: ClassVar[str] = "declare"
    neighborhood: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {**Act.to_dict(self), "neighborhood": self.neighborhood}


@dataclass(frozen=True, slots=True)
class EndTurn(Act):
    """Done buying and positioning: the CONTROL checks, then the card for the next turn."""

    TYPE: ClassVar[str] = "end_turn"


Action = (
    Roll
    | Shuffle
    | PlayCard
    | BreakCard
    | Draw
    | Finger
    | EndFingerman
    | GiveUp
    | Sell
    | Place
    | Declare
    | EndTurn
)
ACTION_TYPES = {
    cls.TYPE: cls
    for cls in (
        Roll,
        Shuffle,
        PlayCard,
        BreakCard,
        Draw,
        Finger,
        EndFingerman,
        GiveUp,
        Sell,
        Place,
        Declare,
        EndTurn,
    )
}


def _text(data: dict[str, Any], key: str, what: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value or len(value) > 80:
        raise MalformedAction(f"{data.get('type')}: {key} must be {what}")
    return value


def _codes(data: dict[str, Any], key: str) -> tuple[str, ...]:
    value = data.get(key)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise MalformedAction(f"shuffle: {key} must list the deck's cards, top first")
    return tuple(value)


def action_from_dict(data: Any) -> Action:
    """One record line as an action; :class:`MalformedAction` saying what is wrong."""
    if not isinstance(data, dict):
        raise MalformedAction("an action is an object: {type, player, ...}")
    kind = data.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise MalformedAction(
            f"unknown action type {kind!r}; known: " + ", ".join(sorted(ACTION_TYPES))
        )
    player = data.get("player")
    if not isinstance(player, str) or not player:
        raise MalformedAction(f"{kind}: player must be a name")
    allowed = {"type", "player"} | {f for f in cls.__dataclass_fields__ if f != "player"}
    unknown = set(data) - allowed
    if unknown:
        raise MalformedAction(f"{kind}: unknown keys {', '.join(sorted(unknown))}")
    if cls is Roll:
        faces = data.get("faces")
        if not (
            isinstance(faces, list)
            and len(faces) == 2
            and all(isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= 6 for f in faces)
        ):
            raise MalformedAction("roll: faces must be the two dice, each 1-6")
        return Roll(player, tuple(faces))
    if cls is Shuffle:
        return Shuffle(player, _codes(data, "playing"), _codes(data, "good"), _codes(data, "bad"))
    if cls in (BreakCard, Draw):
        return cls(player, _text(data, "card", "a card code such as money-5"))
    if cls in (Finger, GiveUp, Sell):
        return cls(
            player,
            _text(data, "neighborhood", "a neighborhood id"),
            _text(data, "position", "a position such as C4"),
        )
    if cls is Place:
        positions = data.get("positions")
        if not (
            isinstance(positions, list)
            and 1 <= len(positions) <= 3
            and all(isinstance(p, str) and 0 < len(p) <= 4 for p in positions)
        ):
            raise MalformedAction(
                'place: positions must list one to three positions, e.g. ["C4", "C5"]'
            )
        racket = None
        if "racket" in data:
            racket = parse_racket(data["racket"])
            if racket is None:
                raise MalformedAction(
                    "place: racket must be one of " + ", ".join(r.value for r in Racket)
                )
        return Place(
            player, _text(data, "neighborhood", "a neighborhood id"), tuple(positions), racket
        )
    if cls is Declare:
        return Declare(player, _text(data, "neighborhood", "a neighborhood id"))
    return cls(player)
