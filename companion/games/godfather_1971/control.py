"""CONTROL: the one-turn check.

"A player wins the FIGHT FOR CONTROL when his pieces occupy or control a majority (over 1/2)
of the positions in a Neighborhood, and his majority control cannot be reduced by any of his
opponents in their first move following his achievement." An opponent's move in one
neighborhood is at most three pieces ("no more than three men in any one Neighborhood in a
single turn"), put down at once or in several placements, each of which may take pieces and
so open positions for the next.

:func:`check` searches every such turn of every opponent and returns the first one that
breaks the majority (its placements and what they take: the picture the table screen draws),
or None when the majority stands against all of them.

What it does not consider, on purpose: the opponents' cash and held cards (the check is about
what the rules allow on the board, and a held card is a secret), and a Fingerman card, which
removes pieces without placing any.

Why the search may look only at a few positions (``exhaustive=False``): a holder's count falls
only when pieces of theirs are taken (their enclosed positions stay enclosed while every piece
round them stands, and no opponent may enter one without taking), or, under the ``fenced``
house rule, when an opponent steps into a fenced area. A group can be taken by one opponent
only if every piece touching it is that opponent's and it has at most three empty neighbours;
taking another player's pieces never opens such a group (a piece touching the holder's group
can never be taken by the opponent alone). So the placements that matter are made on those
groups' empty neighbours and inside fenced areas. ``exhaustive=True`` tries every empty
position instead; the tests check the two agree on thousands of positions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

from companion.games.godfather_1971.fight import (
    Forbidden,
    Pieces,
    controlled,
    fenced,
    holds,
    majority,
    occupied,
    place,
)
from companion.games.godfather_1971.layout import Layout, bits, popcount

TURN_PIECES = 3  # "no more than three men in any one Neighborhood in a single turn"


@dataclass(frozen=True, slots=True)
class Breach:
    """An opponent's turn that breaks a majority: the placements in order (masks), the
    holder's pieces it takes and the opponent's pieces fencing them, and the count after."""

    by: int
    moves: tuple[int, ...]
    taken: int
    fence: int
    entered: int  # positions the holder controlled that the opponent now occupies
    before: int
    after: int

    @property
    def placed(self) -> int:
        out = 0
        for m in self.moves:
            out |= m
        return out


@dataclass(frozen=True, slots=True)
class Verdict:
    """The CONTROL check of one neighborhood for the player with the most positions held."""

    holder: int
    holds: int
    size: int
    breach: Breach | None

    @property
    def majority(self) -> bool:
        return self.holds * 2 > self.size

    @property
    def controls(self) -> bool:
        return self.majority and self.breach is None


def breaks_majority(layout: Layout, before: int, rule: str) -> Callable[[int], bool]:
    """When a count after an opponent's turn breaks CONTROL: any loss (``any_reduction``, the
    default: "cannot affect this situation"), or only losing the majority."""
    if rule == "lose_majority":
        held = majority(layout, before)  # no majority, nothing to lose
        return lambda after: held and not majority(layout, after)
    return lambda after: after < before


def _candidates(
    layout: Layout, pieces: Pieces, holder: int, opponent: int, budget: int, mode: str
) -> int:
    """Empty positions where an opponent's piece can help lower the holder's count."""
    empty = layout.full & ~occupied(pieces)
    own = pieces[holder]
    theirs = pieces[opponent]
    out = 0
    seen = 0
    for i in bits(own):
        if seen >> i & 1:
            continue
        group = layout.flood(1 << i, own)
        seen |= group
        fence = layout.around(group)
        libs = fence & empty
        if fence and (fence & ~empty) & ~theirs == 0 and popcount(libs) <= budget:
            out |= libs
    if mode == "fenced":
        out |= fenced(layout, pieces, holder)
    return out


def _search(
    layout: Layout,
    pieces: Pieces,
    holder: int,
    opponent: int,
    budget: int,
    mode: str,
    broken: Callable[[int], bool],
    exhaustive: bool,
) -> tuple[tuple[int, Pieces], ...] | None:
    if exhaustive:
        cands = layout.full & ~occupied(pieces)
    else:
        cands = _candidates(layout, pieces, holder, opponent, budget, mode)
    spots = [1 << i for i in bits(cands)]
    for k in range(1, min(budget, len(spots)) + 1):
        for combo in combinations(spots, k):
            move = sum(combo)
            out = place(layout, pieces, opponent, move)
            if isinstance(out, Forbidden):
                continue
            if broken(holds(layout, out.pieces, holder, mode)):
                return ((move, out.pieces),)
            if out.taken and budget > k:
                deeper = _search(
                    layout, out.pieces, holder, opponent, budget - k, mode, broken, exhaustive
                )
                if deeper is not None:
                    return ((move, out.pieces), *deeper)
    return None


def breach_by(
    layout: Layout,
    pieces: Pieces,
    holder: int,
    opponent: int,
    mode: str = "enclosed",
    rule: str = "any_reduction",
    budget: int = TURN_PIECES,
    exhaustive: bool = False,
) -> Breach | None:
    """One opponent's turn (up to ``budget`` pieces here) that breaks the holder's count."""
    before = holds(layout, pieces, holder, mode)
    found = _search(
        layout,
        pieces,
        holder,
        opponent,
        budget,
        mode,
        breaks_majority(layout, before, rule),
        exhaustive,
    )
    if found is None:
        return None
    final = found[-1][1]
    taken = pieces[holder] & ~final[holder]
    fence = layout.around(taken) & final[opponent] if taken else 0
    entered = controlled(layout, pieces, holder, mode) & final[opponent]
    return Breach(
        opponent,
        tuple(m for m, _ in found),
        taken,
        fence,
        entered,
        before,
        holds(layout, final, holder, mode),
    )


def leader(layout: Layout, pieces: Pieces, mode: str) -> tuple[int, int]:
    """(seat, count) of the player holding the most positions (the first in seat order on a
    tie; only one player can hold a majority)."""
    counts = [holds(layout, pieces, s, mode) for s in range(len(pieces))]
    best = max(range(len(pieces)), key=lambda s: (counts[s], -s))
    return best, counts[best]


def check(
    layout: Layout,
    pieces: Pieces,
    holder: int,
    mode: str = "enclosed",
    rule: str = "any_reduction",
    exhaustive: bool = False,
) -> Verdict:
    """The CONTROL check for ``holder``: their count, and the first opponent's turn (from the
    holder's left) that breaks it, if there is one. Only a majority is searched."""
    count = holds(layout, pieces, holder, mode)
    verdict = Verdict(holder, count, layout.size, None)
    if not verdict.majority:
        return verdict
    n = len(pieces)
    for step in range(1, n):
        opponent = (holder + step) % n
        breach = breach_by(layout, pieces, holder, opponent, mode, rule, exhaustive=exhaustive)
        if breach is not None:
            return Verdict(holder, count, layout.size, breach)
    return verdict
