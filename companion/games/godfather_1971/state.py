"""The state of a game: frozen, compared by value, replaced (never changed) by each action.

Secret: each player's held card (``Player.hand``) and, when the companion keeps the cards,
the order of the three decks. Everything else is on the table for all to see, the cash too
(the Banker pays it out in front of everyone).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TypedDict, Unpack

from companion.games.godfather_1971.board import Board
from companion.games.godfather_1971.control import Verdict
from companion.games.godfather_1971.fight import Taken
from companion.games.godfather_1971.rackets import Racket
from companion.games.godfather_1971.rules import HouseRules
from companion.protocol.errors import MalformedAction


class Step(StrEnum):
    """What the game waits for."""

    SHUFFLE = "shuffle"  # the companion's decks: their order, as the table shuffled them
    ROLL_FOR_FIRST = "roll_for_first"  # To Start: the dice decide who goes first
    PLAY_CARD = "play_card"  # The Play A: the held card is played
    BREAKS_ROLL = "breaks_roll"  # Breaks of the Game: roll the dice
    BREAK_CARD = "break_card"  # physical cards: which Good or Bad Break card was drawn
    FINGERMAN = "fingerman"  # removing up to three opponents' pieces
    LOSE_PIECES = "lose_pieces"  # a Bad Break's pieces: which to give up
    SELL = "sell"  # a Bad Break's money: pieces converted at half their cost
    PENALTY = "penalty"  # declared CONTROL withheld: the declarer gives up a piece
    PLACE = "place"  # The Play B and C: buying and positioning pieces
    DRAW = "draw"  # physical cards: which card the player drew (The Play D)
    OVER = "over"


class Cards(StrEnum):
    """Who holds the decks."""

    PHYSICAL = "physical"  # the table's own cards: players enter what they draw
    COMPANION = "companion"  # the companion deals from decks shuffled at the start


class RulingKind(StrEnum):
    CAPTURE = "capture"  # pieces surrounded and removed
    CONTROL = "control"  # CONTROL established: the neighborhood closes
    NOT_YET = "not_yet"  # a majority that an opponent's next turn could reduce
    STALEMATE = "stalemate"  # nobody can place here any more: closed without CONTROL
    DECLARED = "declared"  # declared CONTROL (the other version)
    WITHHELD = "withheld"  # a declaration challenged
    CONCEDED = "conceded"  # a declaration that stood for a round


@dataclass(frozen=True, slots=True)
class Ruling:
    """One decision the companion made, with what the pages draw to show why."""

    kind: RulingKind
    hood: int
    seat: int  # the mover (a capture, a challenge) or the player concerned
    taken: tuple[Taken, ...] = ()  # a capture's groups and fences
    placed: int = 0  # the placement that made a capture or a challenge
    verdict: Verdict | None = None  # a CONTROL check: the count and any breaking turn
    board: tuple[int, ...] = ()  # the pieces as they stood when it was made (the pages draw it)


@dataclass(frozen=True, slots=True)
class Bonus:
    """10% of a Racket Control Value, paid at the start of each of the next three turns."""

    hood: str
    amount: int
    turns: int


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    colour: str | None
    cash: int
    hand: str | None = None  # the card held for the next turn: secret
    started: bool = False  # has taken the first turn
    credits: tuple[tuple[str, int], ...] = ()  # (neighborhood, Racket Control Value) held
    bonuses: tuple[Bonus, ...] = ()
    penalties: tuple[int, ...] = ()  # declared variant: neighborhoods where a piece is owed
    debt: int = 0  # a Bad Break's rest, under the "debt" house rule


@dataclass(frozen=True, slots=True)
class Declaration:
    """Declared CONTROL: whose, and the territory (positions held) when declared."""

    seat: int
    territory: int


@dataclass(frozen=True, slots=True)
class Hood:
    """A neighborhood in play as it stands."""

    pieces: tuple[int, ...]  # a mask of positions per seat
    racket: Racket | None = None  # fixed by the first piece placed here
    controller: int | None = None
    stalemated: bool = False
    declared: Declaration | None = None
    verdict: Verdict | None = None  # the last CONTROL check here

    @property
    def open(self) -> bool:
        return self.controller is None and not self.stalemated


@dataclass(frozen=True, slots=True)
class Turn:
    """The active player's turn as it stands."""

    seat: int
    number: int  # turns taken in the game, this one included
    first: bool  # the player's first turn (To Start)
    placed: tuple[int, ...]  # pieces positioned in each neighborhood this turn
    card: str | None = None  # the card played this turn, face up
    free: Racket | None = None  # free pieces to position at once (a card's)
    free_count: int = 0
    voided: int = 0  # free pieces that could go nowhere this turn, and were lost
    roll: tuple[int, ...] = ()  # the Breaks of the Game roll
    break_card: str | None = None
    fingers: int = 0  # Fingerman removals left
    lose: Racket | None = None  # a Bad Break's pieces still to give up
    lose_count: int = 0
    owed: int = 0  # a Bad Break's money still to pay
    penalty: int | None = None  # declared variant: the neighborhood of the piece owed now


# What ``State.with_player``, ``with_hood`` and ``with_turn`` may change, so that each change
# is type-checked where it is made (mypy checks these keys against the dataclasses' fields).


class PlayerChanges(TypedDict, total=False):
    cash: int
    hand: str | None
    started: bool
    credits: tuple[tuple[str, int], ...]
    bonuses: tuple[Bonus, ...]
    penalties: tuple[int, ...]
    debt: int


class HoodChanges(TypedDict, total=False):
    pieces: tuple[int, ...]
    racket: Racket | None
    controller: int | None
    stalemated: bool
    declared: Declaration | None
    verdict: Verdict | None


class TurnChanges(TypedDict, total=False):
    placed: tuple[int, ...]
    card: str | None
    free: Racket | None
    free_count: int
    voided: int
    roll: tuple[int, ...]
    break_card: str | None
    fingers: int
    lose: Racket | None
    lose_count: int
    owed: int
    penalty: int | None


@dataclass(frozen=True, slots=True)
class State:
    board: Board
    rules: HouseRules
    cards: Cards
    players: tuple[Player, ...]  # in seat order: clockwise
    hoods: tuple[Hood, ...]  # as board.layouts
    step: Step
    turn: Turn | None = None
    rolloff: tuple[tuple[int, int | None], ...] = ()  # (seat, total) still contending
    deck: tuple[str, ...] = ()  # the companion's decks, top first: secret
    good: tuple[str, ...] = ()
    bad: tuple[str, ...] = ()
    rulings: tuple[Ruling, ...] = ()  # the latest rulings, made by one action
    ruled_at: int = 0  # the move that made them (moves counts actions from 1)
    moves: int = 0

    def seat(self, name: str) -> int:
        for i, p in enumerate(self.players):
            if p.name == name:
                return i
        raise MalformedAction(
            f"{name!r} is not at this table; players: {', '.join(p.name for p in self.players)}"
        )

    def name(self, seat: int) -> str:
        return self.players[seat].name

    @property
    def is_over(self) -> bool:
        return self.step is Step.OVER

    @property
    def active(self) -> int | None:
        return self.turn.seat if self.turn is not None else None

    def with_player(self, seat: int, **changes: Unpack[PlayerChanges]) -> State:
        players = list(self.players)
        players[seat] = replace(players[seat], **changes)
        return replace(self, players=tuple(players))

    def with_hood(self, i: int, **changes: Unpack[HoodChanges]) -> State:
        hoods = list(self.hoods)
        hoods[i] = replace(hoods[i], **changes)
        return replace(self, hoods=tuple(hoods))

    def with_turn(self, **changes: Unpack[TurnChanges]) -> State:
        assert self.turn is not None
        return replace(self, turn=replace(self.turn, **changes))

    def bad_break_pieces(self, seat: int, racket: Racket | None = None) -> list[tuple[int, int]]:
        """The pieces a Bad Break can take or convert: in open neighborhoods and stalemated
        ones ("may not be redeemed for cash except as previously described")."""
        return self.own_pieces(seat, racket, stalemated=True)

    def open_hoods(self) -> list[int]:
        return [i for i, h in enumerate(self.hoods) if h.open]

    def own_pieces(
        self, seat: int, racket: Racket | None = None, stalemated: bool = False
    ) -> list[tuple[int, int]]:
        """(neighborhood, position) of every piece ``seat`` has in open neighborhoods (and
        stalemated ones, if asked), of one racket if given."""
        out = []
        for i, h in enumerate(self.hoods):
            if (h.open or (stalemated and h.stalemated)) and (racket is None or h.racket is racket):
                m = h.pieces[seat]
                while m:
                    low = m & -m
                    out.append((i, low.bit_length() - 1))
                    m ^= low
        return out
