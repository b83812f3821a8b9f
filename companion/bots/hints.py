"""Hints: the move a bot would make in a player's seat, worked out from that player's own view.

A hint is the standard bot's choice for the asking player, with the same fairness as a bot's
own move: :meth:`Observation.of` keeps the player's view and drops the state, so a hint knows
what the player knows and nothing more. Its reason is built like a bot's, from the table's
views, in a world drawn from the player's information set.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from companion.bots.bot import DEFAULT_LEVEL, Bot
from companion.games import AnyGame
from companion.protocol import MalformedAction, RuleViolation

HINT_SECONDS = 0.5  # a phone waits this long at most for a hint


@dataclass(frozen=True, slots=True)
class Suggestion:
    """The suggested move (a record line), why in the table's words (if the bot can say),
    and how long it took."""

    action: dict[str, Any]
    reason: str | None
    seconds: float


def suggest(
    game: AnyGame,
    state: Any,
    player: str,
    *,
    seconds: float = HINT_SECONDS,
    level: str = DEFAULT_LEVEL,
    rng: random.Random | None = None,
) -> Suggestion:
    """What a bot would play in ``player``'s seat now (they must have a choice to make)."""
    rng = rng or random.Random()
    bot = Bot(game, level, seconds=seconds)
    obs = bot.observe(state, player, rng)
    decision = bot.choose(obs, rng)
    world = obs.anchor  # the after-view comes from a world the player could be in
    try:
        after = game.apply(world, decision.action)
    except (RuleViolation, MalformedAction, AssertionError):
        return Suggestion(decision.action.to_dict(), None, decision.seconds)
    reason = bot.knowledge.reason(
        game.table_data(world),
        game.player_view(world, None),
        game.action_view(world, decision.action, None),
        game.player_view(after, None),
    )
    return Suggestion(decision.action.to_dict(), reason, decision.seconds)
