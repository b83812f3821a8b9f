"""The turn's frame: the table before the first turn, 1. Loot (the Godfather flips the cards),
and what happens when a turn is over: everyone stands up, the desk passes, and after the last
turn the game ends (End of the Game)."""

from __future__ import annotations

from dataclasses import replace

from companion.games.cash_n_guns.actions import Flip, Setup
from companion.games.cash_n_guns.box import Box
from companion.games.cash_n_guns.common import LOOT, SETUP, require_phase
from companion.games.cash_n_guns.state import Gangster, Phase, State
from companion.protocol.errors import MalformedAction, RuleViolation


def new_game(setup: Setup, box: Box) -> State:
    """The table before the first Loot card is flipped: everyone holds their Bullet cards,
    the first Godfather holds the desk, the Loot deck is whole."""
    n = len(setup.seats)
    low, high = box.players
    if not low <= n <= high:
        raise RuleViolation(SETUP, f"{box.name} is played by {low} to {high} players, not {n}")
    players = tuple(Gangster(s.name, s.colour, box.bangs, box.clicks) for s in setup.seats)
    names = [p.name for p in players]
    godfather = names.index(setup.godfather) if setup.godfather is not None else 0
    return State(box, setup.options, players, godfather, deck=tuple(c for _, c in box.loot))


def flip(state: State, seat: int, action: Flip) -> State:
    """1. Loot: "At the beginning of each turn, flip 8 Loot cards face-up." The Godfather "is
    in charge of going through the steps", so the flip is his (the table may enter it for
    him). One or more cards at a time, as they are turned over."""
    require_phase(state, LOOT, "flipping Loot cards", Phase.LOOT)
    if seat != state.godfather:
        gf = state.name(state.godfather)
        raise RuleViolation(
            LOOT, f"the Godfather ({gf}) flips the Loot cards, not {state.name(seat)}"
        )
    to_flip = state.box.loot_per_turn - state.flipped
    if len(action.cards) > to_flip:
        raise RuleViolation(
            LOOT, f"{to_flip} more Loot cards are flipped this turn, not {len(action.cards)}"
        )
    deck = list(state.deck)
    for card_id in action.cards:
        card = state.box.card(card_id)
        if card is None:
            raise MalformedAction(
                f"flip: {card_id!r} is not a Loot card; the deck holds "
                + ", ".join(c.id for c in state.box.cards)
            )
        i = state.box.cards.index(card)
        if deck[i] == 0:
            raise RuleViolation(
                LOOT,
                f"no {card.label} is left in the Loot deck: all "
                f"{state.box.loot[i][1]} of them have been flipped",
            )
        deck[i] -= 1
    flipped = state.flipped + len(action.cards)
    state = replace(state, deck=tuple(deck), table=state.table + action.cards, flipped=flipped)
    if flipped == state.box.loot_per_turn:
        state = replace(state, phase=Phase.BULLETS)
    return state


def end_turn(state: State) -> State:
    """Everyone stands up; whoever flipped the New Godfather token takes the desk (a dead
    Godfather's desk goes to the next living player clockwise); after the last turn the
    game is over ("The game ends once the 8th turn is over")."""
    players = tuple(
        replace(p, gun=None, courage=None, down=False, loaded=None) for p in state.players
    )
    state = replace(state, players=players)
    godfather = state.token if state.token is not None else state.godfather
    godfather = next(s for s in state.clockwise(godfather) if not state.players[s].dead)
    state = replace(
        state, godfather=godfather, token=None, order=None, sharer=None, clip=None, flipped=0
    )
    if state.turn >= state.box.turns:
        return replace(state, phase=Phase.OVER)
    return replace(state, turn=state.turn + 1, phase=Phase.LOOT)
