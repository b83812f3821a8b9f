"""Actions: everything that can happen at the table, as small frozen records, and the setup.

The engine never shuffles: which Loot cards are flipped is an action (``flip``), entered by the
table from the physical cards or made by a simulated shuffle, so a record replays exactly. Each
action converts to and from one line of the game record (docs/cash-n-guns.md, "The record").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, TypeVar

from companion.games.cash_n_guns.rules import HouseRules
from companion.protocol.errors import MalformedAction
from companion.protocol.options import options_from_dict, options_to_dict
from companion.protocol.seats import Seat, clean_name, parse_seats

GAME_ID = "cash-n-guns"
E = TypeVar("E", bound=StrEnum)


class Bullet(StrEnum):
    """A Bullet card (Game turn, 2.)."""

    BANG = "bang"
    CLICK = "click"

    @property
    def label(self) -> str:
        return "Bang!" if self is Bullet.BANG else "Click"


class Courage(StrEnum):
    """Game turn, 5.: lay one's Character down, or leave it standing and shout "Banzai!"."""

    LIE_DOWN = "lie_down"
    BANZAI = "banzai"


class AimedBy(StrEnum):
    """Who told the companion where a gun points: its holder, or the table (the host's screen
    recording every gun with a few taps, which each holder's phone may then confirm)."""

    SELF = "self"
    TABLE = "table"


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action: who acts. ``TYPE`` is the record's ``"type"`` value."""

    TYPE: ClassVar[str] = ""
    player: str

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.TYPE, "player": self.player}


@dataclass(frozen=True, slots=True)
class Flip(Action):
    """1. Loot: the Godfather flips Loot cards face-up (``cards``: their ids, one or more)."""

    TYPE: ClassVar[str] = "flip"
    cards: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.TYPE, "player": self.player, "cards": list(self.cards)}


@dataclass(frozen=True, slots=True)
class Load(Action):
    """2. A player's secret Bullet card, put face-down in front of them."""

    TYPE: ClassVar[str] = "load"
    card: Bullet = Bullet.CLICK

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.TYPE, "player": self.player, "card": self.card.value}


@dataclass(frozen=True, slots=True)
class Aim(Action):
    """3. Hold-Up: whom ``player``'s gun points at (None: too slow, nobody), told by the
    player or recorded by the table (``by``). Until the Godfather's privilege it can be
    corrected; after an order (4.) the ordered player aims again."""

    TYPE: ClassVar[str] = "aim"
    target: str | None = None
    by: AimedBy = AimedBy.SELF

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.TYPE, "player": self.player, "target": self.target}
        if self.by is not AimedBy.SELF:
            out["by"] = self.by.value
        return out


@dataclass(frozen=True, slots=True)
class ConfirmAim(Action):
    """3. A player's phone confirms the aim the table recorded for them."""

    TYPE: ClassVar[str] = "confirm_aim"


@dataclass(frozen=True, slots=True)
class Privilege(Action):
    """4. The Godfather orders ``order`` to change target, or (None) lets every aim stand."""

    TYPE: ClassVar[str] = "privilege"
    order: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.TYPE, "player": self.player, "order": self.order}


@dataclass(frozen=True, slots=True)
class CourageChoice(Action):
    """5. Courage: lie down or "Banzai!", chosen secretly and shown when all have chosen."""

    TYPE: ClassVar[str] = "courage"
    choice: Courage = Courage.BANZAI

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.TYPE, "player": self.player, "choice": self.choice.value}


@dataclass(frozen=True, slots=True)
class Take(Action):
    """7. Loot sharing: the player whose share it is takes a Loot card (its id)."""

    TYPE: ClassVar[str] = "take"
    card: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.TYPE, "player": self.player, "card": self.card}


@dataclass(frozen=True, slots=True)
class TakeToken(Action):
    """7. Instead of a card, flip the New Godfather token: the desk next turn."""

    TYPE: ClassVar[str] = "take_token"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """7. Clips: after taking a Bang! from the discard pile, the card the player discards."""

    TYPE: ClassVar[str] = "discard"
    card: Bullet = Bullet.CLICK

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.TYPE, "player": self.player, "card": self.card.value}


ACTION_TYPES: dict[str, type[Action]] = {
    cls.TYPE: cls
    for cls in (Flip, Load, Aim, ConfirmAim, Privilege, CourageChoice, Take, TakeToken, Discard)
}
_FIELDS: dict[str, set[str]] = {
    "flip": {"cards"},
    "load": {"card"},
    "aim": {"target", "by"},
    "confirm_aim": set(),
    "privilege": {"order"},
    "courage": {"choice"},
    "take": {"card"},
    "take_token": set(),
    "discard": {"card"},
}


def action_from_dict(data: Any) -> Action:
    """An action from a record line, or :class:`MalformedAction` saying what is wrong."""
    if not isinstance(data, dict):
        raise MalformedAction(f"an action is a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        raise MalformedAction(
            f"unknown action type {kind!r}; known: {', '.join(sorted(ACTION_TYPES))}"
        )
    cls = ACTION_TYPES[kind]
    unknown = set(data) - _FIELDS[cls.TYPE] - {"type", "player"}
    if unknown:
        takes = ", ".join(sorted(_FIELDS[cls.TYPE] | {"player"}))
        raise MalformedAction(
            f"{kind} does not take {', '.join(sorted(unknown))}; it takes: {takes}"
        )
    player = _name(kind, "player", data.get("player"))
    if cls is Flip:
        cards = data.get("cards")
        if (
            not isinstance(cards, list)
            or not cards
            or not all(isinstance(c, str) and c for c in cards)
        ):
            raise MalformedAction(
                'flip needs cards: a list of Loot card ids, e.g. ["bill-5000", "painting"]'
            )
        return Flip(player, tuple(cards))
    if cls is Load or cls is Discard:
        return cls(player, _enum(kind, "card", data, Bullet))
    if cls is Aim:
        if "target" not in data:
            raise MalformedAction("aim needs target: a player's name, or null for nobody")
        target = data["target"]
        return Aim(
            player,
            None if target is None else _name(kind, "target", target),
            _enum(kind, "by", data, AimedBy) if "by" in data else AimedBy.SELF,
        )
    if cls is Privilege:
        if "order" not in data:
            raise MalformedAction(
                "privilege needs order: a player's name, or null to let every aim stand"
            )
        order = data["order"]
        return Privilege(player, None if order is None else _name(kind, "order", order))
    if cls is CourageChoice:
        return CourageChoice(player, _enum(kind, "choice", data, Courage))
    if cls is Take:
        card = data.get("card")
        if not isinstance(card, str) or not card:
            raise MalformedAction('take needs card: a Loot card\'s id, e.g. "bill-20000"')
        return Take(player, card)
    return cls(player)


def _name(kind: str, key: str, value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise MalformedAction(f"{kind}: {key} must be a player's name, not {value!r}")
    return value


def _enum(kind: str, key: str, data: dict[str, Any], enum: type[E]) -> E:
    value = data.get(key)
    for member in enum:
        if member.value == value:
            return member
    raise MalformedAction(
        f"{kind}: {key} must be one of {', '.join(e.value for e in enum)}, not {value!r}"
    )


@dataclass(frozen=True, slots=True)
class Setup:
    """The record's first line: who sits where (clockwise), the house rules, and optionally
    who holds the Godfather's desk first (the first player listed unless named: the set-up
    pages are missing) and a box file of the table's own (``box``, docs/cash-n-guns.md)."""

    TYPE: ClassVar[str] = "setup"
    seats: tuple[Seat, ...]
    options: HouseRules = field(default_factory=HouseRules)
    godfather: str | None = None
    box: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "type": "setup",
            "game": GAME_ID,
            "players": [s.to_json() for s in self.seats],
        }
        if self.godfather is not None:
            out["godfather"] = self.godfather
        if self.box is not None:
            out["box"] = self.box
        if options_to_dict(self.options):
            out["options"] = options_to_dict(self.options)
        return out

    @classmethod
    def from_dict(cls, data: Any) -> Setup:
        if not isinstance(data, dict) or data.get("type", "setup") != "setup":
            raise MalformedAction('a game starts with {"type": "setup", "players": [...]}')
        unknown = set(data) - {"type", "game", "players", "options", "godfather", "box"}
        if unknown:
            raise MalformedAction(f"setup has unknown keys: {', '.join(sorted(unknown))}")
        if data.get("game", GAME_ID) != GAME_ID:
            raise MalformedAction(f"this setup is for {data.get('game')!r}, not {GAME_ID}")
        seats = parse_seats(data.get("players"))
        godfather = data.get("godfather")
        if godfather is not None:
            try:
                godfather = clean_name(godfather)
            except ValueError as exc:
                raise MalformedAction(f"godfather: {exc}") from None
            if godfather not in [s.name for s in seats]:
                raise MalformedAction(f"godfather {godfather!r} is not one of the players")
        box = data.get("box")
        if box is not None and (not isinstance(box, str) or not box):
            raise MalformedAction('box must be the name of a box file, e.g. "my-deck.toml"')
        return cls(seats, options_from_dict(HouseRules, data.get("options")), godfather, box)
