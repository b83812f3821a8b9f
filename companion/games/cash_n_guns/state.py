"""The state of a game: frozen, compared by value, replaced (never changed) by each action.

What is secret lives in plainly named fields and the view module decides who sees it: a
player's hand (``bangs``, ``clicks``), the card in front of them (``loaded``), their courage
choice until all are in, face-down discards, and (by default) the Loot they keep face-down.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from enum import StrEnum

from companion.games.cash_n_guns.actions import AimedBy, Bullet, Courage
from companion.games.cash_n_guns.box import Box
from companion.games.cash_n_guns.rules import HouseRules
from companion.protocol.errors import MalformedAction


class Phase(StrEnum):
    """The manual's seven steps, as the companion waits on them."""

    LOOT = "loot"  # 1. the Godfather flips the Loot cards
    BULLETS = "bullets"  # 2. everyone puts a Bullet card face-down
    HOLD_UP = "hold_up"  # 3. who aims at whom; then the Godfather's privilege (4.)
    CHANGE_TARGET = "change_target"  # 4. the player the Godfather ordered aims elsewhere
    COURAGE = "courage"  # 5. lie down or Banzai; the card effects (6.) follow at once
    SHARING = "sharing"  # 7. the loot is shared
    OVER = "over"


class Outcome(StrEnum):
    """What became of a Bullet card in 6. Card effects."""

    FIRED = "fired"  # revealed: a Click does nothing, a Bang! wounds the target
    LAY_DOWN = "lay_down"  # its holder lay down: discarded face-down
    TARGET_DOWN = "target_down"  # its target lay down ("You don't shoot cowards!")
    NO_TARGET = "no_target"  # its holder was too slow and held nobody up


@dataclass(frozen=True, slots=True)
class Gun:
    """Where a player's foam gun points (public: everyone sees the guns)."""

    target: int | None  # a seat, or None: too slow, nobody held up
    by: AimedBy
    confirmed: bool  # told by its holder, or confirmed on their phone


@dataclass(frozen=True, slots=True)
class Shot:
    """One living player's part in 5. and 6.: whether they stood, where their gun pointed,
    and what became of their card (public: the table saw it all)."""

    shooter: int
    stood: bool  # stood and shouted Banzai (rather than lie down)
    target: int | None
    outcome: Outcome
    card: Bullet | None  # only when the card was revealed (FIRED)


@dataclass(frozen=True, slots=True)
class Discarded:
    """A Bullet card in the discard pile; a face-down one's kind is its owner's secret."""

    owner: int
    card: Bullet
    face_up: bool


@dataclass(frozen=True, slots=True)
class Gangster:
    """One player. ``bangs``/``clicks`` (the hand), ``loaded`` and ``courage`` (until everyone
    has chosen) are secret; ``loot`` is kept face-down unless the table plays it face-up."""

    name: str
    colour: str | None
    bangs: int
    clicks: int
    loaded: Bullet | None = None
    gun: Gun | None = None
    courage: Courage | None = None
    wounds: int = 0
    dead: bool = False
    down: bool = False  # laid down or freshly wounded: no share this turn (after 6.)
    loot: tuple[str, ...] = ()  # Loot card ids kept

    @property
    def hand(self) -> int:
        """How many Bullet cards the player holds (public: everyone sees a hand's size)."""
        return self.bangs + self.clicks

    def holds(self, card: Bullet) -> int:
        return self.bangs if card is Bullet.BANG else self.clicks


@dataclass(frozen=True, slots=True)
class State:
    box: Box
    rules: HouseRules
    players: tuple[Gangster, ...]  # in seat order: clockwise
    godfather: int
    deck: tuple[int, ...]  # Loot cards left in the deck, per kind in box.loot order
    turn: int = 1
    phase: Phase = Phase.LOOT
    flipped: int = 0  # Loot cards flipped this turn
    table: tuple[str, ...] = ()  # the Loot on offer, face-up
    token: int | None = None  # who flipped the New Godfather token this turn
    order: tuple[int, int] | None = None  # the Godfather's order: (player, target they had)
    sharer: int | None = None  # whose share of the loot it is
    clip: int | None = None  # who must discard a Bullet card after taking a Clip
    shots: tuple[Shot, ...] = ()  # the last card effects (of turn ``shots_turn``)
    shots_turn: int = 0
    discard: tuple[Discarded, ...] = ()  # the Bullet cards' discard pile
    spent: tuple[str, ...] = ()  # Loot gone from play: kits and clips used, unshared loot
    last_alive: bool = False  # the game ended because one player (or none) was left alive
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

    def with_player(self, seat: int, player: Gangster) -> State:
        """This state with ``player`` in ``seat``'s place (``replace(p, ...)`` of the one
        there: its fields are then checked by the type checker)."""
        players = list(self.players)
        players[seat] = player
        return replace(self, players=tuple(players))

    def clockwise(self, start: int) -> Iterator[int]:
        """Every seat once, from ``start`` going clockwise."""
        n = len(self.players)
        return ((start + k) % n for k in range(n))

    @property
    def alive(self) -> list[int]:
        return [i for i, p in enumerate(self.players) if not p.dead]

    @property
    def standing(self) -> list[int]:
        """Who shares the loot: alive, neither laid down nor freshly wounded."""
        return [i for i, p in enumerate(self.players) if not p.dead and not p.down]

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER
