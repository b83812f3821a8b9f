"""The club's public pages: every table live, finished games, the league and its export.

Every page is made from the games' public summaries (``companion.club.showing``: the table
screen's view, who the game waits for, the score once it cannot go on) and never from a log,
so no page can show a hidden die. The live pages reload themselves every few seconds (a
``<meta>`` refresh: the pages run no script at all).
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, abort, current_app, render_template

from companion.club.league import bgstats_link, bgstats_play, standings
from companion.club.store import ClubStore, GameRow
from companion.games import AnyGame, games
from companion.protocol import MalformedAction

pages = Blueprint("club_pages", __name__, template_folder="templates")


def store() -> ClubStore:
    store: ClubStore = current_app.extensions["club"]
    return store


def game_name(game_id: str) -> str:
    from companion.games import game

    try:
        rules: AnyGame = game(game_id)
    except MalformedAction:
        return game_id
    return rules.name


def render(template: str, **context: Any) -> str:
    return render_template(
        template,
        club=current_app.config["CLUB_NAME"],
        refresh=current_app.config["REFRESH"],
        game_name=game_name,
        leagues=[(g.id, g.name) for g in games()],
        **context,
    )


@pages.get("/")
def live() -> str:
    rows = store().live()
    by_table: dict[str, list[GameRow]] = {}
    for row in rows:
        by_table.setdefault(row.table, []).append(row)
    tables = store().tables()
    return render("club_live.html", tables=tables, by_table=by_table, live_page=True)


@pages.get("/tables/<table>/<game_id>")
def one_game(table: str, game_id: str) -> str:
    row = store().game_row(table, game_id)
    if row is None:
        abort(404)
    return render("club_game.html", row=row, live_page=row.can_go_on)


@pages.get("/finished")
def finished() -> str:
    return render("club_finished.html", rows=store().finished())


@pages.get("/league")
def league_index() -> str:
    return render("club_league_index.html")


@pages.get("/league/<game>")
def league(game: str) -> str:
    rows = store().league_games(game)
    plays = [(row, bgstats_link(bgstats_play(row, game_name(game)))) for row in reversed(rows)]
    return render("club_league.html", game=game, standings=standings(rows), plays=plays)


@pages.get("/league/<game>/bgstats.json")
def bgstats(game: str) -> Response:
    """Every finished game of ``game`` as BG Stats plays (its import format for other apps,
    one object per play; each page row links to BG Stats with one of them)."""
    plays = [bgstats_play(row, game_name(game)) for row in store().league_games(game)]
    body = json.dumps(
        {
            "about": "Plays for Board Game Stats (BG Stats), one per finished game "
            "of the club's league: each object is the JSON BG Stats imports from "
            "another app's link (app.bgstatsapp.com/createPlay.html?data=...).",
            "plays": plays,
        },
        indent=1,
    )
    return Response(
        body,
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="{game}-plays-bgstats.json"'},
    )
