"""Sequence of play: the roll, the secret bids, and the reveal that scores them.

"At the beginning of each round, each player rolls all the dice in their stash. Everyone then
selects a bid card to play. This bid card must match a symbol on the dice you rolled. Once you
have chosen a bid card, select a favor card and place both cards face down in front of you. When
all players have chosen their cards, reveal them simultaneously. The player with the highest
score for each symbol will get to influence that token this round. Your score is the number of
symbols showing on your dice for the token you bid on, plus the number on your favor card. If a
token is not bid on, it is not influenced. If there is a tie for the highest score to influence a
token then no one gets to influence it this round." The Streets: "add the number of dice on it
to your score when calculating bid scores. In addition, the Streets breaks ties in your favor."
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from companion.games.gangster_dice.actions import Bid, BidCard, CardsMode, Roll
from companion.games.gangster_dice.components import TOKENS, Dice, Token
from companion.games.gangster_dice.phases.common import note, removed, update_player
from companion.games.gangster_dice.phases.tokens import influence
from companion.games.gangster_dice.state import (
    Happening,
    Outcome,
    Phase,
    PlayerState,
    Reveal,
    ScoredBid,
    State,
    What,
)
from companion.protocol.errors import RuleViolation

PLAY = "Sequence of play"
TWO = "2-Player Variant"


def _in_bids(state: State, what: str) -> None:
    if state.phase is not Phase.BIDS:
        raise RuleViolation(
            PLAY,
            f"{what} at the beginning of a round; now the round's "
            f"{state.phase.value} are being settled",
            public=f"{what} at the beginning of a round",
        )


def roll(state: State, seat: int, action: Roll) -> State:
    """ "Each player rolls all the dice in their stash": the roll names every one."""
    _in_bids(state, "the dice are rolled")
    p = state.players[seat]
    if p.rolled is not None:
        raise RuleViolation(
            PLAY, f"{p.name} has rolled this round", public=f"{p.name} has rolled this round"
        )
    rolled = Dice.of_colours(c for c, _ in action.dice)
    if rolled != p.stash:
        reason = (
            f"each player rolls all the dice in their stash: {p.name}'s holds "
            f"{p.stash.describe()}, this roll {rolled.describe()}"
        )
        raise RuleViolation(PLAY, reason, public=reason)
    faces = tuple((c, state.components.die(c).face(n)) for c, n in action.dice)
    return update_player(state, seat, replace(p, rolled=faces))


def check_bid(state: State, seat: int, bids: tuple[BidCard, ...]) -> None:
    """Refuse bids ``seat`` may not make now (the one check of a bid: ``apply`` and the list of
    legal bids both use it)."""
    _in_bids(state, "bids are made")
    p = state.players[seat]
    if p.rolled is None:
        raise RuleViolation(
            PLAY,
            f"{p.name} rolls first: the bid card must match a symbol on the dice you rolled",
            public=f"{p.name} rolls first",
        )
    due = state.bids_due(seat)
    if len(bids) != due:
        if len(state.players) == 2:
            why = (
                "play 2 bid cards and 2 favor cards (one for each bid card)"
                if due == 2
                else f"{p.name} plays one bid card: their dice show one symbol only, or "
                "their hand holds one favor card"
            )
            raise RuleViolation(TWO, why, public=why)
        raise RuleViolation(
            PLAY,
            "each player plays one bid card and one favor card",
            public="each player plays one bid card and one favor card",
        )
    if len({b.token for b in bids}) != len(bids):
        raise RuleViolation(
            TWO,
            "the two bid cards are different: each player has one bid card per token",
            public="the two bid cards are different",
        )
    for b in bids:
        if not p.shows(b.token.symbol):
            reason = (
                f"the bid card must match a symbol on the dice you rolled: "
                f"{p.name}'s dice show no {b.token.symbol} for {b.token.named}"
            )
            raise RuleViolation(PLAY, reason, public=reason)
    _check_favors(state, p, [b.favor for b in bids])


def _check_favors(state: State, p: PlayerState, favors: list[int]) -> None:
    """The favor cards must be in the hand (as far as the companion knows it)."""
    c = state.components
    values = sorted({*c.deck, c.special_value})
    for v in favors:
        if v not in values:
            raise RuleViolation(
                PLAY,
                f"there is no favor card worth {v}; they are worth {', '.join(map(str, values))}",
            )
    if state.cards is CardsMode.COMPANION:
        missing = Counter(favors) - Counter(p.hand)
        if missing:
            v = min(missing)
            held = ", ".join(map(str, p.hand)) or "nothing"
            raise RuleViolation(
                PLAY,
                f"{p.name} has no{' other' if v in p.hand else ''} favor "
                f"card worth {v}: their hand holds {held}",
            )
        return
    # Physical cards: the companion knows only the +4s it saw a player take.
    fours = favors.count(c.special_value)
    extra = max(0, fours - p.hand.count(c.special_value))  # +4s it did not see them take
    if extra > state.loose_fours:
        raise RuleViolation(
            "Influence Tokens: The Lawyer",
            f"{p.name} has no special +4 favor: one is taken by winning the Lawyer again",
        )
    if len(favors) - fours + extra > p.unknown:
        raise RuleViolation(
            PLAY,
            f"{p.name}'s hand is {p.hand_size} favor cards, "
            f"{p.hand.count(c.special_value)} of them special +4s",
        )


def bid(state: State, seat: int, action: Bid) -> State:
    """The cards go face down; when the last player has chosen, all are revealed at once. A
    player may change their choice until then."""
    check_bid(state, seat, action.bids)
    state = update_player(state, seat, replace(state.players[seat], bid=action.bids))
    if all(p.bid is not None for p in state.players):
        return reveal(state)
    return state


def score_bids(state: State) -> Reveal:
    """Every bid's score, and who influences each token."""
    streets = state.controller(Token.STREETS)
    scored = tuple(
        ScoredBid(
            seat,
            b.token,
            b.favor,
            p.shows(b.token.symbol),
            state.streets.total if seat == streets else 0,
        )
        for seat, p in enumerate(state.players)
        for b in p.bid or ()
    )
    outcomes = []
    for token in TOKENS:
        bids = [b for b in scored if b.token is token]
        if not bids:
            outcomes.append(Outcome(token, None, None, (), False))
            continue
        top = max(b.score for b in bids)
        tied = tuple(b.seat for b in bids if b.score == top)
        if len(tied) == 1:
            outcomes.append(Outcome(token, tied[0], top, tied, False))
        elif streets in tied:
            outcomes.append(Outcome(token, streets, top, tied, True))
        else:
            outcomes.append(Outcome(token, None, top, tied, False))
    return Reveal(state.round, scored, tuple(outcomes))


def reveal(state: State) -> State:
    """All cards face up: scores worked out, the played favor cards discarded (a special +4
    per the house rule ``spent_fours``), the bid cards back in hand, the tokens influenced."""
    result = score_bids(state)
    special = state.components.special_value
    to_stack = state.rules.spent_fours == "stack"
    players = list(state.players)
    discard = list(state.discard)
    stack, loose = state.special, state.loose_fours
    for seat, p in enumerate(players):
        favors = [b.favor for b in p.bid or ()]
        fours = favors.count(special)
        if state.cards is CardsMode.COMPANION:
            hand, unknown = removed(p.hand, favors), 0
            discard += [v for v in favors if v != special or not to_stack]
        else:
            known = min(fours, p.hand.count(special))
            hand = removed(p.hand, [special] * known)
            unknown = p.unknown - (len(favors) - known)
            loose -= fours - known
            loose += 0 if to_stack else fours
        stack += fours if to_stack else 0
        players[seat] = replace(p, hand=hand, unknown=unknown, bid=None)
    state = replace(
        state,
        players=tuple(players),
        discard=tuple(sorted(discard)),
        special=stack,
        loose_fours=loose,
        reveal=result,
    )
    return influence(note(state, Happening(What.REVEALED, count=state.round)))
