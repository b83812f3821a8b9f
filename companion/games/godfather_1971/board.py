"""The board a game is played on: the neighborhoods in play (the whole board, or fewer for the
short game), the Racket Control Value card and the decks, assembled from the data files."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from companion.games.godfather_1971.data import (
    CARDS_FILE,
    VALUES_FILE,
    DataError,
    Decks,
    Fact,
    Neighborhood,
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


T = TypeVar("T")


def _read(text: str, check: Callable[[str], tuple[T | None, list[Problem]]], filename: str) -> T:
    found, problems = check(text)
    if found is None:
        raise DataError(filename, problems)
    return found


@lru_cache(maxsize=64)  # data files never change while a game runs: parse each text once
def _neighborhood(text: str, filename: str) -> Neighborhood:
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


def load_board(
    files: Files,
    in_play: tuple[str, ...] | int | None = None,
    traced: tuple[tuple[str, str], ...] = (),
) -> Board:
    """The board for a game: ``in_play`` names the neighborhoods (None: all eight; a number:
    that many with the fewest positions, the short game), ``traced`` swaps a shipped
    neighborhood for a user's own tracing ((id, file name) pairs)."""
    card = _values(files.shipped(VALUES_FILE))
    decks = _cards(files.shipped(CARDS_FILE))
    user = dict(traced)
    for hid in user:
        if hid not in card.order:
            raise MalformedAction(
                f"traced: {hid!r} is no neighborhood; the board has " + ", ".join(card.order)
            )
    hoods = {}
    for hid in card.order:
        name = user.get(hid)
        text = files.user(name) if name else files.shipped(neighborhood_file(hid))
        hood = _neighborhood(text, name or neighborhood_file(hid))
        if hood.layout.id != hid:
            raise DataError(
                name or neighborhood_file(hid),
                [
                    Problem(
                        None,
                        f"this file is neighborhood {hood.layout.id!r}, not {hid!r}",
                        f'id = "{hid}"',
                    )
                ],
            )
        hoods[hid] = hood
    if in_play is None:
        chosen = list(card.order)
    elif isinstance(in_play, int):
        by_size = sorted(card.order, key=lambda h: (hoods[h].layout.size, card.order.index(h)))
        chosen = sorted(by_size[:in_play], key=card.order.index)
    else:
        chosen = [h for h in card.order if h in in_play]
    facts = (*card.facts, *decks.facts, *(f for h in chosen for f in hoods[h].facts))
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
            out[VALUES_FILE].append(
                Problem(None, f"{hid} has a row but no file {name}", "add the neighborhood's file")
            )
            continue
        hood, problems = check_neighborhood(text)
        out[name] = problems
        if hood is None:
            continue
        if hood.layout.id != hid:
            problems.append(
                Problem(None, f"the file of {hid} says id = {hood.layout.id!r}", f'id = "{hid}"')
            )
        other = sizes.setdefault(hood.layout.size, hid)
        if other != hid:
            problems.append(
                Problem(
                    None,
                    f"{hid} has {hood.layout.size} positions, as many as "
                    f"{other}; the rules say each neighborhood has a different "
                    "number",
                    "check the map",
                    warning=True,
                )
            )
    return out


def check_tracing(text: str) -> tuple[str | None, list[Problem]]:
    """An owner's tracing of one neighborhood: what was read (positions drawn with their
    names, and each one's neighbours, to compare with the printed board; None if the file has
    errors) and every problem, each with its line and a fix."""
    hood, problems = check_neighborhood(text)
    return (describe(hood.layout) if hood else None), problems


def value_card(files: Files) -> ValueCard:
    """The Racket Control Value card this game ships."""
    return _values(files.shipped(VALUES_FILE))


def board_report(files: Files) -> str:
    """The shipped board for ``companion board show``: every neighborhood with its size and
    Racket Control Values, then every placeholder fact (the board, the card and the decks)."""
    board = load_board(files)
    lines = [
        f"The Godfather Game (1971): {len(board.layouts)} neighborhoods, smallest first "
        "(a short game is played on the smallest)"
    ]
    for i, layout in enumerate(sorted(board.layouts, key=lambda lay: lay.size)):
        values = " ".join(f"${board.card.value(layout.id, r):,}" for r in Racket)
        shape = " (placeholder shape)" if layout.placeholder else ""
        lines.append(
            f"  {i + 1}. {layout.id:<16} {layout.name:<16} {layout.size:>2} positions"
            f"  {values}{shape}"
        )
    lines.append("Values in the card's order: " + ", ".join(r.card_name for r in Racket))
    lines += _placeholders(board.placeholders())
    return "\n".join(lines)


def neighborhood_report(text: str, card: ValueCard) -> str:
    """One neighborhood file (shipped or traced) for ``companion board show``: its positions
    and neighbours as read, its row of the value card, and each fact with its source."""
    hood = _neighborhood(text, "the neighborhood")
    layout = hood.layout
    lines = [describe(layout)]
    if layout.id in card.order:
        lines.append(
            "Racket Control Values: "
            + ", ".join(f"{r.card_name} ${card.value(layout.id, r):,}" for r in Racket)
        )
        row = [f for f in card.facts if f.what.startswith(f"{layout.id} ")]
    else:
        lines.append(
            f"{layout.id!r} is no row of the Racket Control Value card: a game cannot "
            "use it until its id is one of " + ", ".join(card.order)
        )
        row = []
    facts = [*hood.facts, *row]
    lines.append("Sources:")
    lines += [f"  {f.what}: {f.source}" for f in facts]
    lines += _placeholders([f for f in facts if f.kind == "placeholder"])
    return "\n".join(lines)


def _placeholders(facts: list[Fact]) -> list[str]:
    if not facts:
        return ["No placeholders: every fact is from the rulebook or a tracing."]
    return [
        f"PLACEHOLDERS ({len(facts)} {'fact' if len(facts) == 1 else 'facts'} not from "
        "the rulebook or a traced board; trace "
        "your own with companion board check --game godfather-1971):",
        *(f"  {f.what}" for f in facts),
    ]
