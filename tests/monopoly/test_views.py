"""What the table screen and the phones are given: the board with tokens, owners and
buildings, every balance, the last roll and what it caused; on a phone, only what is legal now,
labelled for buttons; the two dice asked for as the table's shared pair."""

from monopoly_scenario import (
    BROWN_1,
    DARK_BLUE,
    DARK_BLUE_1,
    DARK_BLUE_2,
    act,
    arrange,
    roll,
    table,
)

from companion.games.monopoly import MONOPOLY
from companion.protocol import DiceRequest


def test_the_dice_are_the_tables_two_shared_dice():
    state = table("Maria", "Johnny")
    assert [(d.owner, d.count) for d in MONOPOLY.dice_sets(state)] == [("table-dice", 2)]
    (wait,) = MONOPOLY.waiting_for(state)
    assert wait.player == "Maria" and wait.does == "roll"
    assert wait.dice == DiceRequest(2, ("table-dice",), ask="roll-0", prompt="Roll the two dice")
    action = MONOPOLY.roll_action(wait, (3, 4))
    assert MONOPOLY.is_roll(action) and action.to_dict() == {
        "type": "roll",
        "player": "Maria",
        "dice": [3, 4],
    }
    after = MONOPOLY.apply(state, action)
    assert MONOPOLY.waiting_for(after)[0].dice is None  # the card to enter: no dice asked


def test_the_table_screen_shows_the_board_balances_and_the_last_roll_with_what_it_caused():
    state = arrange(
        table("Maria", "Johnny"),
        own={"Johnny": DARK_BLUE},
        at={"Maria": 34},
        hideouts={37: 2, DARK_BLUE_2: 2},
    )
    state = roll(state, "Maria", 2, 3)
    view = MONOPOLY.player_view(state, None)
    assert view["dice"] == [2, 3] and view["turn"] == "Maria"
    assert [e["text"] for e in view["events"]] == [
        "Maria rolls 2 and 3.",
        "Maria moves 5 to Dark Blue 2.",
        "Maria pays Johnny $600 (rent for Dark Blue 2, with 2 Hideouts).",
    ]
    assert view["spaces"]["39"] == {
        "owner": "Johnny",
        "mortgaged": False,
        "hideouts": 2,
        "compound": False,
        "rent": 600,
    }
    maria, johnny = view["players"]
    assert (maria["cash"], maria["position"], maria["space"]) == (900, 39, "Dark Blue 2")
    assert johnny["cash"] == 2100 and johnny["deeds"] == [37, 39]
    assert johnny["tradeable"] == []  # built on: the buildings are sold first
    assert view["bank"]["hideouts"] == 28 and view["bank"]["compounds"] == 12
    printed = MONOPOLY.table_data(state)
    assert printed["spaces"][39]["rents"] == [50, 200, 600, 1400, 1700, 2000]
    assert printed["placeholder"] and printed["placeholder_facts"] > 22


def test_a_phone_offers_only_what_is_legal_now_labelled_for_buttons():
    state = arrange(table("Maria", "Johnny"), own={"Maria": DARK_BLUE}, at={"Maria": 1})
    state = roll(state, "Maria", 1, 1)  # Brown 2, unowned: doubles
    labels = {c.group: [] for c in MONOPOLY.choices(state, "Maria")}
    for c in MONOPOLY.choices(state, "Maria"):
        labels[c.group].append(c.label)
    assert labels["buy"] == ["Buy Brown 2 for $60", "Auction Brown 2"]
    assert labels["build"] == [
        "Build a Hideout on Dark Blue 1 ($200)",
        "Build a Hideout on Dark Blue 2 ($200)",
    ]
    assert labels["mortgage"] == ["Mortgage Dark Blue 1 (+$175)", "Mortgage Dark Blue 2 (+$200)"]
    johnny = [c.label for c in MONOPOLY.choices(state, "Johnny")]
    assert johnny == []  # nothing of his to manage, not his turn
    state = act(state, "decline", player="Maria", space=3)
    assert [c.group for c in MONOPOLY.choices(state, "Maria")] == ["bid"] * 5
    assert MONOPOLY.player_view(state, "Johnny")["auction"]["lot_name"] == "Brown 2"


def test_a_phone_shows_its_deal_drafter_exactly_when_the_rules_let_its_player_propose():
    """A deal is drafted on the phone, not listed among the choices: ``may_deal`` says when
    the drafter is shown (Don't Wait for Your Turn: any time the table waits for nothing, and
    while raising money owed), the same test the engine applies to ``propose``."""

    def may_deal(state):
        return {p["name"]: p["may_deal"] for p in MONOPOLY.player_view(state, None)["players"]}

    state = arrange(
        table("Maria", "Johnny", "Claire"),
        own={"Johnny": DARK_BLUE},
        at={"Maria": 34},
        hideouts={DARK_BLUE_1: 4},
        compounds=(DARK_BLUE_2,),
    )
    assert may_deal(state) == {"Maria": True, "Johnny": True, "Claire": True}
    state = roll(arrange(state, own={"Maria": (BROWN_1,)}), "Maria", 2, 3)  # $2000 rent
    assert may_deal(state) == {"Maria": True, "Johnny": False, "Claire": False}
    state = act(state, "propose", player="Maria", to="Claire", give={"spaces": [BROWN_1]})
    assert may_deal(state) == {"Maria": False, "Johnny": False, "Claire": False}
    assert MONOPOLY.choices(state, "Claire")[0].label == "Accept the deal"


def test_progress_and_summary_for_the_game_lists_and_the_terminal():
    state = table("Maria", "Johnny")
    assert MONOPOLY.progress(state) == "round 1, Maria's turn"
    assert (
        MONOPOLY.progress(table("Maria", "Johnny", first_player="roll"))
        == "rolling for first player"
    )
    summary = MONOPOLY.summary(state)
    assert "Maria      $1500" in summary and "not over yet" in summary
