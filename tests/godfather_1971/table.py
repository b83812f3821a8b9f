"""Positions set up in a few lines, as the rulebook draws them.

``diagram`` reads a neighborhood drawn in text, one row per line: ``+`` is PLUS's piece (seat
0), ``-`` MINUS's (seat 1), ``*`` and ``#`` a third and fourth player's, ``.`` an empty
position and ``X`` an empty position the rulebook marks; ``_`` is no position at all (the
neighborhood's border runs round it).

``game`` starts a real game through the protocol (first seat first, the table's own cards)
and ``arrange`` then puts pieces on a neighborhood the way a diagram has them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.gamefiles import GameFiles
from companion.games.godfather_1971 import GODFATHER_1971, State, apply
from companion.games.godfather_1971.layout import Layout, grid_layout
from companion.games.godfather_1971.rackets import Racket

MARKS = "+-*#"
NAMES = ("Plus", "Minus", "Star", "Hash")
FILES = GameFiles(GODFATHER_1971)


@dataclass(frozen=True)
class Diagram:
    layout: Layout
    pieces: tuple[int, ...]
    marked: int  # the X'ed positions

    def at(self, *names: str) -> int:
        return self.layout.mask(names)

    def names(self, mask: int) -> list[str]:
        return self.layout.names_of(mask)


def diagram(picture: str, players: int = 2) -> Diagram:
    rows = [r.replace(" ", "") for r in picture.strip("\n").splitlines()]
    shape = ["".join("." if ch == "_" else "o" for ch in row) for row in rows]
    layout = grid_layout("diagram", "Diagram", shape)
    pieces = [0] * players
    marked = 0
    i = 0
    for row in rows:
        for ch in row:
            if ch == "_":
                continue
            if ch in MARKS:
                pieces[MARKS.index(ch)] |= 1 << i
            elif ch == "X":
                marked |= 1 << i
            i += 1
    return Diagram(layout, tuple(pieces), marked)


def game(
    players: int = 2, neighborhoods=("park-west", "midtown"), cards: str = "physical", **options
) -> State:
    setup = {
        "type": "setup",
        "game": "godfather-1971",
        "players": list(NAMES[:players]),
        "neighborhoods": list(neighborhoods),
        "cards": cards,
        "options": {"first_player": "first_seat", **options},
    }
    return GODFATHER_1971.new_game(GODFATHER_1971.setup_from_dict(setup), FILES)


def arrange(state: State, hood: str, picture: str, racket: Racket = Racket.BOOKIE) -> State:
    """Put a diagram's pieces on ``hood`` (its positions read in the neighborhood's order)."""
    i = state.board.index(hood)
    layout = state.board.layouts[i]
    rows = [r.replace(" ", "") for r in picture.strip("\n").splitlines()]
    pieces = [0] * len(state.players)
    cells = [ch for row in rows for ch in row if ch != "_"]
    assert len(cells) == layout.size, f"{hood} has {layout.size} positions"
    for pos, ch in enumerate(cells):
        if ch in MARKS:
            pieces[MARKS.index(ch)] |= 1 << pos
    return state.with_hood(i, pieces=tuple(pieces), racket=racket)


def started(state: State) -> State:
    """Every player past their first turn, the game at the first seat's turn to place."""
    players = tuple(replace(p, started=True) for p in state.players)
    return replace(state, players=players, turn=replace(state.turn, first=False))


def play(state: State, *lines: dict) -> State:
    for line in lines:
        state = apply(state, GODFATHER_1971.action_from_dict(line))
    return state
