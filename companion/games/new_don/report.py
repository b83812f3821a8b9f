"""Plain-text tables for the terminal: scores, and the board as it stands."""

from __future__ import annotations

from companion.games.new_don.scoring import Scores, score
from companion.games.new_don.state import State


def scores_table(scores: Scores) -> str:
    names = list(scores.totals)
    width = max(12, *(len(n) + 2 for n in names))
    head = f"{'':<18}" + "".join(f"{n:>{width}}" for n in names)
    rows = [head, "-" * len(head)]
    for d in scores.districts:
        cells = "".join(
            f"{(f'{d.points[n]} ({d.counts[n]})' if d.counts[n] else '-'):>{width}}" for n in names
        )
        rows.append(f"{d.name:<18}{cells}")
    cells = "".join(
        f"{f'{scores.house.points[n]} ({scores.house.counts[n]})':>{width}}" for n in names
    )
    rows.append(f"{'House':<18}{cells}")
    rows.append("-" * len(head))
    rows.append(f"{'Total':<18}" + "".join(f"{scores.totals[n]:>{width}}" for n in names))
    rows.append("")
    rows.append("points (neighborhoods or soldiers held)")
    winner = " and ".join(scores.winners)
    rows.append(f"Winner: {winner}" + (f" ({scores.tie_break})" if scores.tie_break else ""))
    return "\n".join(rows)


def board_summary(state: State) -> str:
    board = state.board
    track = board.muscle_track
    lines = [
        f"Board: {board.name}",
        f"Round {state.round}, {state.phase.value.replace('_', ' ')} phase. "
        f"Godfather: {state.name(state.godfather) if state.godfather is not None else '-'}",
    ]
    for d in board.districts:
        held = []
        for i in board.in_district(d.face):
            s = state.neighborhoods[i]
            held.append(f"{board.neighborhoods[i].name}:{state.name(s) if s is not None else '.'}")
        lines.append(f"  {d.name:<16} {' '.join(held)}")
    for i, p in enumerate(state.players):
        favors = (
            ",".join(
                f"{spot}x{n}" if n > 1 else str(spot)
                for spot, n in zip(board.favor_spots, p.favor_tokens, strict=True)
                if n
            )
            or "-"
        )
        vegas = sum(1 for s in state.vegas if s == i)
        lines.append(
            f"  {p.name:<10} House {p.house:>2}  Muscle {track.label(p.muscle):<9} "
            f"Favors {favors:<8} Vegas {vegas}"
        )
    return "\n".join(lines)


def summary(state: State) -> str:
    """The board as it stands and the score, as ``companion replay`` prints them."""
    head = "" if state.is_over else "The game is not over yet; the score as it stands:\n"
    return f"{board_summary(state)}\n\n{head}{scores_table(score(state))}"
