"""The rules of Ca$h 'n Guns (Godfather edition), as a pure engine; :data:`CASH_N_GUNS` is the
game as the platform sees it (``companion.protocol.Game``).

The engine's own face, for tests and tools that speak Ca$h 'n Guns::

    box = parse_box(text)                   # what is in the box (box.toml), every fact sourced
    state = new_game(setup, box)            # Setup: players clockwise, house rules
    state = apply(state, action)            # or RuleViolation(rule, reason) / MalformedAction
    legal_actions(state, "Maria")           # every choice Maria may make now
    waiting_for(state)                      # whom the game waits on
    player_view(state, "Maria")             # what Maria's phone may show (None: the table)
    score(state)                            # the money, the bonus, the paintings, the winners

No I/O, clock, randomness or global state: the Loot cards flipped come in as actions. See
docs/cash-n-guns.md.
"""

from companion.games.cash_n_guns.actions import (
    ACTION_TYPES,
    Action,
    Aim,
    AimedBy,
    Bullet,
    ConfirmAim,
    Courage,
    CourageChoice,
    Discard,
    Flip,
    Load,
    Privilege,
    Setup,
    Take,
    TakeToken,
    action_from_dict,
)
from companion.games.cash_n_guns.apply import apply, new_game
from companion.games.cash_n_guns.box import Box, LootCard, LootKind, Source
from companion.games.cash_n_guns.box_file import BoxError, Problem, check_box, parse_box
from companion.games.cash_n_guns.game import CASH_N_GUNS
from companion.games.cash_n_guns.legal import legal_actions, waiting_for
from companion.games.cash_n_guns.position import read_position
from companion.games.cash_n_guns.rules import HouseRules
from companion.games.cash_n_guns.scoring import Scores, score
from companion.games.cash_n_guns.state import Gangster, Gun, Outcome, Phase, Shot, State
from companion.games.cash_n_guns.view import action_view, player_view, scramble

__all__ = [
    "ACTION_TYPES",
    "CASH_N_GUNS",
    "Action",
    "Aim",
    "AimedBy",
    "Box",
    "BoxError",
    "Bullet",
    "ConfirmAim",
    "Courage",
    "CourageChoice",
    "Discard",
    "Flip",
    "Gangster",
    "Gun",
    "HouseRules",
    "Load",
    "LootCard",
    "LootKind",
    "Outcome",
    "Phase",
    "Privilege",
    "Problem",
    "Scores",
    "Setup",
    "Shot",
    "Source",
    "State",
    "Take",
    "TakeToken",
    "action_from_dict",
    "action_view",
    "apply",
    "check_box",
    "legal_actions",
    "new_game",
    "parse_box",
    "player_view",
    "read_position",
    "score",
    "scramble",
    "waiting_for",
]
