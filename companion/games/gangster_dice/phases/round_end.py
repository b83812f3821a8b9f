"""The end of a round: a die off the Investigator, the favor cards drawn, the winners.

"At the end of each round, if there are any dice on the Investigator, the player who has this
token must take one die off of it and add it to their stash" (The Investigator) — unless they
control the Lawyer: "you do not have to take dice from the Investigator if you do not want to"
(The Lawyer). "Each player discards the favor card they played and draws a new one" (Sequence
of play; two in the 2-Player Variant), a special +4 instead for a player who won the Lawyer
again. "If at the end of any round you have no dice left in your stash, the game ends and you
are the winner. Multiple players may win simultaneously" (End of Game).
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.gangster_dice.actions import CardsMode, TakeOff
from companion.games.gangster_dice.components import Colour, Dice, Token
from companion.games.gangster_dice.phases.common import note, update_player
from companion.games.gangster_dice.state import Happening, Phase, State, What
from companion.protocol.errors import RuleViolation

INVESTIGATOR = "Influence Tokens: The Investigator"
LAWYER = "Influence Tokens: The Lawyer"


def start_round(state: State, number: int) -> State:
    """A new round: everyone rolls their stash again; nothing received, rolled or bid yet."""
    players = tuple(replace(p, received=Dice(), rolled=None, bid=None) for p in state.players)
    return note(
        replace(
            state,
            phase=Phase.BIDS,
            round=number,
            players=players,
            tasks=(),
            draws=(),
            four_for=None,
        ),
        Happening(What.ROUND, count=number),
    )


def take_off_due(state: State) -> bool:
    """Whether the Investigator's holder must or may take a die off it now."""
    return state.controller(Token.INVESTIGATOR) is not None and state.investigator.total > 0


def take_off_is_a_choice(state: State) -> bool:
    """The holder chooses when the dice on the Investigator differ in colour, or when they
    control the Lawyer (and may leave them); otherwise the one die they can take is taken."""
    holder = state.controller(Token.INVESTIGATOR)
    return state.controller(Token.LAWYER) == holder or len(state.investigator.colours()) > 1


def after_tokens(state: State) -> State:
    """Every token's effect is done: the Investigator's die, then the draws."""
    if take_off_due(state):
        if take_off_is_a_choice(state):
            return replace(state, phase=Phase.INVESTIGATOR)
        holder = state.controller(Token.INVESTIGATOR)
        assert holder is not None
        colour = state.investigator.colours()[0]
        state = _take(state, holder, colour)
        state = note(state, Happening(What.TOOK, seat=holder, colour=colour, count=1))
    return begin_draws(state)


def take_off(state: State, seat: int, action: TakeOff) -> State:
    """The Investigator's holder takes a die of their choice off it, or (controlling the
    Lawyer) leaves the dice there."""
    p = state.players[seat]
    holder = state.controller(Token.INVESTIGATOR)
    if state.phase is not Phase.INVESTIGATOR:
        raise RuleViolation(
            INVESTIGATOR,
            "a die comes off the Investigator at the end of a "
            "round, once every token's effect is done",
            public="a die comes off the Investigator at the end of a round",
        )
    if seat != holder:
        raise RuleViolation(
            INVESTIGATOR,
            f"{state.name(holder)} has the Investigator: only they take a die off it",
            public=f"{state.name(holder)} has the Investigator",
        )
    if action.colour is None:
        if state.controller(Token.LAWYER) != seat:
            raise RuleViolation(
                LAWYER,
                f"{p.name} must take one die off the "
                "Investigator: only the Lawyer's controller may leave them",
                public="only the Lawyer's controller may leave the dice",
            )
        return begin_draws(state)
    if state.investigator.count(action.colour) == 0:
        raise RuleViolation(
            INVESTIGATOR,
            f"there is no {action.colour} die on the Investigator "
            f"(it holds {state.investigator.describe()})",
            public=f"there is no {action.colour} die on the Investigator",
        )
    return begin_draws(_take(state, seat, action.colour))


def _take(state: State, seat: int, colour: Colour) -> State:
    p = state.players[seat]
    return replace(
        update_player(state, seat, replace(p, stash=p.stash.plus(colour))),
        investigator=state.investigator.plus(colour, -1),
    )


def begin_draws(state: State) -> State:
    """Favor cards: everyone draws as many as they played."""
    assert state.reveal is not None
    played = [0] * len(state.players)
    for b in state.reveal.bids:
        played[b.seat] += 1
    return continue_draws(replace(state, draws=tuple(played)))


def continue_draws(state: State) -> State:
    """Draw in seat order until everyone has drawn (the round then ends), or until the deck
    runs out and the discard pile waits for a shuffle (phase ``draw``)."""
    players = list(state.players)
    draws = list(state.draws)
    deck, special, four_for = state.deck, state.special, state.four_for
    happened: list[Happening] = []
    companion = state.cards is CardsMode.COMPANION
    for seat, p in enumerate(players):
        if not draws[seat]:
            continue
        hand, unknown, drawn = p.hand, p.unknown, 0
        if four_for == seat:
            # The Lawyer, won again: "instead of drawing a new favor card from the deck, take
            # one of the special +4 favors from the stack" (none left: draw as usual).
            four_for = None
            if special:
                hand, special = tuple(sorted((*hand, state.components.special_value))), special - 1
                draws[seat] -= 1
                happened.append(Happening(What.FOUR, seat=seat))
        while draws[seat]:
            if not companion:
                unknown, drawn, draws[seat] = unknown + draws[seat], drawn + draws[seat], 0
                break
            if not deck:
                break
            hand, deck = tuple(sorted((*hand, deck[0]))), deck[1:]
            draws[seat] -= 1
            drawn += 1
        players[seat] = replace(p, hand=hand, unknown=unknown)
        if drawn:
            happened.append(Happening(What.DREW, seat=seat, count=drawn))
        if draws[seat] and state.discard:
            # The deck ran out: its discard pile is shuffled into a new one (docs/rules.md).
            happened.append(Happening(What.RESHUFFLE, count=len(state.discard)))
            return note(
                replace(
                    state,
                    players=tuple(players),
                    draws=tuple(draws),
                    deck=deck,
                    special=special,
                    four_for=four_for,
                    phase=Phase.DRAW,
                    to_shuffle=state.discard,
                    discard=(),
                ),
                *happened,
            )
        draws[seat] = 0  # nothing left to draw anywhere: every card is in a hand
    state = replace(
        state, players=tuple(players), draws=(), deck=deck, special=special, four_for=None
    )
    return end_round(note(state, *happened))


def end_round(state: State) -> State:
    """End of Game: everyone whose stash is empty wins; else the next round."""
    winners = tuple(i for i, p in enumerate(state.players) if p.stash.total == 0)
    if winners:
        return note(
            replace(state, phase=Phase.OVER, winners=winners),
            *(Happening(What.WON, seat=i) for i in winners),
        )
    return start_round(state, state.round + 1)
