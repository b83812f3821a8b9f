"""The league: standings per game from the games their rules ended, and their plays for
BG Stats.

Ratings are OpenSkill's Plackett-Luce model (Weng and Lin's Bayesian rating for games of any
number of players, ``openskill`` on PyPI) rather than a hand-written Elo, which is made for two
players. Each finished game updates its players' ratings in the order the games ended: the
winners share first place, everyone else is placed by their points. A player's rating shown is
the model's conservative ``ordinal`` (mu - 3 sigma), so someone with one lucky game does not top
the table over someone who has won steadily. Players are known by name across tables (a club's
regulars use the same name everywhere).

Only games ended by their rules count: a game the host ended early is listed with the finished
games but does not move the league.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import quote

from openskill.models import PlackettLuce

from companion.club.store import GameRow

SOURCE_NAME = "Godfather table companion"
# BG Stats' documented way in for other apps: one play per link, a JSON object in ``data``
# (www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites).
BGSTATS_LINK = "https://app.bgstatsapp.com/createPlay.html?data="


@dataclass(frozen=True, slots=True)
class Standing:
    player: str
    plays: int
    wins: int
    points: float  # the sum of the player's final totals
    rating: float  # ordinal: mu - 3 sigma
    mu: float
    sigma: float


def places(row: GameRow) -> list[int]:
    """Each seat's place in a finished game (0 is first): the winners share first, then by
    points, equal points sharing a place."""
    scores = row.scores or {}
    winners = set(scores.get("winners", []))
    keys = [(0 if p in winners else 1, -_points(scores, p)) for p in row.players]
    order = sorted(set(keys))
    return [order.index(k) for k in keys]


def _points(scores: dict[str, Any], player: str) -> float:
    value = scores.get("totals", {}).get(player, 0)
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def standings(games: list[GameRow]) -> list[Standing]:
    """The league of one game from its finished games, in the order they ended; best first."""
    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    plays: dict[str, int] = {}
    wins: dict[str, int] = {}
    points: dict[str, float] = {}
    for row in games:
        if not row.players or row.scores is None:
            continue
        winners = set(row.scores.get("winners", []))
        teams = [[ratings.setdefault(p, model.rating(name=p))] for p in row.players]
        rated = model.rate(teams, ranks=[float(r) for r in places(row)])
        for player, [rating] in zip(row.players, rated, strict=True):
            ratings[player] = rating
            plays[player] = plays.get(player, 0) + 1
            wins[player] = wins.get(player, 0) + (player in winners)
            points[player] = points.get(player, 0.0) + _points(row.scores, player)
    table = [
        Standing(p, plays[p], wins[p], points[p], float(r.ordinal()), float(r.mu), float(r.sigma))
        for p, r in ratings.items()
    ]
    return sorted(table, key=lambda s: (-s.rating, -s.wins, s.player))


def bgstats_play(row: GameRow, game_name: str) -> dict[str, Any]:
    """One finished game as BG Stats imports a play."""
    scores = row.scores or {}
    winners = set(scores.get("winners", []))
    started = _time(row.started_at)
    ended = _time(row.ended_at) if row.ended_at else None
    play: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": f"{row.table}/{row.game_id}",
        # BG Stats reads the date as local time: the club's clock, where the table was.
        "playDate": started.astimezone().strftime("%Y-%m-%d %H:%M:%S") if started else "",
        "game": {
            "name": game_name,
            "sourceGameId": row.game,
            "highestWins": True,
            "noPoints": False,
        },
        "players": [
            {
                "name": p,
                "sourcePlayerId": p,
                "score": _points(scores, p),
                "winner": p in winners,
                "rank": place + 1,
                "role": "",
            }
            for p, place in zip(row.players, places(row), strict=True)
        ],
        "comments": f"Table {row.table}, game {row.game_id}",
    }
    if started and ended:
        play["durationMin"] = max(0, round((ended - started).total_seconds() / 60))
    return play


def bgstats_link(play: dict[str, Any]) -> str:
    """The link that opens BG Stats' import of one play."""
    return BGSTATS_LINK + quote(json.dumps(play, separators=(",", ":")), safe="")


def _time(text: str | None) -> datetime | None:
    try:
        return datetime.fromisoformat(text) if text else None
    except ValueError:
        return None
