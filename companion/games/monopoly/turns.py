"""A turn: roll the two dice, move, deal with the space landed on, doubles, Jail, pass the dice
(On Your Turn, Where Did You Land?, How to Play 5, Q: How do I get out of Jail?).

The dice are the physical dice on the table: a ``roll`` action says what they show. Landing on
a property nobody owns waits for the player to buy or decline (:mod:`.sales`), on Friends or
Enemies for the card they drew (:mod:`.cards`); everything else the Banker settles at once.
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.monopoly.actions import (
    AskRent,
    EndTurn,
    PayFine,
    Roll,
    TryDoubles,
    UseJailCard,
)
from companion.games.monopoly.board import Kind
from companion.games.monopoly.flow import (
    finish_landing,
    go_to_jail,
    may_manage,
    next_turn,
    require_step,
)
from companion.games.monopoly.money import charge
from companion.games.monopoly.rent import rent_due, rent_words
from companion.games.monopoly.sections import Rule
from companion.games.monopoly.setup import order_roll
from companion.games.monopoly.state import EventKind, Phase, RentClaim, State, Step
from companion.protocol.errors import MalformedAction, RuleViolation


def dice_words(dice: tuple[int, ...]) -> str:
    return f"{dice[0]} and {dice[1]}" + (" (doubles)" if dice[0] == dice[1] else "")


def roll(state: State, seat: int, action: Roll) -> State:
    """The dice as they fell, for whatever the game was waiting on."""
    dice = action.dice
    if len(dice) != 2 or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
        raise MalformedAction(f"roll: dice must be the two dice, each 1-6, not {list(dice)}")
    if state.phase is Phase.ORDER:
        return order_roll(state, seat, dice)
    if state.phase is Phase.PLAY and state.step is Step.RENT_ROLL:
        require_step(state, seat, (Step.RENT_ROLL,), Rule.RENT, "roll for the rent")
        return _rent_roll(_rolled(state, seat, dice, "for the rent"), seat)
    if state.phase is Phase.PLAY and state.step is Step.JAIL_ROLL:
        require_step(state, seat, (Step.JAIL_ROLL,), Rule.JAIL, "roll for doubles")
        return _jail_roll(_rolled(state, seat, dice, "for doubles"), seat)
    require_step(state, seat, (Step.ROLL,), Rule.TURN, "roll the dice")
    return _move_roll(_rolled(state, seat, dice, ""), seat)


def _rolled(state: State, seat: int, dice: tuple[int, ...], purpose: str) -> State:
    """A new roll: what the table screen shows starts again, and rent nobody asked for is
    lost once another player rolls (Where Did You Land? 2)."""
    claims = tuple(c for c in state.claims if c.payer == seat)
    state = replace(state, dice=dice, rolls=state.rolls + 1, events=(), claims=claims)
    text = f"{state.name(seat)} rolls {dice_words(dice)}" + (f" {purpose}" if purpose else "")
    return state.log(EventKind.ROLL, text + ".", seat, sum(dice))


def _move_roll(state: State, seat: int) -> State:
    doubles = state.dice[0] == state.dice[1]
    count = state.doubles + doubles
    if doubles and count == 3:  # How to Play 5: three doubles in one turn
        return go_to_jail(state, seat, "doubles three times in one turn")
    return advance(replace(state, doubles=count, again=doubles), seat, sum(state.dice))


def advance(state: State, seat: int, steps: int, by_card: bool = False) -> State:
    """Move ``steps`` spaces clockwise, collect the salary for reaching or passing GO, and
    deal with the space."""
    size = len(state.board.spaces)
    start = state.players[seat].position
    to = (start + steps) % size
    state = state.with_player(seat, position=to)
    state = state.log(
        EventKind.MOVE,
        f"{state.name(seat)} moves {steps} to {state.space_name(to)}.",
        seat,
        steps,
        to,
    )
    if start + steps >= size:
        salary = state.board.bank.salary
        state = state.pay(seat, -salary)
        state = state.log(
            EventKind.SALARY,
            f"{state.name(seat)} {'lands on' if to == 0 else 'passes'} GO and collects ${salary}.",
            seat,
            salary,
            0,
        )
    return land(state, seat, by_card)


def land(state: State, seat: int, by_card: bool = False) -> State:
    """Where Did You Land? (``by_card``: a card moved the player, so Cops & Politicians'
    rent needs its own roll of the dice)."""
    space = state.players[seat].position
    s = state.board.spaces[space]
    match s.kind:
        case Kind.GO_TO_JAIL:
            return go_to_jail(state, seat, f"landed on {s.name}")
        case Kind.TAX:
            return finish_landing(charge(state, seat, None, s.tax, s.name, space))
        case Kind.CARD:
            assert s.deck is not None
            deck = s.deck.value.capitalize()
            state = state.log(
                EventKind.CARD,
                f"{state.name(seat)} draws {'an' if deck[0] in 'AEIOU' else 'a'} {deck} card.",
                seat,
                space=space,
            )
            return replace(state, step=Step.DRAW, drawing=s.deck)
        case Kind.LOCATION | Kind.VEHICLE | Kind.UTILITY:
            return _land_on_property(state, seat, space, by_card)
    return finish_landing(state)  # GO, Jail (just visiting), Free Parking: nothing happens


def _land_on_property(state: State, seat: int, space: int, by_card: bool) -> State:
    h = state.holding(space)
    name = state.space_name(space)
    if h.owner is None:
        return replace(state, step=Step.BUY)
    if h.owner == seat:
        return finish_landing(state)
    if h.mortgaged:
        state = state.log(EventKind.RENT, f"{name} is mortgaged: no rent.", seat, space=space)
        return finish_landing(state)
    if by_card and state.board.spaces[space].kind is Kind.UTILITY:
        return replace(state, step=Step.RENT_ROLL)
    return finish_landing(owe_rent(state, seat, space))


def owe_rent(state: State, payer: int, space: int) -> State:
    """The rent is paid to the owner now, or (house rule rent=ask) waits for them to ask."""
    owner = state.holding(space).owner
    assert owner is not None
    amount = rent_due(state, space, state.dice, state.card_rent)
    why = rent_words(state, space, state.card_rent)
    reason = f"rent for {state.space_name(space)}, {why}"
    if state.rules.rent == "ask":
        claim = RentClaim(owner, payer, space, amount)
        state = replace(state, claims=(*state.claims, claim))
        return state.log(
            EventKind.RENT,
            f"{state.name(owner)} may ask {state.name(payer)} for "
            f"${amount} ({reason}) before the next player rolls.",
            owner,
            amount,
            space,
        )
    return charge(state, payer, owner, amount, reason, space)


def _rent_roll(state: State, seat: int) -> State:
    return finish_landing(owe_rent(state, seat, state.players[seat].position))


# --- Jail --------------------------------------------------------------------------------------


def _free(state: State, seat: int, how: str) -> State:
    state = state.with_player(seat, in_jail=False, jail_rolls=0)
    return state.log(EventKind.FREE, f"{state.name(seat)} leaves Jail ({how}).", seat)


def pay_fine(state: State, seat: int, action: PayFine) -> State:
    """Jail (i): pay the fine at the start of the turn, then roll and move as normal."""
    require_step(state, seat, (Step.JAIL,), Rule.JAIL, "pay the Jail fine")
    fine = state.board.bank.jail_fine
    cash = state.players[seat].cash
    if cash < fine:
        raise RuleViolation(
            Rule.JAIL,
            f"{state.name(seat)} has ${cash} and the fine is "
            f"${fine}: mortgage or sell first, or roll for doubles",
        )
    state = state.pay(seat, fine)
    return replace(_free(state, seat, f"pays the ${fine} fine"), step=Step.ROLL)


def use_card(state: State, seat: int, action: UseJailCard) -> State:
    """Jail (ii): a Get Out of Jail Free card goes back under its deck; then roll and move."""
    require_step(state, seat, (Step.JAIL,), Rule.JAIL, "use a Get Out of Jail Free card")
    cards = state.players[seat].jail_cards
    if not cards:
        raise RuleViolation(
            Rule.JAIL,
            f"{state.name(seat)} has no Get Out of Jail Free card "
            "(one can be bought from another player in a deal)",
        )
    state = state.with_player(seat, jail_cards=cards[1:])
    return replace(_free(state, seat, "Get Out of Jail Free card"), step=Step.ROLL)


def try_doubles(state: State, seat: int, action: TryDoubles) -> State:
    """Jail (iii): roll the dice; doubles get the player out."""
    require_step(state, seat, (Step.JAIL,), Rule.JAIL, "roll for doubles")
    return replace(state, step=Step.JAIL_ROLL)


def _jail_roll(state: State, seat: int) -> State:
    dice = state.dice
    if dice[0] == dice[1]:  # out, and move by this roll, but no roll again
        return advance(replace(_free(state, seat, "doubles"), again=False), seat, sum(dice))
    tries = state.players[seat].jail_rolls + 1
    state = state.with_player(seat, jail_rolls=tries)
    bank = state.board.bank
    if state.rules.speed_play or tries >= bank.jail_rolls:
        why = (
            "Speed Play: out of Jail this turn"
            if state.rules.speed_play
            else f"no doubles in {tries} tries"
        )
        state = charge(state, seat, None, bank.jail_fine, f"the Jail fine, {why}")
        return replace(state, step=Step.MOVE, pending_move=dice)  # moves once it is paid
    state = state.log(
        EventKind.JAIL,
        f"No doubles: {state.name(seat)} stays in Jail ({tries} of {bank.jail_rolls} tries).",
        seat,
    )
    return replace(state, step=Step.END)


def move_after_fine(state: State) -> State:
    """The fine is paid: leave Jail and move by the roll that failed (Jail (iii))."""
    seat, dice = state.turn, state.pending_move
    state = _free(replace(state, pending_move=()), seat, "pays the fine")
    return advance(replace(state, again=False), seat, sum(dice))


def end_turn(state: State, seat: int, action: EndTurn) -> State:
    """Pass the dice to the player on the left (On Your Turn 6)."""
    require_step(state, seat, (Step.END,), Rule.TURN, "pass the dice")
    state = next_turn(state)
    return state.log(
        EventKind.END, f"{state.name(seat)} passes the dice to {state.name(state.turn)}.", seat
    )


def ask_rent(state: State, seat: int, action: AskRent) -> State:
    """House rule rent=ask: the owner asks for the rent before the next player rolls (Where
    Did You Land? 2); "if they forget to ask, you don't have to pay"."""
    may_manage(state, seat, Rule.COLLECT_RENT, "asking for rent")
    name = state.space_name(action.space)
    claim = next((c for c in state.claims if c.space == action.space and c.owner == seat), None)
    if claim is None:
        raise RuleViolation(
            Rule.COLLECT_RENT,
            f"nobody owes {state.name(seat)} rent for {name} "
            "now: rent is asked for before the next player rolls",
        )
    state = replace(state, claims=tuple(c for c in state.claims if c is not claim))
    return charge(state, claim.payer, seat, claim.amount, f"rent for {name}", action.space)
