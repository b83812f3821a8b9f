"""Gangster Dice behind the game protocol: :data:`GANGSTER_DICE` is what the platform sees.

Every method hands over to the module where that rule lives (docs/gangster-dice.md); this file
only translates between the protocol's words and the engine's. ``chance_action`` and
``is_chance`` are not in the protocol yet: they are what the table service needs to draw a
shuffle itself (docs/gangster-dice.md, "The shuffle at a live table").
"""

from __future__ import annotations

import random
from typing import Any

from companion.games.gangster_dice.actions import (
    CHARACTERS_VALUES,
    GAME_ID,
    Action,
    CardsMode,
    Roll,
    Setup,
    Shuffle,
    action_from_dict,
)
from companion.games.gangster_dice.apply import apply, new_game
from companion.games.gangster_dice.characters import CHARACTERS_FILE, parse_characters
from companion.games.gangster_dice.components import (
    COMPONENTS_FILE,
    Components,
    Dice,
    parse_components,
)
from companion.games.gangster_dice.display import choices, table_data
from companion.games.gangster_dice.legal import dice_of_ask, legal_actions, waiting_for
from companion.games.gangster_dice.narrate import narrate
from companion.games.gangster_dice.playout import chance_action, random_action
from companion.games.gangster_dice.rules import HouseRules
from companion.games.gangster_dice.scoring import score, score_position, score_table, summary
from companion.games.gangster_dice.state import State
from companion.games.gangster_dice.view import action_view, player_view, scramble
from companion.protocol.errors import MalformedAction
from companion.protocol.game import PIPS, Choice, DiceSet, Files, Waiting
from companion.protocol.options import OptionInfo


def load_components(files: Files) -> Components:
    return parse_components(files.shipped(COMPONENTS_FILE))


class GangsterDice:
    """The protocol's :class:`~companion.protocol.Game` for Gangster Dice."""

    id = GAME_ID
    name = "Gangster Dice"
    players = (2, 4)
    rulebook = "gangster-dice-rulebook.txt"
    house_rules = HouseRules
    setup_choices = (
        OptionInfo(
            "cards",
            tuple(m.value for m in CardsMode),
            CardsMode.COMPANION.value,
            "who holds the cards: the companion deals every hand onto the phones "
            "(companion), or players keep their real cards and enter what they reveal "
            "(physical)",
        ),
        OptionInfo(
            "characters",
            CHARACTERS_VALUES,
            CHARACTERS_VALUES[0],
            "off: the tutorial game (three favor cards each); on: each player plays a "
            "character card (its ability is shown, not enforced)",
        ),
    )

    def setup_from_dict(self, data: dict[str, Any]) -> Setup:
        return Setup.from_dict(data)

    def action_from_dict(self, data: Any) -> Action:
        return action_from_dict(data)

    def new_game(self, setup: Setup, files: Files) -> State:
        characters = parse_characters(files.shipped(CHARACTERS_FILE)) if setup.characters else ()
        return new_game(setup, load_components(files), characters)

    def apply(self, state: State, action: Action) -> State:
        return apply(state, action)

    def legal_actions(self, state: State, player: str) -> list[Action]:
        return legal_actions(state, player)

    def waiting_for(self, state: State) -> list[Waiting]:
        return waiting_for(state)

    def roll_action(self, waiting: Waiting, faces: tuple[int, ...]) -> Action:
        """Face numbers 1-6 for the dice in the order the request lists them (white, red,
        blue: ``DiceRequest.ask`` says how many of each); ``apply`` reads each as its symbol."""
        if waiting.dice is None:
            raise MalformedAction("that is not a roll")
        dice = dice_of_ask(waiting.dice.ask).listed()
        if len(faces) != len(dice):
            raise MalformedAction(f"the roll is of {len(dice)} dice, not {len(faces)}")
        if not all(f in PIPS for f in faces):
            raise MalformedAction("a face number is 1 to 6")
        return Roll(waiting.player, tuple(zip(dice, faces, strict=True)))

    def is_roll(self, action: Action) -> bool:
        return isinstance(action, Roll)

    def player_may_undo(self, action: Action) -> bool:
        # A bid is changed by bidding again until the last card is down (the last one reveals
        # every bid at once); effects and rolls are on the table for all to see.
        return False

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
        # Dice move between players all game, so each player's set is as large as a stash can
        # be: every die but the Speakeasy's (what simulated dice need). Pip readers (camera,
        # smart dice) cannot read these dice's symbols: rolls come from phones or simulation.
        c = state.components
        most = c.all_dice.total - Dice.each(c.on_speakeasy).total
        return [DiceSet(p.name, f"{p.name}'s dice", most) for p in state.players]

    def scramble(self, state: State, viewer: str | None, rng: random.Random) -> State:
        return scramble(state, viewer, rng)

    def random_action(self, state: State, rng: random.Random) -> Action:
        return random_action(state, rng)

    def chance_action(self, state: State, rng: random.Random) -> Action | None:
        return chance_action(state, rng)

    def table_may_enter(self, action: Action) -> bool:
        return False  # bids, favors and dice given away are each player's own choice

    def is_chance(self, action: Action) -> bool:
        return isinstance(action, Shuffle)

    def score_position(self, text: str, files: Files) -> dict[str, Any]:
        return score_position(text, load_components(files))

    def score_table(self, scores: dict[str, Any]) -> str:
        return score_table(scores)

    def progress(self, state: State) -> str:
        if state.is_over:
            return f"over after round {state.round}"
        if state.round == 0:
            return "setting up"
        return f"round {state.round}, {state.phase.value}"

    def summary(self, state: State) -> str:
        return summary(state)


GANGSTER_DICE = GangsterDice()
