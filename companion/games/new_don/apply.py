"""``apply(state, action)``: the only way a game moves on.

Every check happens before anything changes, and a refused action raises instead of returning,
so a rejected action leaves the caller's state exactly as it was. Rejections name the rulebook
section (the rulebook's own numbering: "Offer B.a", "Resolution B.ii.d") and the facts.
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.new_don.actions import (
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
)
from companion.games.new_don.board import Board
from companion.games.new_don.phases.cleanup import end_turn
from companion.games.new_don.phases.common import require_phase
from companion.games.new_don.phases.favors import use_favor
from companion.games.new_don.phases.offer import (
    choose_favor_spot,
    keep_dice,
    request,
    reroll,
    take_favor,
)
from companion.games.new_don.phases.resolution import bet, claim, muscle_out, my_turn, recruit
from companion.games.new_don.phases.roll import reveal_favor, roll
from companion.games.new_don.phases.setup import godfather_roll
from companion.games.new_don.phases.vegas import keep_vegas, vegas_roll
from companion.games.new_don.state import Phase, PlayerState, State
from companion.protocol.errors import MalformedAction, RuleViolation


def new_game(setup: Setup, board: Board) -> State:
    """The table before the first die is rolled (Setup)."""
    n = len(setup.seats)
    if not 3 <= n <= 6:
        raise RuleViolation("Setup", f"A New Don is played by 3 to 6 players, not {n}")
    low, high = board.players
    if not low <= n <= high:
        raise RuleViolation(
            "Setup",
            f"the board {board.name!r} is the side for {low}-{high} players, and {n} are playing",
        )
    players = tuple(
        PlayerState(
            name=s.name,
            colour=s.colour,
            house=board.soldiers_per_player - 1,  # one soldier starts in the Zero Zone
            muscle=board.muscle_track.ZERO_ZONE,
            favor_tokens=(0,) * len(board.favor_track),
        )
        for s in setup.seats
    )
    return State(
        board=board,
        rules=setup.options,
        players=players,
        phase=Phase.SETUP,
        round=1,
        godfather=None,
        neighborhoods=(None,) * len(board.neighborhoods),
        vegas=(None,) * len(board.vegas_spots),
        rolloff=tuple((i, None) for i in range(n)),
    )


def apply(state: State, action: Action) -> State:
    """The state after ``action``, or :class:`RuleViolation` / :class:`MalformedAction`."""
    if not isinstance(action, Action):
        raise MalformedAction(f"not an action: {action!r}")
    seat = state.seat(action.player)
    if state.phase is Phase.GAME_OVER:
        raise RuleViolation("Game End", "the game is over: nothing more can be played")
    return replace(_by_phase(state, seat, action), moves=state.moves + 1)


def _pass(state: State, seat: int, a: Pass) -> State:
    if state.phase is Phase.OFFER:
        return keep_dice(state, seat)
    require_phase(state, Phase.RESOLUTION, "a turn is passed")
    my_turn(state, seat, "Resolution A")
    return end_turn(state)


def _by_phase(state: State, seat: int, action: Action) -> State:
    """Hand ``action`` to the phase rule that takes it (the table in docs/engine.md)."""
    match action:
        case GodfatherRoll():
            return godfather_roll(state, seat, action)
        case VegasRoll():
            return vegas_roll(state, seat, action)
        case KeepVegas():
            return keep_vegas(state, seat, action)
        case Roll():
            return roll(state, seat, action)
        case RevealFavor():
            return reveal_favor(state, seat, action)
        case TakeFavor():
            return take_favor(state, seat, action)
        case Request():
            return request(state, seat, action)
        case ChooseFavorSpot():
            return choose_favor_spot(state, seat, action)
        case Reroll():
            return reroll(state, seat, action)
        case Pass():
            return _pass(state, seat, action)
        case Claim():
            return claim(state, seat, action)
        case MuscleOut():
            return muscle_out(state, seat, action)
        case Recruit():
            return recruit(state, seat, action)
        case Bet():
            return bet(state, seat, action)
        case UseFavor():
            return use_favor(state, seat, action)
    raise MalformedAction(f"not an action of A New Don: {action!r}")
