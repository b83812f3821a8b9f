"""7. Loot sharing, with the First aid kits, the Clips and the New Godfather token.

"Starting with the Godfather and going clockwise, each player whose Character is still standing
(not freshly wounded, not laid down) takes a share of the loot (card or New Godfather token)",
round the table as many times as it takes. How the split ends and what becomes of loot nobody
could share are house rules (``split_ends``, ``unshared_loot``).
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.cash_n_guns.actions import Bullet, Discard, Take, TakeToken
from companion.games.cash_n_guns.box import LootKind
from companion.games.cash_n_guns.common import CLIPS, SHARING, require_phase
from companion.games.cash_n_guns.state import Discarded, Phase, State
from companion.games.cash_n_guns.turn import end_turn
from companion.protocol.errors import MalformedAction, RuleViolation


def start_sharing(state: State) -> State:
    """The first share goes to the Godfather, or "if the Godfather has laid down or is
    wounded, ... the closest standing player going clockwise"."""
    standing = state.standing
    if not standing:
        if state.rules.unshared_loot == "discarded":
            state = replace(state, spent=state.spent + state.table, table=())
        return end_turn(state)
    first = next(s for s in state.clockwise(state.godfather) if s in standing)
    return replace(state, phase=Phase.SHARING, sharer=first)


def split_over(state: State) -> bool:
    """ "The split ends when everything has been taken": every Loot card, and the New
    Godfather token too when the table plays ``split_ends = "everything"``."""
    return not state.table and (state.rules.split_ends == "last_card" or state.token is not None)


def _my_share(state: State, seat: int, what: str) -> None:
    require_phase(state, SHARING, what, Phase.SHARING)
    if state.clip is not None:
        raise RuleViolation(
            CLIPS, f"{state.name(state.clip)} took a Clip and must discard a Bullet card first"
        )
    if seat != state.sharer:
        assert state.sharer is not None
        raise RuleViolation(
            SHARING, f"it is {state.name(state.sharer)}'s share, not {state.name(seat)}'s"
        )


def take(state: State, seat: int, action: Take) -> State:
    _my_share(state, seat, "taking a share")
    card = state.box.card(action.card)
    if card is None:
        raise MalformedAction(
            f"take: {action.card!r} is not a Loot card; the deck holds "
            + ", ".join(c.id for c in state.box.cards)
        )
    if action.card not in state.table:
        on_offer = ", ".join(state.box.label(c) for c in state.table)
        raise RuleViolation(
            SHARING, f"no {card.label} is on offer; the loot left is: " + (on_offer or "nothing")
        )
    left = list(state.table)
    left.remove(action.card)
    state = replace(state, table=tuple(left))
    p = state.players[seat]
    if card.kind is LootKind.FIRST_AID_KIT:
        # "he immediately heals all of his wounds ... If the player has no wounds, the First
        # aid kit is discarded without effect."
        state = replace(
            state.with_player(seat, replace(p, wounds=0)), spent=state.spent + (card.id,)
        )
    elif card.kind is LootKind.CLIP:
        state = _clip(replace(state, spent=state.spent + (card.id,)), seat)
        if state.clip is not None:
            return state
    else:
        state = state.with_player(seat, replace(p, loot=p.loot + (card.id,)))
    return next_share(state)


def _clip(state: State, seat: int) -> State:
    """ "take a Bang! card from the discard pile (face-up or face-down) and immediately adds it
    to their hand of cards. That player must discard another card. ... If there are no Bang!
    cards in the discard pile, the Clip is lost." A face-up Bang! is taken first (the table
    sees which); with no other card in hand (after the last turn's card) nothing is
    discarded."""
    bangs = [i for i, d in enumerate(state.discard) if d.card is Bullet.BANG]
    if not bangs:
        return state
    shown = [i for i in bangs if state.discard[i].face_up]
    taken = (shown or bangs)[0]
    pile = state.discard[:taken] + state.discard[taken + 1 :]
    p = state.players[seat]
    state = replace(state.with_player(seat, replace(p, bangs=p.bangs + 1)), discard=pile)
    return replace(state, clip=seat) if p.hand else state


def discard(state: State, seat: int, action: Discard) -> State:
    require_phase(state, CLIPS, "discarding a Bullet card", Phase.SHARING)
    if state.clip != seat:
        raise RuleViolation(
            CLIPS, f"{state.name(seat)} has taken no Clip: there is no card to discard"
        )
    p = state.players[seat]
    # "another card": not the Bang! just taken from the pile.
    others = {Bullet.BANG: p.bangs - 1, Bullet.CLICK: p.clicks}
    if others[action.card] <= 0:
        raise RuleViolation(
            CLIPS,
            f"you must discard another card than the Bang! you took, "
            f"and hold no other {action.card.label}",
        )
    if action.card is Bullet.BANG:
        state = state.with_player(seat, replace(p, bangs=p.bangs - 1))
    else:
        state = state.with_player(seat, replace(p, clicks=p.clicks - 1))
    face_up = state.rules.clip_discard == "face_up"
    state = replace(
        state, clip=None, discard=state.discard + (Discarded(seat, action.card, face_up),)
    )
    return next_share(state)


def take_token(state: State, seat: int, action: TakeToken) -> State:
    """ "Instead of taking a card, it's possible to flip the New Godfather token to get the
    desk and become the Godfather on the next turn. This doesn't change the current sharing."""
    _my_share(state, seat, "flipping the New Godfather token")
    if state.token is not None:
        raise RuleViolation(
            SHARING,
            f"{state.name(state.token)} has already flipped the New Godfather token this turn",
        )
    return next_share(replace(state, token=seat))


def next_share(state: State) -> State:
    """The next standing player clockwise takes a share, until the split is over."""
    if split_over(state):
        return end_turn(state)
    assert state.sharer is not None
    n = len(state.players)
    standing = state.standing
    following = next(s for s in ((state.sharer + k) % n for k in range(1, n + 1)) if s in standing)
    return replace(state, sharer=following)
