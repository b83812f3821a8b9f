"""A neighborhood's positions and which touch which: the geometry every ruling stands on.

Positions are the printed circles of one neighborhood, named like a chess board: a row letter
from the top and a column number from the left ("C4"). Two positions are *straight*
neighbours when they sit side by side in a row or a column, *diagonal* neighbours when they
touch corner to corner. The border of a neighborhood is simply where positions stop.

Sets of positions are bit masks (bit ``i`` is ``names[i]``), so the fight rules, which flood
and fence sets again and again, stay fast enough to search every reply in a CONTROL check.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

ROWS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def bits(mask: int) -> Iterator[int]:
    """The indexes of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def popcount(mask: int) -> int:
    return mask.bit_count()


@dataclass(frozen=True, slots=True)
class Layout:
    """One neighborhood as printed: its positions, where each sits, and its neighbours."""

    id: str
    name: str
    names: tuple[str, ...]  # reading order: row by row, left to right
    cells: tuple[tuple[int, int], ...]  # (row, column) of each position, from 0
    straight: tuple[int, ...]  # per position: the mask of its straight neighbours
    diagonal: tuple[int, ...]  # per position: the mask of its diagonal neighbours
    placeholder: bool = True  # the shape is not traced from a printed board
    key: int = 0  # a hash of the shape, computed once: rulings on a layout are memoised

    def __hash__(self) -> int:
        return self.key

    @property
    def size(self) -> int:
        return len(self.names)

    @property
    def full(self) -> int:
        return (1 << len(self.names)) - 1

    def index(self, name: str) -> int:
        try:
            return self.names.index(name)
        except ValueError:
            raise KeyError(name) from None

    def mask(self, names: Iterable[str]) -> int:
        out = 0
        for n in names:
            out |= 1 << self.index(n)
        return out

    def names_of(self, mask: int) -> list[str]:
        return [self.names[i] for i in bits(mask)]

    def dilate(self, mask: int) -> int:
        """Every position a straight step away from one in ``mask`` (``mask`` included)."""
        out = mask
        straight = self.straight
        while mask:
            low = mask & -mask
            out |= straight[low.bit_length() - 1]
            mask ^= low
        return out

    def around(self, mask: int) -> int:
        """The straight neighbours of a set, outside it: what fences it in."""
        return self.dilate(mask) & ~mask

    def flood(self, start: int, within: int) -> int:
        """The positions of ``within`` joined to ``start`` by straight steps inside it."""
        group = start & within
        frontier = group
        while frontier:
            frontier = self.dilate(frontier) & within & ~group
            group |= frontier
        return group


def grid_layout(
    lid: str,
    name: str,
    rows: list[str],
    cut: Iterable[tuple[str, str]] = (),
    join: Iterable[tuple[str, str]] = (),
    placeholder: bool = True,
) -> Layout:
    """A layout from a picture: one string per row, ``o`` a position and ``.`` none (spaces
    between them are ignored). ``cut`` parts straight neighbours the printed board separates
    (a street drawn between them); ``join`` links two positions the grid does not."""
    cells: list[tuple[int, int]] = []
    for r, row in enumerate(rows):
        for c, ch in enumerate(row.replace(" ", "")):
            if ch == "o":
                cells.append((r, c))
    names = tuple(f"{ROWS[r]}{c + 1}" for r, c in cells)
    at = {cell: i for i, cell in enumerate(cells)}
    straight = [0] * len(cells)
    diagonal = [0] * len(cells)
    for i, (r, c) in enumerate(cells):
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            j = at.get((r + dr, c + dc))
            if j is not None:
                straight[i] |= 1 << j
        for dr, dc in ((-1, -1), (-1, 1), (1, -1), (1, 1)):
            j = at.get((r + dr, c + dc))
            if j is not None:
                diagonal[i] |= 1 << j
    index = {n: i for i, n in enumerate(names)}
    for a, b in cut:
        i, j = index[a], index[b]
        straight[i] &= ~(1 << j)
        straight[j] &= ~(1 << i)
    for a, b in join:
        i, j = index[a], index[b]
        straight[i] |= 1 << j
        straight[j] |= 1 << i
    key = hash((lid, names, tuple(straight)))
    return Layout(
        lid, name, names, tuple(cells), tuple(straight), tuple(diagonal), placeholder, key
    )
