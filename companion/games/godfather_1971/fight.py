"""Fighting for Control: surrounding, taking, and what a player holds in a neighborhood.

The rulebook's words and how they are read here (docs/godfather-1971.md has the pictures):

- "A Player eliminates an opponent's positioned pieces by surrounding them with his own men
  ... or enclose them against the border." and "the line of surrounding pieces must be
  continuous [straight or diagonal] and contiguous [immediately adjacent, touching the
  surrounded pieces]". A *group* is a player's pieces joined by straight steps; it is taken
  when every straight neighbour it has is a piece of one other player: no empty position
  touches it, and the border counts as fence. The fence itself may run on diagonals: four
  pieces round one in a diamond surround it. (A fence that runs diagonally cuts a line of
  pieces that only touch at corners, which is why groups join by straight steps only.)
- "2 opponents may not together surround a Player's pieces. Surrounding pieces must be of the
  same color": a group touching two other players' pieces is never taken.
- "One Player may surround 2 (or 3) separate opponents' pieces with his own": every group a
  placement fences in is taken at once, whoever owns it.
- "No piece may be positioned in such a way that it will immediately be taken, unless such
  positioning is itself part of a taking move": a placement's captures are made first; then
  any group of the mover's still fenced in by one opponent makes the placement illegal.

A placement is the pieces a player puts down in one neighborhood at one time (one to three);
they land together, so three pieces that surround a piece take it even when the first of them
alone would stand in an enclosure.

What a player *holds* (occupies or controls) is their pieces and the empty positions they have
fenced in (:func:`enclosed`, or the ``fenced`` house rule's :func:`fenced`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from companion.games.godfather_1971.layout import Layout, bits, popcount

Pieces = tuple[int, ...]  # one mask per seat


@dataclass(frozen=True, slots=True)
class Taken:
    """Pieces taken by a placement: whose, which, and the mover's pieces that fence them."""

    owner: int
    group: int
    fence: int


@dataclass(frozen=True, slots=True)
class Placed:
    """A legal placement's outcome."""

    pieces: Pieces
    taken: tuple[Taken, ...]

    @property
    def took(self) -> int:
        """Every position emptied by the placement."""
        out = 0
        for t in self.taken:
            out |= t.group
        return out


@dataclass(frozen=True, slots=True)
class Forbidden:
    """A placement the no-suicide rule forbids: the mover's group that would be taken at once,
    and the opponent whose pieces (``fence``) would surround it."""

    group: int
    by: int
    fence: int


def occupied(pieces: Pieces) -> int:
    out = 0
    for m in pieces:
        out |= m
    return out


def surrounded_by(layout: Layout, pieces: Pieces, group: int) -> tuple[int, int] | None:
    """(the player, the fence) when ``group`` is fenced in by one other player's pieces."""
    fence = layout.around(group)
    if not fence:
        return None  # a group that fills its part of the neighborhood touches no one
    for seat, mask in enumerate(pieces):
        if fence & mask:
            return (seat, fence) if fence & ~mask == 0 else None
    return None  # an empty position touches it


def place(layout: Layout, pieces: Pieces, mover: int, move: int) -> Placed | Forbidden:
    """Put ``move`` (a mask of empty positions) down for ``mover``: the captures it makes, or
    why it is forbidden. The caller checks the positions are empty and on the board."""
    after = list(pieces)
    mine = after[mover] | move
    after[mover] = mine
    touched = layout.around(move) & ~mine
    taken: list[Taken] = []
    for seat, mask in enumerate(after):
        if seat == mover:
            continue
        seeds = mask & touched
        while seeds:
            group = layout.flood(seeds & -seeds, mask)
            seeds &= ~group
            fence = layout.around(group)
            if fence and fence & ~mine == 0:
                taken.append(Taken(seat, group, fence))
                mask &= ~group
        after[seat] = mask
    final = tuple(after)
    seeds = move
    while seeds:
        group = layout.flood(seeds & -seeds, mine)
        seeds &= ~group
        fenced_in = surrounded_by(layout, final, group)
        if fenced_in is not None:
            return Forbidden(group, fenced_in[0], fenced_in[1])
    return Placed(final, tuple(taken))


def groups(layout: Layout, mask: int) -> list[int]:
    """The groups (joined by straight steps) of a set of pieces."""
    out = []
    while mask:
        group = layout.flood(mask & -mask, mask)
        out.append(group)
        mask &= ~group
    return out


@lru_cache(maxsize=16384)  # pure; the views ask again and again of the same position
def enclosed(layout: Layout, pieces: Pieces, seat: int) -> int:
    """Empty positions ``seat`` encloses: every straight neighbour is one of their pieces, so
    an opponent's piece put there alone would be taken at once ("He controls a position by
    encircling it, i.e., fencing it off with adjacent occupied positions")."""
    own = pieces[seat]
    empty = layout.full & ~occupied(pieces)
    out = 0
    straight = layout.straight
    for i in bits(empty):
        s = straight[i]
        if s and s & ~own == 0:
            out |= 1 << i
    return out


@lru_cache(maxsize=4096)
def fenced(layout: Layout, pieces: Pieces, seat: int) -> int:
    """The ``fenced`` house rule: every empty area fenced in by ``seat``'s pieces alone (and
    the border), however large, as long as it is the smaller side of the fence (fewer than
    half the neighborhood's positions)."""
    own = pieces[seat]
    empty = layout.full & ~occupied(pieces)
    out = 0
    for area in groups(layout, empty):
        fence = layout.around(area)
        if fence and fence & ~own == 0 and popcount(area) * 2 < layout.size:
            out |= area
    return out


def controlled(layout: Layout, pieces: Pieces, seat: int, mode: str) -> int:
    """The empty positions ``seat`` controls under the ``controlled_positions`` house rule."""
    return fenced(layout, pieces, seat) if mode == "fenced" else enclosed(layout, pieces, seat)


def holds(layout: Layout, pieces: Pieces, seat: int, mode: str) -> int:
    """How many positions ``seat`` occupies or controls."""
    return popcount(pieces[seat]) + popcount(controlled(layout, pieces, seat, mode))


def majority(layout: Layout, count: int) -> bool:
    """ "a majority (over 1/2) of the positions in a Neighborhood"."""
    return count * 2 > layout.size
