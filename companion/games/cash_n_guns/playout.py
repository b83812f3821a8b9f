"""A random next move, the way a table might play it: for ``companion simulate`` and
``demo``, the property tests and the benchmarks. The randomness comes in as a parameter.

It plays the table too: the Loot cards are flipped from a random shuffle of what is left in
the deck, and a gun is as often recorded by the table (then sometimes confirmed on the phone)
as told by its holder.
"""

from __future__ import annotations

import random

from companion.games.cash_n_guns.actions import (
    Action,
    Aim,
    AimedBy,
    Bullet,
    ConfirmAim,
    Courage,
    CourageChoice,
    Flip,
    Load,
    Privilege,
    Take,
    TakeToken,
)
from companion.games.cash_n_guns.hold_up import new_targets, targets
from companion.games.cash_n_guns.legal import Does, legal_actions, waiting_for
from companion.games.cash_n_guns.state import Phase, State


def random_action(state: State, rng: random.Random) -> Action:
    w = rng.choice(waiting_for(state))
    seat = state.seat(w.player)
    if w.does == Does.FLIP:
        deck = [
            c.id for c, left in zip(state.box.cards, state.deck, strict=True) for _ in range(left)
        ]
        count = state.box.loot_per_turn - state.flipped
        if rng.random() < 0.2:  # one at a time, as a table taps them in
            count = 1
        return Flip(w.player, tuple(rng.sample(deck, count)))
    if w.does == Does.LOAD:
        p = state.players[seat]
        bang = p.bangs > 0 and (p.clicks == 0 or rng.random() < 0.4)
        return Load(w.player, Bullet.BANG if bang else Bullet.CLICK)
    if w.does == Does.AIM:
        by = AimedBy.TABLE if rng.random() < 0.5 else AimedBy.SELF
        if state.phase is Phase.CHANGE_TARGET:
            return Aim(w.player, state.name(rng.choice(new_targets(state, seat))), by)
        choices = [state.name(s) for s in targets(state, seat)]
        return Aim(w.player, rng.choice(choices) if rng.random() > 0.05 else None, by)
    if w.does == Does.CONFIRM_AIM:
        return ConfirmAim(w.player)
    if w.does == Does.PRIVILEGE:
        options = legal_actions(state, w.player)
        gf = state.players[seat]
        if gf.gun is not None and not gf.gun.confirmed and rng.random() < 0.3:
            return ConfirmAim(w.player)
        orders = [a for a in options if isinstance(a, Privilege) and a.order is not None]
        if orders and rng.random() < 0.4:
            return rng.choice(orders)
        return Privilege(w.player, None)
    if w.does == Does.COURAGE:
        return CourageChoice(w.player, Courage.LIE_DOWN if rng.random() < 0.3 else Courage.BANZAI)
    options = legal_actions(state, w.player)
    if w.does == Does.TAKE:
        cards = [a for a in options if isinstance(a, Take)]
        token = [a for a in options if isinstance(a, TakeToken)]
        if token and (not cards or rng.random() < 0.1):
            return token[0]
        return rng.choice(cards)
    return rng.choice(options)
