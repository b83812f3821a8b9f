"""What every step shares: the manual's section names (every refusal cites one) and the
checks that open most moves."""

from __future__ import annotations

from companion.games.cash_n_guns.state import Phase, State
from companion.protocol.errors import RuleViolation

SETUP = "Set-up (the box)"  # the manual's set-up pages are missing: box.toml holds the facts
LOOT = "Game turn, 1. Loot"
BULLET = "Game turn, 2. Choice of the Bullet card"
HOLD_UP = "Game turn, 3. Hold-Up"
PRIVILEGE = "Game turn, 4. Godfather's Privilege"
COURAGE = "Game turn, 5. Courage"
EFFECTS = "Game turn, 6. Card effects"
SHARING = "Game turn, 7. Loot sharing"
END = "End of the Game"
KITS = "Values of the Loot cards: First aid kit"
CLIPS = "Values of the Loot cards: Clips"

# What the table is doing in each phase, for refusals that say "not now".
DOING = {
    Phase.LOOT: "the Godfather is flipping the Loot cards (1. Loot)",
    Phase.BULLETS: "everyone is choosing a Bullet card (2.)",
    Phase.HOLD_UP: "guns are being aimed (3. Hold-Up) before the Godfather's privilege",
    Phase.CHANGE_TARGET: "the player the Godfather ordered is changing target (4.)",
    Phase.COURAGE: "everyone is choosing to lie down or shout Banzai (5. Courage)",
    Phase.SHARING: "the loot is being shared (7.)",
    Phase.OVER: "the game is over",
}


def require_phase(state: State, rule: str, what: str, *phases: Phase) -> None:
    """Refuse ``what`` unless the game is in one of ``phases``: it belongs to step ``rule``."""
    if state.phase not in phases:
        raise RuleViolation(
            rule, f"{what} belongs to {rule.removeprefix('Game turn, ')}; now {DOING[state.phase]}"
        )


def require_alive(state: State, seat: int, rule: str) -> None:
    """Refuse a move by or against a dead player: "A player who has a total of 3 or more
    wounds dies and is taken out of the game" (6.)."""
    if state.players[seat].dead:
        raise RuleViolation(
            rule,
            f"{state.name(seat)} has {state.players[seat].wounds} "
            "wounds: dead and taken out of the game",
        )
