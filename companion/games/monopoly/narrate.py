"""What happened, in words, for the table's log and the terminal demo.

Every rule module writes down what the Banker did as it does it (``State.events``), so the
narration of an action is the events it added: a roll, the move, GO's salary, the rent paid.
Only a Don card being dealt says less to those who may not see it.
"""

from __future__ import annotations

from companion.games.monopoly.actions import Action, DonCardDealt, TryDoubles
from companion.games.monopoly.state import Event, State
from companion.games.monopoly.view import HIDDEN, action_view


def new_events(before: State, after: State) -> tuple[Event, ...]:
    """The events ``after`` adds to ``before`` (a roll starts the list afresh)."""
    if after.rolls != before.rolls:
        return after.events
    return after.events[len(before.events) :]


def narrate(before: State, action: Action, after: State, viewer: str | None = None) -> list[str]:
    seen = action_view(before, action, viewer)
    who = action.player
    lines: list[str] = []
    if isinstance(action, DonCardDealt):
        if seen["card"] == HIDDEN:
            lines.append(f"{who} is dealt a Don card.")
        else:
            card = before.edition.don(action.card)
            lines.append(f"{who} is dealt the Don card {card.name if card else action.card}.")
    elif isinstance(action, TryDoubles):
        lines.append(f"{who} rolls for doubles to leave Jail.")
    lines += [e.text for e in new_events(before, after)]
    return lines or [f"{who}: {action.TYPE.replace('_', ' ')}."]
