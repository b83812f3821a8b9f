"""A Gangster Dice table as it stands, set up in a few lines (as FEN does for chess), so each
test reads like the rule it checks.

``table()`` plays a real setup through the engine (with a deck stacked to give each player the
hand the test names); ``arrange()`` then puts dice and tokens where the rule needs them, keeping
all 27 dice accounted for (the box makes up the difference); ``roll()`` and ``bid()`` play a
round's first moves by symbol.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from companion.gamefiles import GameFiles
from companion.games.gangster_dice import (
    GANGSTER_DICE,
    TOKENS,
    Bid,
    BidCard,
    CardsMode,
    Dice,
    HouseRules,
    Roll,
    Setup,
    Shuffle,
    State,
    Symbol,
    Token,
    apply,
)
from companion.protocol import Seat

NAMES = ("Maria", "Johnny", "Claire", "Vincent")
FILES = GameFiles(GANGSTER_DICE)


def stacked_deck(state: State, hands: dict[str, list[int]] | None) -> tuple[int, ...]:
    """The shuffle that deals each named player the hand given; the others are dealt the lowest
    cards left, one at a time round the table (so everyone holds a 0)."""
    hands = hands or {}
    rest = Counter(state.to_shuffle)
    for cards in hands.values():
        rest -= Counter(cards)
    spare = sorted(rest.elements())
    dealt = {p.name: list(hands.get(p.name, [])) for p in state.players}
    n = state.components.tutorial_hand
    while any(len(cards) < n for cards in dealt.values()):
        for cards in dealt.values():
            if len(cards) < n:
                cards.append(spare.pop(0))
    order = [v for cards in dealt.values() for v in cards]
    return (*order, *spare)


def table(
    names=NAMES,
    hands: dict[str, list[int]] | None = None,
    *,
    cards: CardsMode = CardsMode.COMPANION,
    rules: HouseRules | None = None,
    characters: bool = False,
) -> State:
    """A game just past Setup (round 1, nobody rolled): the companion holds the cards and each
    named player holds the hand given (the rest come from the lowest cards left)."""
    setup = Setup(tuple(Seat(n) for n in names), cards, characters, rules or HouseRules())
    state = GANGSTER_DICE.new_game(setup, FILES)
    if state.shuffle_due:
        state = apply(state, Shuffle(stacked_deck(state, hands)))
    return state


def arrange(
    state: State,
    *,
    stash: dict[str, Dice] | None = None,
    speakeasy: Dice | None = None,
    streets: Dice | None = None,
    investigator: Dice | None = None,
    control: dict[Token, str | None] | None = None,
    hands: dict[str, list[int]] | None = None,
) -> State:
    """Put dice and tokens where a rule needs them; the box keeps the total at 27."""
    players = list(state.players)
    for name, dice in (stash or {}).items():
        i = state.seat(name)
        players[i] = replace(players[i], stash=dice)
    for name, hand in (hands or {}).items():
        i = state.seat(name)
        players[i] = replace(players[i], hand=tuple(sorted(hand)))
    control_list = list(state.control)
    for token, name in (control or {}).items():
        control_list[TOKENS.index(token)] = state.seat(name) if name else None
    state = replace(
        state,
        players=tuple(players),
        control=tuple(control_list),
        speakeasy=speakeasy if speakeasy is not None else state.speakeasy,
        streets=streets if streets is not None else state.streets,
        investigator=investigator if investigator is not None else state.investigator,
    )
    in_play = state.speakeasy + state.streets + state.investigator
    for p in state.players:
        in_play = in_play + p.stash
    box = state.components.all_dice - in_play
    assert all(n >= 0 for _, n in box), f"more than 27 dice arranged: {in_play}"
    return replace(state, box=box)


def roll_action(state: State, name: str, *symbols: str) -> Roll:
    """A roll showing ``symbols``, one per die of the player's stash in its order (white dice
    first, then red, then blue), each read back to the face number that shows it."""
    dice = state.players[state.seat(name)].stash.listed()
    assert len(symbols) == len(dice), f"{name} rolls {len(dice)} dice, not {len(symbols)}"
    return Roll(
        name,
        tuple(
            (c, state.components.die(c).number(Symbol(s)))
            for c, s in zip(dice, symbols, strict=True)
        ),
    )


def roll(state: State, name: str, *symbols: str) -> State:
    """``roll(s, "Maria", "gun", "gun", "gun", "finger", "finger", "gavel")``."""
    return apply(state, roll_action(state, name, *symbols))


def play_round(state: State, **moves: tuple[tuple[str, ...], list[tuple[str, int]]]) -> State:
    """Every player's roll then bid, in the order given: ``Maria=(symbols, [("streets", 2)])``."""
    for name, (symbols, _) in moves.items():
        state = roll(state, name, *symbols)
    for name, (_, bids) in moves.items():
        state = bid(state, name, *bids)
    return state


def bid(state: State, name: str, *bids: tuple[str, int]) -> State:
    """``bid(s, "Maria", ("streets", 2))``."""
    return apply(state, bid_action(name, *bids))


def bid_action(name: str, *bids: tuple[str, int]) -> Bid:
    return Bid(name, tuple(BidCard(Token(t), f) for t, f in bids))


def stash(state: State, name: str) -> Dice:
    return state.players[state.seat(name)].stash


def hand(state: State, name: str) -> list[int]:
    return list(state.players[state.seat(name)].hand)
