"""The state of a game: frozen, compared by value, replaced (never changed) by each action.

The Bank's money is not counted (it "can never go broke"); its Hideouts and Compounds are what
the board does not hold. Everything here is public but a player's Don card before it is played.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from companion.games.monopoly.actions import Offer
from companion.games.monopoly.board import Board, Deck, Edition, Kind
from companion.games.monopoly.rules import HouseRules
from companion.protocol.errors import MalformedAction

HIDEOUT = "hideout"
COMPOUND = "compound"


class Phase(StrEnum):
    SETUP = "setup"  # Speed Play's free deeds and the Don cards are dealt
    ORDER = "order"  # Who goes first? Each player rolls the two dice
    PLAY = "play"
    OVER = "over"


class Step(StrEnum):
    """Where the turn of the player with the dice stands."""

    ROLL = "roll"  # roll the dice (again, after doubles)
    JAIL = "jail"  # in Jail: pay, use a card, or try for doubles
    JAIL_ROLL = "jail_roll"  # rolling for doubles in Jail
    MOVE = "move"  # a move waiting for its fine to be paid (the third failed double)
    BUY = "buy"  # buy the unowned property landed on, or let it go to auction
    DRAW = "draw"  # the card drawn from the Friends or Enemies deck
    RENT_ROLL = "rent_roll"  # roll for a Cops & Politicians rent (reached by a card)
    END = "end"  # pass the dice


@dataclass(frozen=True, slots=True)
class Player:
    """One player. ``don`` is secret until played; the rest is on the table."""

    name: str
    colour: str | None
    cash: int
    position: int = 0
    in_jail: bool = False
    jail_rolls: int = 0  # tries at doubles so far in this stay
    jail_cards: tuple[str, ...] = ()  # Get Out of Jail Free cards held, by card id
    bankrupt: bool = False
    don: str | None = None  # the Don card dealt (hidden)
    don_played: bool = False


@dataclass(frozen=True, slots=True)
class Holding:
    """A Title Deed's state on the table."""

    owner: int | None = None
    mortgaged: bool = False
    hideouts: int = 0
    compound: bool = False

    @property
    def buildings(self) -> int:
        return self.hideouts + self.compound


@dataclass(frozen=True, slots=True)
class Debt:
    """Money owed and not yet paid: the debtor must raise it (Help! I'm in debt!)."""

    debtor: int
    creditor: int | None  # None: the Bank
    amount: int
    reason: str  # "rent for Dark Blue 2"


@dataclass(frozen=True, slots=True)
class Auction:
    """Open bidding in turn: each bidder in turn bids higher or passes (and is out); the last
    bid buys. ``lot`` is a space, or a building won in a shortage."""

    lot: int | str
    order: tuple[int, ...]  # the bidders, in the order they speak
    turn: int  # the seat whose turn it is to bid
    out: tuple[int, ...] = ()  # bidders who passed
    high_bid: int = 0
    high_bidder: int | None = None
    requested: int | None = None  # a shortage auction: where its opener asked to build


@dataclass(frozen=True, slots=True)
class Deal:
    """A deal proposed on one phone, waiting on the other."""

    proposer: int
    partner: int
    give: Offer  # from the proposer to the partner
    take: Offer  # from the partner to the proposer


@dataclass(frozen=True, slots=True)
class RentClaim:
    """Rent the owner may ask for until the next player rolls (house rule rent=ask)."""

    owner: int
    payer: int
    space: int
    amount: int


class EventKind(StrEnum):
    ROLL = "roll"
    MOVE = "move"
    SALARY = "salary"
    BUY = "buy"
    AUCTION = "auction"
    RENT = "rent"
    TAX = "tax"
    CARD = "card"
    JAIL = "jail"
    FREE = "free"  # out of Jail
    PAY = "pay"
    DEBT = "debt"
    BUILD = "build"
    MORTGAGE = "mortgage"
    DEAL = "deal"
    BANKRUPT = "bankrupt"
    DON = "don"
    END = "end"


@dataclass(frozen=True, slots=True)
class Event:
    """Something the Banker did or saw, for the table screen and the narration."""

    kind: EventKind
    text: str
    player: str | None = None
    amount: int = 0
    space: int | None = None


@dataclass(frozen=True, slots=True)
class State:
    edition: Edition = field(repr=False)  # the printed game, the same all game long
    rules: HouseRules
    players: tuple[Player, ...]  # in seat order: clockwise
    holdings: tuple[Holding | None, ...]  # by space; None where a space is no property
    phase: Phase
    step: Step = Step.ROLL
    turn: int = 0  # the seat with the dice
    first: int = 0  # the seat that took the first turn (rounds start there)
    round: int = 1
    doubles: int = 0  # doubles rolled this turn
    again: bool = False  # the player rolls again after this move (doubles)
    dice: tuple[int, ...] = ()  # the last roll of the dice
    pending_move: tuple[int, ...] = ()  # Step.MOVE: the dice to move by once the fine is paid
    drawing: Deck | None = None  # Step.DRAW: the deck
    card_rent: int = 0  # the card that moved the player sets this rent's multiplier
    rolloff: tuple[tuple[int, int | None], ...] = ()  # Phase.ORDER: (seat, total) contending
    debts: tuple[Debt, ...] = ()
    auction: Auction | None = None
    lots: tuple[int, ...] = ()  # spaces still to be auctioned (a bankruptcy to the Bank)
    deal: Deal | None = None
    fees: tuple[tuple[int, int], ...] = ()  # (seat, space): received mortgaged, fee unpaid
    placing: tuple[int, str] | None = None  # (seat, building) won at a shortage auction
    claims: tuple[RentClaim, ...] = ()
    events: tuple[Event, ...] = ()  # what happened since the last roll
    out_order: tuple[int, ...] = ()  # seats in the order they went bankrupt
    rolls: int = 0  # rolls applied: a dice request's ask
    moves: int = 0  # actions applied
    end: str | None = None  # why the game ended

    # --- who ---------------------------------------------------------------------------------
    @property
    def board(self) -> Board:
        return self.edition.board

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
    def active(self) -> tuple[int, ...]:
        """Seats still in the game, clockwise from seat 0."""
        return tuple(i for i, p in enumerate(self.players) if not p.bankrupt)

    def left_of(self, seat: int) -> int:
        """The next player still in, clockwise ("pass the dice to the player on your left")."""
        n = len(self.players)
        for k in range(1, n + 1):
            if not self.players[(seat + k) % n].bankrupt:
                return (seat + k) % n
        return seat

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    # --- changing ----------------------------------------------------------------------------
    def with_player(self, seat: int, **changes: Any) -> State:
        # (``Any``: the dataclass checks the field names when it is replaced.)
        players = list(self.players)
        players[seat] = replace(players[seat], **changes)
        return replace(self, players=tuple(players))

    def pay(self, seat: int, amount: int) -> State:
        """Money from ``seat`` to the Bank (negative: from the Bank)."""
        return self.with_player(seat, cash=self.players[seat].cash - amount)

    def with_holding(self, space: int, **changes: Any) -> State:
        holdings = list(self.holdings)
        current = holdings[space]
        assert current is not None, f"space {space} is no property"
        holdings[space] = replace(current, **changes)
        return replace(self, holdings=tuple(holdings))

    def log(
        self,
        kind: EventKind,
        text: str,
        player: int | None = None,
        amount: int = 0,
        space: int | None = None,
    ) -> State:
        who = self.name(player) if player is not None else None
        return replace(self, events=(*self.events, Event(kind, text, who, amount, space)))

    # --- the board as it stands ---------------------------------------------------------------
    def holding(self, space: int) -> Holding:
        h = self.holdings[space]
        if h is None:
            raise MalformedAction(f"space {space} ({self.space_name(space)}) is no property")
        return h

    def space_name(self, space: int) -> str:
        spaces = self.edition.board.spaces
        if not 0 <= space < len(spaces):
            raise MalformedAction(
                f"there is no space {space}: spaces are 0 (GO) to {len(spaces) - 1}"
            )
        return spaces[space].name

    def owned_by(self, seat: int) -> tuple[int, ...]:
        return tuple(i for i, h in enumerate(self.holdings) if h is not None and h.owner == seat)

    def hideouts_left(self) -> int:
        return self.board.bank.hideouts - sum(h.hideouts for h in self.holdings if h)

    def compounds_left(self) -> int:
        return self.board.bank.compounds - sum(h.compound for h in self.holdings if h)

    @property
    def hideouts_per_compound(self) -> int:
        bank = self.board.bank
        return (
            bank.speed_hideouts_per_compound
            if self.rules.speed_play
            else bank.hideouts_per_compound
        )

    def level(self, space: int) -> int:
        """Buildings on a location counted evenly: Hideouts, or one more for a Compound."""
        h = self.holding(space)
        return self.hideouts_per_compound + 1 if h.compound else h.hideouts

    def next_building(self, space: int) -> str | None:
        """What building a location takes next: a Hideout, the Compound once it has its full
        count of Hideouts, or nothing more."""
        h = self.holding(space)
        if h.compound:
            return None
        return HIDEOUT if h.hideouts < self.hideouts_per_compound else COMPOUND

    def add_building(self, space: int) -> State:
        """The next building on a location; a Compound sends its Hideouts back to the Bank."""
        if self.next_building(space) == HIDEOUT:
            return self.with_holding(space, hideouts=self.holding(space).hideouts + 1)
        return self.with_holding(space, hideouts=0, compound=True)

    def owns_set(self, seat: int, space: int) -> bool:
        """Whether ``seat`` owns every property of ``space``'s colour group."""
        return all(self.holding(i).owner == seat for i in self.board.set_of(space))

    def count_owned(self, seat: int, kind: Kind) -> int:
        """How many Vehicles (or Cops & Politicians) ``seat`` owns, for their rent."""
        return sum(
            1
            for i in self.board.of_kind(kind)
            if self.holding(i).owner == seat
            and (self.rules.mortgaged_count or not self.holding(i).mortgaged)
        )

    def jail_cards_held(self) -> set[str]:
        return {c for p in self.players for c in p.jail_cards}
