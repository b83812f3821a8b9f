"""The rulebook's words the phones show (companion/games/new_don/rulebook.py): every quote is the
rulebook's text word for word, every section a refusal can cite has its words and a line saying
what to do instead, and each phase's help says what the viewer may do now."""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest
from new_don_boards import FILES
from scenario import arrange, table

from companion.games.new_don import NEW_DON, Pass, Phase, RuleViolation, apply, player_view
from companion.games.new_don.board import ABILITY_TEXT
from companion.games.new_don.rulebook import GAP, PHASES, RULES

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "companion" / "games" / "new_don"
NAMES = ["Maria", "Johnny", "Claire", "Vincent", "Sonny"]
PAGE_HEADER = "ROUND DETAILS CONTINUED"  # printed at the top of a page, in mid-sentence


def rulebook_text() -> str | None:
    """The rulebook (docs/rules.md: shared/rules/new-don-rulebook.txt, beside the checkout), or
    the file NEW_DON_RULEBOOK names; None when neither is here."""
    for path in (
        os.environ.get("NEW_DON_RULEBOOK"),
        ROOT.parent / "shared" / "rules" / "new-don-rulebook.txt",
    ):
        if path and Path(path).is_file():
            return Path(path).read_text("utf-8")
    return None


def plain(text: str) -> str:
    """Words only: no bold marks, page headers or line breaks."""
    return " ".join(text.replace("**", "").replace(PAGE_HEADER, " ").split())


def test_every_quote_is_the_rulebooks_own_words():
    book = rulebook_text()
    if book is None:
        pytest.skip("the rulebook is not here (set NEW_DON_RULEBOOK to its text file)")
    words = plain(book)
    for rule in RULES.values():
        for passage in rule.quote.split(GAP):
            assert plain(passage) in words, f"{rule.section}: {passage!r} is not in the rulebook"


SECTION = re.compile(
    r'"((?:Setup|Vegas|Roll|Offer|Resolution|Game End)'
    r'(?: [A-D](?:\.[ivx]+)?(?:\.[a-d])?)?)"'
)


def cited_sections() -> set[str]:
    """Every rulebook section the engine's source names (each string that is exactly one),
    and the Appendix's sections by favor."""
    cited = set()
    for path in ENGINE.rglob("*.py"):
        cited |= set(SECTION.findall(path.read_text("utf-8")))
    return cited | {f"Appendix: {t}" for t in ABILITY_TEXT.values()}


def test_every_section_a_refusal_cites_has_its_words_and_what_to_do_instead():
    cited = cited_sections()
    assert {"Offer B.a", "Resolution B.ii.d", "Appendix: Free Reroll", "Game End"} <= cited
    missing = cited - set(RULES)
    assert not missing, f"no rulebook words for {sorted(missing)}"
    for rule in RULES.values():
        assert rule.quote and (rule.instead or rule.section == "Scoring"), rule.section
    for help_ in PHASES.values():
        assert help_.section in RULES and "wait" in help_.now


def test_refusals_over_random_games_all_have_their_words():
    """Random decisions refused in random games (the property tests' kind) each cite a section
    the rulebook texts hold."""
    rng = random.Random(5)
    seen = set()
    for players in (3, 4, 5):
        setup = NEW_DON.setup_from_dict({"type": "setup", "players": NAMES[:players]})
        state = NEW_DON.new_game(setup, FILES)
        for _ in range(400):
            if NEW_DON.is_over(state):
                break
            for name in [p.name for p in state.players]:
                try:
                    apply(state, Pass(name))
                except RuleViolation as exc:
                    seen.add(exc.rule)
            state = NEW_DON.apply(state, NEW_DON.random_action(state, rng))
    assert seen and seen <= set(RULES), seen - set(RULES)


def test_each_phone_is_told_what_this_phase_is_and_what_it_may_do_now():
    s = table(godfather="Maria")
    maria, johnny = player_view(s, "Maria")["help"], player_view(s, "Johnny")["help"]
    assert maria["title"] == "2. Roll" and maria["rule"] == "Roll"
    assert "Roll your dice behind your screen" in johnny["now"]
    assert maria["quote"].startswith("All players roll their dice simultaneously")
    assert player_view(s, None)["help"]["now"] == ""  # the table screen does nothing
    s = arrange(s, turn="Maria", dice={"Maria": [2, 2]})
    assert "cannot recruit, bet or use favors" in player_view(s, "Maria")["help"]["now"]
    assert player_view(s, "Johnny")["help"]["now"].startswith("Wait for your turn")
    s = arrange(s, turn="Johnny", dice={"Johnny": [2, 2]})
    assert "recruit or bet with leftover dice" in player_view(s, "Johnny")["help"]["now"]
    assert player_view(s, "Johnny")["help"]["title"] == "4. Resolution"


def test_the_help_follows_the_phase():
    for phase in Phase:
        assert PHASES[phase].title and PHASES[phase].what
