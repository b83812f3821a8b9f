"""Plain-text tables for the terminal: the score with its breakdown, and the table as it
stands (the table screen's view: no secret)."""

from __future__ import annotations

from companion.games.cash_n_guns.box import dollars
from companion.games.cash_n_guns.scoring import Scores, score
from companion.games.cash_n_guns.state import State


def scores_table(scores: Scores) -> str:
    names = list(scores.lines)
    width = max(12, *(len(n) + 2 for n in names))
    head = f"{'':<20}" + "".join(f"{n:>{width}}" for n in names)
    rows = [head, "-" * len(head)]

    def row(label: str, cells: list[str]) -> None:
        rows.append(f"{label:<20}" + "".join(f"{c:>{width}}" for c in cells))

    lines = [scores.lines[n] for n in names]
    row("Bills", [dollars(li.haul.bills) for li in lines])
    row(
        "Diamonds (cards)",
        [f"{dollars(li.haul.diamonds)} ({li.haul.diamond_cards})" for li in lines],
    )
    row("Diamond bonus", [dollars(li.diamond_bonus) if li.diamond_bonus else "-" for li in lines])
    row(
        "Paintings (cards)",
        [f"{dollars(li.paintings_value)} ({li.haul.paintings})" for li in lines],
    )
    rows.append("-" * len(head))
    row("Total", [dollars(li.total) for li in lines])
    row("Wounds", [("dead" if not li.haul.alive else str(li.haul.wounds)) for li in lines])
    rows.append("")
    rows.append(f"End: {scores.end}.")
    winners = " and ".join(scores.winners) or "nobody"
    rows.append(f"Winner: {winners}" + (f" ({scores.tie_break})" if scores.tie_break else ""))
    return "\n".join(rows)


def table_summary(state: State) -> str:
    name = state.name
    lines = [
        f"Turn {state.turn} of {state.box.turns}, {state.phase.value.replace('_', ' ')}. "
        f"Godfather: {name(state.godfather)}.",
        f"Loot on offer: {', '.join(state.box.label(c) for c in state.table) or '-'}; "
        f"{sum(state.deck)} cards left in the deck.",
    ]
    for p in state.players:
        status = "dead" if p.dead else f"{p.wounds} wound(s)"
        lines.append(
            f"  {p.name:<12} {status:<11} {p.hand} Bullet card(s) in hand, "
            f"{len(p.loot)} Loot card(s)"
        )
    return "\n".join(lines)


def summary(state: State) -> str:
    """The table as it stands and the score, as ``companion replay`` prints them."""
    head = "" if state.is_over else "The game is not over yet; the score as it stands:\n"
    return f"{table_summary(state)}\n\n{head}{scores_table(score(state))}"
