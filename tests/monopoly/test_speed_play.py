"""Speed Play Rules: three Title Deeds dealt free to each player; three Hideouts before a
Compound; leave Jail on the next turn (test_jail.py); the game ends when one player goes
bankrupt, and the richest of the others wins: cash, properties at their printed price,
mortgaged ones at half, Hideouts at their price, Compounds with the three Hideouts turned in."""

from monopoly_scenario import (
    BROWN_1,
    BROWN_2,
    DARK_BLUE,
    DARK_BLUE_1,
    DARK_BLUE_2,
    FISHING_BOAT,
    act,
    arrange,
    cash,
    doing,
    owner,
    refused,
    roll,
    table,
)

from companion.games.monopoly import MONOPOLY, Phase

DEALT = {"Maria": (BROWN_1, BROWN_2, FISHING_BOAT), "Johnny": (*DARK_BLUE, 6), "Claire": (8, 9, 11)}


def test_three_title_deeds_are_dealt_free_before_the_first_roll():
    state = table("Maria", "Johnny", speed_play=True)
    assert doing(state) == [("Maria", "deeds"), ("Johnny", "deeds")]
    for space in (BROWN_1, BROWN_2, FISHING_BOAT):
        state = act(state, "take_deed", player="Maria", space=space)
    assert cash(state, "Maria") == 1500 and owner(state, BROWN_2) == "Maria"
    exc = refused(state, "take_deed", player="Maria", space=6)
    assert exc.rule == "Speed Play Rules 1" and "already has 3 deeds" in exc.reason
    exc = refused(state, "take_deed", player="Johnny", space=BROWN_1)
    assert "the deed of Brown 1 was dealt to Maria" in exc.reason
    assert state.phase is Phase.SETUP
    for space in (*DARK_BLUE, 6):
        state = act(state, "take_deed", player="Johnny", space=space)
    assert state.phase is Phase.PLAY and doing(state) == [("Maria", "roll")]


def test_deeds_are_not_dealt_in_the_classic_game():
    exc = refused(table(), "take_deed", player="Maria", space=BROWN_1)
    assert "deeds are dealt free only in Speed Play" in exc.reason


def test_the_first_bankruptcy_ends_the_game_and_the_richest_wins():
    state = table("Maria", "Johnny", "Claire", deeds=DEALT, speed_play=True)
    state = arrange(
        state,
        hideouts={DARK_BLUE_1: 3},
        compounds=(DARK_BLUE_2,),
        mortgaged=(6,),
        cash={"Maria": 5, "Johnny": 100, "Claire": 2000},
        at={"Maria": 34},
    )
    state = roll(state, "Maria", 2, 3)  # onto Johnny's Compound: $2000
    state = act(state, "mortgage", player="Maria", space=FISHING_BOAT)
    state = act(state, "bankrupt", player="Maria")
    assert state.phase is Phase.OVER
    score = MONOPOLY.score(state)
    johnny = score["fortunes"]["Johnny"]
    # $100 + $5 + the Fishing Boat's $100 and two Browns' $60 of mortgages from Maria;
    # Dark Blue $350 + $400, Light Blue 1 ($100) mortgaged at $50; 3 Hideouts and a
    # Compound with its 3 Hideouts at $200 each; Maria's deeds, all mortgaged: half price.
    assert johnny["cash"] == 100 + 5 + 100 + 30 + 30
    assert johnny["properties"] == 350 + 400
    assert johnny["mortgaged"] == 50 + (60 + 60 + 200) // 2
    assert johnny["buildings"] == 3 * 200 + 4 * 200
    assert score["totals"]["Claire"] == 2000 + 100 + 120 + 140
    assert score["winners"] == ["Johnny"] and score["bankrupt"] == ["Maria"]
    assert score["places"] == {"Johnny": 1, "Claire": 2, "Maria": 3}
    assert "Speed Play ends" in state.end
