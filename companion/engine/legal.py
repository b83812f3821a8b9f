"""What can be done now: ``legal_actions`` (choices) and ``waiting_for`` (who, and for what).

Dice results are chance, not choice, so ``legal_actions`` never lists a roll: ``waiting_for``
says whose dice the engine is waiting for and how many, and the dice (or a person) answer with
a ``roll`` action. Everything ``legal_actions`` returns is accepted by ``apply``; the property
tests check that over thousands of random games.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from companion.engine.actions import (
    Action,
    Bet,
    ChooseFavorSpot,
    Claim,
    KeepVegas,
    MuscleOut,
    Pass,
    Recruit,
    Request,
    Reroll,
    RevealFavor,
    TakeFavor,
    UseFavor,
)
from companion.engine.board import Ability
from companion.engine.dice import sub_multisets
from companion.engine.phases.resolution import empty_matches
from companion.engine.state import OfferStep, Phase, State


@dataclass(frozen=True, slots=True)
class Waiting:
    """The engine waits for ``player`` to do ``does``; ``dice`` is how many dice to roll.

    ``dice`` is private to that player (it tells how many Vegas dice they locked): views for
    anyone else leave it out.
    """

    player: str
    does: str  # godfather_roll | vegas_roll | keep_vegas | roll | reveal_favor | offer |
    #            choose_favor_spot | reroll | resolve
    dice: int = 0


def waiting_for(state: State) -> list[Waiting]:
    """Everyone the game is waiting on right now (several at once in Setup, Vegas and Roll)."""
    out: list[Waiting] = []
    ph = state.phase
    if ph is Phase.SETUP:
        out = [Waiting(state.name(s), "godfather_roll", 1) for s, f in state.rolloff if f is None]
    elif ph is Phase.VEGAS:
        if not state.vegas_faces:
            out = [Waiting(state.name(state.godfather), "vegas_roll", state.board.vegas_dice)]
        else:
            out = [Waiting(p.name, "keep_vegas") for p in state.players if p.vegas_pending]
    elif ph is Phase.ROLL:
        for i, p in enumerate(state.players):
            if p.to_roll:
                out.append(Waiting(p.name, "roll", p.to_roll))
            elif i != state.godfather and p.favor is None:
                out.append(Waiting(p.name, "reveal_favor"))
    elif ph is Phase.OFFER:
        t = state.players[state.offer_target]
        if state.offer_step is OfferStep.GODFATHER:
            out = [Waiting(state.name(state.godfather), "offer")]
        elif state.offer_step is OfferStep.SPOT:
            out = [Waiting(t.name, "choose_favor_spot")]
        elif t.to_roll:
            out = [Waiting(t.name, "roll", t.to_roll)]
        else:
            out = [Waiting(t.name, "reroll")]
    elif ph is Phase.RESOLUTION:
        p = state.players[state.turn]
        out = [Waiting(p.name, "roll", p.to_roll) if p.to_roll else Waiting(p.name, "resolve")]
    return out


def legal_actions(state: State, player: str) -> list[Action]:
    """Every choice ``player`` may make now (empty when it is not their move, or only dice)."""
    seat = state.seat(player)
    p = state.players[seat]
    ph = state.phase
    if ph is Phase.VEGAS and p.vegas_pending:
        return [KeepVegas(player, lock) for lock in [(), *sub_multisets(p.vegas_taken)]]
    if ph is Phase.ROLL:
        if seat != state.godfather and p.rolled and p.favor is None:
            return [RevealFavor(player, f) for f in sorted({d.face for d in p.dice})]
        return []
    if ph is Phase.OFFER:
        return _offer_actions(state, seat)
    if ph is Phase.RESOLUTION and state.turn == seat and not p.to_roll:
        return _resolution_actions(state, seat)
    return []


def _offer_actions(state: State, seat: int) -> list[Action]:
    name = state.name(seat)
    target = state.offer_target
    assert target is not None
    t = state.players[target]
    if state.offer_step is OfferStep.GODFATHER and seat == state.godfather:
        forbid = t.favor if state.rules.request_revealed_number == "forbidden" else None
        return [TakeFavor(name, t.name)] + [
            Request(name, t.name, n) for n in range(1, 7) if n != forbid
        ]
    if seat != target:
        return []
    if state.offer_step is OfferStep.SPOT:
        return [ChooseFavorSpot(name, s) for s in sorted({state.offer_number, t.favor})]
    if state.offer_step is OfferStep.REROLL and not t.to_roll:
        faces = [d.face for d in t.dice]
        return [Pass(name)] + [Reroll(name, dice) for dice in sub_multisets(faces)]
    return []


def set_actions(state: State, seat: int) -> list[Claim | MuscleOut]:
    """Every claim and muscle-out the player's dice allow (Resolution B)."""
    p = state.players[seat]
    if p.house == 0 or not p.dice:
        return []
    have = Counter(d.face for d in p.dice)  # any die may make a set, restricted or not
    wrap = state.rules.straights_wrap
    track = state.board.muscle_track
    out: list[Claim | MuscleOut] = []
    for i, n in enumerate(state.board.neighborhoods):
        holder = state.neighborhoods[i]
        if holder == seat:
            continue
        if holder is not None and (
            p.muscle == track.ZERO_ZONE or p.muscle <= state.players[holder].muscle
        ):
            continue
        for dice in n.requirement.sets(wrap):
            if any(have[v] < k for v, k in Counter(dice).items()):
                continue
            if holder is None:
                out.append(Claim(p.name, n.id, dice))
            elif not empty_matches(state, dice):
                out.append(MuscleOut(p.name, n.id, dice))
    return out


def _resolution_actions(state: State, seat: int) -> list[Action]:
    p = state.players[seat]
    name = p.name
    sets = set_actions(state, seat)
    out: list[Action] = [Pass(name), *sets]
    if seat == state.godfather:
        return out
    free = [d.face for d in p.dice if not d.sets_only]
    if state.rules.leftover_dice == "unusable_only":
        usable = {v for a in sets for v in a.dice}
        free = [f for f in free if f not in usable]
    out += [Recruit(name, dice) for dice in sub_multisets(free)]
    if p.house > 0:
        empty = sorted(
            {n for n, s in zip(state.board.vegas_spots, state.vegas, strict=True) if s is None}
        )
        out += [Bet(name, spot, die) for spot in empty for die in sorted(set(free))]
    out += _favor_actions(state, seat)
    return out


def _favor_actions(state: State, seat: int) -> list[Action]:
    p = state.players[seat]
    name = p.name
    faces = sorted({d.face for d in p.dice})
    out: list[Action] = []
    for spot, printed in state.board.favor_track:
        if state.favor_count(seat, spot) == 0:
            continue
        abilities = (
            [a for a in Ability if a is not Ability.ANY] if printed is Ability.ANY else [printed]
        )
        for ability in abilities:
            tag = ability.value if printed is Ability.ANY else None
            if ability is Ability.FREE_REROLL:
                out += [
                    UseFavor(name, spot, tag, dice=d)
                    for d in sub_multisets([d.face for d in p.dice])
                ]
            elif ability is Ability.PLUS_MINUS_ONE:
                out += [
                    UseFavor(name, spot, tag, die=f, to=t)
                    for f in faces
                    for t in (f - 1, f + 1)
                    if 1 <= t <= 6
                ]
            elif ability is Ability.TURN_DIE:
                out += [
                    UseFavor(name, spot, tag, die=f, to=t)
                    for f in faces
                    for t in range(1, 7)
                    if t != f
                ]
            elif ability is Ability.EXTRA_DIE:
                out += [UseFavor(name, spot, tag, die=f) for f in faces]
            elif ability is Ability.MOVE:
                for nid in state.held_by(seat):
                    for other in state.board.neighbours(nid):
                        if state.neighborhoods[state.board.index(other)] is None:
                            out.append(UseFavor(name, spot, tag, to=other, from_=nid))
    return out
