"""Before the first turn: the table's setup (Set It Up!), Speed Play's three free Title Deeds,
the "Don" cards, and the roll for who goes first (Who Goes First?).

The deeds and the Don cards are dealt by hand from the real decks, so the table says who got
what: one ``take_deed`` per deed (public: deeds lie face up) and one ``don_card`` per player
(secret until played).
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.monopoly.actions import DonCardDealt, PlayDon, Setup, TakeDeed
from companion.games.monopoly.board import Edition
from companion.games.monopoly.flow import start_turn
from companion.games.monopoly.sections import Rule
from companion.games.monopoly.state import EventKind, Holding, Phase, Player, State
from companion.protocol.errors import RuleViolation

PLAYERS = (2, 6)  # Contents: 6 tokens


def new_game(setup: Setup, edition: Edition) -> State:
    """The table before the first roll: every player on GO with the starting cash."""
    n = len(setup.seats)
    if not PLAYERS[0] <= n <= PLAYERS[1]:
        raise RuleViolation(
            Rule.SETUP,
            f"Monopoly is played by {PLAYERS[0]} to {PLAYERS[1]} players (six tokens), not {n}",
        )
    rules = setup.options
    if rules.don_cards and n > len(edition.dons):
        raise RuleViolation(
            Rule.DON,
            f"{n} players and {len(edition.dons)} Don cards: one "
            "each is dealt (play without them: don_cards = false)",
        )
    board = edition.board
    deeds = n * board.bank.speed_deeds
    if rules.speed_play and deeds > len(board.properties):
        raise RuleViolation(
            Rule.SPEED_DEEDS,
            f"{deeds} Title Deeds to deal and {len(board.properties)} on the board",
        )
    cash = board.bank.start_cash
    state = State(
        edition=edition,
        rules=rules,
        players=tuple(Player(s.name, s.colour, cash) for s in setup.seats),
        holdings=tuple(Holding() if s.is_property else None for s in board.spaces),
        phase=Phase.SETUP,
    )
    return after_setup(state)


def dealing_done(state: State, seat: int) -> bool:
    """Has this player been dealt everything setup deals them?"""
    p = state.players[seat]
    deeds = len(state.owned_by(seat)) >= state.board.bank.speed_deeds
    return (deeds or not state.rules.speed_play) and (
        p.don is not None or not state.rules.don_cards
    )


def after_setup(state: State) -> State:
    """Once all is dealt: roll for first player, or the first player named begins."""
    if state.phase is not Phase.SETUP or not all(
        dealing_done(state, i) for i in range(len(state.players))
    ):
        return state
    if state.rules.first_player == "roll":
        return replace(
            state, phase=Phase.ORDER, rolloff=tuple((i, None) for i in range(len(state.players)))
        )
    return start_turn(state, 0)


def _in_setup(state: State, rule: str, doing: str) -> None:
    if state.phase is not Phase.SETUP:
        raise RuleViolation(rule, f"{doing} is dealt before the first roll; the game is under way")


def take_deed(state: State, seat: int, action: TakeDeed) -> State:
    """Speed Play 1: the Banker deals three Title Deeds to each player, free."""
    if not state.rules.speed_play:
        raise RuleViolation(
            Rule.SPEED_DEEDS,
            "deeds are dealt free only in Speed Play; in this game properties are bought",
        )
    _in_setup(state, Rule.SPEED_DEEDS, "a Title Deed")
    count = state.board.bank.speed_deeds
    if len(state.owned_by(seat)) >= count:
        raise RuleViolation(Rule.SPEED_DEEDS, f"{state.name(seat)} already has {count} deeds")
    name = state.space_name(action.space)
    h = state.holding(action.space)
    if h.owner is not None:
        raise RuleViolation(
            Rule.SPEED_DEEDS, f"the deed of {name} was dealt to {state.name(h.owner)}"
        )
    state = state.with_holding(action.space, owner=seat)
    state = state.log(
        EventKind.BUY, f"{state.name(seat)} is dealt the deed of {name}.", seat, space=action.space
    )
    return after_setup(state)


def don_card(state: State, seat: int, action: DonCardDealt) -> State:
    """Custom Godfather gameplay: each player is dealt a Don card (kept secret). The
    companion cannot check two players do not name the same card without telling one of
    them someone else's card; the real cards make that impossible."""
    _in_setup(state, Rule.DON, "a Don card")
    if not state.rules.don_cards:
        raise RuleViolation(Rule.DON, "this table plays without Don cards")
    if state.players[seat].don is not None:
        raise RuleViolation(
            Rule.DON,
            f"{state.name(seat)} already has a Don card",
            public=f"{state.name(seat)} already has a Don card",
        )
    if state.edition.don(action.card) is None:
        known = ", ".join(d.id for d in state.edition.dons)
        raise RuleViolation(
            Rule.DON,
            f"there is no Don card {action.card!r}; the cards are {known}",
            public="that is no Don card of this edition",
        )
    return after_setup(state.with_player(seat, don=action.card))


def play_don(state: State, seat: int, action: PlayDon) -> State:
    """A Don card's directive is used once per game; the table does what it says."""
    if state.phase is not Phase.PLAY:
        raise RuleViolation(Rule.DON, "a Don card is played once the game is under way")
    p = state.players[seat]
    if p.don is None:
        raise RuleViolation(Rule.DON, f"{p.name} has no Don card")
    if p.don_played:
        raise RuleViolation(Rule.DON, f"{p.name} has used their Don card: once per game")
    if p.bankrupt:
        raise RuleViolation(Rule.DON, f"{p.name} is out of the game")
    card = state.edition.don(p.don)
    assert card is not None
    state = state.with_player(seat, don_played=True)
    return state.log(EventKind.DON, f"{p.name} plays the Don card {card.name}: {card.text}", seat)


def order_roll(state: State, seat: int, dice: tuple[int, ...]) -> State:
    """Who Goes First? Each player rolls the two dice and the highest roller begins; players
    tied for the highest roll again."""
    pending = [s for s, total in state.rolloff if total is None]
    if not pending:  # cannot happen: the phase ends with the last roll
        raise RuleViolation(Rule.FIRST, "everyone has rolled")
    if seat != pending[0]:
        raise RuleViolation(
            Rule.FIRST, f"{state.name(pending[0])} rolls for first player before {state.name(seat)}"
        )
    total = sum(dice)
    rolloff = tuple((s, total if s == seat else t) for s, t in state.rolloff)
    state = replace(state, rolloff=rolloff, dice=dice, rolls=state.rolls + 1, events=())
    state = state.log(
        EventKind.ROLL, f"{state.name(seat)} rolls {total} for first player.", seat, total
    )
    if any(t is None for _, t in rolloff):
        return state
    best = max(t for _, t in rolloff if t is not None)
    tied = [s for s, t in rolloff if t == best]
    if len(tied) > 1:
        state = state.log(
            EventKind.ROLL,
            " and ".join(state.name(s) for s in tied) + f" tie with {best}: they roll again.",
        )
        return replace(state, rolloff=tuple((s, None) for s in tied))
    state = replace(start_turn(state, tied[0]), first=tied[0], rolloff=())
    return state.log(EventKind.ROLL, f"{state.name(tied[0])} goes first.", tied[0])
