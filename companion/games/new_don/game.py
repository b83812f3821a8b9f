"""The Godfather: A New Don behind the game protocol: :data:`NEW_DON` is what the platform sees.

Every method hands over to the module where that rule lives (the table in docs/engine.md);
this file only translates between the protocol's words and the engine's.
"""

from __future__ import annotations

import random
from typing import Any

from companion.games.new_don.actions import (
    GAME_ID,
    Action,
    GodfatherRoll,
    Roll,
    Setup,
    VegasRoll,
    action_from_dict,
)
from companion.games.new_don.apply import apply, new_game
from companion.games.new_don.boards import SHIPPED, load_board
from companion.games.new_don.display import board_json, choices
from companion.games.new_don.legal import VEGAS, legal_actions, waiting_for
from companion.games.new_don.narrate import narrate
from companion.games.new_don.playout import random_action
from companion.games.new_don.position import read_position
from companion.games.new_don.report import scores_table, summary
from companion.games.new_don.rulebook import rulebook_json
from companion.games.new_don.rules import HouseRules
from companion.games.new_don.scoring import Scores, score
from companion.games.new_don.state import State
from companion.games.new_don.view import action_view, player_view, scramble
from companion.protocol.game import Choice, DiceSet, Files, Waiting
from companion.protocol.options import OptionInfo

# A player may take back their own last move only where it revealed nothing and rolled no die
# (the BGA undo policy): a roll, an offer's answer or a shown favor cannot be taken back.
PLAYER_UNDOABLE = frozenset(
    {
        "keep_vegas",
        "choose_favor_spot",
        "reroll",
        "pass",
        "claim",
        "muscle_out",
        "recruit",
        "bet",
        "favor",
    }
)


class NewDon:
    """The protocol's :class:`~companion.protocol.Game` for A New Don."""

    id = GAME_ID
    name = "The Godfather: A New Don"
    players = (3, 6)
    rulebook = "new-don-rulebook.txt"
    house_rules = HouseRules
    setup_choices = (
        OptionInfo(
            "board",
            (None, *SHIPPED),
            None,
            "the board side: the one for the number of players, or 3-4 or 5-6",
        ),
    )

    def setup_from_dict(self, data: dict[str, Any]) -> Setup:
        return Setup.from_dict(data)

    def action_from_dict(self, data: Any) -> Action:
        return action_from_dict(data)

    def new_game(self, setup: Setup, files: Files) -> State:
        return new_game(setup, load_board(setup.board, len(setup.seats), files))

    def apply(self, state: State, action: Action) -> State:
        return apply(state, action)

    def legal_actions(self, state: State, player: str) -> list[Action]:
        return legal_actions(state, player)

    def waiting_for(self, state: State) -> list[Waiting]:
        return waiting_for(state)

    def roll_action(self, waiting: Waiting, faces: tuple[int, ...]) -> Action:
        if waiting.does == "godfather_roll":
            return GodfatherRoll(waiting.player, faces[0])
        if waiting.does == "vegas_roll":
            return VegasRoll(waiting.player, faces)
        return Roll(waiting.player, faces)

    def chance_action(self, state: State, rng: random.Random) -> Action | None:
        return None  # all of A New Don's chance is the physical dice

    def is_chance(self, action: Action) -> bool:
        return False

    def is_roll(self, action: Action) -> bool:
        return isinstance(action, Roll | VegasRoll | GodfatherRoll)

    def table_may_enter(self, action: Action) -> bool:
        return False  # every move of A New Don is a player's own choice

    def player_may_undo(self, action: Action) -> bool:
        return action.TYPE in PLAYER_UNDOABLE

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
        # The printed board, and the printed rulebook: the web quotes a refusal's rule from it.
        return {**board_json(state.board), "rulebook": rulebook_json()}

    def dice_sets(self, state: State) -> list[DiceSet]:
        # Setup: "each player takes the five dice in their color", and "the three red dice".
        board = state.board
        sets = [
            DiceSet(
                p.colour or p.name,
                f"{p.name} ({p.colour})" if p.colour else p.name,
                board.dice_per_player,
            )
            for p in state.players
        ]
        sets.append(DiceSet(VEGAS, "Vegas (the three red dice)", board.vegas_dice, "red die"))
        return sets

    def scramble(self, state: State, viewer: str | None, rng: random.Random) -> State:
        return scramble(state, viewer, rng)

    def random_action(self, state: State, rng: random.Random) -> Action:
        return random_action(state, rng)

    def score_position(self, text: str, files: Files) -> dict[str, Any]:
        return read_position(text, files).score().to_dict()

    def score_table(self, scores: dict[str, Any]) -> str:
        return scores_table(Scores.from_dict(scores))

    def progress(self, state: State) -> str:
        if state.is_over:
            return f"over after round {state.round}"
        return f"round {state.round}, {state.phase.value.replace('_', ' ')} phase"

    def summary(self, state: State) -> str:
        return summary(state)


NEW_DON = NewDon()
