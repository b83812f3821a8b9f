"""The game as plain text for the terminal (``companion replay``, ``demo``): where it stands
in a few words, and the whole table: each neighborhood drawn with the players' initials, the
positions they enclose in lower case, empty ones as dots."""

from __future__ import annotations

from companion.games.godfather_1971.fight import controlled
from companion.games.godfather_1971.scoring import end_reason, score, score_table
from companion.games.godfather_1971.state import State, Step

STEP_WORDS = {
    Step.SHUFFLE: "shuffling the decks",
    Step.ROLL_FOR_FIRST: "rolling for the first turn",
    Step.PLAY_CARD: "playing the held card",
    Step.BREAKS_ROLL: "rolling for the Breaks of the Game",
    Step.BREAK_CARD: "drawing a Break card",
    Step.FINGERMAN: "the Fingerman",
    Step.LOSE_PIECES: "paying a Bad Break in pieces",
    Step.SELL: "converting pieces to pay a Bad Break",
    Step.PENALTY: "paying for a challenged declaration",
    Step.PLACE: "buying and positioning",
    Step.DRAW: "drawing a card",
}


def progress(state: State) -> str:
    if state.is_over:
        return f"over after {state.turn.number if state.turn else 0} turns"
    if state.turn is None:
        return STEP_WORDS[state.step]
    closed = sum(1 for h in state.hoods if not h.open)
    return (
        f"turn {state.turn.number}, {state.name(state.turn.seat)}'s "
        f"({closed} of {len(state.hoods)} neighborhoods closed)"
    )


def _initials(state: State) -> list[str]:
    """One letter per player: the first letter of the name, or the next free one in it."""
    used: set[str] = set()
    out = []
    for p in state.players:
        letter = next(
            (ch.upper() for ch in p.name + "XYZW" if ch.isalpha() and ch.upper() not in used), "?"
        )
        used.add(letter)
        out.append(letter)
    return out


def summary(state: State) -> str:
    letters = _initials(state)
    lines = [
        "Players: "
        + ", ".join(f"{letters[s]} = {p.name} (${p.cash:,})" for s, p in enumerate(state.players))
    ]
    for i, layout in enumerate(state.board.layouts):
        hood = state.hoods[i]
        racket = hood.racket.card_name if hood.racket else "unplayed"
        status = (
            f"CONTROL: {state.name(hood.controller)}"
            if hood.controller is not None
            else "stalemated"
            if hood.stalemated
            else "open"
        )
        lines.append(f"\n{layout.name} ({racket}; {status})")
        cell = {}
        for s, mask in enumerate(hood.pieces):
            for pos in layout.names_of(mask):
                cell[pos] = letters[s]
            for pos in layout.names_of(
                controlled(layout, hood.pieces, s, state.rules.controlled_positions)
            ):
                cell[pos] = letters[s].lower()
        rows = max(r for r, _ in layout.cells) + 1
        cols = max(c for _, c in layout.cells) + 1
        at = {cellrc: layout.names[k] for k, cellrc in enumerate(layout.cells)}
        for r in range(rows):
            lines.append(
                "  "
                + " ".join(cell.get(at[(r, c)], ".") if (r, c) in at else " " for c in range(cols))
            )
    lines.append("")
    if state.is_over:
        lines.append(f"Game over: {end_reason(state)}.")
    lines.append(score_table(score(state)))
    return "\n".join(lines)
