"""Setup: the dice, the bid cards, the favor deck shuffled and dealt, the characters, the tokens.

"Give each player 2 dice of each color (6 dice total) and one colored set of bid cards. ...
Shuffle the favor deck. For an easy tutorial game ... ignore the character cards and draw 3
favor cards each. Put the 6 special +4 favor cards in a face-up stack ... If you are using the
character cards, give one to each player ... then draw the number of favor cards indicated on the
back. Finally, put the four influence tokens in the middle of the play area ... Place one die of
each color (3 dice total) on top of the Speakeasy token."

The shuffle is an action (chance, made by the companion or the table); when the companion holds
the cards, hands are dealt once the deck is shuffled and every character is chosen.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from companion.games.gangster_dice.actions import CardsMode, ChooseCharacter, Setup, Shuffle
from companion.games.gangster_dice.characters import Character
from companion.games.gangster_dice.components import TOKENS, Components, Dice
from companion.games.gangster_dice.phases.common import note, with_player
from companion.games.gangster_dice.phases.round_end import continue_draws, start_round
from companion.games.gangster_dice.state import Happening, Phase, PlayerState, State, What
from companion.protocol.errors import RuleViolation
from companion.protocol.seats import Seat

SETUP = "Setup"
CHARACTERS = "Character Cards"


def new_game(setup: Setup, components: Components, characters: tuple[Character, ...]) -> State:
    """The table before the first move: dice handed out, three on the Speakeasy, the favor deck
    waiting for its shuffle (when the companion holds the cards), no token controlled."""
    n = len(setup.seats)
    most = len(components.bid_colours)
    if not 2 <= n <= most:
        raise RuleViolation(
            SETUP, f"Gangster Dice is for 2 to {most} players (one set of bid cards each), not {n}"
        )
    start = Dice.each(components.per_player)
    speakeasy = Dice.each(components.on_speakeasy)
    players = tuple(
        PlayerState(s.name, colour, start)
        for s, colour in zip(setup.seats, bid_colours(setup.seats, components), strict=True)
    )
    state = State(
        components=components,
        characters=characters if setup.characters else (),
        rules=setup.options,
        cards=setup.cards,
        use_characters=setup.characters,
        players=players,
        phase=Phase.SETUP,
        round=0,
        control=(None,) * len(TOKENS),
        speakeasy=speakeasy,
        streets=Dice(),
        investigator=Dice(),
        box=components.all_dice - speakeasy - Dice.each(components.per_player * n),
        special=components.special_count,
        to_shuffle=components.deck if setup.cards is CardsMode.COMPANION else (),
    )
    return deal_if_ready(state)


def bid_colours(seats: tuple[Seat, ...], components: Components) -> list[str]:
    """Each player's set of bid cards: their seat's colour, or the first set nobody chose."""
    sets = components.bid_colours
    for s in seats:
        if s.colour is not None and s.colour not in sets:
            raise RuleViolation(
                SETUP,
                f"{s.name}'s colour is {s.colour}, but the bid cards "
                f"come in {', '.join(sets)}: choose one of those, or none",
            )
    free = iter(c for c in sets if c not in {s.colour for s in seats})
    return [s.colour if s.colour is not None else next(free) for s in seats]


def shuffle(state: State, action: Shuffle) -> State:
    """Chance: the cards waiting for a shuffle (the whole deck at setup, the discard pile when
    the deck runs out) become the deck in the order given."""
    rule = SETUP if state.phase is Phase.SETUP else "Sequence of play"
    if not state.shuffle_due:
        raise RuleViolation(rule, "no favor cards are waiting to be shuffled")
    if Counter(action.order) != Counter(state.to_shuffle):
        raise RuleViolation(
            rule,
            f"a shuffle holds exactly the {len(state.to_shuffle)} cards being shuffled "
            f"({_cards(state.to_shuffle)}), not {_cards(action.order)}",
            public="a shuffle holds exactly the cards being shuffled",
        )
    state = note(
        replace(state, deck=state.deck + action.order, to_shuffle=()),
        Happening(What.SHUFFLED, count=len(action.order)),
    )
    if state.phase is Phase.DRAW:
        return continue_draws(state)
    return deal_if_ready(state)


def choose_character(state: State, seat: int, action: ChooseCharacter) -> State:
    """Character Cards: "Players may choose their own card, or you may deal them out
    randomly" (the real cards are dealt at the table; the phone says which one came)."""
    p = state.players[seat]
    if not state.use_characters:
        raise RuleViolation(
            CHARACTERS,
            "this is the tutorial game, without character cards",
            public="this is the tutorial game, without character cards",
        )
    if state.phase is not Phase.SETUP or p.character is not None:
        raise RuleViolation(
            CHARACTERS,
            f"{p.name} plays {p.character} for the whole game",
            public=f"{p.name} plays {p.character} for the whole game",
        )
    card = next((c for c in state.characters if c.name.casefold() == action.name.casefold()), None)
    if card is None:
        names = ", ".join(c.name for c in state.characters)
        raise RuleViolation(
            CHARACTERS,
            f"there is no character card {action.name!r}; the cards are {names}",
            public=f"there is no card {action.name!r}",
        )
    holder = next((q.name for q in state.players if q.character == card.name), None)
    if holder is not None:
        raise RuleViolation(
            CHARACTERS,
            f"{holder} plays {card.name}: one card each",
            public=f"{holder} plays {card.name}: one card each",
        )
    return deal_if_ready(with_player(state, seat, character=card.name))


def hand_size(state: State, seat: int) -> int:
    """How many favor cards a player starts with: 3 in the tutorial game, else what their
    character card says."""
    name = state.players[seat].character
    if not state.use_characters or name is None:
        return state.components.tutorial_hand
    return next(c.favors for c in state.characters if c.name == name)


def deal_if_ready(state: State) -> State:
    """Deal the hands and begin round 1, once the deck is shuffled and characters chosen."""
    if state.phase is not Phase.SETUP or state.shuffle_due:
        return state
    if state.use_characters and any(p.character is None for p in state.players):
        return state
    players = list(state.players)
    deck = state.deck
    for seat, p in enumerate(players):
        n = hand_size(state, seat)
        if state.cards is CardsMode.COMPANION:
            players[seat] = replace(p, hand=tuple(sorted(deck[:n])))
            deck = deck[n:]
        else:
            players[seat] = replace(p, unknown=n)
    state = note(replace(state, players=tuple(players), deck=deck), Happening(What.DEALT))
    return start_round(state, 1)


def _cards(values: tuple[int, ...]) -> str:
    counts = Counter(values)
    return ", ".join(f"{counts[v]}×{v}" for v in sorted(counts)) or "none"
