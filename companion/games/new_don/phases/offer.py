"""Offer: clockwise from the Godfather's left, take the favor or name a number; the free reroll."""

from __future__ import annotations

from dataclasses import replace

from companion.games.new_don.actions import ChooseFavorSpot, Request, Reroll, TakeFavor
from companion.games.new_don.dice import Die, take
from companion.games.new_don.phases.common import check_face, place_on_favor, require_phase, spend
from companion.games.new_don.state import OfferStep, Phase, State
from companion.protocol.errors import RuleViolation


def _offer_target(state: State, seat: int, target_name: str, rule: str) -> int:
    require_phase(state, Phase.OFFER, "the Godfather makes offers")
    if seat != state.godfather:
        raise RuleViolation(
            rule, f"only the Godfather, {state.name(state.godfather_seat)}, makes offers"
        )
    target = state.seat(target_name)
    if state.offer_step is not OfferStep.GODFATHER:
        raise RuleViolation(
            rule,
            f"the offer to {state.name(state.offer_seat)} is settled; "
            f"{state.name(state.offer_seat)} decides first",
        )
    if target != state.offer_target:
        raise RuleViolation(
            "Offer",
            "offers go clockwise from the Godfather's left: it is "
            f"{state.name(state.offer_seat)}'s turn, not {target_name}'s",
        )
    return target


def _hand_over(state: State, giver: int, face: int) -> State:
    g = state.godfather_seat
    rest = take(state.players[giver].dice, (face,), True)
    assert rest is not None
    state = state.with_player(giver, dice=rest, gave=face)
    gp = state.players[g]
    return state.with_player(g, dice=gp.dice + (Die(face),), collected=gp.collected + (face,))


def take_favor(state: State, seat: int, a: TakeFavor) -> State:
    target = _offer_target(state, seat, a.target, "Offer A")
    favor = state.players[target].favor
    assert favor is not None
    state = _hand_over(state, target, favor)
    state = place_on_favor(state, target, favor)
    return replace(state, offer_step=OfferStep.REROLL)


def request(state: State, seat: int, a: Request) -> State:
    target = _offer_target(state, seat, a.target, "Offer B")
    check_face(a.number, "number")
    t = state.players[target]
    if a.number == t.favor and state.rules.request_revealed_number == "forbidden":
        raise RuleViolation(
            "Offer B",
            f"{t.name} revealed a {t.favor}: to have it, take the favor (house rule "
            "request_revealed_number = forbidden)",
        )
    if take(t.dice, (a.number,), True) is None:
        # Offer B.b: proof of absence; the engine knows the dice, so it is checked, not trusted.
        assert t.favor is not None  # every favor is down before the first offer
        state = state.with_player(target, absent=t.absent + (a.number,))
        state = place_on_favor(state, target, t.favor)
        return replace(state, offer_step=OfferStep.REROLL, offer_number=a.number)
    state = _hand_over(state, target, a.number)
    if a.number == t.favor:
        state = place_on_favor(state, target, a.number)
        return replace(state, offer_step=OfferStep.REROLL, offer_number=a.number)
    return replace(state, offer_step=OfferStep.SPOT, offer_number=a.number)


def choose_favor_spot(state: State, seat: int, a: ChooseFavorSpot) -> State:
    require_phase(state, Phase.OFFER, "Favor spots are chosen")
    if state.offer_step is not OfferStep.SPOT or seat != state.offer_target:
        raise RuleViolation("Offer B.a", f"{state.name(seat)} has no Favor spot to choose now")
    t = state.players[seat]
    if a.spot not in favor_spot_choices(state):
        raise RuleViolation(
            "Offer B.a",
            f"{t.name} gave a {state.offer_number} after revealing a {t.favor}: the soldier goes "
            f"on spot {state.offer_number} or {t.favor}, not {a.spot}",
        )
    state = place_on_favor(state, seat, a.spot)
    return replace(state, offer_step=OfferStep.REROLL)


def favor_spot_choices(state: State) -> list[int]:
    """Offer B.a: the spots open to the soldier of a player who handed a die over: the
    number given, or the favor they revealed."""
    number, favor = state.offer_number, state.players[state.offer_seat].favor
    assert number is not None and favor is not None  # a number was asked after every favor
    return sorted({number, favor})


def reroll(state: State, seat: int, a: Reroll) -> State:
    require_phase(state, Phase.OFFER, "the free reroll happens")
    if seat == state.godfather:
        raise RuleViolation("Offer", "the Godfather does not receive a free reroll")
    if state.offer_step is not OfferStep.REROLL or seat != state.offer_target:
        raise RuleViolation("Offer", f"{state.name(seat)} rerolls right after their own offer")
    if state.players[seat].to_roll:
        raise RuleViolation("Offer", f"{state.name(seat)} is rerolling: roll the dice first")
    state = spend(state, seat, a.dice, True, "Offer")
    return state.with_player(seat, to_roll=len(a.dice), to_roll_sets_only=False)


def keep_dice(state: State, seat: int) -> State:
    """A pass in the Offer phase: the player keeps their dice after their own offer (no
    free reroll), and the next offer comes. Anyone else is told what they do instead."""
    name, target = state.name(seat), state.name(state.offer_seat)
    step = state.offer_step
    if seat == state.offer_target and step is OfferStep.SPOT:
        number, favor = state.offer_number, state.players[seat].favor
        raise RuleViolation(
            "Offer B.a",
            f"{name} had a {number}, so it went to the Godfather (an offer you can't refuse): "
            f"now put a soldier on Favor spot {number} or {favor}",
        )
    if seat == state.offer_target and step is OfferStep.GODFATHER:
        raise RuleViolation(
            "Offer",
            f"the Godfather, {state.name(state.godfather_seat)}, has not made "
            f"{name} an offer yet: wait for it, then reroll or keep your dice",
        )
    if seat == state.godfather and step is OfferStep.GODFATHER:
        raise RuleViolation(
            "Offer",
            f"the Godfather does not pass: take {target}'s favor or name a number",
        )
    if seat != state.offer_target:
        raise RuleViolation(
            "Offer",
            f"it is {target}'s offer: {name} has nothing to pass on now",
        )
    if state.players[seat].to_roll:
        raise RuleViolation("Offer", f"{name} is rerolling: roll the dice first")
    return next_offer(state)


def next_offer(state: State) -> State:
    nxt = state.left_of(state.offer_seat)
    if nxt == state.godfather:
        return replace(
            state,
            phase=Phase.RESOLUTION,
            offer_target=None,
            offer_step=None,
            offer_number=None,
            turn=state.godfather,
        )
    return replace(state, offer_target=nxt, offer_step=OfferStep.GODFATHER, offer_number=None)
