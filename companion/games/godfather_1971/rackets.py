"""The five rackets, their pieces and what a piece costs (rulebook: Value of Racket Pieces, and
the cost table under the Racket Control Value card).

A neighborhood's racket is named by its piece ("bookie"), as the Racket Indicator Circles
and the cards name them; the Racket Control Value card names the racket itself ("Bookmaking").
"""

from __future__ import annotations

from enum import StrEnum


class Racket(StrEnum):
    BOOKIE = "bookie"
    STRONGARM = "strongarm"
    BOOTLEGGER = "bootlegger"
    LOAN_SHARK = "loan-shark"
    HIJACKER = "hijacker"

    @property
    def cost(self) -> int:
        """Dollars for one piece from the bank, in every neighborhood."""
        return COST[self]

    @property
    def piece(self) -> str:
        return PIECE[self]

    @property
    def pieces(self) -> str:
        return PIECES[self]

    # Not ``title`` and ``count``: a racket is a ``str``, whose methods those are.
    @property
    def card_name(self) -> str:
        """The racket as the Racket Control Value card names it."""
        return TITLE[self]

    def counted(self, n: int) -> str:
        """ "1 Bookie", "3 Loan Sharks"."""
        return f"{n} {self.piece if n == 1 else self.pieces}"


# Rulebook, Value of Racket Pieces: "a BOOKIE costs $300, a STRONGMAN $250, a BOOTLEGGER $200,
# a LOAN SHARK $150, a HIJACKER $100" (the card under it says STRONGARM).
COST = {
    Racket.BOOKIE: 300,
    Racket.STRONGARM: 250,
    Racket.BOOTLEGGER: 200,
    Racket.LOAN_SHARK: 150,
    Racket.HIJACKER: 100,
}
PIECE = {
    Racket.BOOKIE: "Bookie",
    Racket.STRONGARM: "Strongarm",
    Racket.BOOTLEGGER: "Bootlegger",
    Racket.LOAN_SHARK: "Loan Shark",
    Racket.HIJACKER: "Hijacker",
}
PIECES = {r: p + "s" for r, p in PIECE.items()}
TITLE = {
    Racket.BOOKIE: "Bookmaking",
    Racket.STRONGARM: "Extortion",
    Racket.BOOTLEGGER: "Bootlegging",
    Racket.LOAN_SHARK: "Loan Sharking",
    Racket.HIJACKER: "Hijacking",
}


def parse_racket(value: object) -> Racket | None:
    """A racket from its id ("loan-shark"), its piece or its title, any case; None if none."""
    if not isinstance(value, str):
        return None
    key = value.strip().lower().replace("_", "-").replace(" ", "-")
    for r in Racket:
        if key in (
            r.value,
            r.piece.lower().replace(" ", "-"),
            r.pieces.lower().replace(" ", "-"),
            r.card_name.lower().replace(" ", "-"),
            "strongman",
        ):
            return r if key != "strongman" else Racket.STRONGARM
    return None
