"""Actions: everything that can happen at the table, as small frozen records, and the setup.

Chance comes in as actions too: ``roll`` (what the two dice show) and ``draw`` (the Friends or
Enemies card the player turned up from the real deck), so a game is the replay of its record.
Each action converts to and from one line of the record (``docs/monopoly-godfather.md``).
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ClassVar, TypeGuard

from companion.games.monopoly.rules import HouseRules
from companion.protocol.errors import MalformedAction
from companion.protocol.options import options_from_dict, options_to_dict
from companion.protocol.seats import Seat, parse_seats

GAME_ID = "monopoly-godfather"


@dataclass(frozen=True, slots=True)
class Offer:
    """One side of a deal: what a player hands over."""

    cash: int = 0
    spaces: tuple[int, ...] = ()
    cards: tuple[str, ...] = ()  # Get Out of Jail Free cards, by id

    def to_dict(self) -> dict[str, Any]:
        return {"cash": self.cash, "spaces": list(self.spaces), "cards": list(self.cards)}

    @property
    def empty(self) -> bool:
        return not (self.cash or self.spaces or self.cards)


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action: who acts. ``TYPE`` is the record's ``"type"``."""

    TYPE: ClassVar[str] = ""
    player: str

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.TYPE}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None:
                continue
            if isinstance(value, Offer):
                value = value.to_dict()
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out


@dataclass(frozen=True, slots=True)
class Roll(Action):
    """What the two dice show: a move, a try at doubles in Jail, the roll for first player,
    or the roll for a Cops & Politicians rent."""

    TYPE = "roll"
    dice: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TakeDeed(Action):
    """Speed Play 1: a Title Deed the Banker dealt this player, free."""

    TYPE = "take_deed"
    space: int


@dataclass(frozen=True, slots=True)
class DonCardDealt(Action):
    """The "Don" card this player was dealt (secret until played)."""

    TYPE = "don_card"
    card: str


@dataclass(frozen=True, slots=True)
class PlayDon(Action):
    """Use the Don card's directive (once per game); the table does what it says."""

    TYPE = "play_don"


@dataclass(frozen=True, slots=True)
class Buy(Action):
    """Buy the unowned property just landed on at its listed price."""

    TYPE = "buy"
    space: int


@dataclass(frozen=True, slots=True)
class Decline(Action):
    """Do not buy it: it goes up for auction."""

    TYPE = "decline"
    space: int


@dataclass(frozen=True, slots=True)
class Bid(Action):
    TYPE = "bid"
    amount: int


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Out of this auction."""

    TYPE = "pass"


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """The Friends or Enemies card the player drew from the real deck."""

    TYPE = "draw"
    card: str


@dataclass(frozen=True, slots=True)
class Build(Action):
    """Buy the next building for a location: a Hideout, or the Compound after the last one.
    In a Hideout/Compound shortage this opens the Banker's auction at the listed price."""

    TYPE = "build"
    space: int


@dataclass(frozen=True, slots=True)
class Sell(Action):
    """Sell a location's top building back to the Bank at half price."""

    TYPE = "sell"
    space: int


@dataclass(frozen=True, slots=True)
class Mortgage(Action):
    TYPE = "mortgage"
    space: int


@dataclass(frozen=True, slots=True)
class Unmortgage(Action):
    """Repay a mortgage: its value plus the interest."""

    TYPE = "unmortgage"
    space: int


@dataclass(frozen=True, slots=True)
class KeepMortgaged(Action):
    """A mortgaged property just received: pay only the interest and keep it face down."""

    TYPE = "keep_mortgaged"
    space: int


@dataclass(frozen=True, slots=True)
class PayFine(Action):
    """Jail: pay the fine, then roll and move as normal."""

    TYPE = "pay_fine"


@dataclass(frozen=True, slots=True)
class UseJailCard(Action):
    """Jail: use a Get Out of Jail Free card, then roll and move."""

    TYPE = "use_card"


@dataclass(frozen=True, slots=True)
class TryDoubles(Action):
    """Jail: roll for doubles."""

    TYPE = "try_doubles"


@dataclass(frozen=True, slots=True)
class AskRent(Action):
    """The owner asks for the rent of a property someone landed on (house rule rent=ask)."""

    TYPE = "ask_rent"
    space: int


@dataclass(frozen=True, slots=True)
class Propose(Action):
    """A deal: ``give`` goes from this player to ``to``, ``take`` from ``to`` to them."""

    TYPE = "propose"
    to: str
    give: Offer = field(default_factory=Offer)
    take: Offer = field(default_factory=Offer)


@dataclass(frozen=True, slots=True)
class Accept(Action):
    TYPE = "accept"


@dataclass(frozen=True, slots=True)
class Reject(Action):
    TYPE = "reject"


@dataclass(frozen=True, slots=True)
class Withdraw(Action):
    """The proposer takes back a deal not yet answered."""

    TYPE = "withdraw"


@dataclass(frozen=True, slots=True)
class Bankrupt(Action):
    """Declare bankruptcy: the debt cannot be paid even by selling and mortgaging everything."""

    TYPE = "bankrupt"


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """Pass the dice to the left."""

    TYPE = "end_turn"


ACTION_TYPES: dict[str, type[Action]] = {
    cls.TYPE: cls
    for cls in (
        Roll,
        TakeDeed,
        DonCardDealt,
        PlayDon,
        Buy,
        Decline,
        Bid,
        Pass,
        Draw,
        Build,
        Sell,
        Mortgage,
        Unmortgage,
        KeepMortgaged,
        PayFine,
        UseJailCard,
        TryDoubles,
        AskRent,
        Propose,
        Accept,
        Reject,
        Withdraw,
        Bankrupt,
        EndTurn,
    )
}


@dataclass(frozen=True, slots=True)
class Setup:
    """The record's first line: who sits where (clockwise), the house rules, and the owner's
    own data files if any (their board's names, their deck's texts)."""

    TYPE: ClassVar[str] = "setup"
    seats: tuple[Seat, ...]
    options: HouseRules = field(default_factory=HouseRules)
    board: str | None = None
    cards: str | None = None
    dons: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "type": "setup",
            "game": GAME_ID,
            "players": [s.to_json() for s in self.seats],
        }
        for key in ("board", "cards", "dons"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        if options_to_dict(self.options):
            out["options"] = options_to_dict(self.options)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Setup:
        if not isinstance(data, dict) or data.get("type") != "setup":
            raise MalformedAction('a game starts with {"type": "setup", "players": [...]}')
        unknown = set(data) - {"type", "game", "players", "options", "board", "cards", "dons"}
        if unknown:
            raise MalformedAction(f"setup has unknown keys: {', '.join(sorted(unknown))}")
        if data.get("game") != GAME_ID:
            raise MalformedAction(f"this setup is for {data.get('game')!r}, not {GAME_ID}")
        files = {}
        for key in ("board", "cards", "dons"):
            ref = data.get(key)
            if ref is not None and not (isinstance(ref, str) and ref):
                raise MalformedAction(f"{key} must be the name of a {key} file")
            files[key] = ref
        return cls(
            parse_seats(data.get("players")),
            options_from_dict(HouseRules, data.get("options")),
            **files,
        )


def _is_int(v: Any) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def _offer(kind: str, key: str, value: Any) -> Offer:
    if not isinstance(value, dict) or set(value) - {"cash", "spaces", "cards"}:
        raise MalformedAction(f"{kind}: {key} is {{cash, spaces, cards}}, not {value!r}")
    cash = value.get("cash", 0)
    spaces = value.get("spaces", [])
    cards = value.get("cards", [])
    if not (_is_int(cash) and cash >= 0):
        raise MalformedAction(f"{kind}: {key}.cash must be a whole number of dollars")
    if not (isinstance(spaces, list) and all(_is_int(s) for s in spaces)):
        raise MalformedAction(f"{kind}: {key}.spaces must be a list of space numbers")
    if not (isinstance(cards, list) and all(isinstance(c, str) for c in cards)):
        raise MalformedAction(f"{kind}: {key}.cards must be a list of card ids")
    if len(set(spaces)) != len(spaces) or len(set(cards)) != len(cards):
        raise MalformedAction(f"{kind}: {key} names something twice")
    return Offer(cash, tuple(spaces), tuple(cards))


def _convert(kind: str, key: str, value: Any, hint: str) -> Any:
    if hint == "int":
        if not _is_int(value):
            raise MalformedAction(f"{kind}: {key} must be a whole number, not {value!r}")
        return value
    if hint == "str":
        if not isinstance(value, str) or not value:
            raise MalformedAction(f"{kind}: {key} must be a non-empty string, not {value!r}")
        return value
    if hint == "tuple[int, ...]":
        if not (
            isinstance(value, list)
            and len(value) == 2
            and all(_is_int(v) and 1 <= v <= 6 for v in value)
        ):
            raise MalformedAction(f"{kind}: {key} must be the two dice, e.g. [3, 5], not {value!r}")
        return tuple(value)
    if hint == "Offer":
        return _offer(kind, key, value)
    raise AssertionError(f"no converter for {hint}")  # a field type this module forgot


def action_from_dict(data: Any) -> Action:
    """An action from a record line, or :class:`MalformedAction` saying why not."""
    if not isinstance(data, dict):
        raise MalformedAction(f"an action is a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None or not isinstance(kind, str):
        raise MalformedAction(
            f"unknown action type {kind!r}; known: {', '.join(sorted(ACTION_TYPES))}"
        )
    by_key = {f.name: f for f in fields(cls)}
    unknown = set(data) - set(by_key) - {"type"}
    if unknown:
        raise MalformedAction(
            f"{kind} does not take {', '.join(sorted(unknown))}; "
            f"it takes: {', '.join(sorted(by_key))}"
        )
    kwargs: dict[str, Any] = {}
    for key, f in by_key.items():
        if key not in data:
            if f.default is MISSING and f.default_factory is MISSING:
                raise MalformedAction(f"{kind} needs {key!r}")
            continue
        kwargs[key] = _convert(kind, key, data[key], str(f.type))
    return cls(**kwargs)
