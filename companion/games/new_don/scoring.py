"""Scoring (Scoring, House, and the "Keep your friends close" variant).

Pure functions of counts, so the same code scores a tracked game (:func:`score`) and a final
position typed in by hand (:func:`score_position`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.new_don.board import Board
from companion.games.new_don.rules import HouseRules
from companion.games.new_don.state import State

HOUSE_POINTS = (3, 2, 1)


@dataclass(frozen=True, slots=True)
class Placing:
    """One scored category: each player's count and the points it earned."""

    name: str
    counts: dict[str, int]
    points: dict[str, int]


@dataclass(frozen=True, slots=True)
class Scores:
    districts: tuple[Placing, ...]
    house: Placing
    totals: dict[str, int]
    winners: tuple[str, ...]  # more than one only if the Muscle track cannot break the tie
    tie_break: str | None  # how a tie on points was broken, if there was one

    def to_dict(self) -> dict[str, Any]:
        return {
            "totals": self.totals,
            "winners": list(self.winners),
            "tie_break": self.tie_break,
            "districts": [
                {"district": d.name, "neighborhoods": d.counts, "points": d.points}
                for d in self.districts
            ],
            "house": {"soldiers": self.house.counts, "points": self.house.points},
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Scores:
        """A score as :meth:`to_dict` wrote it (the terminal's table is drawn from it)."""
        return cls(
            tuple(
                Placing(d["district"], d["neighborhoods"], d["points"]) for d in data["districts"]
            ),
            Placing("House", data["house"]["soldiers"], data["house"]["points"]),
            data["totals"],
            tuple(data["winners"]),
            data["tie_break"],
        )


def place_points(
    counts: Mapping[str, int], points: Sequence[int], rules: HouseRules, friends_close: bool
) -> dict[str, int]:
    """Points for 1st, 2nd, 3rd... by count, with the rulebook's tie rule.

    Standard: tied players score the next lower place and push everyone after them down
    ("Vincent 7, Maria and Claire 2 each, Johnny nothing"). With three or more tied, the
    ``tie_block`` house rule says how far down. ``friends_close``: the variant, where all
    players tied for most score first place, all tied for second most score second place, and
    so on. A count of zero never scores.
    """
    result = {name: 0 for name in counts}
    levels = sorted({c for c in counts.values() if c > 0}, reverse=True)
    place = 0
    for rank, level in enumerate(levels):
        tied = [n for n, c in counts.items() if c == level]
        if friends_close:
            index, step = rank, 1
        elif len(tied) == 1:
            index, step = place, 1
        elif rules.tie_block == "next_place":
            index, step = place + 1, 2
        else:
            index, step = place + len(tied) - 1, len(tied)
        for n in tied:
            result[n] = points[index] if index < len(points) else 0
        place += step
    return result


def score_position(
    board: Board,
    names: Sequence[str],
    district_counts: Mapping[int, Mapping[str, int]],
    house: Mapping[str, int],
    muscle_order: Sequence[str],
    rules: HouseRules,
) -> Scores:
    """Score a final position: neighborhoods held per district, soldiers left in each House,
    and the Muscle track from highest to lowest (players not listed are in the Zero Zone)."""
    # The variant is worded for districts ("When scoring for each district"); the House
    # follows it only by the house rule friends_close_house.
    variant = rules.scoring == "friends_close"
    districts = []
    for d in board.districts:
        counts = {n: int(district_counts.get(d.face, {}).get(n, 0)) for n in names}
        districts.append(Placing(d.name, counts, place_points(counts, d.points, rules, variant)))
    house_counts = {n: int(house.get(n, 0)) for n in names}
    house_points = place_points(
        house_counts, HOUSE_POINTS, rules, variant and rules.friends_close_house
    )
    house_place = Placing("House", house_counts, house_points)
    totals = {n: sum(d.points[n] for d in districts) + house_place.points[n] for n in names}
    best = max(totals.values())
    leaders = [n for n in names if totals[n] == best]
    tie_break = None
    if len(leaders) > 1:
        ranked = [n for n in muscle_order if n in leaders]
        if ranked:
            tie_break = (
                f"{', '.join(leaders)} tied on {best} points; {ranked[0]} is highest on the "
                "Muscle track"
            )
            leaders = [ranked[0]]
        else:
            tie_break = f"{', '.join(leaders)} tied on {best} points, all in the Zero Zone"
    return Scores(tuple(districts), house_place, totals, tuple(leaders), tie_break)


def score(state: State) -> Scores:
    """The score of a game as it stands (final when the game is over)."""
    names = [p.name for p in state.players]
    counts: dict[int, dict[str, int]] = {}
    for n, holder in zip(state.board.neighborhoods, state.neighborhoods, strict=True):
        if holder is not None:
            by = counts.setdefault(n.district, {})
            by[names[holder]] = by.get(names[holder], 0) + 1
    track = state.board.muscle_track
    order = sorted(
        (i for i, p in enumerate(state.players) if p.muscle != track.ZERO_ZONE),
        key=lambda i: -state.players[i].muscle,
    )
    return score_position(
        state.board,
        names,
        counts,
        {p.name: p.house for p in state.players},
        [names[i] for i in order],
        state.rules,
    )
