"""Monopoly: The Godfather edition behind the game protocol: :data:`MONOPOLY` is what the
platform sees. Every method hands over to the module where that rule lives; this file only
translates between the protocol's words and the engine's."""

from __future__ import annotations

import random
from typing import Any

from companion.games.monopoly.actions import (
    GAME_ID,
    Action,
    Draw,
    Roll,
    Setup,
    TakeDeed,
    action_from_dict,
)
from companion.games.monopoly.apply import apply
from companion.games.monopoly.data_file import DataError
from companion.games.monopoly.display import choices, table_data
from companion.games.monopoly.edition import load_edition
from companion.games.monopoly.legal import TABLE_DICE, legal_actions, waiting_for
from companion.games.monopoly.narrate import narrate
from companion.games.monopoly.playout import random_action
from companion.games.monopoly.position import read_position
from companion.games.monopoly.report import scores_table, summary
from companion.games.monopoly.rules import HouseRules
from companion.games.monopoly.scoring import score
from companion.games.monopoly.sections import Rule
from companion.games.monopoly.setup import PLAYERS, new_game
from companion.games.monopoly.state import Phase, State
from companion.games.monopoly.view import action_view, player_view, scramble
from companion.protocol.errors import MalformedAction, RuleViolation
from companion.protocol.game import Choice, DiceSet, Files, Waiting
from companion.protocol.options import OptionInfo

# A player may take back their own last move where it revealed nothing, rolled no die, drew
# no card and bound nobody else (a bid, an answer to a deal and a bankruptcy do).
PLAYER_UNDOABLE = frozenset(
    {
        "take_deed",
        "don_card",
        "buy",
        "decline",
        "build",
        "sell",
        "mortgage",
        "unmortgage",
        "keep_mortgaged",
        "pay_fine",
        "use_card",
        "try_doubles",
        "propose",
        "withdraw",
        "end_turn",
    }
)


class MonopolyGodfather:
    """The protocol's :class:`~companion.protocol.Game` for Monopoly: The Godfather edition."""

    id = GAME_ID
    name = "Monopoly: The Godfather edition"
    players = PLAYERS
    rulebook = "monopoly-godfather-rules.txt"
    house_rules = HouseRules
    setup_choices: tuple[OptionInfo, ...] = ()

    def setup_from_dict(self, data: dict[str, Any]) -> Setup:
        return Setup.from_dict(data)

    def action_from_dict(self, data: Any) -> Action:
        return action_from_dict(data)

    def new_game(self, setup: Setup, files: Files) -> State:
        try:
            edition = load_edition(files, setup.board, setup.cards, setup.dons)
        except DataError as exc:
            raise RuleViolation(Rule.SETUP, f"{exc.filename} has errors: {exc}") from None
        return new_game(setup, edition)

    def apply(self, state: State, action: Action) -> State:
        return apply(state, action)

    def legal_actions(self, state: State, player: str) -> list[Action]:
        return legal_actions(state, player)

    def waiting_for(self, state: State) -> list[Waiting]:
        return waiting_for(state)

    def roll_action(self, waiting: Waiting, faces: tuple[int, ...]) -> Action:
        if len(faces) != 2:
            raise MalformedAction(f"a roll is the two dice, not {len(faces)}")
        return Roll(waiting.player, tuple(faces))

    def chance_action(self, state: State, rng: random.Random) -> Action | None:
        return None  # the dice and the Friends and Enemies decks are on the table

    def is_chance(self, action: Action) -> bool:
        return False

    def is_roll(self, action: Action) -> bool:
        return isinstance(action, Roll)

    def table_may_enter(self, action: Action) -> bool:
        # What the whole table saw: the dice, the card turned up, a deed dealt face up. A
        # Don card is its holder's secret, and every other move is a player's own choice.
        return isinstance(action, Roll | Draw | TakeDeed)

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
        return table_data(state.edition)

    def dice_sets(self, state: State) -> list[DiceSet]:
        # Contents: 2 dice, shared by the whole table.
        return [DiceSet(TABLE_DICE, "The two dice", 2)]

    def scramble(self, state: State, viewer: str | None, rng: random.Random) -> State:
        return scramble(state, viewer, rng)

    def random_action(self, state: State, rng: random.Random) -> Action:
        return random_action(state, rng)

    def score_position(self, text: str, files: Files) -> dict[str, Any]:
        return read_position(text, files)

    def score_table(self, scores: dict[str, Any]) -> str:
        return scores_table(scores)

    def progress(self, state: State) -> str:
        if state.is_over:
            return f"over after round {state.round}"
        if state.phase is not Phase.PLAY:
            return {Phase.SETUP: "dealing", Phase.ORDER: "rolling for first player"}[state.phase]
        return f"round {state.round}, {state.name(state.turn)}'s turn"

    def summary(self, state: State) -> str:
        return summary(state, score(state))


MONOPOLY = MonopolyGodfather()
