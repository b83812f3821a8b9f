"""The state of a game of Gangster Dice: frozen, compared by value, changed only by ``apply``.

Where every die is: each player's stash, the Speakeasy, the Streets, the Investigator, and the
box (dice not in play with fewer than four players): 27 in all, always. Where every favor card
is (when the companion holds the cards): the deck (in order, top first), the discard pile, the
hands, the face-up stack of special +4s, and cards waiting for a shuffle.

Secrets, seen only through ``view.py``: each hand (its size is public), each bid until all are
made, and the deck's order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from companion.games.gangster_dice.actions import BidCard, CardsMode
from companion.games.gangster_dice.characters import Character
from companion.games.gangster_dice.components import (
    TOKENS,
    Colour,
    Components,
    Dice,
    Symbol,
    Token,
)
from companion.games.gangster_dice.rules import HouseRules
from companion.protocol.errors import MalformedAction


class Phase(StrEnum):
    """Where a round stands. Each name is what the table is doing."""

    SETUP = "setup"  # the deck is shuffled and characters are chosen, then hands are dealt
    BIDS = "bids"  # everyone rolls and chooses their cards in secret
    TOKENS = "tokens"  # the winners of tokens they controlled use their effects
    INVESTIGATOR = "investigator"  # its holder takes a die off it (a choice)
    DRAW = "draw"  # the favor deck ran out while drawing: the discard pile is being shuffled
    OVER = "over"


class Task(StrEnum):
    """A token's effect that asks its winner to choose (Influence Tokens)."""

    SWAP = "swap"  # the Speakeasy, won again
    STREETS = "streets"  # the Streets, won again
    LOAD = "load"  # the Investigator, won from another player


@dataclass(frozen=True, slots=True)
class PendingTask:
    task: Task
    seat: int


@dataclass(frozen=True, slots=True)
class ScoredBid:
    """One revealed bid and its score: symbols on the bidder's dice for the token, plus the
    favor card, plus the dice on the Streets if the bidder controls it (Sequence of play; The
    Streets)."""

    seat: int
    token: Token
    favor: int
    symbols: int
    streets: int

    @property
    def score(self) -> int:
        return self.symbols + self.favor + self.streets


@dataclass(frozen=True, slots=True)
class Outcome:
    """Who influences a token this round: the highest score alone, or the Streets' controller
    among those tied for it; nobody on any other tie, or if nobody bid (Sequence of play)."""

    token: Token
    winner: int | None
    top: int | None  # the highest score (None: nobody bid)
    tied: tuple[int, ...]  # everyone with the highest score
    by_streets: bool  # the Streets broke the tie


@dataclass(frozen=True, slots=True)
class Reveal:
    """The bids of one round, revealed at the same instant, and their outcomes."""

    round: int
    bids: tuple[ScoredBid, ...]
    outcomes: tuple[Outcome, ...]  # one per token, in token order

    def outcome(self, token: Token) -> Outcome:
        return self.outcomes[TOKENS.index(token)]


class What(StrEnum):
    """Something that happened by itself after an action (for the narration)."""

    DEALT = "dealt"
    REVEALED = "revealed"
    CONTROL = "control"  # seat takes control of token
    AGAIN = "again"  # seat won token again: its effect is due
    PASSED = "passed"  # the Investigator moves from seat's win to other, on their left
    LOADED = "loaded"  # seat put count dice of colour on the Investigator (no choice)
    NOTHING = "nothing"  # seat had no die to give for token's effect
    TOOK = "took"  # seat took a colour die off the Investigator (no choice)
    DREW = "drew"  # seat drew count favor cards
    FOUR = "four"  # seat took a special +4 (the Lawyer)
    RESHUFFLE = "reshuffle"  # the deck ran out: count discarded cards wait for a shuffle
    SHUFFLED = "shuffled"
    WON = "won"  # seat's stash is empty
    ROUND = "round"  # round count begins


@dataclass(frozen=True, slots=True)
class Happening:
    what: What
    seat: int | None = None
    token: Token | None = None
    colour: Colour | None = None
    count: int = 0
    other: int | None = None


@dataclass(frozen=True, slots=True)
class PlayerState:
    """One player: the stash and this round's roll are public; the hand and the bid are not."""

    name: str
    colour: str  # of the bid cards
    stash: Dice
    received: Dice = field(default_factory=Dice)  # this round's: they may not be given away
    rolled: tuple[tuple[Colour, Symbol], ...] | None = None  # this round's roll
    # Companion cards: every favor card in the hand. Physical cards: only the special +4s the
    # companion saw the player take; ``unknown`` counts the others. Cards played this round stay
    # here until the reveal.
    hand: tuple[int, ...] = ()
    unknown: int = 0
    bid: tuple[BidCard, ...] | None = None  # face down until everyone has chosen
    character: str | None = None

    @property
    def hand_size(self) -> int:
        return len(self.hand) + self.unknown

    def shows(self, symbol: Symbol) -> int:
        """How many of this round's dice show ``symbol``."""
        return sum(1 for _, s in self.rolled or () if s is symbol)


@dataclass(frozen=True, slots=True)
class State:
    components: Components
    characters: tuple[Character, ...]  # the catalogue (empty when characters are off)
    rules: HouseRules
    cards: CardsMode
    use_characters: bool
    players: tuple[PlayerState, ...]
    phase: Phase
    round: int
    control: tuple[int | None, ...]  # per token: its controller (the Investigator: its holder)
    speakeasy: Dice
    streets: Dice
    investigator: Dice
    box: Dice  # dice not in play (fewer than four players)
    deck: tuple[int, ...] = ()  # companion cards: top first
    discard: tuple[int, ...] = ()  # sorted
    special: int = 0  # the face-up stack of +4s
    loose_fours: int = 0  # physical cards: +4s played onto the discard pile (house rule)
    to_shuffle: tuple[int, ...] = ()  # sorted: cards waiting for a shuffle action
    tasks: tuple[PendingTask, ...] = ()  # effects still to choose, in token order
    draws: tuple[int, ...] = ()  # per seat: favor cards still to draw this round
    four_for: int | None = None  # won the Lawyer again: a +4 instead of a draw
    reveal: Reveal | None = None  # the latest round's bids, shown until the next reveal
    winners: tuple[int, ...] = ()
    happened: tuple[Happening, ...] = ()  # what the last action set off
    moves: int = 0

    # --- looking things up ---------------------------------------------------------------

    def seat(self, name: str) -> int:
        for i, p in enumerate(self.players):
            if p.name == name:
                return i
        raise MalformedAction(
            f"{name!r} is not at this table; players: " + ", ".join(p.name for p in self.players)
        )

    def name(self, seat: int | None) -> str | None:
        return None if seat is None else self.players[seat].name

    def controller(self, token: Token) -> int | None:
        return self.control[TOKENS.index(token)]

    def left_of(self, seat: int) -> int:
        """The player on ``seat``'s left: the next one clockwise (seats are listed clockwise)."""
        return (seat + 1) % len(self.players)

    def givable(self, seat: int) -> Dice:
        """The dice ``seat`` may give away now: their stash less what they received this round
        ("you may never give away dice you received on the same round", Gaining and Losing
        Dice)."""
        p = self.players[seat]
        return p.stash - p.received

    def bids_due(self, seat: int) -> int:
        """How many bid cards ``seat`` plays this round: one, or two in the 2-Player Variant
        (fewer if their dice show fewer symbols or their hand holds fewer favor cards)."""
        if len(self.players) != 2:
            return 1
        p = self.players[seat]
        shown = len({s for _, s in p.rolled or ()})
        return max(1, min(2, shown, p.hand_size))

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def shuffle_due(self) -> bool:
        """Whether the game waits for a shuffle (chance, not a player)."""
        return bool(self.to_shuffle)
