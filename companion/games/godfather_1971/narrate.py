"""One sentence per action, for the table's log and the terminal demo.

Narration says no more than the viewer may know: what a card says only once it is played
(read from the state after the action, where it lies face up), the card a player draws only
to that player.
"""

from __future__ import annotations

from companion.games.godfather_1971.actions import (
    Action,
    BreakCard,
    Declare,
    Draw,
    EndFingerman,
    EndTurn,
    Finger,
    GiveUp,
    Place,
    PlayCard,
    Roll,
    Sell,
    Shuffle,
)
from companion.games.godfather_1971.cards import Deck, break_deck, parse_card
from companion.games.godfather_1971.layout import Layout
from companion.games.godfather_1971.scoring import end_reason, score
from companion.games.godfather_1971.state import Cards, Ruling, RulingKind, State, Step


def _list(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _hood(state: State, hood_id: str) -> Layout:
    return state.board.layouts[state.board.index(hood_id)]


def _piece(state: State, hood_id: str) -> str:
    racket = state.hoods[state.board.index(hood_id)].racket
    return racket.piece if racket else "piece"


def _control_value(state: State, i: int) -> int:
    racket = state.hoods[i].racket
    assert racket is not None  # CONTROL is of pieces on the board, so of a racket
    return state.board.value(i, racket)


def ruling_lines(state: State, r: Ruling) -> list[str]:
    layout = state.board.layouts[r.hood]
    who = state.name(r.seat)
    if r.kind is RulingKind.CAPTURE:
        out = []
        for t in r.taken:
            n = len(layout.names_of(t.group))
            out.append(
                f"  {who} surrounds {state.name(t.owner)}'s "
                f"{'piece' if n == 1 else f'{n} pieces'} on "
                f"{_list(layout.names_of(t.group))} (fenced by "
                f"{_list(layout.names_of(t.fence))}): taken off the board."
            )
        return out
    if r.kind in (RulingKind.CONTROL, RulingKind.NOT_YET):
        v = r.verdict
        assert v is not None
        head = f"  {layout.name}: {who} holds {v.holds} of {v.size} positions"
        if r.kind is RulingKind.CONTROL:
            value = _control_value(state, r.hood)
            return [
                f"{head}, and no opponent can reduce that in one turn: CONTROL. "
                f"{who} is credited ${value:,} and gets a bonus on each of the next three "
                "turns; the neighborhood is closed."
            ]
        b = v.breach
        assert b is not None
        takes = (
            f"taking {_list(layout.names_of(b.taken))}"
            if b.taken
            else f"entering {_list(layout.names_of(b.entered))}"
        )
        return [
            f"{head}, but not CONTROL yet: {state.name(b.by)} could play "
            f"{_list(layout.names_of(b.placed))}, {takes} (down to {b.after})."
        ]
    if r.kind is RulingKind.STALEMATE:
        return [
            f"  {layout.name} is stalemated: nobody can position a piece there any more. "
            "No CONTROL; the pieces stay."
        ]
    if r.kind is RulingKind.DECLARED:
        return [
            f"  {who} declares CONTROL of {layout.name}: conceded unless an opponent plays "
            "into it on their next turn."
        ]
    if r.kind is RulingKind.WITHHELD:
        return [
            f"  {who} plays into the declared territory in {layout.name}: CONTROL is "
            "withheld, and the declaring player loses one piece there."
        ]
    value = _control_value(state, r.hood)
    return [f"  Nobody challenged: CONTROL of {layout.name} is conceded to {who} (${value:,})."]


def narrate(before: State, action: Action, after: State, viewer: str | None = None) -> list[str]:
    who = action.player
    you = viewer == who
    lines: list[str] = []
    if isinstance(action, Shuffle):
        lines.append("The three decks are shuffled.")
    elif isinstance(action, Roll):
        total = sum(action.faces)
        if before.step is Step.ROLL_FOR_FIRST:
            lines.append(
                f"{who} rolls {action.faces[0]} and {action.faces[1]} ({total}) for the first turn."
            )
        else:
            lines.append(
                f"{who} rolls {total} for the Breaks of the Game: "
                + ("even, a Good Break." if total % 2 == 0 else "odd, a Bad Break.")
            )
    elif isinstance(action, PlayCard):
        assert after.turn is not None and after.turn.card is not None
        card = parse_card(after.turn.card, Deck.PLAYING)
        lines.append(f"{who} plays a card: {card.label}.")
    elif isinstance(action, BreakCard):
        assert before.turn is not None  # a Break card is drawn in a turn
        deck = break_deck(before.turn.roll)
        lines.append(f"{who} draws {parse_card(action.card, deck).label}.")
    elif isinstance(action, Draw):
        lines.append(
            f"You draw {parse_card(action.card, Deck.PLAYING).label} for your next turn."
            if you
            else f"{who} draws a card for the next turn."
        )
    elif isinstance(action, Finger):
        owner = next(
            p.name
            for s, p in enumerate(before.players)
            if before.hoods[before.board.index(action.neighborhood)].pieces[s]
            >> _hood(before, action.neighborhood).index(action.position)
            & 1
        )
        lines.append(
            f"Fingerman: {who} removes {owner}'s {_piece(before, action.neighborhood)} "
            f"on {action.position} in {_hood(before, action.neighborhood).name}."
        )
    elif isinstance(action, EndFingerman):
        lines.append(f"{who} removes no more pieces.")
    elif isinstance(action, GiveUp):
        why = (
            "the penalty for a challenged declaration"
            if before.step is Step.PENALTY
            else "the Bad Break"
        )
        lines.append(
            f"{who} gives up a {_piece(before, action.neighborhood)} on "
            f"{action.position} in {_hood(before, action.neighborhood).name} ({why})."
        )
    elif isinstance(action, Sell):
        racket = before.hoods[before.board.index(action.neighborhood)].racket
        half = racket.cost // 2 if racket else 0
        lines.append(
            f"{who} converts a {_piece(before, action.neighborhood)} on "
            f"{action.position} in {_hood(before, action.neighborhood).name} to "
            f"${half:,} to pay the Bad Break."
        )
    elif isinstance(action, Place):
        lines += _place_lines(before, action, after)
    elif isinstance(action, Declare):
        pass  # the ruling says it
    elif isinstance(action, EndTurn):
        lines.append(f"{who} ends the turn.")
        if after.cards is Cards.COMPANION and not after.is_over:
            hand = after.players[before.seat(who)].hand
            lines.append(
                f"You draw {parse_card(hand, Deck.PLAYING).label} for your next turn."
                if you and hand
                else f"{who} draws a card for the next turn."
            )
    if after.ruled_at == after.moves and after.rulings:
        for r in after.rulings:
            if r.kind is RulingKind.NOT_YET and before.hoods[r.hood].verdict == r.verdict:
                continue  # the same majority, the same threat: said already
            lines += ruling_lines(after, r)
    lines += _after(before, action, after)
    return lines


def _place_lines(before: State, action: Place, after: State) -> list[str]:
    i = before.board.index(action.neighborhood)
    layout = before.board.layouts[i]
    racket = after.hoods[i].racket
    assert racket is not None and before.turn is not None and after.turn is not None
    n = len(action.positions)
    free = before.turn.free_count - after.turn.free_count - (after.turn.voided - before.turn.voided)
    paid = before.players[before.turn.seat].cash - after.players[after.turn.seat].cash
    how = []
    if free:
        how.append(f"{free} free")
    if paid:
        how.append(f"${paid:,}")
    article = "an" if racket.card_name[0] in "AEIOU" else "a"
    opened = (
        f"; {layout.name} is now {article} {racket.card_name} neighborhood"
        if before.hoods[i].racket is None
        else ""
    )
    lines = [
        f"{action.player} positions {racket.counted(n)} on {_list(list(action.positions))} "
        f"in {layout.name} ({', '.join(how) or 'free'}){opened}."
    ]
    if after.turn.voided > before.turn.voided:
        lost = after.turn.voided - before.turn.voided
        lines.append(f"  The card's other {lost} can go nowhere this turn: void.")
    return lines


def _after(before: State, action: Action, after: State) -> list[str]:
    """What follows on its own: who starts, a new turn's bonuses, the end."""
    lines = []
    if (
        before.step is Step.ROLL_FOR_FIRST
        and after.step is Step.ROLL_FOR_FIRST
        and all(t is None for _, t in after.rolloff)
    ):
        lines.append("A tie: " + _list([after.name(s) for s, _ in after.rolloff]) + " roll again.")
    if after.is_over:
        lines.append(f"Game over: {end_reason(after)}.")
        lines.append("THE GODFATHER: " + _list(score(after)["winners"]) + ".")
        return lines
    if after.turn is not None and (before.turn is None or after.turn.number != before.turn.number):
        p_before = before.players[after.turn.seat]
        p_after = after.players[after.turn.seat]
        lines.append(f"{p_after.name}'s turn" + (" (the first)" if after.turn.first else "") + ".")
        got = p_after.cash - p_before.cash
        if got > 0 and p_before.bonuses:
            lines.append(f"  {p_after.name} collects ${got:,} in CONTROL bonuses.")
    if (
        before.turn is not None
        and after.turn is not None
        and after.turn.voided > before.turn.voided
        and not isinstance(action, Place)
    ):
        lines.append(
            f"  The card's {after.turn.voided - before.turn.voided} pieces can go nowhere: void."
        )
    return lines
