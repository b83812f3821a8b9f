"""Influence Tokens: what winning each token does, in the order the rulebook describes them
(the Lawyer, the Speakeasy, the Streets, the Investigator).

"When you win the Lawyer, the Speakeasy, or the Streets, move that token in front of your player
card to indicate that you now control it. If you already controlled it and you won it again, you
will get to activate the special effect of that token." The Investigator "works a bit
differently": won by its holder (or by anyone at the start), it moves to the winner's left; won
from another player's hands, the winner places all their dice of one colour on it.

Effects that ask the winner to choose (a swap at the Speakeasy, a die for the Streets, a colour
for the Investigator) wait in ``state.tasks`` in that order; a choice with one answer is made by
the engine. "You may never give away dice you received on the same round" (Gaining and Losing
Dice): only ``state.givable`` dice leave a stash.
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.gangster_dice.actions import Load, PlaceOnStreets, Swap
from companion.games.gangster_dice.components import TOKENS, Colour, Dice, Token
from companion.games.gangster_dice.phases.common import note, update_player
from companion.games.gangster_dice.phases.round_end import after_tokens
from companion.games.gangster_dice.state import (
    Happening,
    PendingTask,
    Phase,
    State,
    Task,
    What,
)
from companion.protocol.errors import RuleViolation

RULE = {
    Task.SWAP: "Influence Tokens: The Speakeasy",
    Task.STREETS: "Influence Tokens: The Streets",
    Task.LOAD: "Influence Tokens: The Investigator",
}
GIVING = "Gaining and Losing Dice"
MAX_SWAP = 3  # "you may exchange up to three dice from your stash"
TASK_TOKEN = {
    Task.SWAP: Token.SPEAKEASY,
    Task.STREETS: Token.STREETS,
    Task.LOAD: Token.INVESTIGATOR,
}


def influence(state: State) -> State:
    """The revealed bids' winners influence their tokens: control moves, the Investigator
    passes, and effects that need a choice are queued."""
    assert state.reveal is not None
    control = list(state.control)
    tasks: list[PendingTask] = []
    happened: list[Happening] = []
    four_for = None
    for token in TOKENS:
        winner = state.reveal.outcome(token).winner
        if winner is None:
            continue
        i = TOKENS.index(token)
        if token is Token.INVESTIGATOR:
            holder = control[i]
            if holder is None or holder == winner:
                # "if you control it and win it, move it to the player to your left"; the
                # first winner of the game moves it too, "but will not place any dice on it".
                control[i] = state.left_of(winner)
                happened.append(Happening(What.PASSED, seat=winner, token=token, other=control[i]))
            else:
                tasks.append(PendingTask(Task.LOAD, winner))
        elif control[i] == winner:
            happened.append(Happening(What.AGAIN, seat=winner, token=token))
            if token is Token.LAWYER:
                four_for = winner
            else:
                tasks.append(
                    PendingTask(Task.SWAP if token is Token.SPEAKEASY else Task.STREETS, winner)
                )
        else:
            control[i] = winner
            happened.append(Happening(What.CONTROL, seat=winner, token=token))
    state = replace(
        state, phase=Phase.TOKENS, control=tuple(control), tasks=tuple(tasks), four_for=four_for
    )
    return next_task(note(state, *happened))


def next_task(state: State) -> State:
    """Make every effect no one needs to choose for, up to the first that asks a choice; with
    none left, the round ends."""
    while state.tasks:
        head = state.tasks[0]
        givable = state.givable(head.seat)
        token = TASK_TOKEN[head.task]
        if givable.total == 0:
            state = note(_done(state), Happening(What.NOTHING, seat=head.seat, token=token))
            continue
        colours = givable.colours()
        if (
            head.task is Task.LOAD
            and len(colours) == 1
            and state.rules.investigator_load == "required"
        ):
            state = _load(_done(state), head.seat, colours[0])
            state = note(
                state,
                Happening(
                    What.LOADED, seat=head.seat, colour=colours[0], count=givable.count(colours[0])
                ),
            )
            continue
        return state
    return after_tokens(state)


def _done(state: State) -> State:
    return replace(state, tasks=state.tasks[1:])


def _check_turn(state: State, seat: int, task: Task) -> None:
    """Refuse an effect that is not the one awaited from this player."""
    rule = RULE[task]
    token = TASK_TOKEN[task]
    name = state.players[seat].name
    if state.phase is not Phase.TOKENS or not state.tasks:
        raise RuleViolation(
            rule,
            f"the effect of {token.named} is used right after the bids "
            "are revealed, by the player who won it",
            public=f"the effect of {token.named} is not being used now",
        )
    head = state.tasks[0]
    if head != PendingTask(task, seat):
        if any(t == PendingTask(task, seat) for t in state.tasks):
            waited = f"{state.name(head.seat)} uses {TASK_TOKEN[head.task].named} first"
        elif task is Task.LOAD:
            waited = f"{name} did not win {token.named} from another player this round"
        else:
            waited = f"{name} did not win {token.named} again this round"
        raise RuleViolation(rule, waited, public=waited)


def _not_givable(state: State, seat: int, dice: Dice, rule: str) -> None:
    """Refuse giving ``dice``: naming the dice received this round if that is why."""
    p = state.players[seat]
    if p.stash.covers(dice):
        raise RuleViolation(
            GIVING,
            f"{p.name} received {p.received.describe()} this round: "
            "you may never give away dice you received on the same round",
            public=f"{p.name} may not give away dice received this round",
        )
    raise RuleViolation(
        rule,
        f"{p.name}'s stash holds {p.stash.describe()}, not {dice.describe()}",
        public=f"{p.name}'s stash holds {p.stash.describe()}",
    )


def swap(state: State, seat: int, action: Swap) -> State:
    """The Speakeasy: "you may exchange up to three dice from your stash with an equal number
    of dice from this" token."""
    _check_turn(state, seat, Task.SWAP)
    rule = RULE[Task.SWAP]
    give, take = Dice.of_colours(action.give), Dice.of_colours(action.take)
    if give.total != take.total:
        raise RuleViolation(
            rule,
            f"an exchange takes as many dice as it gives: {give.total} given, {take.total} taken",
            public="an exchange takes as many dice as it gives",
        )
    if give.total > MAX_SWAP:
        raise RuleViolation(
            rule,
            f"up to three dice are exchanged, not {give.total}",
            public="up to three dice are exchanged",
        )
    if not state.givable(seat).covers(give):
        _not_givable(state, seat, give, rule)
    if not state.speakeasy.covers(take):
        raise RuleViolation(
            rule,
            f"the Speakeasy holds {state.speakeasy.describe()}, not {take.describe()}",
            public=f"the Speakeasy holds {state.speakeasy.describe()}",
        )
    p = state.players[seat]
    state = update_player(
        state, seat, replace(p, stash=p.stash - give + take, received=p.received + take)
    )
    return next_task(replace(_done(state), speakeasy=state.speakeasy - take + give))


def place_on_streets(state: State, seat: int, action: PlaceOnStreets) -> State:
    """The Streets: "you may place any one die from your stash on top of it"."""
    _check_turn(state, seat, Task.STREETS)
    if action.colour is None:
        return next_task(_done(state))
    die = Dice.of_colours([action.colour])
    if not state.givable(seat).covers(die):
        _not_givable(state, seat, die, RULE[Task.STREETS])
    p = state.players[seat]
    state = update_player(state, seat, replace(p, stash=p.stash - die))
    return next_task(replace(_done(state), streets=state.streets + die))


def load(state: State, seat: int, action: Load) -> State:
    """The Investigator: "choose a color and place all dice of that color from your stash on
    top of it" (all that may be given away: not those received this round)."""
    _check_turn(state, seat, Task.LOAD)
    rule = RULE[Task.LOAD]
    if action.colour is None:
        if state.rules.investigator_load == "required":
            raise RuleViolation(
                rule,
                "choose a color and place all dice of that color from "
                "your stash on top of it (house rule investigator_load: "
                "required)",
                public="a colour must be chosen",
            )
        return next_task(_done(state))
    if state.givable(seat).count(action.colour) == 0:
        _not_givable(state, seat, Dice.of_colours([action.colour]), rule)
    return next_task(_load(_done(state), seat, action.colour))


def _load(state: State, seat: int, colour: Colour) -> State:
    n = state.givable(seat).count(colour)
    p = state.players[seat]
    state = update_player(state, seat, replace(p, stash=p.stash.plus(colour, -n)))
    return replace(state, investigator=state.investigator.plus(colour, n))
