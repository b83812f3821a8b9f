"""The rules of Gangster Dice, as a pure engine; :data:`GANGSTER_DICE` is the game as the
platform sees it (``companion.protocol.Game``).

The engine's own face, for tests and tools that speak Gangster Dice::

    state = GANGSTER_DICE.new_game(setup, files)   # Setup: players, cards, characters, rules
    state = apply(state, action)                    # or RuleViolation(rule, reason)
    legal_actions(state, "Maria")                   # every choice Maria may make now
    waiting_for(state)                              # who the game waits on (dice included)
    player_view(state, "Maria")                     # what Maria's phone may show (None: table)
    score(state)                                    # dice left, and the winners

No I/O, clock, randomness or global state: rolls and shuffles come in as actions. See
docs/gangster-dice.md.
"""

from companion.games.gangster_dice.actions import (
    ACTION_TYPES,
    GAME_ID,
    Action,
    Bid,
    BidCard,
    CardsMode,
    ChooseCharacter,
    Load,
    PlaceOnStreets,
    Roll,
    Setup,
    Shuffle,
    Swap,
    TakeOff,
    action_from_dict,
)
from companion.games.gangster_dice.apply import apply, new_game
from companion.games.gangster_dice.characters import Character, check_characters
from companion.games.gangster_dice.components import (
    COLOURS,
    TOKENS,
    Colour,
    Components,
    Dice,
    Symbol,
    Token,
    check_components,
)
from companion.games.gangster_dice.datafile import DataFileError, Problem
from companion.games.gangster_dice.game import GANGSTER_DICE
from companion.games.gangster_dice.legal import legal_actions, waiting_for
from companion.games.gangster_dice.rules import HouseRules
from companion.games.gangster_dice.scoring import score, score_position
from companion.games.gangster_dice.state import Phase, PlayerState, State, Task
from companion.games.gangster_dice.view import action_view, player_view, scramble
from companion.protocol.errors import MalformedAction, RuleViolation

__all__ = [
    "ACTION_TYPES",
    "COLOURS",
    "GAME_ID",
    "GANGSTER_DICE",
    "TOKENS",
    "Action",
    "Bid",
    "BidCard",
    "CardsMode",
    "Character",
    "ChooseCharacter",
    "Colour",
    "Components",
    "DataFileError",
    "Dice",
    "HouseRules",
    "Load",
    "MalformedAction",
    "Phase",
    "PlaceOnStreets",
    "PlayerState",
    "Problem",
    "Roll",
    "RuleViolation",
    "Setup",
    "Shuffle",
    "State",
    "Swap",
    "Symbol",
    "TakeOff",
    "Task",
    "Token",
    "action_from_dict",
    "action_view",
    "apply",
    "check_characters",
    "check_components",
    "legal_actions",
    "new_game",
    "player_view",
    "score",
    "score_position",
    "scramble",
    "waiting_for",
]
