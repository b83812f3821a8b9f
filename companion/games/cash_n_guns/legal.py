"""What can be done now: ``legal_actions`` (a player's choices) and ``waiting_for`` (whom the
game waits on, and for what). Everything ``legal_actions`` returns is accepted by ``apply``;
the property tests check it over many random games. ``waiting_for`` depends on nothing the
table cannot see."""

from __future__ import annotations

from enum import StrEnum

from companion.games.cash_n_guns.actions import (
    Action,
    Aim,
    AimedBy,
    Bullet,
    ConfirmAim,
    Courage,
    CourageChoice,
    Discard,
    Flip,
    Load,
    Privilege,
    Take,
    TakeToken,
)
from companion.games.cash_n_guns.hold_up import (
    may_be_ordered,
    new_targets,
    targets,
    unaimed,
    unconfirmed,
)
from companion.games.cash_n_guns.state import Phase, State
from companion.protocol.errors import MalformedAction
from companion.protocol.game import Waiting


class Does(StrEnum):
    """The words ``Waiting.does`` uses (the pages key on them)."""

    FLIP = "flip"
    LOAD = "load"
    AIM = "aim"
    CONFIRM_AIM = "confirm_aim"
    PRIVILEGE = "privilege"
    COURAGE = "courage"
    TAKE = "take"
    DISCARD = "discard"


def legal_actions(state: State, player: str) -> list[Action]:
    try:
        seat = state.seat(player)
    except MalformedAction:
        return []
    p = state.players[seat]
    if state.is_over or p.dead:
        return []
    phase = state.phase
    if phase is Phase.LOOT:
        if seat != state.godfather:
            return []
        return [
            Flip(player, (c.id,))
            for c, left in zip(state.box.cards, state.deck, strict=True)
            if left
        ]
    if phase is Phase.BULLETS:
        if p.loaded is not None:
            return []
        return [Load(player, b) for b in Bullet if p.holds(b)]
    if phase is Phase.HOLD_UP:
        out: list[Action] = [
            Aim(player, t, by)
            for by in AimedBy
            for t in [*(state.name(s) for s in targets(state, seat)), None]
        ]
        if p.gun is not None and not p.gun.confirmed:
            out.append(ConfirmAim(player))
        if seat == state.godfather and not unaimed(state) and not unconfirmed(state):
            out.append(Privilege(player, None))
            out += [
                Privilege(player, state.name(s)) for s in state.alive if may_be_ordered(state, s)
            ]
        return out
    if phase is Phase.CHANGE_TARGET:
        assert state.order is not None
        if seat != state.order[0]:
            return []
        out = [Aim(player, state.name(t), by) for by in AimedBy for t in new_targets(state, seat)]
        if p.gun is not None and not p.gun.confirmed and p.gun.target != state.order[1]:
            out.append(ConfirmAim(player))
        return out
    if phase is Phase.COURAGE:
        return [] if p.courage is not None else [CourageChoice(player, c) for c in Courage]
    if phase is Phase.SHARING:
        if state.clip is not None:
            if state.clip != seat:
                return []
            return [
                Discard(player, b)
                for b in Bullet
                if (p.bangs - 1 if b is Bullet.BANG else p.clicks) > 0
            ]
        if state.sharer != seat:
            return []
        out = [Take(player, c) for c in dict.fromkeys(state.table)]
        if state.token is None:
            out.append(TakeToken(player))
        return out
    return []


def waiting_for(state: State) -> list[Waiting]:
    """Whom the game waits on. Only public facts decide it: who has put a card down, who has
    an aim recorded, who has chosen, whose share it is, who took a Clip."""
    phase = state.phase
    name = state.name
    if phase is Phase.LOOT:
        return [Waiting(name(state.godfather), Does.FLIP)]
    if phase is Phase.BULLETS:
        return [Waiting(name(s), Does.LOAD) for s in state.alive if state.players[s].loaded is None]
    if phase is Phase.HOLD_UP:
        if unaimed(state):
            return [Waiting(name(s), Does.AIM) for s in unaimed(state)]
        if unconfirmed(state):
            return [Waiting(name(s), Does.CONFIRM_AIM) for s in unconfirmed(state)]
        return [Waiting(name(state.godfather), Does.PRIVILEGE)]
    if phase is Phase.CHANGE_TARGET:
        assert state.order is not None
        ordered, had = state.order
        gun = state.players[ordered].gun
        moved = gun is not None and gun.target not in (None, had)
        return [Waiting(name(ordered), Does.CONFIRM_AIM if moved else Does.AIM)]
    if phase is Phase.COURAGE:
        return [
            Waiting(name(s), Does.COURAGE) for s in state.alive if state.players[s].courage is None
        ]
    if phase is Phase.SHARING:
        if state.clip is not None:
            return [Waiting(name(state.clip), Does.DISCARD)]
        assert state.sharer is not None
        return [Waiting(name(state.sharer), Does.TAKE)]
    return []
