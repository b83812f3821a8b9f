"""Roll: every pool is rolled (locked Vegas dice excepted) and favors are revealed."""

from __future__ import annotations

from dataclasses import replace

from companion.games.new_don.actions import RevealFavor, Roll
from companion.games.new_don.dice import Die, take
from companion.games.new_don.phases.common import PHASE_RULE, check_face, pool_text, require_phase
from companion.games.new_don.phases.offer import next_offer
from companion.games.new_don.state import OfferStep, Phase, State
from companion.protocol.errors import RuleViolation


def start_roll_phase(state: State) -> State:
    players = tuple(
        replace(
            p,
            to_roll=state.board.dice_per_player + len(p.vegas_taken) - len(p.locked),
            to_roll_sets_only=False,
        )
        for p in state.players
    )
    return replace(state, players=players, phase=Phase.ROLL)


def roll(state: State, seat: int, a: Roll) -> State:
    p = state.players[seat]
    if p.to_roll == 0:
        what = {
            Phase.ROLL: f"{p.name} has already rolled this round",
            Phase.OFFER: f"{p.name} has no dice to reroll now",
            Phase.RESOLUTION: f"{p.name} has no dice to reroll now",
        }.get(state.phase, f"no dice are rolled in the {state.phase.value} phase")
        raise RuleViolation(PHASE_RULE[state.phase], what)
    if len(a.faces) != p.to_roll:
        raise RuleViolation(
            PHASE_RULE[state.phase],
            f"{p.name} rolls {p.to_roll} {'die' if p.to_roll == 1 else 'dice'}, not {len(a.faces)}",
        )
    new_dice = tuple(Die(f, sets_only=p.to_roll_sets_only) for f in a.faces)
    state = state.with_player(
        seat,
        dice=p.dice + new_dice,
        to_roll=0,
        to_roll_sets_only=False,
        rolled=p.rolled or state.phase is Phase.ROLL,
    )
    if state.phase is Phase.ROLL:
        return _maybe_start_offers(state)
    if state.phase is Phase.OFFER:
        return next_offer(state)
    return state  # a Free Reroll favor during Resolution: the turn goes on


def reveal_favor(state: State, seat: int, a: RevealFavor) -> State:
    require_phase(state, Phase.ROLL, "favors are revealed")
    check_face(a.face, "face")
    p = state.players[seat]
    if seat == state.godfather:
        raise RuleViolation("Roll", f"{p.name} is the Godfather and reveals no favor")
    if not p.rolled:
        raise RuleViolation("Roll", f"{p.name} reveals a favor after rolling")
    if p.favor is not None:
        raise RuleViolation("Roll", f"{p.name} has already revealed a {p.favor}")
    if take(p.dice, (a.face,), True) is None:
        raise RuleViolation(
            "Roll", f"{p.name} has no {a.face} to reveal; the dice show {pool_text(p)}"
        )
    return _maybe_start_offers(state.with_player(seat, favor=a.face))


def _maybe_start_offers(state: State) -> State:
    waiting = any(
        not p.rolled or (i != state.godfather and p.favor is None)
        for i, p in enumerate(state.players)
    )
    if waiting:
        return state
    first = state.left_of(state.godfather_seat)
    return replace(state, phase=Phase.OFFER, offer_target=first, offer_step=OfferStep.GODFATHER)
