"""The rules of The Godfather: A New Don, as a pure engine.

The whole public face::

    state = new_game(setup, board)          # Setup: players, board side, house rules
    state = apply(state, action)            # or RuleViolation(rule, reason) / MalformedAction
    legal_actions(state, "Maria")           # every choice Maria may make now
    waiting_for(state)                      # who the game waits on (dice included)
    player_view(state, "Maria")             # what Maria's phone may show (None: the table)
    score(state)                            # points, per district, and the winner

No I/O, clock, randomness or global state: dice results come in as actions. See docs/engine.md.
"""

from companion.engine.actions import (
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
    Seat,
    Setup,
    TakeFavor,
    UseFavor,
    VegasRoll,
    action_from_dict,
)
from companion.engine.apply import apply, new_game
from companion.engine.board import Ability, Board, SetKind
from companion.engine.board_file import BoardError, Problem, check_board, parse_board
from companion.engine.errors import MalformedAction, RuleViolation
from companion.engine.legal import Waiting, legal_actions, waiting_for
from companion.engine.phases.cleanup import game_end_reason
from companion.engine.rules import OPTIONS, HouseRules
from companion.engine.scoring import Scores, score, score_position
from companion.engine.state import OfferStep, Phase, PlayerState, State
from companion.engine.view import action_view, player_view

__all__ = [
    "ACTION_TYPES",
    "OPTIONS",
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
