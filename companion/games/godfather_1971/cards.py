"""The cards (rulebook: The Cards): what each says, written as a short code.

The same code names a card in the deck files, in a record, and on the button a player taps to
say which physical card they drew: ``money-5``, ``bookie-2`` (a racket figure card),
``breaks``, ``fingerman``; Good Breaks ``collect-500`` or ``hijacker-2``; Bad Breaks
``pay-400``, ``lose-bookie-1`` or both, ``pay-300+lose-bookie-1``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from companion.games.godfather_1971.rackets import Racket, parse_racket


class Deck(StrEnum):
    PLAYING = "playing"  # backed by a machine gun
    GOOD = "good"  # GOOD BREAK cards
    BAD = "bad"  # BAD BREAK cards

    @property
    def phrase(self) -> str:  # not ``title``: a deck is a ``str``, whose method that is
        return {
            "playing": "the playing deck",
            "good": "the Good Break deck",
            "bad": "the Bad Break deck",
        }[self.value]


def break_deck(roll: tuple[int, ...]) -> Deck:
    """Breaks of the Game: "if he rolls an even number, he draws a card from the GOOD BREAK
    pack; if odd, from the BAD BREAK pack"."""
    return Deck.GOOD if sum(roll) % 2 == 0 else Deck.BAD


class Kind(StrEnum):
    MONEY = "money"  # playing deck: $100 x the number
    RACKET = "racket"  # playing deck: racket figure card, free pieces placed at once
    BREAKS = "breaks"  # playing deck: roll the dice, even Good Break, odd Bad Break
    FINGERMAN = "fingerman"  # playing deck: remove any three opponents' pieces
    GOOD = "good"  # a Good Break: money and/or free pieces
    BAD = "bad"  # a Bad Break: a penalty in money and/or pieces


@dataclass(frozen=True, slots=True)
class Card:
    code: str
    deck: Deck
    kind: Kind
    money: int = 0  # dollars received (money card, Good Break) or owed (Bad Break)
    racket: Racket | None = None
    pieces: int = 0  # pieces received (racket figure, Good Break) or lost (Bad Break)

    @property
    def figures(self) -> str:
        """The pieces the card gives or takes, "2 Bookies" (empty if none)."""
        return self.racket.counted(self.pieces) if self.racket is not None else ""

    @property
    def label(self) -> str:
        """The card in words, as a button or the narration says it."""
        if self.kind is Kind.MONEY:
            return f"Money ${self.money:,}"
        if self.kind is Kind.RACKET:
            return f"Racket figure: {self.figures}"
        if self.kind is Kind.BREAKS:
            return "Breaks of the Game"
        if self.kind is Kind.FINGERMAN:
            return "Fingerman"
        parts = []
        if self.kind is Kind.GOOD:
            if self.money:
                parts.append(f"collect ${self.money:,}")
            if self.pieces:
                parts.append(f"take {self.figures}")
            return "Good Break: " + " and ".join(parts)
        if self.money:
            parts.append(f"pay ${self.money:,}")
        if self.pieces:
            parts.append(f"lose {self.figures}")
        return "Bad Break: " + " and ".join(parts)


class CardError(ValueError):
    """A card code that names no card of that deck; the message says what would."""


_FIGURE = re.compile(r"^([a-z-]+)-(\d+)$")
_AMOUNT = re.compile(r"^(collect|pay)-(\d+)$")
_LOSE = re.compile(r"^lose-([a-z-]+)-(\d+)$")
MAX_PIECES = 9
_EXAMPLES = {
    Deck.PLAYING: "money-5, bookie-2, breaks or fingerman",
    Deck.GOOD: "collect-500 or hijacker-2",
    Deck.BAD: "pay-400, lose-bookie-1 or pay-300+lose-bookie-1",
}


def _pieces(racket_text: str, count_text: str, code: str) -> tuple[Racket, int]:
    racket = parse_racket(racket_text)
    if racket is None:
        raise CardError(
            f"{code!r}: {racket_text!r} is no racket; rackets are "
            + ", ".join(r.value for r in Racket)
        )
    count = int(count_text)
    if not 1 <= count <= MAX_PIECES:
        raise CardError(f"{code!r}: a card gives or takes 1 to {MAX_PIECES} pieces")
    return racket, count


def parse_card(code: object, deck: Deck) -> Card:
    """The card ``code`` names in ``deck``; :class:`CardError` if it names none."""
    if not isinstance(code, str) or not code:
        raise CardError(f"a card is a code such as {_EXAMPLES[deck]}")
    if deck is Deck.PLAYING:
        if code in ("breaks", "fingerman"):
            return Card(code, deck, Kind(code))
        if code.startswith("money-") and code[6:].isdigit():
            n = int(code[6:])
            if not 1 <= n <= 9:
                raise CardError(f"{code!r}: money cards are numbered 1 to 9 (The Cards)")
            return Card(code, deck, Kind.MONEY, money=100 * n)
        m = _FIGURE.match(code)
        if m:
            given, count = _pieces(m.group(1), m.group(2), code)
            return Card(code, deck, Kind.RACKET, racket=given, pieces=count)
        raise CardError(f"{code!r} is no card of the playing deck; write {_EXAMPLES[deck]}")
    money = 0
    racket: Racket | None = None
    pieces = 0
    for part in code.split("+"):
        amount = _AMOUNT.match(part)
        lose = _LOSE.match(part)
        figure = _FIGURE.match(part)
        if amount and (amount.group(1) == "collect") == (deck is Deck.GOOD) and not money:
            money = int(amount.group(2))
            if money <= 0 or money % 10:
                raise CardError(
                    f"{code!r}: an amount is a positive number of dollars, "
                    "a multiple of 10 (the bank has no coins)"
                )
        elif deck is Deck.BAD and lose and racket is None:
            racket, pieces = _pieces(lose.group(1), lose.group(2), code)
        elif (
            deck is Deck.GOOD
            and figure
            and not part.startswith(("collect-", "pay-"))
            and racket is None
        ):
            racket, pieces = _pieces(figure.group(1), figure.group(2), code)
        else:
            raise CardError(f"{code!r} is no card of {deck.phrase}; write {_EXAMPLES[deck]}")
    return Card(code, deck, Kind.GOOD if deck is Deck.GOOD else Kind.BAD, money, racket, pieces)
