"""What one person may see: the single filter between the engine and the world.

Public at the table: every die (stashes, tokens, this round's rolls: dice are rolled in the
open), who controls each token, how many favor cards each player holds and has played, the
discard pile and the +4 stack, the revealed bids with their scores. Secret: a player's hand and
their bid until the last player has chosen (then every bid is revealed at once), seen by that
player alone; the favor deck's order, seen by nobody.

:func:`scramble` redraws every secret a viewer may not see; the tests check that the viewer's
view does not change.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

from companion.games.gangster_dice.actions import Action, Bid, BidCard, CardsMode, Shuffle
from companion.games.gangster_dice.components import TOKENS, Symbol, Token
from companion.games.gangster_dice.legal import bid_options, waiting_for
from companion.games.gangster_dice.state import Outcome, Phase, Reveal, State
from companion.protocol.options import options_to_dict

HIDDEN = "hidden"


def player_view(state: State, viewer: str | None) -> dict[str, Any]:
    """The game as ``viewer`` may see it (None: the table screen), as plain JSON."""
    me = state.seat(viewer) if viewer is not None else None
    view: dict[str, Any] = {
        "game": "gangster-dice",
        "viewer": viewer,
        "round": state.round,
        "phase": state.phase.value,
        "moves": state.moves,
        "cards": state.cards.value,
        "characters": state.use_characters,
        "two_player": len(state.players) == 2,
        "tokens": [_token(state, t) for t in TOKENS],
        "players": [_player(state, i) for i in range(len(state.players))],
        "favor": {
            "deck": len(state.deck) if state.cards is CardsMode.COMPANION else None,
            "discard": sorted(state.discard),
            "special": state.special,
            "shuffling": len(state.to_shuffle),
        },
        "box": state.box.to_json(),
        "reveal": reveal_json(state, state.reveal),
        "effect": _effect(state),
        "chance": "shuffle" if state.shuffle_due else None,
        "waiting": [
            {"player": w.player, "does": w.does, **({"dice": w.dice.count} if w.dice else {})}
            for w in waiting_for(state)
        ],
        "winners": [state.players[i].name for i in state.winners],
        "options": options_to_dict(state.rules),
    }
    if state.is_over:
        names = " and ".join(view["winners"])
        view["end"] = f"{names} {'has' if len(state.winners) == 1 else 'have'} no dice left"
    if me is not None:
        view["you"] = _yours(state, me)
    return view


def _token(state: State, token: Token) -> dict[str, Any]:
    holder = state.controller(token)
    out: dict[str, Any] = {
        "token": token.value,
        "name": token.named.removeprefix("the "),
        "symbol": token.symbol.value,
        "controller": state.name(holder),
    }
    if token is Token.SPEAKEASY:
        out["dice"] = state.speakeasy.to_json()
    elif token is Token.STREETS:
        out["dice"] = state.streets.to_json()
    elif token is Token.INVESTIGATOR:
        out["dice"] = state.investigator.to_json()
    return out


def _player(state: State, seat: int) -> dict[str, Any]:
    p = state.players[seat]
    character = next((c for c in state.characters if c.name == p.character), None)
    played = len(p.bid) if p.bid is not None else 0
    return {
        "name": p.name,
        "colour": p.colour,
        "stash": p.stash.to_json(),
        "dice": p.stash.total,
        "received": p.received.to_json(),
        "rolled": (
            [{"colour": c.value, "symbol": s.value} for c, s in p.rolled]
            if p.rolled is not None
            else None
        ),
        "symbols": ({s.value: p.shows(s) for s in Symbol} if p.rolled is not None else None),
        "chosen": p.bid is not None,
        "bids_due": state.bids_due(seat) if p.rolled is not None else None,
        "hand": p.hand_size - played,  # face-down cards are in front of the player
        "fours": (
            p.hand.count(state.components.special_value)
            if state.cards is CardsMode.PHYSICAL
            else None
        ),
        "character": character.to_json() if character else None,
        "controls": [t.value for t in TOKENS if state.controller(t) == seat],
        "won": seat in state.winners,
    }


def reveal_json(state: State, reveal: Reveal | None) -> dict[str, Any] | None:
    """A round's revealed bids with their scores worked out, and each token's outcome."""
    if reveal is None:
        return None
    return {
        "round": reveal.round,
        "bids": [
            {
                "player": state.players[b.seat].name,
                "token": b.token.value,
                "favor": b.favor,
                "symbols": b.symbols,
                "streets": b.streets,
                "score": b.score,
            }
            for b in reveal.bids
        ],
        "tokens": [_outcome(state, o) for o in reveal.outcomes],
    }


def _outcome(state: State, o: Outcome) -> dict[str, Any]:
    return {
        "token": o.token.value,
        "winner": state.name(o.winner),
        "score": o.top,
        "tied": [state.players[i].name for i in o.tied] if len(o.tied) > 1 else [],
        "by_streets": o.by_streets,
    }


def _effect(state: State) -> dict[str, Any] | None:
    """The token effect being chosen now, for everyone to see who is choosing what."""
    if state.phase is Phase.TOKENS and state.tasks:
        head = state.tasks[0]
        return {"player": state.players[head.seat].name, "does": head.task.value}
    if state.phase is Phase.INVESTIGATOR:
        return {"player": state.name(state.controller(Token.INVESTIGATOR)), "does": "take"}
    return None


def _yours(state: State, seat: int) -> dict[str, Any]:
    """What only the viewer sees: their hand, their face-down cards, what they may do."""
    p = state.players[seat]
    hand = list(p.hand)
    from_unknown = 0
    for b in p.bid or ():  # the cards face down in front of them are out of their hand
        if b.favor in hand:
            hand.remove(b.favor)
        else:
            from_unknown += 1
    return {
        "name": p.name,
        "hand": hand,  # physical cards: only the special +4s the companion saw taken
        "unknown": p.unknown - from_unknown,
        "bid": [b.to_json() for b in p.bid] if p.bid is not None else None,
        "givable": state.givable(seat).to_json(),
        "asked": [w.does for w in waiting_for(state) if w.player == p.name],
    }


def action_view(before: State, action: Action, viewer: str | None) -> dict[str, Any]:
    """An action as ``viewer`` may see it in a log or an event stream: a bid is the bidder's
    alone (every bid is shown once revealed, by the views of the state); a shuffle's order is
    nobody's."""
    data = action.to_dict()
    if isinstance(action, Shuffle):
        data["order"] = HIDDEN
    elif isinstance(action, Bid) and viewer != action.player:
        data["bids"] = HIDDEN
    return data


def scramble(state: State, viewer: str | None, rng: random.Random) -> State:
    """``state`` with every secret ``viewer`` may not see drawn anew: the deck's order, other
    players' hands (sizes kept) and their face-down bids (made again from their new hands)."""
    me = state.seat(viewer) if viewer is not None else None
    players = list(state.players)
    if state.cards is CardsMode.COMPANION:
        others = [i for i in range(len(players)) if i != me]
        # Sorted first: the world drawn must not depend on the true order (a bot given the
        # same random numbers draws the same world whatever the others hold).
        unseen = sorted([*state.deck, *(v for i in others for v in players[i].hand)])
        rng.shuffle(unseen)
        deck, unseen = tuple(unseen[: len(state.deck)]), unseen[len(state.deck) :]
        for i in others:
            n = len(players[i].hand)
            players[i] = replace(players[i], hand=tuple(sorted(unseen[:n])))
            unseen = unseen[n:]
        state = replace(state, deck=deck)
    state = replace(state, players=tuple(players))
    for i, p in enumerate(state.players):
        if i == me or p.bid is None:
            continue
        # A face-down bid, made again: any bid that player could make with their new hand.
        cleared = replace(
            state,
            players=tuple(
                replace(q, bid=None) if j == i else q for j, q in enumerate(state.players)
            ),
        )
        options = list(bid_options(cleared, i))
        new_bid: tuple[BidCard, ...] = rng.choice(options).bids if options else p.bid
        state = replace(
            state,
            players=tuple(
                replace(q, bid=new_bid) if j == i else q for j, q in enumerate(state.players)
            ),
        )
    return state


def symbols_text(counts: Counter[Symbol] | dict[Symbol, int]) -> str:
    """ "2 guns, 1 gavel" (largest first)."""
    parts = [
        f"{n} {s.value if n == 1 else s.plural}"
        for s, n in sorted(counts.items(), key=lambda x: -x[1])
        if n
    ]
    return ", ".join(parts) if parts else "nothing"
