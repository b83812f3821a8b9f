"""The state of a game: frozen, compared by value, replaced (never changed) by each action."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from companion.games.new_don.board import Board
from companion.games.new_don.dice import Die
from companion.games.new_don.rules import HouseRules
from companion.protocol.errors import MalformedAction


class Phase(StrEnum):
    SETUP = "setup"  # rolling for the first Godfather
    VEGAS = "vegas"
    ROLL = "roll"
    OFFER = "offer"
    RESOLUTION = "resolution"
    GAME_OVER = "game_over"


class OfferStep(StrEnum):
    GODFATHER = "godfather"  # the Godfather takes the favor or names a number
    SPOT = "spot"  # the player who handed a die over picks their Favor spot
    REROLL = "reroll"  # the player's free reroll (or pass)


@dataclass(frozen=True, slots=True)
class PlayerState:
    """One family. ``dice`` and ``locked`` are hidden behind the screen; the rest is public."""

    name: str
    colour: str | None
    house: int
    muscle: int  # position on the Muscle track (see MuscleTrack)
    favor_tokens: tuple[int, ...]  # soldiers on each Favor spot, in board.favor_spots order
    dice: tuple[Die, ...] = ()
    to_roll: int = 0  # dice this player must roll now (their pool, or a reroll)
    to_roll_sets_only: bool = False  # the pending roll is a Free Reroll favor's
    rolled: bool = False  # has rolled their pool this round
    favor: int | None = None  # the face revealed to the Godfather this round
    vegas_taken: tuple[int, ...] = ()  # red dice won in Vegas this round (public)
    locked: tuple[int, ...] = ()  # which of those are locked at their value (hidden)
    vegas_pending: bool = False  # must still say which red dice to lock
    collected: tuple[int, ...] = ()  # dice handed to this Godfather this round (public)
    absent: tuple[int, ...] = ()  # numbers this player proved not to have (public)
    gave: int | None = None  # the number this player handed to the Godfather (public)


@dataclass(frozen=True, slots=True)
class State:
    board: Board
    rules: HouseRules
    players: tuple[PlayerState, ...]  # in seat order: clockwise
    phase: Phase
    round: int
    godfather: int | None
    neighborhoods: tuple[int | None, ...]  # the seat holding each board neighborhood
    vegas: tuple[int | None, ...]  # the seat with a soldier on each Vegas spot
    rolloff: tuple[tuple[int, int | None], ...] = ()  # setup: (seat, face) still contending
    vegas_faces: tuple[int, ...] = ()  # the Godfather's last Vegas roll
    offer_target: int | None = None
    offer_step: OfferStep | None = None
    offer_number: int | None = None  # the number requested of the current target
    turn: int | None = None  # whose Resolution turn it is
    moves: int = 0  # actions applied since setup

    def seat(self, name: str) -> int:
        for i, p in enumerate(self.players):
            if p.name == name:
                return i
        raise MalformedAction(
            f"{name!r} is not at this table; players: {', '.join(p.name for p in self.players)}"
        )

    def name(self, seat: int) -> str:
        return self.players[seat].name

    def left_of(self, seat: int) -> int:
        """The next seat clockwise (the rulebook's 'to the left')."""
        return (seat + 1) % len(self.players)

    # The seats the phases take for granted: a phase that asks for one while it is None has
    # broken the engine itself, never the rules, so that is an AssertionError.

    @property
    def godfather_seat(self) -> int:
        """The Godfather's seat: there is one from the end of Setup on."""
        assert self.godfather is not None, f"no Godfather in the {self.phase} phase"
        return self.godfather

    @property
    def offer_seat(self) -> int:
        """The player the Godfather is making an offer to (Offer phase)."""
        assert self.offer_target is not None, f"no offer in the {self.phase} phase"
        return self.offer_target

    @property
    def turn_seat(self) -> int:
        """Whose Resolution turn it is (Resolution phase)."""
        assert self.turn is not None, f"no Resolution turn in the {self.phase} phase"
        return self.turn

    def with_player(self, seat: int, **changes: Any) -> State:
        """The state with ``replace(players[seat], **changes)``: the one way a phase changes
        a family. (``Any``: the dataclass checks the field names when it is replaced.)"""
        players = list(self.players)
        players[seat] = replace(players[seat], **changes)
        return replace(self, players=tuple(players))

    def favor_count(self, seat: int, spot: int) -> int:
        return self.players[seat].favor_tokens[self.board.favor_spots.index(spot)]

    def held_by(self, seat: int) -> list[str]:
        return [
            n.id
            for n, s in zip(self.board.neighborhoods, self.neighborhoods, strict=True)
            if s == seat
        ]

    def soldiers(self, seat: int) -> dict[str, int]:
        """Where this family's soldiers are; they always add up to soldiers_per_player."""
        p = self.players[seat]
        return {
            "house": p.house,
            "map": sum(1 for s in self.neighborhoods if s == seat),
            "favor": sum(p.favor_tokens),
            "vegas": sum(1 for s in self.vegas if s == seat),
            "muscle": 1,
        }

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.GAME_OVER
