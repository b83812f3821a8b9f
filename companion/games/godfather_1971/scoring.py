"""The end and the winner: "Play continues in the remaining Neighborhoods until CONTROL is
established in each. Each Player then adds the values of the rackets he controls to his cash
holdings. The Player with the highest total wins the game" (a tie is shared).

Also the score of a final position typed in by hand (``companion score --game
godfather-1971 FILE``), for tables that did not track the game: each player's cash and who
controls which neighborhood's racket.
"""

from __future__ import annotations

import tomllib
from typing import Any

from companion.games.godfather_1971.board import all_neighborhoods, load_board
from companion.games.godfather_1971.data import DataError
from companion.games.godfather_1971.rackets import Racket, parse_racket
from companion.games.godfather_1971.state import State
from companion.protocol.errors import MalformedAction
from companion.protocol.game import Files

POSITION_EXAMPLE = """\
players = ["Maria", "Johnny", "Claire"]

[cash]                       # each player's cash at the end
Maria = 2300
Johnny = 4100
Claire = 900

[control]                    # who took CONTROL of which neighborhood, and its racket
lower-east-side = { player = "Maria", racket = "strongarm" }
midtown = { player = "Johnny", racket = "hijacker" }
harlem = { player = "Claire", racket = "bookie" }
"""


def _result(
    cash: dict[str, int], credits: dict[str, list[dict[str, Any]]], debt: dict[str, int]
) -> dict[str, Any]:
    totals = {n: cash[n] - debt.get(n, 0) + sum(c["value"] for c in credits[n]) for n in cash}
    best = max(totals.values())
    return {
        "totals": totals,
        "winners": [n for n, t in totals.items() if t == best],
        "cash": cash,
        "credits": credits,
        "debt": debt,
    }


def score(state: State) -> dict[str, Any]:
    """Cash plus the Racket Control Values held (a game not over is scored as it stands)."""
    cash = {p.name: p.cash for p in state.players}
    credits: dict[str, list[dict[str, Any]]] = {p.name: [] for p in state.players}
    for i, hood in enumerate(state.hoods):
        if hood.controller is not None and hood.racket is not None:
            credits[state.name(hood.controller)].append(
                {
                    "neighborhood": state.board.layouts[i].id,
                    "name": state.board.layouts[i].name,
                    "racket": hood.racket.value,
                    "value": state.board.value(i, hood.racket),
                }
            )
    return _result(cash, credits, {p.name: p.debt for p in state.players if p.debt})


def end_reason(state: State) -> str:
    controlled = sum(1 for h in state.hoods if h.controller is not None)
    stalemated = sum(1 for h in state.hoods if h.stalemated)
    parts = [f"CONTROL established in {controlled}"]
    if stalemated:
        parts.append(f"{stalemated} stalemated")
    return f"every neighborhood is closed ({', '.join(parts)})"


class PositionError(MalformedAction):
    """A position file that cannot be scored: the message says what to fix."""


def score_position(text: str, files: Files) -> dict[str, Any]:
    """Score a final position typed in as TOML (see :data:`POSITION_EXAMPLE`)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PositionError(f"not valid TOML: {exc}") from None
    known = {"players", "cash", "control"}
    if set(data) - known:
        raise PositionError(
            f"unknown keys {', '.join(sorted(set(data) - known))}; use: {', '.join(sorted(known))}"
        )
    players = data.get("players")
    if not (
        isinstance(players, list)
        and 2 <= len(players) <= 4
        and all(isinstance(p, str) and p for p in players)
    ):
        raise PositionError(f"players must list the 2 to 4 names, e.g.\n{POSITION_EXAMPLE}")
    if len(set(players)) != len(players):
        raise PositionError("a player is listed twice in players")
    cash = data.get("cash", {})
    if not isinstance(cash, dict):
        raise PositionError("[cash] is a table: Name = dollars")
    for name, value in cash.items():
        if name not in players:
            raise PositionError(f"[cash] names {name!r}, who is not in players")
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise PositionError(f"[cash] {name} = {value!r}: a number of dollars, 0 or more")
    try:
        board = load_board(files)
    except DataError as exc:
        raise PositionError(str(exc)) from None
    hoods = all_neighborhoods(files)
    credits: dict[str, list[dict[str, Any]]] = {p: [] for p in players}
    control = data.get("control", {})
    if not isinstance(control, dict):
        raise PositionError("[control] is a table: neighborhood = { player, racket }")
    for hood, entry in control.items():
        if hood not in hoods:
            raise PositionError(
                f"[control] {hood!r} is no neighborhood; they are " + ", ".join(hoods)
            )
        if not isinstance(entry, dict) or set(entry) != {"player", "racket"}:
            raise PositionError(f'[control] {hood} = {{ player = "Name", racket = "bookie" }}')
        if entry["player"] not in players:
            raise PositionError(f"[control] {hood}: {entry['player']!r} is not in players")
        racket = parse_racket(entry["racket"])
        if racket is None:
            raise PositionError(
                f"[control] {hood}: racket {entry['racket']!r} is none of "
                + ", ".join(r.value for r in Racket)
            )
        name = next(layout.name for layout in board.layouts if layout.id == hood)
        credits[entry["player"]].append(
            {
                "neighborhood": hood,
                "name": name,
                "racket": racket.value,
                "value": board.card.value(hood, racket),
            }
        )
    return _result({p: cash.get(p, 0) for p in players}, credits, {})


def score_table(scores: dict[str, Any]) -> str:
    """A score as a plain-text table, the winners last."""
    lines = [f"{'player':<24} {'cash':>9} {'rackets':>9} {'total':>9}"]
    for name, total in sorted(scores["totals"].items(), key=lambda kv: -kv[1]):
        rackets = sum(c["value"] for c in scores["credits"].get(name, []))
        lines.append(f"{name:<24} {scores['cash'][name]:>9,} {rackets:>9,} {total:>9,}")
        for c in scores["credits"].get(name, []):
            racket = parse_racket(c["racket"])
            title = racket.card_name if racket else c["racket"]
            lines.append(f"    {title} in {c.get('name', c['neighborhood'])}: ${c['value']:,}")
    lines.append("Winner: " + " and ".join(scores["winners"]) + " (THE GODFATHER)")
    return "\n".join(lines)
