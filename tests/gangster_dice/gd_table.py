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
    Colour,
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
    """The shuffle that deals each named player the hand given (others get what is left)."""
    hands = hands or {}
    rest = Counter(state.to_shuffle)
    for cards in hands.values():
        rest -= Counter(cards)
    order: list[int] = []
    spare = sorted(rest.elements())
    for p in state.players:
        n = state.components.tutorial_hand
        cards = list(hands.get(p.name, []))
        while len(cards) < n:
            cards.append(spare.pop(0))
        order += cards
    return (*order, *spare)


def table(names=NAMES, hands: dict[str, list[int]] | None = None, *,
          cards: CardsMode = CardsMode.COMPANION, rules: HouseRules | None = None,
          characters: bool = False) -> State:
    """A game just past Setup (round 1, nobody rolled): the companion holds the cards and each
    named player holds the hand given (the rest come from the lowest cards left)."""
    setup = Setup(tuple(Seat(n) for n in names), cards, characters, rules or HouseRules())
    state = GANGSTER_DICE.new_game(setup, FILES)
    if state.shuffle_due:
        state = apply(state, Shuffle(stacked_deck(state, hands)))
    return state


def arrange(state: State, *, stash: dict[str, Dice] | None = None,
            speakeasy: Dice | None = None, streets: Dice | None = None,
            investigator: Dice | None = None, control: dict[Token, str | None] | None = None,
            hands: dict[str, list[int]] | None = None) -> State:
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
    state = replace(state, players=tuple(players), control=tuple(control_list),
                    speakeasy=speakeasy if speakeasy is not None else state.speakeasy,
                    streets=streets if streets is not None else state.streets,
                    investigator=investigator if investigator is not None
                    else state.investigator)
    in_play = state.speakeasy + state.streets + state.investigator
    for p in state.players:
        in_play = in_play + p.stash
    box = state.components.all_dice - in_play
    assert all(n >= 0 for _, n in box), f"more than 27 dice arranged: {in_play}"
    return replace(state, box=box)


def faces(state: State, colour: Colour, symbols: list[str]) -> list[int]:
    die = state.components.die(colour)
    return [die.number(Symbol(s)) for s in symbols]


def roll(state: State, name: str, **by_colour: list[str]) -> State:
    """``roll(s, "Maria", red=["gun", "gun"], white=["finger"])``: the symbols each die shows."""
    return apply(state, Roll.of(name, {c: faces(state, Colour(c), symbols)
                                       for c, symbols in by_colour.items()}))


def bid(state: State, name: str, *bids: tuple[str, int]) -> State:
    """``bid(s, "Maria", ("streets", 2))``."""
    return apply(state, bid_action(name, *bids))


def bid_action(name: str, *bids: tuple[str, int]) -> Bid:
    return Bid(name, tuple(BidCard(Token(t), f) for t, f in bids))


def stash(state: State, name: str) -> Dice:
    return state.players[state.seat(name)].stash


def hand(state: State, name: str) -> list[int]:
    return list(state.players[state.seat(name)].hand)
