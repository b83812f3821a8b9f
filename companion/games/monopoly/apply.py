"""``apply(state, action)``: the only way a game moves on.

Every check happens before anything changes, and a refused action raises instead of returning,
so a refused action leaves the game as it was. Refusals name the rulebook section and the
facts. After each action the Banker settles what settles itself: debts now payable are paid,
and a move waiting for its Jail fine is made once the fine is paid.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from companion.games.monopoly import (
    bankruptcy,
    buildings,
    cards,
    deals,
    mortgages,
    sales,
    setup,
    turns,
)
from companion.games.monopoly.actions import (
    Accept,
    Action,
    AskRent,
    Bankrupt,
    Bid,
    Build,
    Buy,
    Decline,
    DonCardDealt,
    Draw,
    EndTurn,
    KeepMortgaged,
    Mortgage,
    Pass,
    PayFine,
    PlayDon,
    Propose,
    Reject,
    Roll,
    Sell,
    TakeDeed,
    TryDoubles,
    Unmortgage,
    UseJailCard,
    Withdraw,
)
from companion.games.monopoly.flow import hold
from companion.games.monopoly.money import settle_debts
from companion.games.monopoly.sections import Rule
from companion.games.monopoly.state import Phase, State, Step
from companion.protocol.errors import MalformedAction, RuleViolation

Handler = Callable[[State, int, Any], State]

_HANDLERS: dict[type[Action], Handler] = {
    Roll: turns.roll,
    TakeDeed: setup.take_deed,
    DonCardDealt: setup.don_card,
    PlayDon: setup.play_don,
    Buy: sales.buy,
    Decline: sales.decline,
    Bid: sales.bid,
    Pass: sales.pass_bid,
    Draw: cards.draw,
    Build: buildings.build,
    Sell: buildings.sell,
    Mortgage: mortgages.mortgage,
    Unmortgage: mortgages.unmortgage,
    KeepMortgaged: mortgages.keep_mortgaged,
    PayFine: turns.pay_fine,
    UseJailCard: turns.use_card,
    TryDoubles: turns.try_doubles,
    AskRent: turns.ask_rent,
    Propose: deals.propose,
    Accept: deals.accept,
    Reject: deals.reject,
    Withdraw: deals.withdraw,
    Bankrupt: bankruptcy.bankrupt,
    EndTurn: turns.end_turn,
}


def apply(state: State, action: Action) -> State:
    """The state after ``action``, or :class:`RuleViolation` / :class:`MalformedAction`."""
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise MalformedAction(f"not an action of this game: {action!r}")
    seat = state.seat(action.player)
    if state.phase is Phase.OVER:
        raise RuleViolation(Rule.OVER, f"the game is over: {state.end}")
    if state.players[seat].bankrupt:
        raise RuleViolation(Rule.DEBT, f"{action.player} is bankrupt and out of the game")
    return replace(settle(handler(state, seat, action)), moves=state.moves + 1)


def settle(state: State) -> State:
    """What the Banker does without being asked: payable debts are paid; a move held for its
    Jail fine goes ahead once nothing else is waited for."""
    while True:
        state = settle_debts(state)
        if state.phase is Phase.PLAY and state.step is Step.MOVE and hold(state) is None:
            state = turns.move_after_fine(state)
            continue
        return state
