"""Random games (``companion.simulate``'s players) check what must hold at every step, for
every house rule and both ways of keeping the cards: every legal action applies, the table
stays a position the rules allow, views are plain JSON, and a game is the replay of its
record. GODFATHER_1971_PROPERTY_GAMES raises the number of games (the default keeps CI quick).
"""

from __future__ import annotations

import json
import os
import random

import pytest
from table import FILES

from companion.games.godfather_1971 import GODFATHER_1971, Step
from companion.games.godfather_1971.fight import groups, surrounded_by
from companion.games.godfather_1971.rules import HouseRules
from companion.protocol.options import option_infos
from companion.records import dump_record, parse_record, replay

GAMES = int(os.environ.get("GODFATHER_1971_PROPERTY_GAMES", "5"))
MAX_ACTIONS = 20_000


def random_setup(rng: random.Random) -> dict:
    options = {name: rng.choice(info.values) for name, info in option_infos(HouseRules).items()}
    return {
        "type": "setup",
        "game": "godfather-1971",
        "players": ["Ann", "Bo", "Cy", "Di"][: rng.randint(2, 4)],
        "cards": rng.choice(["physical", "companion"]),
        "neighborhoods": rng.choice([None, 4, 3, 2, ["harlem", "midtown"]]),
        "options": options,
    }


def check_invariants(state) -> None:
    assert all(p.cash >= 0 for p in state.players)
    for i, hood in enumerate(state.hoods):
        layout = state.board.layouts[i]
        seen = 0
        for mask in hood.pieces:
            assert not seen & mask  # one piece per position
            seen |= mask
        assert not seen & ~layout.full
        if hood.controller is not None:
            assert [bin(m).count("1") for m in hood.pieces].count(1) == 1 and bin(seen).count(
                "1"
            ) == 1
        elif hood.open:
            for seat, mask in enumerate(hood.pieces):
                for g in groups(layout, mask):
                    assert surrounded_by(layout, hood.pieces, g) is None, (layout.id, seat)
    if state.turn is not None:
        assert all(0 <= n <= 3 for n in state.turn.placed)
    if state.cards.value == "companion" and state.step is not Step.SHUFFLE:
        held = [p.hand for p in state.players if p.hand is not None]
        assert sorted([*state.deck, *held]) == sorted(state.board.decks.playing)


@pytest.mark.parametrize("seed", range(GAMES))
def test_random_games_keep_the_rules(seed):
    rng = random.Random(seed)
    setup = GODFATHER_1971.setup_from_dict(random_setup(rng))
    state = GODFATHER_1971.new_game(setup, FILES)
    actions = []
    for _ in range(MAX_ACTIONS):
        if GODFATHER_1971.is_over(state):
            break
        waiting = GODFATHER_1971.waiting_for(state)
        chance = GODFATHER_1971.chance_action(state, rng)
        if chance is not None:  # what the table service draws itself; nobody is waited for
            assert waiting == [] and GODFATHER_1971.is_chance(chance)
            state = GODFATHER_1971.apply(state, chance)
            actions.append(chance)
            continue
        assert len(waiting) == 1
        legal = GODFATHER_1971.legal_actions(state, waiting[0].player)
        for action in rng.sample(legal, min(4, len(legal))):  # each legal action applies
            GODFATHER_1971.apply(state, action)
        choices = GODFATHER_1971.choices(state, waiting[0].player)
        for choice in rng.sample(choices, min(2, len(choices))):
            GODFATHER_1971.apply(state, GODFATHER_1971.action_from_dict(choice.action))
        action = GODFATHER_1971.random_action(state, rng)
        assert GODFATHER_1971.action_from_dict(action.to_dict()) == action
        state = GODFATHER_1971.apply(state, action)
        actions.append(action)
        check_invariants(state)
        if len(actions) % 25 == 0:
            for viewer in (None, waiting[0].player):
                json.dumps(GODFATHER_1971.player_view(state, viewer))
            json.dumps(GODFATHER_1971.table_data(state))
    assert GODFATHER_1971.is_over(state), "a random game did not end"
    score = GODFATHER_1971.score(state)
    assert set(score["winners"]) <= set(score["totals"])
    # The game is its record.
    record = parse_record(dump_record(setup, actions))
    assert replay(record, FILES) == state
    assert GODFATHER_1971.summary(state).count("\n") > 10
