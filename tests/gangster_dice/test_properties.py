"""Invariants over many random legal games (OpenSpiel's random_sim_test, for Gangster Dice).

Each game is played by the game's own ``random_action`` from a seed hypothesis picks, with 2 to
4 players, the companion's cards or physical ones, characters on or off, and random house rules.
At every step: the 27 dice and the 42 favor cards (36 in the deck and 6 special +4s) are all
somewhere; sampled legal choices are accepted and a random decision is refused with a typed
error or was offered; views, the narration and the action as a viewer sees it do not change
when every secret that viewer may not see is drawn anew; at the end, the record replays to the
same state. ``GANGSTER_DICE_PROPERTY_GAMES`` sets the number of games (default 100).
"""

from __future__ import annotations

import os
import random
from collections import Counter
from typing import Any

import pytest
from gd_table import FILES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.gangster_dice import (
    COLOURS,
    GANGSTER_DICE,
    TOKENS,
    Bid,
    BidCard,
    CardsMode,
    Dice,
    HouseRules,
    Load,
    MalformedAction,
    Phase,
    PlaceOnStreets,
    Roll,
    RuleViolation,
    Shuffle,
    State,
    Swap,
    TakeOff,
    Token,
    action_view,
    apply,
    legal_actions,
    player_view,
    scramble,
    waiting_for,
)
from companion.games.gangster_dice.narrate import narrate
from companion.protocol import option_list
from companion.records import dump_record, parse_record, replay
from companion.simulate import random_setup

GAMES = int(os.environ.get("GANGSTER_DICE_PROPERTY_GAMES", "100"))
# The games are played in parts, so that ./test's workers share them (one part alone was most of
# a worker's time); GAMES in all.
PARTS = 4

house_rules = st.builds(
    HouseRules, **{info.name: st.sampled_from(info.values) for info in option_list(GANGSTER_DICE)}
)


def setup_line(players: int, rules: HouseRules, cards: str, characters: str) -> dict[str, Any]:
    line = random_setup(players, rules, GANGSTER_DICE.id)
    if cards != "companion":
        line["cards"] = cards
    if characters != "off":
        line["characters"] = characters
    return line


def play(seed: int, line: dict[str, Any]):
    """A random game: yields (before, action, after) to the end."""
    rng = random.Random(seed)
    state = GANGSTER_DICE.new_game(GANGSTER_DICE.setup_from_dict(line), FILES)
    for _ in range(5000):
        if state.is_over:
            return
        action = GANGSTER_DICE.random_action(state, rng)
        after = apply(state, action)
        yield state, action, after
        state = after
    raise AssertionError("a random game did not end in 5,000 actions")


def check_dice(s: State) -> None:
    everywhere = s.speakeasy + s.streets + s.investigator + s.box
    for p in s.players:
        assert min(n for _, n in p.stash) >= 0 and p.received.total <= p.stash.total + 3
        everywhere = everywhere + p.stash
    assert everywhere == Dice.each(9), everywhere
    assert s.speakeasy.total == 3  # an exchange gives as many as it takes
    assert min(n for d in (s.streets, s.investigator, s.box) for _, n in d) >= 0


def dealt(s: State, seat: int) -> int:
    name = s.players[seat].character
    return next((c.favors for c in s.characters if c.name == name), 3)


def check_cards(s: State) -> None:
    special = s.components.special_value
    if s.cards is CardsMode.COMPANION:
        cards = Counter(s.deck) + Counter(s.discard) + Counter(s.to_shuffle)
        for p in s.players:
            cards += Counter(p.hand)  # face-down bids are still counted in the hand
        cards[special] += s.special
        assert cards == Counter({0: 6, 1: 12, 2: 12, 3: 6, 4: 6}), cards
        assert sum(cards.values()) == 42
    else:
        known = sum(p.hand.count(special) for p in s.players)
        assert s.special + known + s.loose_fours == 6, (s.special, known, s.loose_fours)
        assert all(set(p.hand) <= {special} for p in s.players)
    if s.phase is Phase.BIDS and s.round >= 1:
        for i, p in enumerate(s.players):
            assert p.hand_size == dealt(s, i), (p.name, p.hand_size)


def normalise(a: Any) -> Any:
    return a  # actions sort their own lists (Bid, Swap, Roll), so equal choices compare equal


def fuzz(s: State, rng: random.Random) -> Any:
    """A random decision, aimed half the time at a player the game waits for."""
    waiting = waiting_for(s)
    name = (
        rng.choice(waiting).player if waiting and rng.random() < 0.5 else rng.choice(s.players).name
    )
    colour = rng.choice([*COLOURS, None])
    colours = tuple(rng.choice(COLOURS) for _ in range(rng.randint(0, 4)))
    kind = rng.randrange(6)
    if kind == 0:
        n = 2 if len(s.players) == 2 and rng.random() < 0.7 else 1
        tokens = rng.sample(TOKENS, n) if rng.random() < 0.9 else [Token.LAWYER] * n
        return Bid(name, tuple(BidCard(t, rng.randint(0, 5)) for t in tokens))
    if kind == 1:
        return Swap(
            name,
            colours,
            tuple(rng.choice(COLOURS) for _ in range(len(colours))) if rng.random() < 0.8 else (),
        )
    if kind == 2:
        return PlaceOnStreets(name, colour)
    if kind == 3:
        return Load(name, colour)
    if kind == 4:
        return TakeOff(name, colour)
    stash = s.players[s.seat(name)].stash
    return Roll(name, tuple((c, rng.randint(1, 6)) for c in stash.listed()))


@pytest.mark.parametrize("part", range(PARTS))
@settings(
    max_examples=max(1, GAMES // PARTS),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 4),
    rules=house_rules,
    cards=st.sampled_from(["companion", "physical"]),
    characters=st.sampled_from(["off", "on"]),
)
def test_random_games_keep_every_invariant(
    part: int, seed: int, players: int, rules: HouseRules, cards: str, characters: str
) -> None:
    rng = random.Random(seed ^ 0x6D1CE)
    line = setup_line(players, rules, cards, characters)
    actions = []
    state = None
    secrets_changed = 0
    for before, action, after in play(seed, line):
        actions.append(action)
        state = after
        check_dice(after)
        check_cards(after)

        # Every choice legal_actions offers is accepted (a sample per step).
        for w in waiting_for(before):
            options = legal_actions(before, w.player)
            assert options or w.dice is not None, (w, before.phase)
            for choice in rng.sample(options, min(3, len(options))):
                check_dice(apply(before, choice))

        # A random decision is refused with one of the two typed errors; if it is accepted,
        # legal_actions offered it.
        attempt = fuzz(before, rng)
        try:
            apply(before, attempt)
        except (RuleViolation, MalformedAction):
            pass
        else:
            if not isinstance(attempt, Roll | Shuffle):
                assert attempt in legal_actions(before, attempt.player), attempt

        # Views do not leak: scrambling what a viewer may not know leaves what they see as is.
        viewer = rng.choice([None, *(p.name for p in after.players)])
        s_before = scramble(before, viewer, rng)
        s_after = scramble(after, viewer, rng)
        secrets_changed += s_after != after
        assert player_view(after, viewer) == player_view(s_after, viewer)
        assert narrate(before, action, after, viewer) == narrate(s_before, action, s_after, viewer)
        assert action_view(before, action, viewer) == action_view(s_before, action, viewer)
        assert (
            [c.to_dict() for c in GANGSTER_DICE.choices(after, viewer)]
            == [c.to_dict() for c in GANGSTER_DICE.choices(s_after, viewer)]
            if viewer
            else True
        )
        table = player_view(after, None)
        assert "you" not in table and "hidden" not in str(table)
        if isinstance(action, Shuffle):
            assert action_view(before, action, viewer)["order"] == "hidden"
        if isinstance(action, Bid) and viewer != action.player:
            assert action_view(before, action, viewer)["bids"] == "hidden"

    # The game ended by the rule, the secrets were really redrawn, and the record replays.
    assert state is not None and state.is_over and state.winners
    assert all(state.players[i].stash.total == 0 for i in state.winners)
    if cards == "companion" or players == 2 or characters == "on":
        assert secrets_changed, "scramble never changed a secret: the test proves nothing"
    text = dump_record(GANGSTER_DICE.setup_from_dict(line), actions)
    assert replay(parse_record(text), FILES) == state


def test_random_games_end_in_a_table_length_of_time() -> None:
    """Random play ends (the property test relies on it), in a few dozen rounds."""
    rounds = []
    for seed in range(40):
        line = setup_line(2 + seed % 3, HouseRules(), "companion", "off")
        last = None
        for _, _, after in play(seed, line):
            last = after
        assert last is not None
        rounds.append(last.round)
    assert max(rounds) < 200 and sorted(rounds)[len(rounds) // 2] < 40, rounds
