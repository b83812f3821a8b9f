"""Ca$h 'n Guns (Godfather edition) behind the game protocol: :data:`CASH_N_GUNS` is what the
platform sees.

Every method hands over to the module where that rule lives (the table in
docs/cash-n-guns.md); this file only translates between the protocol's words and the engine's.
The game has no dice: its chance is the Loot deck's order, which comes in as ``flip`` actions.
"""

from __future__ import annotations

import random
from typing import Any

from companion.games.cash_n_guns.actions import (
    GAME_ID,
    Action,
    Aim,
    AimedBy,
    ConfirmAim,
    Flip,
    Load,
    Setup,
    action_from_dict,
)
from companion.games.cash_n_guns.apply import apply, new_game
from companion.games.cash_n_guns.box_file import load_box
from companion.games.cash_n_guns.display import choices, table_data
from companion.games.cash_n_guns.legal import legal_actions, waiting_for
from companion.games.cash_n_guns.narrate import narrate
from companion.games.cash_n_guns.playout import random_action
from companion.games.cash_n_guns.position import read_position
from companion.games.cash_n_guns.report import scores_table, summary
from companion.games.cash_n_guns.rules import HouseRules
from companion.games.cash_n_guns.scoring import Scores, score
from companion.games.cash_n_guns.state import State
from companion.games.cash_n_guns.view import action_view, player_view, scramble
from companion.protocol.errors import MalformedAction
from companion.protocol.game import Choice, DiceSet, Files, Waiting
from companion.protocol.options import OptionInfo

# A player may take back their own last move where it revealed nothing: a card put down, a
# gun's aim, a confirmation. Not a courage choice: the last one shows every choice and fires
# every card at once, and the undo cannot tell which one was last.
PLAYER_UNDOABLE = (Load, Aim, ConfirmAim)


class CashNGuns:
    """The protocol's :class:`~companion.protocol.Game` for Ca$h 'n Guns."""

    id = GAME_ID
    name = "Ca$h 'n Guns (Godfather edition)"
    players = (4, 8)  # the shipped box's [players] (a test holds them equal)
    rulebook = "cash-n-guns-godfather-manual.txt"
    house_rules = HouseRules
    setup_choices: tuple[OptionInfo, ...] = ()

    def setup_from_dict(self, data: dict[str, Any]) -> Setup:
        return Setup.from_dict(data)

    def action_from_dict(self, data: Any) -> Action:
        return action_from_dict(data)

    def new_game(self, setup: Setup, files: Files) -> State:
        return new_game(setup, load_box(setup.box, files))

    def apply(self, state: State, action: Action) -> State:
        return apply(state, action)

    def legal_actions(self, state: State, player: str) -> list[Action]:
        return legal_actions(state, player)

    def waiting_for(self, state: State) -> list[Waiting]:
        return waiting_for(state)

    def roll_action(self, waiting: Waiting, faces: tuple[int, ...]) -> Action:
        raise MalformedAction("Ca$h 'n Guns has no dice: nothing is rolled")

    def is_roll(self, action: Action) -> bool:
        return False

    def chance_action(self, state: State, rng: random.Random) -> Action | None:
        return None  # the Loot deck is physical: the table enters the cards flipped

    def is_chance(self, action: Action) -> bool:
        return False

    def table_may_enter(self, action: Action) -> bool:
        # The table sees the loot flipped and where each foam gun points; a phone confirms
        # its own gun. Bullets and courage stay the player's own secret choices.
        return isinstance(action, Flip) or (isinstance(action, Aim) and action.by is AimedBy.TABLE)

    def player_may_undo(self, action: Action) -> bool:
        return isinstance(action, PLAYER_UNDOABLE)

    def is_over(self, state: State) -> bool:
        return state.is_over

    def score(self, state: State) -> dict[str, Any]:
        return score(state).to_dict()

    def player_view(self, state: State, viewer: str | None) -> dict[str, Any]:
        return player_view(state, viewer)

    def action_view(self, before: State, action: Action, viewer: str | None) -> dict[str, Any]:
        return action_view(before, action, viewer)

    def narrate(self, before: State, action: Action, after: State, viewer: str | None) -> list[str]:
        return narrate(before, action, after, viewer)

    def choices(self, state: State, viewer: str) -> list[Choice]:
        return choices(state, viewer)

    def table_data(self, state: State) -> dict[str, Any]:
        return table_data(state)

    def dice_sets(self, state: State) -> list[DiceSet]:
        return []

    def scramble(self, state: State, viewer: str | None, rng: random.Random) -> State:
        return scramble(state, viewer, rng)

    def random_action(self, state: State, rng: random.Random) -> Action:
        return random_action(state, rng)

    def score_position(self, text: str, files: Files) -> dict[str, Any]:
        return read_position(text, files).to_dict()

    def score_table(self, scores: dict[str, Any]) -> str:
        return scores_table(Scores.from_dict(scores))

    def progress(self, state: State) -> str:
        if state.is_over:
            return f"over after turn {state.turn}"
        return f"turn {state.turn} of {state.box.turns}, {state.phase.value.replace('_', ' ')}"

    def summary(self, state: State) -> str:
        return summary(state)


CASH_N_GUNS = CashNGuns()
