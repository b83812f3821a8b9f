"""What the club may show anyone of a game: the one filter between a table's log and the club's
pages.

The club holds every table's whole log, hidden dice and all (it is the table's backup), but
its pages are public: anyone at the convention may look. So what they show is made here, from
the game's own filters for the table screen and nothing else: ``player_view(state, None)``, the
game's ``progress``, who the game waits for and what they are to do (never how many dice: a
count can be a secret), and the score only once the game cannot go on (as the table screen
shows it). The club's pages read only this summary, stored beside the log; they never read the
log itself. ``tests/club/test_club_privacy.py`` redraws every secret and checks the summary does
not change.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.table import Game


@dataclass(frozen=True, slots=True)
class Shown:
    """A game as the public may see it."""

    game: str  # the game's id: new-don, cash-n-guns
    players: list[str]
    progress: str  # "round 3, offer phase"
    waiting: list[dict[str, str]]  # [{"player": "Maria", "does": "roll"}]
    view: dict[str, Any]  # the table screen's view
    over: bool  # ended by its rules
    can_go_on: bool
    scores: dict[str, Any] | None  # once the game cannot go on

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "progress": self.progress,
            "waiting": self.waiting,
            "view": self.view,
            "over": self.over,
            "can_go_on": self.can_go_on,
            "scores": self.scores,
        }


def shown(game: Game) -> Shown:
    """What anyone may see of ``game`` as it stands."""
    rules, state = game.rules, game.state
    going_on = game.can_go_on
    return Shown(
        game=rules.id,
        players=[seat.name for seat in game.setup.seats],
        progress=rules.progress(state),
        waiting=[{"player": w.player, "does": w.does} for w in rules.waiting_for(state)]
        if going_on
        else [],
        view=rules.player_view(state, None),
        over=game.is_over,
        can_go_on=going_on,
        scores=None if going_on else rules.score(state),
    )
