"""End of the Game: the diamond bonus, the paintings' collections, the richest alive.

Pure functions of what each player kept, so the same code scores a tracked game
(:func:`score`) and a final position typed in by hand (``position.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.cash_n_guns.box import Box, LootKind
from companion.games.cash_n_guns.state import State

MOST_WOUNDS = "most wounds"
SHARED = "shared"


@dataclass(frozen=True, slots=True)
class Haul:
    """What one player has at the end, before the diamond bonus."""

    bills: int = 0  # dollars
    diamonds: int = 0  # dollars
    diamond_cards: int = 0
    paintings: int = 0  # how many
    wounds: int = 0
    alive: bool = True

    @classmethod
    def of(cls, box: Box, loot: Iterable[str], wounds: int, alive: bool) -> Haul:
        bills = diamonds = diamond_cards = paintings = 0
        for card_id in loot:
            card = box.card(card_id)
            assert card is not None, card_id
            if card.kind is LootKind.BILL:
                bills += card.value
            elif card.kind is LootKind.DIAMOND:
                diamonds += card.value
                diamond_cards += 1
            elif card.kind is LootKind.PAINTING:
                paintings += 1
        return cls(bills, diamonds, diamond_cards, paintings, wounds, alive)


@dataclass(frozen=True, slots=True)
class Line:
    """One player's score, with its breakdown."""

    haul: Haul
    paintings_value: int
    diamond_bonus: int

    @property
    def total(self) -> int:
        return self.haul.bills + self.haul.diamonds + self.paintings_value + self.diamond_bonus

    def to_dict(self) -> dict[str, Any]:
        h = self.haul
        return {
            "bills": h.bills,
            "diamonds": h.diamonds,
            "diamond_cards": h.diamond_cards,
            "diamond_bonus": self.diamond_bonus,
            "paintings": h.paintings,
            "paintings_value": self.paintings_value,
            "total": self.total,
            "wounds": h.wounds,
            "alive": h.alive,
        }


@dataclass(frozen=True, slots=True)
class Scores:
    lines: dict[str, Line]
    winners: tuple[str, ...]
    tie_break: str | None  # MOST_WOUNDS or SHARED when the richest were tied
    bonus_to: str | None  # who took the diamond bonus
    end: str  # why the game ended (or that it has not)

    @property
    def totals(self) -> dict[str, int]:
        return {name: line.total for name, line in self.lines.items()}

    def to_dict(self) -> dict[str, Any]:
        return {
            "totals": self.totals,
            "winners": list(self.winners),
            "tie_break": self.tie_break,
            "diamond_bonus": self.bonus_to,
            "end": self.end,
            "players": {name: line.to_dict() for name, line in self.lines.items()},
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Scores:
        """A score as :meth:`to_dict` wrote it (the terminal's table is drawn from it)."""
        lines = {
            name: Line(
                Haul(
                    p["bills"],
                    p["diamonds"],
                    p["diamond_cards"],
                    p["paintings"],
                    p["wounds"],
                    p["alive"],
                ),
                p["paintings_value"],
                p["diamond_bonus"],
            )
            for name, p in data["players"].items()
        }
        return cls(
            lines, tuple(data["winners"]), data["tie_break"], data["diamond_bonus"], data["end"]
        )


def score_hauls(box: Box, hauls: Mapping[str, Haul], end: str, last_alive: bool = False) -> Scores:
    """Score the game's end.

    "Each player still alive counts the number of diamonds cards they own. ... The player who
    has the most takes the $60000 bonus card. In case of a tie, no one gets the bonus." Then
    "the richest player wins the game. In case of a tie, the player with the most wounds
    wins. If a tie still occurs, the players share the victory." Only the living can win; and
    "if there's only one player left alive, that player automatically wins" (``last_alive``:
    the game ended that way, whatever the money says).
    """
    alive = {n: h for n, h in hauls.items() if h.alive}
    most = max((h.diamond_cards for h in alive.values()), default=0)
    leaders = [n for n, h in alive.items() if h.diamond_cards == most]
    bonus_to = leaders[0] if most > 0 and len(leaders) == 1 else None
    lines = {
        n: Line(h, box.collection_value(h.paintings), box.diamond_bonus if n == bonus_to else 0)
        for n, h in hauls.items()
    }
    tie_break = None
    if last_alive or not alive:
        winners = tuple(alive)
    else:
        richest = max(lines[n].total for n in alive)
        winners = tuple(n for n in alive if lines[n].total == richest)
        if len(winners) > 1:
            wounds = max(alive[n].wounds for n in winners)
            winners = tuple(n for n in winners if alive[n].wounds == wounds)
            tie_break = MOST_WOUNDS if len(winners) == 1 else SHARED
    return Scores(lines, winners, tie_break, bonus_to, end)


def end_reason(state: State) -> str:
    """Why the game ended, in words (or that it goes on)."""
    if state.last_alive:
        alive = state.alive
        if alive:
            return f"{state.name(alive[0])} is the last player alive and wins at once"
        return "nobody is left alive: nobody can claim victory"
    if state.is_over:
        return f"the {_ordinal(state.box.turns)} turn is over"
    return f"not over: turn {state.turn} of {state.box.turns}"


def score(state: State) -> Scores:
    """The score of a game (an unfinished one as it stands)."""
    hauls = {p.name: Haul.of(state.box, p.loot, p.wounds, not p.dead) for p in state.players}
    return score_hauls(state.box, hauls, end_reason(state), state.last_alive)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
