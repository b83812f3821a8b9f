"""Actions: everything that can happen at the table, as small frozen records.

Dice results are actions too (``godfather_roll``, ``vegas_roll``, ``roll``): the engine never
rolls, it is told what the physical dice show. Each action converts to and from a plain dict,
the line format of the game record (``docs/game-record.md``).
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ClassVar

from companion.games.new_don.rules import HouseRules
from companion.protocol.errors import MalformedAction
from companion.protocol.options import options_from_dict, options_to_dict
from companion.protocol.seats import Seat, parse_seats


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action: who acts. ``TYPE`` is the record's ``"type"`` value."""

    TYPE: ClassVar[str] = ""
    player: str

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.TYPE}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None or (value == () and f.name != "player" and f.default == ()):
                continue
            out[_json_key(f.name)] = list(value) if isinstance(value, tuple) else value
        return out


@dataclass(frozen=True, slots=True)
class GodfatherRoll(Action):
    """Setup: a player's roll to decide the first Godfather (ties roll again)."""

    TYPE = "godfather_roll"
    face: int


@dataclass(frozen=True, slots=True)
class VegasRoll(Action):
    """Vegas: the Godfather's roll of the red dice."""

    TYPE = "vegas_roll"
    faces: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class KeepVegas(Action):
    """Vegas: which of the red dice a player took they lock at their value (the rest are rolled)."""

    TYPE = "keep_vegas"
    lock: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Roll(Action):
    """The faces of dice a player was asked to roll (their pool, or dice they chose to reroll)."""

    TYPE = "roll"
    faces: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RevealFavor(Action):
    """Roll: the die a player puts in front of their screen for the Godfather."""

    TYPE = "reveal_favor"
    face: int


@dataclass(frozen=True, slots=True)
class TakeFavor(Action):
    """Offer A: the Godfather takes the die ``target`` revealed."""

    TYPE = "take_favor"
    target: str


@dataclass(frozen=True, slots=True)
class Request(Action):
    """Offer B: the Godfather asks ``target`` for a die showing ``number``."""

    TYPE = "request"
    target: str
    number: int


@dataclass(frozen=True, slots=True)
class ChooseFavorSpot(Action):
    """Offer B.a: after handing over a die, where the player's soldier goes on the Favor track."""

    TYPE = "choose_favor_spot"
    spot: int


@dataclass(frozen=True, slots=True)
class Reroll(Action):
    """Offer: the free reroll: which dice (by face) the player rolls again."""

    TYPE = "reroll"
    dice: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Done: keep the dice after an offer, or end one's Resolution turn."""

    TYPE = "pass"


@dataclass(frozen=True, slots=True)
class Claim(Action):
    """Resolution B.i: spend a set on an empty neighborhood."""

    TYPE = "claim"
    neighborhood: str
    dice: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MuscleOut(Action):
    """Resolution B.ii: spend a set to replace an opponent's soldier."""

    TYPE = "muscle_out"
    neighborhood: str
    dice: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Recruit(Action):
    """Resolution C.i: spend dice to move up the Muscle track by their sum."""

    TYPE = "recruit"
    dice: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Bet(Action):
    """Resolution C.ii: spend one die to put a soldier on an empty Vegas spot."""

    TYPE = "bet"
    spot: int
    die: int


@dataclass(frozen=True, slots=True)
class UseFavor(Action):
    """Resolution D: take a soldier off Favor spot ``spot`` and use its ability.

    ``ability`` is needed only on the "any" spot. The ability's own arguments: ``dice`` (Free
    Reroll), ``die`` and ``to`` (+/-1, turn a die), ``die`` (extra die), ``from_`` and ``to``
    (move a soldier between neighborhoods).
    """

    TYPE = "favor"
    spot: int
    ability: str | None = None
    dice: tuple[int, ...] = ()
    die: int | None = None
    to: int | str | None = None
    from_: str | None = None


ACTION_TYPES: dict[str, type[Action]] = {
    cls.TYPE: cls
    for cls in (
        GodfatherRoll,
        VegasRoll,
        KeepVegas,
        Roll,
        RevealFavor,
        TakeFavor,
        Request,
        ChooseFavorSpot,
        Reroll,
        Pass,
        Claim,
        MuscleOut,
        Recruit,
        Bet,
        UseFavor,
    )
}


GAME_ID = "new-don"


@dataclass(frozen=True, slots=True)
class Setup:
    """The first line of every record: who sits where (clockwise), the board and house rules.

    ``board`` is a board id ("3-4", "5-6") or a traced board's file; when it is omitted the
    side for the number of players is used.
    """

    TYPE: ClassVar[str] = "setup"
    seats: tuple[Seat, ...]
    board: str | None = None
    options: HouseRules = field(default_factory=HouseRules)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "type": "setup",
            "game": GAME_ID,
            "players": [s.to_json() for s in self.seats],
        }
        if self.board:
            out["board"] = self.board
        options = options_to_dict(self.options)
        if options:
            out["options"] = options
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Setup:
        if not isinstance(data, dict) or data.get("type") != "setup":
            raise MalformedAction('a game starts with {"type": "setup", "players": [...]}')
        unknown = set(data) - {"type", "game", "players", "board", "options"}
        if unknown:
            raise MalformedAction(f"setup has unknown keys: {', '.join(sorted(unknown))}")
        if data.get("game", GAME_ID) != GAME_ID:
            raise MalformedAction(f"this setup is for {data.get('game')!r}, not {GAME_ID}")
        seats = parse_seats(data.get("players"))
        board = data.get("board")
        if board is not None and not isinstance(board, str):
            raise MalformedAction('board must be a board id such as "3-4"')
        return cls(seats, board, options_from_dict(HouseRules, _as_scored(data)))


def _as_scored(data: dict[str, Any]) -> Any:
    """A setup line's options as the game was scored. A line naming no game was written
    before the game protocol, by an engine that scored the House the friends_close variant's
    way too: it still says so (as friends_close_house), so old records keep their scores.
    Every line written since names its game."""
    options = data.get("options")
    if (
        "game" not in data
        and isinstance(options, dict)
        and options.get("scoring") == "friends_close"
        and "friends_close_house" not in options
    ):
        return {**options, "friends_close_house": True}
    return options


def _json_key(name: str) -> str:
    return name.rstrip("_")


def action_from_dict(data: Any) -> Action:
    """Build an action from a record line's dict, or raise :class:`MalformedAction` saying why."""
    if not isinstance(data, dict):
        raise MalformedAction(f"an action is a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        raise MalformedAction(
            f"unknown action type {kind!r}; known: {', '.join(sorted(ACTION_TYPES))}"
        )
    cls = ACTION_TYPES[kind]
    by_key = {_json_key(f.name): f for f in fields(cls)}
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
        kwargs[f.name] = _convert(kind, key, data[key], str(f.type))
    return cls(**kwargs)


def _convert(kind: str, key: str, value: Any, hint: str) -> Any:
    def bad(want: str) -> MalformedAction:
        return MalformedAction(f"{kind}: {key} must be {want}, not {value!r}")

    if value is None and "None" in hint:
        return None
    if hint.startswith("tuple"):
        if not isinstance(value, list) or not all(_is_int(v) for v in value):
            raise bad("a list of die faces")
        if not all(1 <= v <= 6 for v in value):
            raise bad("a list of die faces 1-6")
        return tuple(value)
    if hint == "int":
        if not _is_int(value):
            raise bad("a whole number")
        return value
    if hint == "str":
        if not isinstance(value, str) or not value:
            raise bad("a non-empty string")
        return value
    if hint == "int | str | None":
        if not (_is_int(value) or isinstance(value, str)):
            raise bad("a die face or a neighborhood id")
        return value
    if hint == "int | None":
        if not _is_int(value):
            raise bad("a whole number")
        return value
    if hint == "str | None":
        if not isinstance(value, str):
            raise bad("a string")
        return value
    raise AssertionError(f"no converter for {hint}")  # a field type this module forgot


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)
