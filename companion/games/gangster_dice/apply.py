"""``new_game`` and ``apply``: the only ways a game of Gangster Dice changes.

``apply(state, action)`` returns the next state, or raises :class:`RuleViolation` naming the
rulebook section and the facts (or :class:`MalformedAction` for an action that names nobody at
the table); a refused action changes nothing, because states are immutable. Everything that
follows from an action by itself (the reveal once the last card is down, control of a token, a
choice with one answer, the die off the Investigator, the draws, the end of the round) happens
inside it and is listed in the new state's ``happened``.
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.gangster_dice.actions import (
    Action,
    Bid,
    ChooseCharacter,
    Load,
    PlaceOnStreets,
    Roll,
    Setup,
    Shuffle,
    Swap,
    TakeOff,
)
from companion.games.gangster_dice.characters import Character
from companion.games.gangster_dice.components import Components
from companion.games.gangster_dice.phases import bidding, round_end, setup, tokens
from companion.games.gangster_dice.state import State
from companion.protocol.errors import MalformedAction, RuleViolation


def new_game(setup_line: Setup, components: Components, characters: tuple[Character, ...]) -> State:
    """The table before the first move (Setup)."""
    return setup.new_game(setup_line, components, characters)


def apply(state: State, action: Action) -> State:
    """The state after ``action``; see the module docstring."""
    if state.is_over:
        raise RuleViolation("End of Game", "the game is over: nothing more is played")
    state = replace(state, happened=())
    match action:
        case Shuffle():
            after = setup.shuffle(state, action)
        case ChooseCharacter():
            after = setup.choose_character(state, state.seat(action.player), action)
        case Roll():
            after = bidding.roll(state, state.seat(action.player), action)
        case Bid():
            after = bidding.bid(state, state.seat(action.player), action)
        case Swap():
            after = tokens.swap(state, state.seat(action.player), action)
        case PlaceOnStreets():
            after = tokens.place_on_streets(state, state.seat(action.player), action)
        case Load():
            after = tokens.load(state, state.seat(action.player), action)
        case TakeOff():
            after = round_end.take_off(state, state.seat(action.player), action)
        case _:
            raise MalformedAction(f"not an action of Gangster Dice: {action!r}")
    return replace(after, moves=state.moves + 1)
