"""The Godfather Game (1971) behind the game protocol: :data:`GODFATHER_1971` is what the
platform sees. Each method hands over to the module where that rule lives (see apply.py);
this file only translates between the protocol's words and the game's."""

from __future__ import annotations

import random
from typing import Any

from companion.games.godfather_1971.actions import (
    GAME_ID,
    Action,
    Draw,
    Roll,
    Setup,
    Shuffle,
    action_from_dict,
)
from companion.games.godfather_1971.apply import PLAYERS, apply, new_game
from companion.games.godfather_1971.board import load_board
from companion.games.godfather_1971.data import DataError
from companion.games.godfather_1971.display import choices, table_data
from companion.games.godfather_1971.legal import DICE, legal_actions, waiting_for
from companion.games.godfather_1971.narrate import narrate
from companion.games.godfather_1971.playout import chance_action, random_action
from companion.games.godfather_1971.report import progress, summary
from companion.games.godfather_1971.rules import HouseRules
from companion.games.godfather_1971.scoring import score, score_position, score_table
from companion.games.godfather_1971.state import Cards, State
from companion.games.godfather_1971.view import action_view, player_view, scramble
from companion.protocol.errors import RuleViolation
from companion.protocol.game import Choice, DiceSet, Files, Waiting
from companion.protocol.options import OptionInfo

# A player may take back their own last move where it revealed nothing and rolled no die:
# a placement, a Fingerman's removal, a piece given up or sold, a declaration, and the card
# they entered as drawn (a typing slip); not a roll, a card played, or the end of a turn
# (which deals a card when the companion keeps the decks).
PLAYER_UNDOABLE = frozenset(
    {"place", "finger", "end_fingerman", "give_up", "sell", "declare", "draw"}
)


class Godfather1971:
    """The protocol's :class:`~companion.protocol.Game` for The Godfather Game (1971)."""

    id = GAME_ID
    name = "The Godfather Game (1971)"
    players = PLAYERS
    rulebook = "godfather-game-1971-rules.txt"
    house_rules = HouseRules
    setup_choices = (
        OptionInfo(
            "neighborhoods",
            (None, 6, 4, 3, 2),
            None,
            "the short game: play on all eight neighborhoods, or on the 6, 4, 3 or 2 "
            "with the fewest positions",
        ),
        OptionInfo(
            "cards",
            tuple(c.value for c in Cards),
            Cards.PHYSICAL.value,
            "physical: the table's own cards, each player taps the card they drew; "
            "companion: the companion shuffles and deals the decks (nobody touches "
            "a card)",
        ),
    )

    def setup_from_dict(self, data: dict[str, Any]) -> Setup:
        return Setup.from_dict(data)

    def action_from_dict(self, data: Any) -> Action:
        return action_from_dict(data)

    def new_game(self, setup: Setup, files: Files) -> State:
        try:
            board = load_board(files, setup.neighborhoods, setup.traced)
        except (DataError, OSError) as exc:
            raise RuleViolation("The Board", f"cannot read the board: {exc}") from None
        if isinstance(setup.neighborhoods, tuple):
            missing = set(setup.neighborhoods) - {layout.id for layout in board.layouts}
            if missing:
                raise RuleViolation(
                    "The Board", f"no neighborhood {', '.join(sorted(missing))} on the board"
                )
        return new_game(setup, board)

    def apply(self, state: State, action: Action) -> State:
        return apply(state, action)

    def legal_actions(self, state: State, player: str) -> list[Action]:
        return legal_actions(state, player)

    def waiting_for(self, state: State) -> list[Waiting]:
        return waiting_for(state)

    def roll_action(self, waiting: Waiting, faces: tuple[int, ...]) -> Action:
        return Roll(waiting.player, tuple(faces))

    def chance_action(self, state: State, rng: random.Random) -> Action | None:
        return chance_action(state, rng)

    def is_chance(self, action: Action) -> bool:
        return isinstance(action, Shuffle)

    def is_roll(self, action: Action) -> bool:
        return isinstance(action, Roll)

    def table_may_enter(self, action: Action) -> bool:
        # Everything here happens in front of the table: the dice, the card played and the
        # Break card (face up), the pieces bought, placed, removed, given up or sold, a
        # declaration, the end of a turn; and none of it is legal or not by a secret. Only
        # the card a player draws is theirs alone.
        return not isinstance(action, Draw | Shuffle)

    def player_may_undo(self, action: Action) -> bool:
        return action.TYPE in PLAYER_UNDOABLE

    def is_over(self, state: State) -> bool:
        return state.is_over

    def score(self, state: State) -> dict[str, Any]:
        return score(state)

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
        # Equipment: "A pair of playing dice", shared by the table.
        return [DiceSet(DICE, "the pair of dice", 2)]

    def scramble(self, state: State, viewer: str | None, rng: random.Random) -> State:
        return scramble(state, viewer, rng)

    def random_action(self, state: State, rng: random.Random) -> Action:
        return random_action(state, rng)

    def score_position(self, text: str, files: Files) -> dict[str, Any]:
        return score_position(text, files)

    def score_table(self, scores: dict[str, Any]) -> str:
        return score_table(scores)

    def progress(self, state: State) -> str:
        return progress(state)

    def summary(self, state: State) -> str:
        return summary(state)


GODFATHER_1971 = Godfather1971()
