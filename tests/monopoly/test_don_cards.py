"""For Custom Godfather Gameplay: each player is dealt a "Don" card, usable once per game. The
directives are not in the rules: the companion keeps the card secret until played and sees it
is used once; the table does what it says."""

from monopoly_scenario import act, doing, refused, table

from companion.games.monopoly import MONOPOLY, Phase


def dealt(*names):
    state = table(*names or ("Maria", "Johnny"), don_cards=True)
    for i, name in enumerate(names or ("Maria", "Johnny")):
        state = act(state, "don_card", player=name, card=f"don-{i + 1}")
    return state


def test_each_player_is_dealt_a_don_card_before_the_first_roll():
    state = table("Maria", "Johnny", don_cards=True)
    assert doing(state) == [("Maria", "don_card"), ("Johnny", "don_card")]
    labels = [c.label for c in MONOPOLY.choices(state, "Maria")]
    assert labels == [f"My Don card: Don card {n}" for n in range(1, 7)]
    state = act(state, "don_card", player="Maria", card="don-3")
    assert state.phase is Phase.SETUP and doing(state) == [("Johnny", "don_card")]
    exc = refused(state, "don_card", player="Maria", card="don-4")
    assert "already has a Don card" in exc.reason
    exc = refused(state, "don_card", player="Johnny", card="don-9")
    assert (
        "there is no Don card 'don-9'" in exc.reason
        and exc.public == "that is no Don card of this edition"
    )


def test_a_don_card_is_secret_until_played():
    state = dealt()
    mine = MONOPOLY.player_view(state, "Maria")["players"][0]["don"]
    theirs = MONOPOLY.player_view(state, "Johnny")["players"][0]["don"]
    table_screen = MONOPOLY.player_view(state, None)["players"][0]["don"]
    assert mine["card"] == "don-1" and "text" in mine
    assert theirs == table_screen == {"dealt": True, "played": False}
    deal = state  # the dealing itself: hidden from the others in the log
    line = MONOPOLY.narrate(
        table("Maria", "Johnny", don_cards=True),
        MONOPOLY.action_from_dict({"type": "don_card", "player": "Maria", "card": "don-1"}),
        deal,
        "Johnny",
    )
    assert line == ["Maria is dealt a Don card."]


def test_a_don_card_is_used_once_and_then_shown_to_all():
    state = act(dealt(), "play_don", player="Maria")
    assert MONOPOLY.player_view(state, None)["players"][0]["don"]["card"] == "don-1"
    assert "plays the Don card Don card 1" in state.events[-1].text
    exc = refused(state, "play_don", player="Maria")
    assert exc.rule == "For Custom Godfather Gameplay (Don cards)"
    assert "once per game" in exc.reason


def test_without_the_house_rule_no_don_cards():
    exc = refused(table(), "play_don", player="Maria")
    assert "Maria has no Don card" in exc.reason
