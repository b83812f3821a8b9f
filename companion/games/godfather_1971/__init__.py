"""The rules of The Godfather Game (1971) as a pure engine; :data:`GODFATHER_1971` is the game
as the platform sees it (``companion.protocol.Game``).

The engine's own face, for tests and tools::

    state = GODFATHER_1971.new_game(setup, files)    # Preparation: $3,000 each
    state = apply(state, action)                     # or RuleViolation / MalformedAction
    legal_actions(state, "Maria")                    # what Maria's phone offers now
    player_view(state, "Maria")                      # her cash, her held card, the board
    check(layout, pieces, holder)                    # the CONTROL check, with its picture

No I/O, clock, randomness or global state: dice, shuffles and the cards drawn come in as
actions. See docs/godfather-1971.md.
"""

from companion.games.godfather_1971.actions import (
    ACTION_TYPES,
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
    Setup,
    Shuffle,
    action_from_dict,
)
from companion.games.godfather_1971.apply import apply, new_game
from companion.games.godfather_1971.board import Board, check_shipped, check_tracing, load_board
from companion.games.godfather_1971.control import Breach, Verdict, check
from companion.games.godfather_1971.game import GODFATHER_1971
from companion.games.godfather_1971.legal import legal_actions, waiting_for
from companion.games.godfather_1971.rackets import Racket
from companion.games.godfather_1971.rules import HouseRules
from companion.games.godfather_1971.state import Cards, State, Step
from companion.games.godfather_1971.view import action_view, player_view

__all__ = [
    "ACTION_TYPES",
    "GODFATHER_1971",
    "Action",
    "Board",
    "Breach",
    "BreakCard",
    "Cards",
    "Declare",
    "Draw",
    "EndFingerman",
    "EndTurn",
    "Finger",
    "GiveUp",
    "HouseRules",
    "Place",
    "PlayCard",
    "Racket",
    "Roll",
    "Sell",
    "Setup",
    "Shuffle",
    "State",
    "Step",
    "Verdict",
    "action_from_dict",
    "action_view",
    "apply",
    "check",
    "check_shipped",
    "check_tracing",
    "legal_actions",
    "load_board",
    "new_game",
    "player_view",
    "waiting_for",
]
