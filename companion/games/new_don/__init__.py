"""The rules of The Godfather: A New Don, as a pure engine; :data:`NEW_DON` is the game as
the platform sees it (``companion.protocol.Game``).

The engine's own face, for tests and tools that speak A New Don::

    state = new_game(setup, board)          # Setup: players, board side, house rules
    state = apply(state, action)            # or RuleViolation(rule, reason) / MalformedAction
    legal_actions(state, "Maria")           # every choice Maria may make now
    waiting_for(state)                      # who the game waits on (dice included)
    player_view(state, "Maria")             # what Maria's phone may show (None: the table)
    score(state)                            # points, per district, and the winner

No I/O, clock, randomness or global state: dice results come in as actions. See docs/engine.md.
"""

from companion.games.new_don.actions import (
    ACTION_TYPES,
    Action,
    Bet,
    ChooseFavorSpot,
    Claim,
    GodfatherRoll,
    KeepVegas,
    MuscleOut,
    Pass,
    Recruit,
    Request,
    Reroll,
    RevealFavor,
    Roll,
    Setup,
    TakeFavor,
    UseFavor,
    VegasRoll,
    action_from_dict,
)
from companion.games.new_don.apply import apply, new_game
from companion.games.new_don.board import Ability, Board, SetKind
from companion.games.new_don.board_file import BoardError, Problem, check_board, parse_board
from companion.games.new_don.game import NEW_DON
from companion.games.new_don.legal import legal_actions, waiting_for
from companion.games.new_don.phases.cleanup import game_end_reason
from companion.games.new_don.rules import HouseRules
from companion.games.new_don.scoring import Scores, score, score_position
from companion.games.new_don.state import OfferStep, Phase, PlayerState, State
from companion.games.new_don.view import action_view, player_view
from companion.protocol.errors import MalformedAction, RuleViolation
from companion.protocol.game import Waiting
from companion.protocol.seats import Seat

__all__ = [
    "ACTION_TYPES",
    "NEW_DON",
    "Ability",
    "Action",
    "Bet",
    "Board",
    "BoardError",
    "ChooseFavorSpot",
    "Claim",
    "GodfatherRoll",
    "HouseRules",
    "KeepVegas",
    "MalformedAction",
    "MuscleOut",
    "OfferStep",
    "Pass",
    "Phase",
    "PlayerState",
    "Problem",
    "Recruit",
    "Request",
    "Reroll",
    "RevealFavor",
    "Roll",
    "RuleViolation",
    "Scores",
    "Seat",
    "SetKind",
    "Setup",
    "State",
    "TakeFavor",
    "UseFavor",
    "VegasRoll",
    "Waiting",
    "action_from_dict",
    "action_view",
    "apply",
    "check_board",
    "game_end_reason",
    "legal_actions",
    "new_game",
    "parse_board",
    "player_view",
    "score",
    "score_position",
    "waiting_for",
]
