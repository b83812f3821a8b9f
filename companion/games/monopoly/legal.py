"""What can be done now: ``legal_actions`` (choices) and ``waiting_for`` (who, and for what).

Rolls are chance, not choice: ``waiting_for`` asks for the two dice and a ``roll`` answers.
Everything ``legal_actions`` returns is accepted by ``apply`` (the property tests check it).
Two kinds of choice are open-ended and listed only in part: a bid may be any amount above the
highest bid up to the bidder's cash (a few are listed), and a deal is drafted on the phone
(none is listed; ``player_view`` says what each player can trade).
"""

from __future__ import annotations

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
    Reject,
    Sell,
    TakeDeed,
    TryDoubles,
    Unmortgage,
    UseJailCard,
    Withdraw,
)
from companion.games.monopoly.buildings import why_not_build, why_not_sell
from companion.games.monopoly.cards import drawable
from companion.games.monopoly.deals import check_deal
from companion.games.monopoly.flow import Hold, hold
from companion.games.monopoly.money import liquidation_value
from companion.games.monopoly.mortgages import repay_cost, why_not_mortgage
from companion.games.monopoly.setup import dealing_done
from companion.games.monopoly.state import Phase, State, Step
from companion.protocol.errors import RuleViolation
from companion.protocol.game import DiceRequest, Waiting

TABLE_DICE = "table-dice"  # the two dice everyone rolls (DiceRequest.pools)
BID_STEPS = (1, 10, 50, 100)  # the bids a phone offers above the highest one


def bids(state: State, seat: int) -> list[int]:
    """A few bids ``seat`` could make (any amount from the lowest to their cash is legal)."""
    a = state.auction
    assert a is not None
    cash = state.players[seat].cash
    return sorted({a.high_bid + step for step in BID_STEPS if a.high_bid + step <= cash})


def raising_actions(state: State, seat: int) -> list[Action]:
    """Selling buildings and mortgaging: what raises money from the Bank."""
    name = state.name(seat)
    out: list[Action] = []
    for space in state.owned_by(seat):
        if why_not_sell(state, seat, space) is None:
            out.append(Sell(name, space))
        if why_not_mortgage(state, seat, space) is None:
            out.append(Mortgage(name, space))
    return out


def managing_actions(state: State, seat: int) -> list[Action]:
    """What a player may do at any time the table waits for nothing: build, sell, mortgage,
    repay, ask for rent."""
    name = state.name(seat)
    cash = state.players[seat].cash
    out: list[Action] = []
    for space in state.owned_by(seat):
        if (
            why_not_build(state, seat, space) is None
            and cash >= state.board.spaces[space].building_cost
        ):
            out.append(Build(name, space))
        if state.holding(space).mortgaged and cash >= repay_cost(state, space):
            out.append(Unmortgage(name, space))
    out += raising_actions(state, seat)
    out += [AskRent(name, c.space) for c in state.claims if c.owner == seat]
    return out


def _turn_actions(state: State, seat: int) -> list[Action]:
    name = state.name(seat)
    me = state.players[seat]
    match state.step:
        case Step.JAIL:
            out: list[Action] = [TryDoubles(name)]
            if me.cash >= state.board.bank.jail_fine:
                out.insert(0, PayFine(name))
            if me.jail_cards:
                out.insert(0, UseJailCard(name))
            return out
        case Step.BUY:
            space = me.position
            buy = [Buy(name, space)] if me.cash >= state.board.spaces[space].price else []
            return [*buy, Decline(name, space)]
        case Step.DRAW:
            return [Draw(name, c.id) for c in drawable(state)]
        case Step.END:
            return [EndTurn(name)]
    return []


def _valid(state: State) -> bool:
    assert state.deal is not None
    try:
        check_deal(state, state.deal)
    except RuleViolation:
        return False
    return True


def legal_actions(state: State, player: str) -> list[Action]:
    """Every choice ``player`` may make now (bids and deals in part: see the module)."""
    seat = state.seat(player)
    me = state.players[seat]
    if state.phase is Phase.OVER or me.bankrupt:
        return []
    if state.phase is Phase.SETUP:
        out: list[Action] = []
        if state.rules.speed_play and len(state.owned_by(seat)) < state.board.bank.speed_deeds:
            out += [
                TakeDeed(player, i)
                for i in state.board.properties
                if state.holding(i).owner is None
            ]
        if state.rules.don_cards and me.don is None:
            out += [DonCardDealt(player, d.id) for d in state.edition.dons]
        return out
    if state.phase is not Phase.PLAY:
        return []
    out = _held_actions(state, seat)
    if me.don is not None and not me.don_played:
        out.append(PlayDon(player))
    return out


def _held_actions(state: State, seat: int) -> list[Action]:
    name = state.name(seat)
    match hold(state):
        case Hold.DEAL:
            assert state.deal is not None
            if seat == state.deal.partner:
                return [Accept(name), Reject(name)] if _valid(state) else [Reject(name)]
            return [Withdraw(name)] if seat == state.deal.proposer else []
        case Hold.AUCTION:
            assert state.auction is not None
            if seat != state.auction.turn:
                return []
            return [*(Bid(name, b) for b in bids(state, seat)), Pass(name)]
        case Hold.DEBT:
            debt = state.debts[0]
            if seat != debt.debtor:
                return []
            out = raising_actions(state, seat)
            if liquidation_value(state, seat) < debt.amount:
                out.append(Bankrupt(name))
            return out
        case Hold.FEES:
            who, space = state.fees[0]
            if seat != who:
                return []
            out = [KeepMortgaged(name, space)]
            if state.players[seat].cash >= repay_cost(state, space):
                out.insert(0, Unmortgage(name, space))
            return out + raising_actions(state, seat)
        case Hold.PLACING:
            assert state.placing is not None
            placer, building = state.placing
            if seat != placer:
                return []
            return [
                Build(name, i)
                for i in state.owned_by(seat)
                if state.next_building(i) == building and why_not_build(state, seat, i) is None
            ]
    out = _turn_actions(state, seat) if seat == state.turn else []
    return out + managing_actions(state, seat)


def _roll(state: State, seat: int, prompt: str) -> Waiting:
    # ``rolls`` changes exactly when a roll is applied, so other moves never make it stale.
    return Waiting(
        state.name(seat),
        "roll",
        DiceRequest(2, (TABLE_DICE,), ask=f"roll-{state.rolls}", prompt=prompt),
    )


def waiting_for(state: State) -> list[Waiting]:
    """Who the game waits on now, and for what (several players only while dealing)."""
    if state.phase is Phase.OVER:
        return []
    if state.phase is Phase.SETUP:
        out: list[Waiting] = []
        for i, p in enumerate(state.players):
            if dealing_done(state, i):
                continue
            if state.rules.speed_play and len(state.owned_by(i)) < state.board.bank.speed_deeds:
                out.append(Waiting(p.name, "deeds"))
            if state.rules.don_cards and p.don is None:
                out.append(Waiting(p.name, "don_card"))
        return out
    if state.phase is Phase.ORDER:
        seat = next(s for s, total in state.rolloff if total is None)
        return [_roll(state, seat, "Roll the two dice: the highest roll goes first")]
    match hold(state):
        case Hold.DEAL:
            assert state.deal is not None
            return [Waiting(state.name(state.deal.partner), "answer_deal")]
        case Hold.AUCTION:
            assert state.auction is not None
            return [Waiting(state.name(state.auction.turn), "bid")]
        case Hold.DEBT:
            return [Waiting(state.name(state.debts[0].debtor), "raise_cash")]
        case Hold.FEES:
            return [Waiting(state.name(state.fees[0][0]), "mortgage_fees")]
        case Hold.PLACING:
            assert state.placing is not None
            return [Waiting(state.name(state.placing[0]), "place_building")]
    seat = state.turn
    match state.step:
        case Step.ROLL:
            return [_roll(state, seat, "Roll the two dice")]
        case Step.JAIL_ROLL:
            return [_roll(state, seat, "Roll the two dice: doubles get you out of Jail")]
        case Step.RENT_ROLL:
            return [_roll(state, seat, "Roll the two dice for the rent")]
        case Step.JAIL:
            return [Waiting(state.name(seat), "jail")]
        case Step.BUY:
            return [Waiting(state.name(seat), "buy")]
        case Step.DRAW:
            return [Waiting(state.name(seat), "draw")]
        case Step.END:
            return [Waiting(state.name(seat), "end_turn")]
    return []
