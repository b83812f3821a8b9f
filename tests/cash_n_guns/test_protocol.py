"""What the platform asks of the game beyond the rules: buttons, undo, the record's lines,
the table's data, and the views the pages will draw."""

from __future__ import annotations

import pytest
from cash_n_guns_table import BANG, BANZAI, DOWN, aim_all, load_all, play, start, table, take, turn

from companion.games import game
from companion.games.cash_n_guns import (
    CASH_N_GUNS,
    Aim,
    AimedBy,
    ConfirmAim,
    CourageChoice,
    Flip,
    Load,
    Privilege,
    TakeToken,
    action_from_dict,
    apply,
    player_view,
)
from companion.protocol import MalformedAction

RING = {"Maria": "Johnny", "Johnny": "Claire", "Claire": "Vincent", "Vincent": "Maria"}


def labels(state, viewer):
    return {c.label: c for c in CASH_N_GUNS.choices(state, viewer)}


def test_the_game_is_registered_and_has_no_dice():
    assert game("cash-n-guns") is CASH_N_GUNS
    s = table()
    assert CASH_N_GUNS.dice_sets(s) == [] and not CASH_N_GUNS.is_roll(Load("Maria", BANG))
    with pytest.raises(MalformedAction):
        CASH_N_GUNS.roll_action(CASH_N_GUNS.waiting_for(s)[0], (1,))


def test_a_phone_offers_its_own_moves_labelled():
    s = table()
    assert set(labels(s, "Maria")) == {"Load a Bang! (3 in hand)", "Load a Click (5 in hand)"}
    s = load_all(s)
    phone = labels(s, "Johnny")
    assert "Aim at Claire" in phone and "Aim at nobody (too slow)" in phone
    assert all(c.action.get("by") is None for c in phone.values())  # the table's are not
    s = aim_all(s, RING, by=AimedBy.TABLE)
    assert labels(s, "Johnny")["Confirm: I aim at Claire"].action == {
        "type": "confirm_aim",
        "player": "Johnny",
    }
    godfather = labels(s, "Maria")
    assert "Let every aim stand" in godfather
    assert godfather["Order Claire to change target (now on Vincent)"].group == "privilege"
    s = play(s, Privilege("Maria", None))
    assert set(labels(s, "Claire")) == {
        "Lie down (safe, no loot)",
        "Banzai! (stand: risk a wound, share the loot)",
    }
    s = play(
        s,
        *(CourageChoice(n, DOWN) for n in ("Johnny", "Claire", "Vincent")),
        CourageChoice("Maria", BANZAI),
    )
    share = labels(s, "Maria")
    assert "Take a painting (a collection of 1: $4,000)" in share
    assert "Flip the New Godfather token (the Godfather next turn)" in share
    assert labels(s, "Johnny") == {}


def test_the_table_records_a_gun_for_a_player():
    """The host acts for a player: an aim with "by": "table" in the player's name."""
    line = {"type": "aim", "player": "Claire", "target": "Johnny", "by": "table"}
    assert action_from_dict(line) == Aim("Claire", "Johnny", AimedBy.TABLE)
    assert Aim("Claire", "Johnny", AimedBy.TABLE) in CASH_N_GUNS.legal_actions(
        load_all(table()), "Claire"
    )
    assert action_from_dict({"type": "aim", "player": "Claire", "target": None}).target is None


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ({"type": "aim", "player": "Claire"}, "aim needs target"),
        (
            {"type": "aim", "player": "Claire", "target": "Johnny", "by": "phone"},
            "by must be one of",
        ),
        ({"type": "load", "player": "Maria", "card": "blank"}, "card must be one of bang, click"),
        ({"type": "flip", "player": "Maria", "cards": []}, "flip needs cards"),
        ({"type": "take", "player": "Maria", "cards": "clip"}, "take does not take cards"),
        ({"type": "shoot", "player": "Maria"}, "unknown action type 'shoot'"),
        ({"type": "privilege", "player": "Maria"}, "privilege needs order"),
    ],
)
def test_a_malformed_line_says_what_is_wrong(line, words):
    with pytest.raises(MalformedAction) as err:
        action_from_dict(line)
    assert words in str(err.value)


def test_a_card_the_box_does_not_have_is_malformed():
    with pytest.raises(MalformedAction, match="'bill-7000' is not a Loot card"):
        apply(start(), Flip("Maria", ("bill-7000",)))


def test_undo_is_for_moves_that_revealed_nothing():
    assert CASH_N_GUNS.player_may_undo(Load("Maria", BANG))
    assert CASH_N_GUNS.player_may_undo(Aim("Maria", "Johnny"))
    assert CASH_N_GUNS.player_may_undo(ConfirmAim("Maria"))
    assert not CASH_N_GUNS.player_may_undo(CourageChoice("Maria", DOWN))  # may fire the cards
    assert not CASH_N_GUNS.player_may_undo(TakeToken("Maria"))


def test_the_table_screens_view_of_a_turn():
    s = turn(table(), RING, cards={"Maria": BANG}, courage={"Vincent": DOWN})
    view = player_view(s, None)
    assert view["phase"] == "sharing" and view["turn"] == 1 and view["godfather"] == "Maria"
    assert [p["standing"] for p in view["players"]] == [True, False, True, False]
    assert view["players"][1]["wounds"] == 1
    assert view["sharing"] == {"sharer": "Maria", "clip": None, "standing": ["Maria", "Claire"]}
    assert view["shots"][0] == {
        "shooter": "Maria",
        "stood": True,
        "target": "Johnny",
        "outcome": "fired",
        "card": "bang",
    }
    assert len(view["loot"]["on_offer"]) == 8 and view["loot"]["deck_left"] == 56
    assert view["waiting"] == [{"player": "Maria", "does": "take"}]
    s = take(s, "painting")
    assert player_view(s, None)["players"][0]["loot_cards"] == 1
    assert "loot" not in player_view(s, None)["players"][0]  # kept face-down
    mine = player_view(s, "Maria")["players"][0]
    assert mine["loot"][0]["label"] == "painting" and mine["haul"]["paintings_value"] == 4000
    assert mine["hand"] == {"bang": 2, "click": 5}
    open_table = turn(table(kept_loot="face_up"), RING)
    open_table = take(open_table, "painting")
    assert player_view(open_table, None)["players"][0]["loot"][0]["card"] == "painting"


def test_progress_and_table_data():
    s = table()
    assert CASH_N_GUNS.progress(s) == "turn 1 of 8, bullets"
    data = CASH_N_GUNS.table_data(s)
    assert data["turns"] == 8 and data["diamond_bonus"] == 60000
    assert data["placeholder_facts"] == 10 and len(data["loot"]) == 9
