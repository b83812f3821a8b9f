"""The turn going round the table: whose dice it is, what comes after a move, and Jail.

A turn is a small state machine (:class:`~companion.games.monopoly.state.Step`); this module
holds the transitions every rule module shares, so none of them decides alone who rolls next.
"""

from __future__ import annotations

from dataclasses import replace
from enum import StrEnum

from companion.games.monopoly.state import EventKind, Phase, State, Step
from companion.protocol.errors import RuleViolation


def start_turn(state: State, seat: int) -> State:
    """``seat`` takes the dice: in Jail they first choose how to get out."""
    step = Step.JAIL if state.players[seat].in_jail else Step.ROLL
    return replace(
        state,
        phase=Phase.PLAY,
        turn=seat,
        step=step,
        doubles=0,
        again=False,
        pending_move=(),
        drawing=None,
        card_rent=0,
    )


def next_turn(state: State) -> State:
    """Pass the dice to the left (On Your Turn 6); a round ends when they reach the first
    player's seat again."""
    n = len(state.players)
    nxt = state.left_of(state.turn)
    gone = (nxt - state.turn) % n or n
    first = (state.first - state.turn) % n
    rounds = state.round + (0 < first <= gone)
    return start_turn(replace(state, round=rounds), nxt)


def finish_landing(state: State) -> State:
    """The space landed on is dealt with: roll again after doubles, else pass the dice."""
    me = state.players[state.turn]
    step = Step.ROLL if state.again and not me.in_jail and not me.bankrupt else Step.END
    return replace(state, step=step, drawing=None, card_rent=0)


def go_to_jail(state: State, seat: int, why: str) -> State:
    """Straight to Jail, no salary for passing GO, and the turn ends (Where Did You Land? 5)."""
    state = state.with_player(seat, position=state.board.jail, in_jail=True, jail_rolls=0)
    state = state.log(
        EventKind.JAIL, f"{state.name(seat)} goes to Jail ({why}).", seat, space=state.board.jail
    )
    return replace(state, again=False, step=Step.END, drawing=None, card_rent=0)


class Hold(StrEnum):
    """Something everyone waits for before the turn goes on, in the order they are settled."""

    DEAL = "deal"  # a proposed deal waits for its answer
    AUCTION = "auction"
    DEBT = "debt"
    FEES = "fees"  # mortgaged properties received: repay, or pay the interest
    PLACING = "placing"  # a building won at a shortage auction is to be placed


def hold(state: State) -> Hold | None:
    if state.deal is not None:
        return Hold.DEAL
    if state.auction is not None:
        return Hold.AUCTION
    if state.debts:
        return Hold.DEBT
    if state.fees:
        return Hold.FEES
    if state.placing is not None:
        return Hold.PLACING
    return None


def hold_words(state: State) -> str:
    """What the table is waiting for, as a refusal says it."""
    match hold(state):
        case Hold.DEAL:
            assert state.deal is not None
            return (
                f"{state.name(state.deal.proposer)}'s deal with "
                f"{state.name(state.deal.partner)} waits for an answer"
            )
        case Hold.AUCTION:
            assert state.auction is not None
            return f"the auction is on: {state.name(state.auction.turn)} to bid"
        case Hold.DEBT:
            d = state.debts[0]
            return f"{state.name(d.debtor)} owes ${d.amount} and must raise it or go bankrupt first"
        case Hold.FEES:
            seat, space = state.fees[0]
            return (
                f"{state.name(seat)} must first repay the mortgage on "
                f"{state.space_name(space)} or pay its interest"
            )
        case Hold.PLACING:
            assert state.placing is not None
            return f"{state.name(state.placing[0])} must first place the {state.placing[1]} won"
    return "nothing"


def require_step(state: State, seat: int, steps: tuple[Step, ...], rule: str, doing: str) -> None:
    """Refuse unless it is ``seat``'s turn, at one of ``steps``, with nothing on hold."""
    if state.phase is not Phase.PLAY:
        raise RuleViolation(
            rule, f"{doing} waits until the game is under way ({state.phase.value} now)"
        )
    if seat != state.turn:
        raise RuleViolation(
            rule,
            f"it is {state.name(state.turn)}'s turn, not "
            f"{state.name(seat)}'s: {doing} is theirs to do",
        )
    if hold(state) is not None:
        raise RuleViolation(rule, f"not yet: {hold_words(state)}")
    if state.step not in steps:
        raise RuleViolation(
            rule, f"{state.name(seat)} cannot {doing} now: {STEP_WORDS[state.step]}"
        )


STEP_WORDS = {
    Step.ROLL: "the dice are to be rolled",
    Step.JAIL: "they are in Jail and choose how to get out",
    Step.JAIL_ROLL: "they are rolling for doubles in Jail",
    Step.MOVE: "their move waits for the Jail fine",
    Step.BUY: "they decide whether to buy the property they landed on",
    Step.DRAW: "the card they drew is to be entered",
    Step.RENT_ROLL: "the dice are to be rolled for the rent",
    Step.END: "their turn is over: they pass the dice",
}


def may_manage(state: State, seat: int, rule: str, doing: str, raising: bool = False) -> None:
    """Building, mortgaging and dealing may be done at any time, even in Jail and on another
    player's turn (Don't Wait for Your Turn), but not while the table waits for something:
    then only a player raising money (``raising``: selling, mortgaging, a deal) for a debt or
    a mortgage's interest may."""
    if state.phase is not Phase.PLAY:
        raise RuleViolation(rule, f"{doing} waits until the game is under way")
    if state.players[seat].bankrupt:
        raise RuleViolation(rule, f"{state.name(seat)} is out of the game")
    h = hold(state)
    if h is None:
        return
    if raising and h is Hold.DEBT and state.debts[0].debtor == seat:
        return
    if raising and h is Hold.FEES and state.fees[0][0] == seat:
        return
    raise RuleViolation(rule, f"not now: {hold_words(state)}")
