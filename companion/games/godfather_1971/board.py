"""The board a game is played on: the neighborhoods in play (the whole board, or fewer for the
short game), the Racket Control Value card and the decks, assembled from the data files."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from companion.games.godfather_1971.data import (
    CARDS_FILE,
    VALUES_FILE,
    DataError,
    Decks,
    Fact,
    Problem,
    ValueCard,
    check_cards,
    check_neighborhood,
    check_values,
    describe,
    neighborhood_file,
)
from companion.games.godfather_1971.layout import Layout
from companion.games.godfather_1971.rackets import Racket
from companion.protocol.errors import MalformedAction
from companion.protocol.game import Files


@dataclass(frozen=True, slots=True)
class Board:
    layouts: tuple[Layout, ...]  # the neighborhoods in play, in the value card's order
    card: ValueCard
    decks: Decks
    facts: tuple[Fact, ...]

    def index(self, hood: str) -> int:
        for i, layout in enumerate(self.layouts):
            if layout.id == hood:
                return i
        raise KeyError(hood)

    def value(self, i: int, racket: Racket) -> int:
        """The Racket Control Value of ``racket`` in the ``i``-th neighborhood in play."""
        return self.card.value(self.layouts[i].id, racket)

    def placeholders(self) -> list[Fact]:
        return [f for f in self.facts if f.kind == "placeholder"]


def _read(text: str, check, filename: str):
    found, problems = check(text)
    if found is None:
        raise DataError(filename, problems)
    return found


@lru_cache(maxsize=64)  # data files never change while a game runs: parse each text once
def _neighborhood(text: str, filename: str):
    return _read(text, check_neighborhood, filename)


@lru_cache(maxsize=8)
def _values(text: str) -> ValueCard:
    return _read(text, check_values, VALUES_FILE)


@lru_cache(maxsize=8)
def _cards(text: str) -> Decks:
    return _read(text, check_cards, CARDS_FILE)


def all_neighborhoods(files: Files) -> tuple[str, ...]:
    """Every neighborhood on the board, in the value card's order."""
    return _values(files.shipped(VALUES_FILE)).order


def load_board(files: Files, in_play: tuple[str, ...] | int | None = None,
               traced: tuple[tuple[str, str], ...] = ()) -> Board:
    """The board for a game: ``in_play`` names the neighborhoods (None: all eight; a number:
    that many with the fewest positions, the short game), ``traced`` swaps a shipped
    neighborhood for a user's own tracing ((id, file name) pairs)."""
    card = _values(files.shipped(VALUES_FILE))
    decks = _cards(files.shipped(CARDS_FILE))
    user = dict(traced)
    for hid in user:
        if hid not in card.order:
            raise MalformedAction(f"traced: {hid!r} is no neighborhood; the board has "
                                  + ", ".join(card.order))
    hoods = {}
    for hid in card.order:
        name = user.get(hid)
        text = files.user(name) if name else files.shipped(neighborhood_file(hid))
        hood = _neighborhood(text, name or neighborhood_file(hid))
        if hood.layout.id != hid:
            raise DataError(name or neighborhood_file(hid), [Problem(
                None, f"this file is neighborhood {hood.layout.id!r}, not {hid!r}",
                f'id = "{hid}"')])
        hoods[hid] = hood
    if in_play is None:
        chosen = list(card.order)
    elif isinstance(in_play, int):
        by_size = sorted(card.order, key=lambda h: (hoods[h].layout.size, card.order.index(h)))
        chosen = sorted(by_size[:in_play], key=card.order.index)
    else:
        chosen = [h for h in card.order if h in in_play]
    facts = (*card.facts, *decks.facts,
             *(f for h in chosen for f in hoods[h].facts))
    return Board(tuple(hoods[h].layout for h in chosen), card, decks, facts)


def check_shipped(files: Files) -> dict[str, list[Problem]]:
    """Every problem (warnings too) of the data files this game ships, by file name, and the
    checks across them: each row of the value card has its neighborhood file, and each
    neighborhood a different number of positions ("Each Neighborhood comprises a different
    number of positions")."""
    out: dict[str, list[Problem]] = {}
    card, problems = check_values(files.shipped(VALUES_FILE))
    out[VALUES_FILE] = problems
    out[CARDS_FILE] = check_cards(files.shipped(CARDS_FILE))[1]
    sizes: dict[int, str] = {}
    for hid in card.order if card else ():
        name = neighborhood_file(hid)
        try:
            text = files.shipped(name)
        except OSError:
            out[VALUES_FILE].append(Problem(None, f"{hid} has a row but no file {name}",
                                            "add the neighborhood's file"))
            continue
        hood, problems = check_neighborhood(text)
        out[name] = problems
        if hood is None:
            continue
        if hood.layout.id != hid:
            problems.append(Problem(None, f"the file of {hid} says id = {hood.layout.id!r}",
                                    f'id = "{hid}"'))
        other = sizes.setdefault(hood.layout.size, hid)
        if other != hid:
            problems.append(Problem(None, f"{hid} has {hood.layout.size} positions, as many as "
                                    f"{other}; the rules say each neighborhood has a different "
                                    "number", "check the map", warning=True))
    return out


def check_tracing(text: str) -> tuple[str | None, list[Problem]]:
    """An owner's tracing of one neighborhood: what was read (positions drawn with their
    names, and each one's neighbours, to compare with the printed board; None if the file has
    errors) and every problem, each with its line and a fix."""
    hood, problems = check_neighborhood(text)
    return (describe(hood.layout) if hood else None), problems
