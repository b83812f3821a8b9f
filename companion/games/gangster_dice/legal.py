"""What can be done now: each player's legal choices, and who the game waits for.

Every choice here is accepted by ``apply`` and every choice ``apply`` accepts is here (the
property tests check both); bids are the candidates that pass ``bidding.check_bid`` itself, so
the rule is written once. Rolls and shuffles are chance, never choices: a roll is asked for in
``waiting_for``; a shuffle is drawn by the companion (:func:`chance_due`).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, combinations_with_replacement, product

from companion.games.gangster_dice.actions import (
    Action,
    Bid,
    BidCard,
    CardsMode,
    ChooseCharacter,
    Load,
    PlaceOnStreets,
    Swap,
    TakeOff,
)
from companion.games.gangster_dice.components import (
    COLOURS,
    TOKENS,
    Colour,
    Components,
    Dice,
    Symbol,
    Token,
)
from companion.games.gangster_dice.phases.bidding import check_bid
from companion.games.gangster_dice.phases.tokens import MAX_SWAP
from companion.games.gangster_dice.state import Phase, State, Task
from companion.protocol.errors import RuleViolation
from companion.protocol.game import DiceRequest, Waiting


def chance_due(state: State) -> str | None:
    """The chance the game waits for that no player makes: "shuffle", or None."""
    return "shuffle" if state.shuffle_due and not state.is_over else None


def legal_actions(state: State, player: str) -> list[Action]:
    """Every choice ``player`` may make now (a player who has bid may still change it)."""
    seat = state.seat(player)
    p = state.players[seat]
    if state.phase is Phase.SETUP:
        if not state.use_characters or p.character is not None:
            return []
        taken = {q.character for q in state.players}
        return [ChooseCharacter(player, c.name) for c in state.characters if c.name not in taken]
    if state.phase is Phase.BIDS:
        return list(bid_options(state, seat)) if p.rolled is not None else []
    if state.phase is Phase.TOKENS and state.tasks and state.tasks[0].seat == seat:
        return task_options(state, seat, state.tasks[0].task)
    if state.phase is Phase.INVESTIGATOR and state.controller(Token.INVESTIGATOR) == seat:
        options: list[Action] = [TakeOff(player, c) for c in state.investigator.colours()]
        if state.controller(Token.LAWYER) == seat:
            options.append(TakeOff(player, None))
        return options
    return []


def bid_options(state: State, seat: int) -> Iterator[Bid]:
    """Every bid ``seat`` may make: tokens their dice show, favor cards they may play."""
    p = state.players[seat]
    c = state.components
    values = sorted({*c.deck, c.special_value})
    if state.cards is CardsMode.COMPANION:
        values = sorted(set(p.hand))  # only a card in the hand can be played (a shortcut)
    tokens = [t for t in TOKENS if p.shows(t.symbol)]
    due = state.bids_due(seat)
    for chosen in combinations(tokens, due):
        for favors in product(values, repeat=due):
            cards = tuple(BidCard(t, f) for t, f in zip(chosen, favors, strict=True))
            try:
                check_bid(state, seat, cards)
            except RuleViolation:
                continue
            yield Bid(p.name, cards)


def _subsets(dice: Dice, k: int) -> list[tuple[Colour, ...]]:
    """Every way to pick ``k`` of ``dice`` (by colour)."""
    return [
        pick
        for pick in combinations_with_replacement(COLOURS, k)
        if dice.covers(Dice.of_colours(pick))
    ]


def task_options(state: State, seat: int, task: Task) -> list[Action]:
    name = state.players[seat].name
    givable = state.givable(seat)
    if task is Task.SWAP:
        most = min(MAX_SWAP, givable.total, state.speakeasy.total)
        return [
            Swap(name, give, take)
            for k in range(most + 1)
            for give in _subsets(givable, k)
            for take in _subsets(state.speakeasy, k)
        ]
    if task is Task.STREETS:
        return [PlaceOnStreets(name, None), *(PlaceOnStreets(name, c) for c in givable.colours())]
    options: list[Action] = [Load(name, c) for c in givable.colours()]
    if state.rules.investigator_load == "optional":
        options.append(Load(name, None))
    return options


def roll_prompt(stash: Dice) -> str:
    """ "Roll your 6 dice (2 white, 2 red, 2 blue)": the phone adds how to enter them, and
    simulated dice roll by themselves."""
    return f"Roll your {stash.total} {'die' if stash.total == 1 else 'dice'} ({stash.describe()})"


def phone_faces(components: Components) -> tuple[int, ...]:
    """The faces a phone offers to tap: one per symbol, the first face number showing it
    (1-4, the same symbol on every die). Faces 5 and 6 repeat a symbol, so a button for them
    would only be a second button for the same tap; simulated dice still roll all six."""
    return tuple(sorted({d.number(s) for d in components.dice for s in Symbol}))


def roll_ask(state: State, seat: int) -> str:
    """Tells this roll apart from the next, and says which dice it is for, in the order the
    faces are read: "r3:2-1-0" is round 3's roll of 2 white, 1 red and no blue dice."""
    stash = state.players[seat].stash
    return f"r{state.round}:{stash.white}-{stash.red}-{stash.blue}"


def dice_of_ask(ask: str) -> Dice:
    """The dice a roll request was for (see :func:`roll_ask`)."""
    white, red, blue = (int(n) for n in ask.split(":", 1)[1].split("-"))
    return Dice(white, red, blue)


def waiting_for(state: State) -> list[Waiting]:
    """Who the game waits for, and for what: ``character``, ``roll`` (with the dice),
    ``bid``, ``swap``, ``streets``, ``load`` or ``take``. A shuffle waits for no player."""
    out: list[Waiting] = []
    if state.phase is Phase.SETUP:
        if state.use_characters:
            out += [Waiting(p.name, "character") for p in state.players if p.character is None]
    elif state.phase is Phase.BIDS:
        for seat, p in enumerate(state.players):
            if p.rolled is None:
                out.append(
                    Waiting(
                        p.name,
                        "roll",
                        DiceRequest(
                            p.stash.total,
                            faces=phone_faces(state.components),
                            ask=roll_ask(state, seat),
                            prompt=roll_prompt(p.stash),
                        ),
                    )
                )
            elif p.bid is None:
                out.append(Waiting(p.name, "bid"))
    elif state.phase is Phase.TOKENS and state.tasks:
        head = state.tasks[0]
        out.append(Waiting(state.players[head.seat].name, head.task.value))
    elif state.phase is Phase.INVESTIGATOR:
        holder = state.controller(Token.INVESTIGATOR)
        assert holder is not None
        out.append(Waiting(state.players[holder].name, "take"))
    return out
