"""Plain-text tables for the terminal: the board as it stands, and the scores."""

from __future__ import annotations

from typing import Any

from companion.games.monopoly.state import State


def scores_table(scores: dict[str, Any]) -> str:
    """A score (from ``score`` or ``score_position``) as a table of fortunes."""
    fortunes = scores["fortunes"]
    names = sorted(fortunes, key=lambda n: scores["places"].get(n, 99))
    width = max(10, *(len(n) + 2 for n in names))
    rows = [f"{'':<12}" + "".join(f"{n:>{width}}" for n in names)]
    rows.append("-" * len(rows[0]))
    for key, title in (
        ("cash", "Cash"),
        ("properties", "Properties"),
        ("mortgaged", "Mortgaged/2"),
        ("buildings", "Buildings"),
    ):
        rows.append(f"{title:<12}" + "".join(f"{fortunes[n][key]:>{width}}" for n in names))
    rows.append("-" * len(rows[0]))
    rows.append(f"{'Total':<12}" + "".join(f"{fortunes[n]['total']:>{width}}" for n in names))
    rows.append(f"{'Place':<12}" + "".join(f"{scores['places'][n]:>{width}}" for n in names))
    if scores.get("bankrupt"):
        rows.append("Bankrupt: " + ", ".join(scores["bankrupt"]))
    rows.append("")
    rows.append(
        "Winner: "
        + " and ".join(scores["winners"])
        + (f" ({scores['end']})" if scores.get("end") else "")
    )
    return "\n".join(rows)


def board_summary(state: State) -> str:
    lines = [
        f"Board: {state.board.name}",
        f"Round {state.round}; Bank: {state.hideouts_left()} Hideouts, "
        f"{state.compounds_left()} Compounds.",
    ]
    for i, p in enumerate(state.players):
        if p.bankrupt:
            lines.append(f"  {p.name:<10} bankrupt")
            continue
        deeds = []
        for s in state.owned_by(i):
            h = state.holding(s)
            mark = "*" if h.mortgaged else ("C" if h.compound else "h" * h.hideouts)
            deeds.append(state.space_name(s) + (f" [{mark}]" if mark else ""))
        where = state.space_name(p.position) + (" (in Jail)" if p.in_jail else "")
        lines.append(f"  {p.name:<10} ${p.cash:<6} on {where}; " + (", ".join(deeds) or "-"))
    return "\n".join(lines)


def summary(state: State, scores: dict[str, Any]) -> str:
    head = "" if state.is_over else "The game is not over yet; fortunes as they stand:\n"
    return f"{board_summary(state)}\n\n{head}{scores_table(scores)}"
