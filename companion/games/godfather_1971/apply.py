"""The one way a game changes: :func:`apply` checks whose turn and which step it is, hands the
action to the module where its rule lives, and counts the move. A refused action raises
(:class:`RuleViolation` naming the rulebook section, or :class:`MalformedAction`) and changes
nothing: states are immutable.

| rulebook | module |
|---|---|
| Preparation, To Start, The Play A and D, The Cards | ``turns.py`` |
| The Play B and C (buying, positioning) | ``placing.py`` |
| Fighting for Control (surrounding, no suicide) | ``fight.py`` |
| CONTROL, the one-turn check | ``control.py`` |
| closing, stalemates, the declared version | ``closing.py`` |
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.godfather_1971 import turns
from companion.games.godfather_1971.actions import (
    Action,
    BreakCard,
    Declare,
    Draw,
    EndFingerman,
    EndTurn,
    Finger,
    GiveUp,
    Place,
    PlayCard,
    Roll,
    Sell,
    Setup,
    Shuffle,
)
from companion.games.godfather_1971.board import Board
from companion.games.godfather_1971.closing import challenges, declare
from companion.games.godfather_1971.placing import apply_place, hood_index
from companion.games.godfather_1971.state import Cards, Hood, Player, State, Step
from companion.protocol.errors import RuleViolation

PLAYERS = (2, 4)  # Preparation: "The game may be played by two, three, or four Players."

# Which step each action belongs to; the active player acts in every step but the first two.
STEPS: dict[type, tuple[Step, ...]] = {
    Shuffle: (Step.SHUFFLE,),
    Roll: (Step.ROLL_FOR_FIRST, Step.BREAKS_ROLL),
    PlayCard: (Step.PLAY_CARD,),
    BreakCard: (Step.BREAK_CARD,),
    Finger: (Step.FINGERMAN,),
    EndFingerman: (Step.FINGERMAN,),
    GiveUp: (Step.LOSE_PIECES, Step.PENALTY),
    Sell: (Step.SELL,),
    Place: (Step.PLACE,),
    Declare: (Step.PLACE,),
    EndTurn: (Step.PLACE,),
    Draw: (Step.DRAW,),
}
STEP_WORDS = {
    Step.SHUFFLE: "the decks to be shuffled",
    Step.ROLL_FOR_FIRST: "the roll for the first turn",
    Step.PLAY_CARD: "the held card to be played",
    Step.BREAKS_ROLL: "the Breaks of the Game roll",
    Step.BREAK_CARD: "the Break card drawn",
    Step.FINGERMAN: "the Fingerman's removals",
    Step.LOSE_PIECES: "the pieces a Bad Break takes",
    Step.SELL: "pieces converted to pay a Bad Break",
    Step.PENALTY: "the piece declared CONTROL costs",
    Step.PLACE: "pieces to be bought and positioned",
    Step.DRAW: "the card drawn for the next turn",
    Step.OVER: "nothing: the game is over",
}


def new_game(setup: Setup, board: Board) -> State:
    """Preparation: $3,000 each, an empty board, the decks (shuffled by the table first when
    the companion keeps them)."""
    n = len(setup.seats)
    if not PLAYERS[0] <= n <= PLAYERS[1]:
        raise RuleViolation("Preparation", f"the game is for two, three or four players, not {n}")
    if not board.layouts:
        raise RuleViolation("Preparation", "no neighborhood is in play")
    state = State(
        board=board,
        rules=setup.options,
        cards=setup.cards,
        players=tuple(Player(s.name, s.colour, turns.START_CASH) for s in setup.seats),
        hoods=tuple(Hood((0,) * n) for _ in board.layouts),
        step=Step.SHUFFLE,
    )
    if setup.cards is Cards.COMPANION:
        return state
    return turns.after_setup(state)


def apply(state: State, action: Action) -> State:
    """The state after ``action``, or the refusal."""
    seat = state.seat(action.player)
    steps = STEPS[type(action)]
    if state.step not in steps:
        raise RuleViolation(
            _rule(state),
            f"the game is waiting for {STEP_WORDS[state.step]}, "
            f"not a {action.TYPE.replace('_', ' ')}",
        )
    if state.step is Step.SHUFFLE:
        if seat != 0:
            raise RuleViolation(
                "Preparation", f"{state.name(0)}, the first seat, enters the shuffle"
            )
    elif state.step is not Step.ROLL_FOR_FIRST and state.active != seat:
        who = state.name(state.active) if state.active is not None else "nobody"
        raise RuleViolation("The Play", f"it is {who}'s turn")
    before_rulings = state.rulings
    state = replace(state, rulings=())
    after = _dispatch(state, action)
    moves = state.moves + 1
    if after.rulings:
        return replace(after, moves=moves, ruled_at=moves)
    return replace(after, moves=moves, rulings=before_rulings)


def _dispatch(state: State, action: Action) -> State:
    if isinstance(action, Shuffle):
        return turns.shuffle(state, action)
    if isinstance(action, Roll):
        if state.step is Step.ROLL_FOR_FIRST:
            return turns.roll_for_first(state, action)
        return turns.breaks_roll(state, action)
    if isinstance(action, PlayCard):
        return turns.play_card(state, action)
    if isinstance(action, BreakCard):
        return turns.break_card(state, action)
    if isinstance(action, Finger):
        return turns.finger(state, action)
    if isinstance(action, EndFingerman):
        return turns.end_fingerman(state, action)
    if isinstance(action, GiveUp):
        return turns.give_up(state, action)
    if isinstance(action, Sell):
        return turns.sell(state, action)
    if isinstance(action, Place):
        return _place(state, action)
    if isinstance(action, Declare):
        return declare(state, hood_index(state, action.neighborhood))
    if isinstance(action, EndTurn):
        return turns.end_turn(state, action)
    return turns.draw(state, action)


def _place(state: State, action: Place) -> State:
    after = apply_place(state, action)
    i = hood_index(state, action.neighborhood)
    layout = state.board.layouts[i]
    move = layout.mask(action.positions)
    return challenges(state, after, i, move)


def _rule(state: State) -> str:
    if state.step in (Step.SHUFFLE, Step.ROLL_FOR_FIRST):
        return "To Start"
    return "The Play"
