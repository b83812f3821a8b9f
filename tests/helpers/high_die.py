"""High Die: a tiny game that exists to show a game can be added without touching the platform.

Two to four players. Each round every player rolls one die behind their screen; then, in seat
order, each says "keep" or "reroll" (a reroll is rolled at once, still hidden). When everyone
has spoken, the dice are shown: the highest die scores a point (a tie scores nothing). After
``rounds`` rounds (a house rule: 3, or 1 or 5) the most points win; a tie is shared.

It uses only the protocol and the standard library, like a real game, and is registered by the
tests that need it (``companion.games.register``): the table service, the web API, the pages'
generic view and the dice hub must all serve it without knowing it.
"""

from __future__ import annotations

import random
import tomllib
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from companion.protocol import (
    Choice,
    DiceRequest,
    DiceSet,
    Files,
    MalformedAction,
    OptionInfo,
    RuleViolation,
    Seat,
    Waiting,
    option,
    options_from_dict,
    options_to_dict,
    parse_seats,
)

GAME_ID = "high-die"


@dataclass(frozen=True, slots=True)
class Rules:
    rounds: int = option(3, 1, 5, text="how many rounds are played")


@dataclass(frozen=True, slots=True)
class Setup:
    seats: tuple[Seat, ...]
    options: Rules = field(default_factory=Rules)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "type": "setup",
            "game": GAME_ID,
            "players": [s.to_json() for s in self.seats],
        }
        if options_to_dict(self.options):
            out["options"] = options_to_dict(self.options)
        return out


@dataclass(frozen=True, slots=True)
class Act:
    TYPE: ClassVar[str] = ""
    player: str

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.TYPE, "player": self.player}


@dataclass(frozen=True, slots=True)
class Roll(Act):
    TYPE: ClassVar[str] = "roll"
    face: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.TYPE, "player": self.player, "face": self.face}


@dataclass(frozen=True, slots=True)
class Keep(Act):
    TYPE: ClassVar[str] = "keep"


@dataclass(frozen=True, slots=True)
class Reroll(Act):
    TYPE: ClassVar[str] = "reroll"


@dataclass(frozen=True, slots=True)
class State:
    names: tuple[str, ...]
    rules: Rules
    round: int = 1
    dice: tuple[int | None, ...] = ()  # each player's die this round, behind their screen
    spoken: tuple[bool, ...] = ()  # who has said keep or reroll
    rerolling: str | None = None  # a player whose reroll is awaited
    points: tuple[int, ...] = ()
    shown: tuple[int, ...] = ()  # the last round's dice, shown to all

    @property
    def over(self) -> bool:
        return self.round > self.rules.rounds

    def seat(self, name: str) -> int:
        if name not in self.names:
            raise MalformedAction(f"{name!r} is not at this table")
        return self.names.index(name)

    @property
    def speaker(self) -> int | None:
        """Whose turn to say keep or reroll (all dice in, no reroll awaited)."""
        if self.rerolling is not None or None in self.dice:
            return None
        return next((i for i, s in enumerate(self.spoken) if not s), None)


class HighDie:
    id = GAME_ID
    name = "High Die (a test game)"
    players = (2, 4)
    rulebook = "tests/helpers/high_die.py"
    house_rules = Rules
    setup_choices: tuple[OptionInfo, ...] = ()

    def setup_from_dict(self, data: dict[str, Any]) -> Setup:
        unknown = set(data) - {"type", "game", "players", "options"}
        if unknown:
            raise MalformedAction(f"setup has unknown keys: {', '.join(sorted(unknown))}")
        seats = parse_seats(data.get("players"))
        return Setup(seats, options_from_dict(Rules, data.get("options")))

    def action_from_dict(self, data: Any) -> Act:
        if not isinstance(data, dict) or not isinstance(data.get("player"), str):
            raise MalformedAction("an action is {type, player, ...}")
        kind = data.get("type")
        if kind == "roll":
            face = data.get("face")
            if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= 6:
                raise MalformedAction("roll: face must be a die face 1-6")
            return Roll(data["player"], face)
        if kind == "keep":
            return Keep(data["player"])
        if kind == "reroll":
            return Reroll(data["player"])
        raise MalformedAction(f"unknown action type {kind!r}; known: keep, reroll, roll")

    def new_game(self, setup: Setup, files: Files) -> State:
        n = len(setup.seats)
        if not 2 <= n <= 4:
            raise RuleViolation("Players", f"High Die is for 2 to 4 players, not {n}")
        return _new_round(
            State(tuple(s.name for s in setup.seats), setup.options, points=(0,) * n), 1
        )

    def apply(self, state: State, action: Act) -> State:
        if state.over:
            raise RuleViolation("End", "the game is over")
        seat = state.seat(action.player)
        if isinstance(action, Roll):
            if state.rerolling == action.player:
                return _after_speech(
                    replace(state, rerolling=None, dice=_put(state.dice, seat, action.face))
                )
            if state.dice[seat] is not None:
                raise RuleViolation("Roll", f"{action.player} has rolled this round")
            return replace(state, dice=_put(state.dice, seat, action.face))
        if state.speaker != seat:
            who = state.names[state.speaker] if state.speaker is not None else "the dice"
            raise RuleViolation(
                "Call", f"it is {who}'s turn to say keep or reroll", public=f"it is {who}'s turn"
            )
        spoken = _put(state.spoken, seat, True)
        if isinstance(action, Reroll):
            return replace(state, spoken=spoken, rerolling=action.player)
        return _after_speech(replace(state, spoken=spoken))

    def legal_actions(self, state: State, player: str) -> list[Act]:
        if state.over or state.speaker is None or state.names[state.speaker] != player:
            return []
        return [Keep(player), Reroll(player)]

    def waiting_for(self, state: State) -> list[Waiting]:
        if state.over:
            return []
        out = []
        for i, name in enumerate(state.names):
            if state.dice[i] is None or state.rerolling == name:
                out.append(
                    Waiting(
                        name,
                        "roll",
                        DiceRequest(
                            1, ask=f"{state.round}:{state.spoken[i]}", prompt="Roll your die"
                        ),
                    )
                )
        if state.speaker is not None:
            out.append(Waiting(state.names[state.speaker], "call"))
        return out

    def roll_action(self, waiting: Waiting, faces: tuple[int, ...]) -> Act:
        return Roll(waiting.player, faces[0])

    def chance_action(self, state: State, rng: random.Random) -> Act | None:
        return None

    def is_chance(self, action: Act) -> bool:
        return False

    def is_roll(self, action: Act) -> bool:
        return isinstance(action, Roll)

    def table_may_enter(self, action: Act) -> bool:
        return False

    def player_may_undo(self, action: Act) -> bool:
        return isinstance(action, Keep)

    def is_over(self, state: State) -> bool:
        return state.over

    def score(self, state: State) -> dict[str, Any]:
        totals = dict(zip(state.names, state.points, strict=True))
        best = max(totals.values())
        return {"totals": totals, "winners": [n for n, p in totals.items() if p == best]}

    def player_view(self, state: State, viewer: str | None) -> dict[str, Any]:
        return {
            "round": min(state.round, state.rules.rounds),
            "players": [
                {
                    "name": n,
                    "points": p,
                    "rolled": d is not None,
                    **({"die": d} if n == viewer else {}),
                }
                for n, p, d in zip(state.names, state.points, state.dice, strict=True)
            ],
            "shown": list(state.shown),
            "waiting": [
                {
                    "player": w.player,
                    "does": w.does,
                    **({"dice": w.dice.count} if w.dice and w.player == viewer else {}),
                }
                for w in self.waiting_for(state)
            ],
        }

    def action_view(self, before: State, action: Act, viewer: str | None) -> dict[str, Any]:
        data = action.to_dict()
        if isinstance(action, Roll) and viewer != action.player:
            data["face"] = "hidden"
        return data

    def narrate(self, before: State, action: Act, after: State, viewer: str | None) -> list[str]:
        seen = self.action_view(before, action, viewer)
        if isinstance(action, Roll):
            face = seen["face"]
            lines = [f"{action.player} rolls" + ("." if face == "hidden" else f" a {face}.")]
        else:
            lines = [f"{action.player} says {action.TYPE}."]
        if after.round != before.round:
            lines.append(f"The dice are shown: {', '.join(map(str, after.shown))}.")
        return lines

    def choices(self, state: State, viewer: str) -> list[Choice]:
        return [
            Choice(a.to_dict(), a.TYPE, a.TYPE.capitalize())
            for a in self.legal_actions(state, viewer)
        ]

    def table_data(self, state: State) -> dict[str, Any]:
        return {"rounds": state.rules.rounds}

    def dice_sets(self, state: State) -> list[DiceSet]:
        return [DiceSet(n, n, 1) for n in state.names]

    def scramble(self, state: State, viewer: str | None, rng: random.Random) -> State:
        dice = tuple(
            d if (n == viewer or d is None) else rng.randint(1, 6)
            for n, d in zip(state.names, state.dice, strict=True)
        )
        return replace(state, dice=dice)

    def random_action(self, state: State, rng: random.Random) -> Act:
        w = rng.choice(self.waiting_for(state))
        if w.dice is not None:
            return Roll(w.player, rng.randint(1, 6))
        return rng.choice(self.legal_actions(state, w.player))

    def score_position(self, text: str, files: Files) -> dict[str, Any]:
        """Points per player, one ``Name = points`` line each."""
        try:
            points = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise MalformedAction(f"not valid TOML: {exc}") from None
        if not points or not all(isinstance(v, int) for v in points.values()):
            raise MalformedAction("write one line per player: Name = points")
        best = max(points.values())
        return {"totals": points, "winners": [n for n, p in points.items() if p == best]}

    def score_table(self, scores: dict[str, Any]) -> str:
        return "\n".join(f"{n}: {p}" for n, p in scores["totals"].items())

    def progress(self, state: State) -> str:
        return "over" if state.over else f"round {state.round} of {state.rules.rounds}"

    def summary(self, state: State) -> str:
        return ", ".join(f"{n} {p}" for n, p in zip(state.names, state.points, strict=True))


def _put(values: tuple, i: int, value: Any) -> tuple:
    return (*values[:i], value, *values[i + 1 :])


def _new_round(state: State, number: int) -> State:
    n = len(state.names)
    return replace(state, round=number, dice=(None,) * n, spoken=(False,) * n, rerolling=None)


def _after_speech(state: State) -> State:
    """Everyone has spoken and every reroll is in: show the dice, score, next round."""
    if not all(state.spoken) or state.rerolling is not None:
        return state
    dice = tuple(d or 0 for d in state.dice)
    best = max(dice)
    points = state.points
    if dice.count(best) == 1:
        points = _put(points, dice.index(best), points[dice.index(best)] + 1)
    return _new_round(replace(state, points=points, shown=dice), state.round + 1)


HIGH_DIE = HighDie()
