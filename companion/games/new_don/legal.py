"""What can be done now: ``legal_actions`` (choices) and ``waiting_for`` (who, and for what).

Dice results are chance, not choice, so ``legal_actions`` never lists a roll: ``waiting_for``
says whose dice the engine is waiting for and how many, and the dice (or a person) answer with
a ``roll`` action. Everything ``legal_actions`` returns is accepted by ``apply``; the property
tests check that over thousands of random games.
"""

from __future__ import annotations

from companion.games.new_don.actions import (
    Action,
    Bet,
    ChooseFavorSpot,
    KeepVegas,
    Pass,
    Recruit,
    Request,
    Reroll,
    RevealFavor,
    TakeFavor,
    UseFavor,
)
from companion.games.new_don.board import Ability
from companion.games.new_don.dice import sub_multisets
from companion.games.new_don.phases.offer import favor_spot_choices
from companion.games.new_don.phases.resolution import set_actions
from companion.games.new_don.state import OfferStep, Phase, State
from companion.protocol.game import OWN, DiceRequest, Waiting

VEGAS = "vegas"  # the pool of the three red dice (DiceRequest.pools)


def _roll(state: State, seat: int) -> Waiting:
    """A player's roll: their own dice, and the red dice they hold and did not lock."""
    p = state.players[seat]
    red = bool(p.vegas_taken) and (
        state.phase is not Phase.ROLL or len(p.vegas_taken) > len(p.locked)
    )
    # Applying the roll is sure to change this player's dice or what they still must roll.
    ask = repr((state.phase.value, state.round, p.dice, p.to_roll))
    n = p.to_roll
    return Waiting(
        p.name,
        "roll",
        DiceRequest(
            n, (OWN, VEGAS) if red else (OWN,), ask=ask, prompt=f"Roll your {n} {dice_word(n)}"
        ),
    )


def dice_word(n: int) -> str:
    return "die" if n == 1 else "dice"


def waiting_for(state: State) -> list[Waiting]:
    """Everyone the game is waiting on right now (several at once in Setup, Vegas and Roll).
    A roll's dice count is private to its player: views leave it out for anyone else."""
    out: list[Waiting] = []
    ph = state.phase
    if ph is Phase.SETUP:
        faces = dict(state.rolloff)
        for s, f in state.rolloff:
            if f is None:
                # This player's own entry: another player's roll being applied changes nothing.
                ask = repr((tuple(faces), faces.get(s)))
                out.append(
                    Waiting(
                        state.name(s),
                        "godfather_roll",
                        DiceRequest(1, ask=ask, prompt="Roll one die for the Godfather roll-off"),
                    )
                )
    elif ph is Phase.VEGAS:
        if not state.vegas_faces:
            ask = repr((state.round, state.vegas_faces))
            n = state.board.vegas_dice
            out = [
                Waiting(
                    state.name(state.godfather_seat),
                    "vegas_roll",
                    DiceRequest(n, (VEGAS,), ask=ask, prompt=f"Roll the {n} red dice"),
                )
            ]
        else:
            out = [Waiting(p.name, "keep_vegas") for p in state.players if p.vegas_pending]
    elif ph is Phase.ROLL:
        for i, p in enumerate(state.players):
            if p.to_roll:
                out.append(_roll(state, i))
            elif i != state.godfather and p.favor is None:
                out.append(Waiting(p.name, "reveal_favor"))
    elif ph is Phase.OFFER:
        t = state.players[state.offer_seat]
        if state.offer_step is OfferStep.GODFATHER:
            out = [Waiting(state.name(state.godfather_seat), "offer")]
        elif state.offer_step is OfferStep.SPOT:
            out = [Waiting(t.name, "choose_favor_spot")]
        elif t.to_roll:
            out = [_roll(state, state.offer_seat)]
        else:
            out = [Waiting(t.name, "reroll")]
    elif ph is Phase.RESOLUTION:
        p = state.players[state.turn_seat]
        out = [_roll(state, state.turn_seat) if p.to_roll else Waiting(p.name, "resolve")]
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
    target = state.offer_seat
    t = state.players[target]
    if state.offer_step is OfferStep.GODFATHER and seat == state.godfather:
        forbid = t.favor if state.rules.request_revealed_number == "forbidden" else None
        return [TakeFavor(name, t.name)] + [
            Request(name, t.name, n) for n in range(1, 7) if n != forbid
        ]
    if seat != target:
        return []
    if state.offer_step is OfferStep.SPOT:
        return [ChooseFavorSpot(name, s) for s in favor_spot_choices(state)]
    if state.offer_step is OfferStep.REROLL and not t.to_roll:
        faces = [d.face for d in t.dice]
        return [Pass(name)] + [Reroll(name, dice) for dice in sub_multisets(faces)]
    return []


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
