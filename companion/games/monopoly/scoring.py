"""Scores: the last player standing wins (How Do I Win?); Speed Play's winner is the richest
when the first player goes bankrupt (Speed Play Rules: End of Game).

Every player's fortune is counted the Speed Play way, for both games: cash; properties at the
price printed on the board, mortgaged ones at half; Hideouts at their price; Compounds at their
price plus the Hideouts turned in for them. The same pure functions score a tracked game
(:func:`score`) and a final position typed in by hand (:mod:`.position`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.monopoly.board import Board
from companion.games.monopoly.state import Holding, State


@dataclass(frozen=True, slots=True)
class Fortune:
    """One player's fortune, counted as Speed Play's end does."""

    cash: int = 0
    properties: int = 0  # unmortgaged, at the printed price
    mortgaged: int = 0  # at half the printed price
    buildings: int = 0  # Hideouts and Compounds at their purchase value

    @property
    def total(self) -> int:
        return self.cash + self.properties + self.mortgaged + self.buildings

    def to_dict(self) -> dict[str, int]:
        return {
            "cash": self.cash,
            "properties": self.properties,
            "mortgaged": self.mortgaged,
            "buildings": self.buildings,
            "total": self.total,
        }


def fortune(
    board: Board, cash: int, holdings: dict[int, Holding], hideouts_per_compound: int
) -> Fortune:
    """A fortune from cash and the holdings on each space."""
    props = mortgaged = buildings = 0
    for space, h in holdings.items():
        s = board.spaces[space]
        if h.mortgaged:
            mortgaged += s.price // 2
        else:
            props += s.price
        buildings += s.building_cost * (h.hideouts + h.compound * (1 + hideouts_per_compound))
    return Fortune(cash, props, mortgaged, buildings)


def fortune_of(state: State, seat: int) -> Fortune:
    if state.players[seat].bankrupt:
        return Fortune()
    holdings = {i: state.holding(i) for i in state.owned_by(seat)}
    return fortune(state.board, state.players[seat].cash, holdings, state.hideouts_per_compound)


def ranking(fortunes: dict[str, Fortune], out_order: list[str], last: str | None) -> dict[str, int]:
    """Places: the last player standing first, then the others still in by fortune (equal
    fortunes share a place), then the bankrupt, the latest to go first."""
    standing = sorted(
        (n for n in fortunes if n not in out_order), key=lambda n: (n != last, -fortunes[n].total)
    )
    places: dict[str, int] = {}
    for i, name in enumerate(standing):
        prev = standing[i - 1] if i else None
        shared = (
            prev is not None
            and last not in (prev, name)
            and fortunes[prev].total == fortunes[name].total
        )
        places[name] = places[prev] if shared and prev is not None else i + 1
    for k, name in enumerate(reversed(out_order)):
        places[name] = len(standing) + k + 1
    return places


def scores(
    fortunes: dict[str, Fortune],
    out_order: list[str],
    speed_play: bool,
    over: bool,
    end: str | None = None,
) -> dict[str, Any]:
    """The score as JSON: ``totals`` are fortunes; ``winners`` the last player standing, or
    (Speed Play, or a game stopped early) the richest still in."""
    standing = [n for n in fortunes if n not in out_order]
    last = standing[0] if len(standing) == 1 else None
    if last is not None:
        winners = [last]
    else:
        best = max((fortunes[n].total for n in standing), default=0)
        winners = [n for n in standing if fortunes[n].total == best]
    return {
        "totals": {n: f.total for n, f in fortunes.items()},
        "winners": winners,
        "fortunes": {n: f.to_dict() for n, f in fortunes.items()},
        "places": ranking(fortunes, out_order, last),
        "bankrupt": out_order,
        "speed_play": speed_play,
        "over": over,
        "end": end,
    }


def score(state: State) -> dict[str, Any]:
    fortunes = {p.name: fortune_of(state, i) for i, p in enumerate(state.players)}
    return scores(
        fortunes,
        [state.name(s) for s in state.out_order],
        state.rules.speed_play,
        state.is_over,
        state.end,
    )
