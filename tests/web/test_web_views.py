"""The one view module leaks nothing, for every game and every kind of payload.

Random games of every registered game (A New Don and the test game High Die) are played; at
each step, for a viewer, every secret that viewer may not see is drawn anew (the game's own
``scramble``) and every payload the web could send them is built from the true and from the
scrambled position: the picture (API replies and the view on connect), the update (the event
stream, with the narration and the action), the log lines, the host's list of moves, the dice
prompts and the refusals heard by someone who did not act. Each must come out the same.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from high_die import HIGH_DIE

from companion import games
from companion.dice.assignment import DieRef
from companion.dice.hub import DieCounted, RollWanted
from companion.protocol import MalformedAction, RuleViolation
from companion.simulate import play
from companion.table import Event, Refused
from web import views

GAMES_EACH = 12


@pytest.fixture(autouse=True)
def registered():
    games.register(HIGH_DIE)
    yield
    games.unregister(HIGH_DIE.id)


def event(rules, seq, before, action, after):
    return Event(
        "g1",
        seq,
        "action",
        f"player:{action.player}",
        action.to_dict(),
        before,
        after,
        rules,
        "active",
        action,
    )


def viewers(rules, state):
    names = [p["name"] for p in rules.player_view(state, None)["players"]]
    return [*names, None]


def refused_for_others(rules, state, attempt, viewer):
    """What ``viewer`` (not the mover) hears when ``attempt`` is refused, or None if allowed."""
    try:
        rules.apply(state, attempt)
    except (RuleViolation, MalformedAction) as exc:
        rule = getattr(exc, "rule", None)
        public = getattr(exc, "public", None)
        try:
            with views.private_refusals(viewer, attempt.player):
                raise Refused("illegal", getattr(exc, "reason", str(exc)), rule, public)
        except Refused as heard:
            return (heard.reason, heard.rule)
    return None


def heard_by_mover(rules, state, attempt):
    """The refusal's private reason (the mover's) and its public one (None: none given)."""
    try:
        rules.apply(state, attempt)
    except RuleViolation as exc:
        return exc.reason, exc.public
    except MalformedAction as exc:
        return str(exc), str(exc)
    raise AssertionError("it was refused a moment ago")


@pytest.mark.parametrize(
    "game_id",
    ["new-don", "high-die", "gangster-dice", "cash-n-guns", "godfather-1971", "monopoly-godfather"],
)
def test_no_payload_changes_when_the_secrets_a_viewer_may_not_see_change(game_id):
    rules = games.game(game_id)
    low, high = rules.players
    steps = 0
    for seed in range(GAMES_EACH):
        rng = random.Random(seed)
        players = rng.randint(low, high)
        log: list[views.LogEntry] = []
        for seq, (before, action, after) in enumerate(
            play(random.Random(seed), players, None, game_id), 1
        ):
            log.append(views.LogEntry(seq, "action", "", {}, before, action, after))
            viewer = rng.choice(viewers(rules, after))
            if viewer == action.player:
                continue  # the mover sees their own move; their secrets are theirs
            s_before = rules.scramble(before, viewer, rng)
            s_after = rules.scramble(after, viewer, rng)

            # The picture: API replies, the view on (re)connect, the score at the end.
            assert views.picture(rules, after, seq, "active", viewer) == views.picture(
                rules, s_after, seq, "active", viewer
            ), (seq, viewer)
            # The update: narration, the action as the viewer may see it, the picture.
            assert views.update(event(rules, seq, before, action, after), viewer) == views.update(
                event(rules, seq, s_before, action, s_after), viewer
            )
            # Dice prompts and progress that reach this viewer's stream.
            for true_w, seen_w in zip(
                rules.waiting_for(after), rules.waiting_for(s_after), strict=True
            ):
                if true_w.dice is None or true_w.player == viewer:
                    continue
                wanted = [
                    RollWanted(w.player, w.does, w.dice.count, w.dice.pools, w.dice.prompt)
                    for w in (true_w, seen_w)
                ]
                assert views.dice_message(wanted[0], viewer) == views.dice_message(
                    wanted[1], viewer
                )
                counted = [
                    DieCounted(true_w.player, DieRef("sim", "d1"), face, 1, true_w.dice.count)
                    for face in (1, 6)
                ]
                assert views.dice_message(counted[0], viewer) is None
                assert views.dice_message(counted[1], viewer) is None
            # A refusal of someone else's move tells this viewer the rule and the game's
            # public words, never the mover's private reason.
            attempt = rules.random_action(before, rng)
            if attempt.player != viewer:
                heard = refused_for_others(rules, before, attempt, viewer)
                if heard is not None:
                    private, public = heard_by_mover(rules, before, attempt)
                    assert heard[0] == public or "shown on their phone only" in heard[0]
                    assert private == public or heard[0] != private
            steps += 1
        # The log and the host's list of moves are the table's view of every move.
        scrambled_log = [
            replace(
                e,
                before=rules.scramble(e.before, None, rng),
                after=rules.scramble(e.after, None, rng),
            )
            for e in log
        ]
        assert views.log_json(rules, log, None) == views.log_json(rules, scrambled_log, None)
        assert views.moves(rules, log) == views.moves(rules, scrambled_log)
    assert steps > 50 * GAMES_EACH // (4 if game_id == "high-die" else 1)
