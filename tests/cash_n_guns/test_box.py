"""The box file: every fact the manual's missing set-up pages held, with its source, and a
check that names every problem with its line, what to write, and the rule it would break."""

from __future__ import annotations

import re

import pytest
from cash_n_guns_table import BOX, FILES

from companion.games.cash_n_guns import CASH_N_GUNS, BoxError, LootKind, Source, check_box
from companion.games.cash_n_guns.box_file import SHIPPED, check_report, parse_box
from companion.protocol import RuleViolation

SHIPPED_TEXT = FILES.shipped(SHIPPED)


def problems(text: str, warnings: bool = False) -> list[str]:
    box, found = check_box(text)
    assert (box is None) == any(not p.warning for p in found)
    return [p.format("box.toml") for p in found if p.warning == warnings]


def edited(old: str, new: str) -> str:
    assert old in SHIPPED_TEXT, old
    return SHIPPED_TEXT.replace(old, new, 1)


def test_the_shipped_box_is_clean_and_every_fact_has_a_source():
    box, found = check_box(SHIPPED_TEXT)
    assert box is not None and found == []
    assert {f.source for f in box.facts} == set(Source)
    for fact in box.facts:
        if fact.source is not Source.PLACEHOLDER:
            assert fact.note, fact  # a section for the rulebook, the reasoning for inferred


def test_the_shipped_box_is_the_deck_the_manual_needs():
    assert BOX.deck_size == BOX.turns * BOX.loot_per_turn == 64
    assert (BOX.bangs, BOX.clicks) == (3, 5) and BOX.bangs + BOX.clicks == BOX.turns
    assert BOX.painting_values[:3] == (4000, 12000, 30000) and BOX.diamond_bonus == 60000
    assert {c.kind for c in BOX.cards} == set(LootKind)


def test_the_games_player_count_is_the_boxs():
    assert CASH_N_GUNS.players == BOX.players


def test_what_is_not_in_the_manual_is_marked():
    sources = {f.name: f.source for f in BOX.facts}
    assert sources["players.fewest"] is Source.INFERRED
    assert sources["bullets.bang"] is Source.INFERRED
    assert sources["special_cards"] is Source.PLACEHOLDER
    assert sources["loot bill-5000.count"] is Source.PLACEHOLDER
    assert sources["loot bill-5000.value"] is Source.RULEBOOK
    assert sources["turns"] is Source.RULEBOOK
    assert len(BOX.placeholders()) == 10  # every Loot count, and the special cards


def test_the_report_lists_the_placeholders():
    ok, text = check_report(SHIPPED_TEXT)
    assert ok and "OK: 4-8 players, 8 turns of 8 Loot cards" in text
    assert "10 facts are placeholders" in text and "Count the Clips" in text


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ("count = 15\n", "count = 14\n", ["holds 63 cards", "need 64", "End of the Game"]),
        (
            "bang = 3",
            "bang = 4",
            ["4 Bang! and 5 Click", "9 cards for 8 turns", "make bang + click = 8"],
        ),
        ("fewest = 4", "fewest = 2", ["at least 3", "privilege"]),
        ("most = 8", "most = 9", ["seats at most 8"]),
        (
            "section = \"End of the Game: 'The game ends",
            'sect = "End',
            ["unknown key 'sect'", "cites the rulebook but not where"],
        ),
        (
            'source = "inferred"\nwhy = """The manual does not say.',
            'source = "inferred"\nnote = """The manual does not say.',
            ["players is inferred but does not say how"],
        ),
        (
            'source = "placeholder"\nwhy = """The manual names',
            'source = "guess"\nwhy = """The',
            ["source 'guess' is not known"],
        ),
        (
            'kind = "painting"\ncount = 9',
            'kind = "painting"\nvalue = 1000\ncount = 9',
            ["a painting has no printed value"],
        ),
        ('kind = "clip"', 'kind = "ammo"', ["kind 'ammo' is not one the manual describes"]),
        ("values = [4000, 12000, 30000", "values = [4000, 30000, 12000", ["worth less"]),
        ("cards = []", 'cards = ["Power: Mobster"]', ["plays none"]),
        ("format = 1", "format = 2", ["format must be 1"]),
        ('game = "cash-n-guns"', 'game = "new-don"', ["for the game 'new-don'"]),
    ],
)
def test_each_problem_is_named_with_its_line_and_fix(old, new, words):
    found = problems(edited(old, new))
    assert found, "the edit should have been refused"
    text = "\n".join(found)
    for w in words:
        assert w in text, text
    assert all(re.match(r"box\.toml:\d+: error: ", line) for line in found), found


def test_too_many_paintings_for_the_collection_table():
    text = edited("count = 9", "count = 11").replace(
        'kind = "clip"\ncount = 2', 'kind = "clip"\ncount = 0'
    )
    assert any("11 paintings" in p for p in problems(text))


def test_a_bill_the_manual_does_not_print_is_a_warning_only():
    text = edited("value = 20000", "value = 25000")
    assert problems(text) == []
    assert any(
        "$25,000 bill" in w and "$5,000, $10,000, $20,000" in w
        for w in problems(text, warnings=True)
    )


def test_a_duplicate_card_and_bad_toml():
    dup = SHIPPED_TEXT.replace("value = 10000\ncount = 15", "value = 5000\ncount = 15", 1)
    assert any("bill-5000 is listed twice" in p for p in problems(dup))
    assert any("not valid TOML" in p for p in problems(SHIPPED_TEXT + "\n[oops\n"))


def test_parse_box_raises_with_every_error():
    with pytest.raises(BoxError) as err:
        parse_box(edited("fewest = 4", "fewest = 1").replace("most = 8", "most = 12"))
    assert len([p for p in err.value.problems if not p.warning]) == 2


def test_a_tables_own_box_is_read_from_its_folder_and_its_player_count_holds(tmp_path):
    from companion.gamefiles import GameFiles
    from companion.games.cash_n_guns import Setup, new_game
    from companion.games.cash_n_guns.box_file import load_box
    from companion.protocol import Seat

    (tmp_path / "ours.toml").write_text(edited("most = 8", "most = 5"))
    files = GameFiles(CASH_N_GUNS, tmp_path)
    ours = load_box("ours.toml", files)
    assert ours.players == (4, 5)
    setup = Setup(tuple(Seat(n) for n in "ABCDEF"), box="ours.toml")
    with pytest.raises(RuleViolation) as err:
        CASH_N_GUNS.new_game(setup, files)
    assert err.value.rule == "Set-up (the box)" and "4 to 5 players, not 6" in err.value.reason
    assert new_game(Setup(tuple(Seat(n) for n in "ABCDE")), ours).box is ours
