"""The data files: what is in the box (components.toml) and the character cards
(characters.toml), every fact with its source, every problem reported with its line and fix;
and the character cards in play (dealt hands, abilities shown and not enforced)."""

from __future__ import annotations

from importlib import resources

import pytest
from gd_table import FILES, stacked_deck

from companion.games.gangster_dice import (
    GANGSTER_DICE,
    Character,
    ChooseCharacter,
    DataFileError,
    Phase,
    RuleViolation,
    Setup,
    Shuffle,
    apply,
    check_characters,
    check_components,
    new_game,
    player_view,
    waiting_for,
)
from companion.games.gangster_dice.characters import parse_characters
from companion.games.gangster_dice.components import parse_components
from companion.games.gangster_dice.datafile import Source
from companion.protocol import Seat

DATA = resources.files("companion.games.gangster_dice").joinpath("data")
COMPONENTS = DATA.joinpath("components.toml").read_text("utf-8")
CHARACTERS = DATA.joinpath("characters.toml").read_text("utf-8")


class TestComponents:
    def test_the_shipped_file_is_the_rulebooks_box(self):
        c, problems = check_components(COMPONENTS)
        assert problems == [] and c is not None
        assert c.per_colour == 9 and c.per_player == 2 and c.on_speakeasy == 1
        assert len(c.deck) == 36 and (c.special_value, c.special_count) == (4, 6)
        assert c.favor_cards == 42  # "42 favor cards: 6 0's, 12 1's, 12 2's, 6 3's, 6 ... 4's"
        assert {v: c.deck.count(v) for v in set(c.deck)} == {0: 6, 1: 12, 2: 12, 3: 6}
        assert c.tutorial_hand == 3 and c.bid_colours == ("yellow", "red", "blue", "green")
        assert c.facts("placeholder") == []
        assert [f.split(":")[0] for f in c.facts("inferred")] == ["dice.white.symbols"]
        assert all(s.kind in ("rulebook", "inferred", "companion") for _, s in c.sources)

    def test_a_die_that_breaks_the_rule_of_symbols_is_reported_on_its_line(self):
        text = COMPONENTS.replace(
            'faces = ["gavel", "cocktail", "gun", "finger", "gun", "finger"]',
            'faces = ["gavel", "cocktail", "gun", "finger", "gun", "gun"]',
        )
        c, problems = check_components(text)
        assert c is None and len(problems) == 1
        line = (
            text.splitlines().index('faces = ["gavel", "cocktail", "gun", "finger", "gun", "gun"]')
            + 1
        )
        assert problems[0].line == line
        assert "a die has 2 fingers, 2 of one other symbol and 1 each of the other two" in (
            problems[0].message
        )
        assert "1 finger" in problems[0].message and "3 gun" in problems[0].message

    def test_every_fact_needs_a_known_kind_of_source(self):
        text = COMPONENTS.replace(
            'source = "rulebook: components (\\"16 bid cards', 'source = "rumour: (\\"16 bid cards'
        )
        _, problems = check_components(text)
        assert len(problems) == 1 and 'is not "kind: detail" with a known kind' in (
            problems[0].message
        )
        assert problems[0].fix.startswith("begin it with one of: rulebook, card")
        text = COMPONENTS.replace('tutorial_hand = "rulebook', 'hand = "rulebook')
        _, problems = check_components(text)
        assert any("no source for tutorial_hand" in p.message for p in problems)

    def test_every_problem_is_listed_not_just_the_first(self):
        text = COMPONENTS.replace("per_colour = 9", 'per_colour = "nine"').replace(
            "special_count = 6", "special_count = -1"
        )
        with pytest.raises(DataFileError) as err:
            parse_components(text)
        assert len(err.value.problems) == 2
        assert "data/components.toml:" in str(err.value)

    def test_a_file_that_is_not_toml_names_its_line(self):
        _, problems = check_components(COMPONENTS.replace("per_colour = 9", "per_colour = nine"))
        assert problems[0].line == 16 and "not valid TOML" in problems[0].message

    def test_more_dice_handed_out_than_the_box_holds(self):
        _, problems = check_components(COMPONENTS.replace("per_player = 2 ", "per_player = 3 "))
        assert "need more than the 9 there are" in problems[0].message


class TestCharacterCards:
    def test_the_shipped_file_names_nine_cards_and_says_what_is_a_placeholder(self):
        cards, problems = check_characters(CHARACTERS)
        assert problems == [] and cards is not None and len(cards) == 9
        assert cards[0].name == "Nancy Hughs" and cards[0].favors == 3
        assert [c.placeholders() for c in cards[:6]] == [["favors", "ability"]] * 6
        assert cards[8].placeholders() == ["name", "favors", "ability"]

    def test_problems_name_the_card(self):
        text = CHARACTERS.replace(
            'name = "Timmy Green"\nfavors = 3', 'name = "Timmy Green"\nfavors = 0', 1
        )
        text = text.replace('name = "Liza Bruno"', 'name = "Nancy Hughs"')
        _, problems = check_characters(text)
        messages = [p.message for p in problems]
        assert any(
            "character 'Timmy Green': favors is the number of favor cards" in m for m in messages
        )
        assert "character 'Nancy Hughs' is listed twice" in messages

    def test_a_filled_in_card_is_no_longer_a_placeholder(self):
        text = CHARACTERS.replace(
            'source = { name = "rulebook: components", favors = "placeholder: printed on the back'
            ' of the card; 3 as in the tutorial game", ability = "placeholder: printed on the '
            'back of the card" }',
            'source = { name = "rulebook: components", favors = "card: back of the card", '
            'ability = "card: back of the card" }',
            1,
        )
        cards = parse_characters(text)
        assert cards[0].placeholders() == [] and dict(cards[0].sources)["favors"] == Source(
            "card", "back of the card"
        )


def characters_game(cards=None, names=("Maria", "Johnny", "Claire")):
    setup = Setup(tuple(Seat(n) for n in names), characters=True)
    if cards is None:
        return GANGSTER_DICE.new_game(setup, FILES)
    components = parse_components(COMPONENTS)
    return new_game(setup, components, cards)


class TestCharactersInPlay:
    def test_every_player_chooses_a_character_before_the_cards_are_dealt(self):
        """ "If you are using the character cards, give one to each player. Players may choose
        their own card, or you may deal them out randomly.\""""
        s = apply(characters_game(), Shuffle(tuple(characters_game().to_shuffle)))
        assert s.phase is Phase.SETUP
        assert [(w.player, w.does) for w in waiting_for(s)] == [
            ("Maria", "character"),
            ("Johnny", "character"),
            ("Claire", "character"),
        ]
        labels = [c.label for c in GANGSTER_DICE.choices(s, "Maria")]
        assert labels[0] == "Play Nancy Hughs (3 favor cards)" and len(labels) == 9
        s = apply(s, ChooseCharacter("Maria", "Nancy Hughs"))
        with pytest.raises(RuleViolation) as err:
            apply(s, ChooseCharacter("Johnny", "nancy hughs"))
        assert err.value.rule == "Character Cards" and "Maria plays Nancy Hughs" in str(err.value)
        with pytest.raises(RuleViolation, match="there is no character card 'Vito'"):
            apply(s, ChooseCharacter("Johnny", "Vito"))
        with pytest.raises(RuleViolation, match="Maria plays Nancy Hughs for the whole game"):
            apply(s, ChooseCharacter("Maria", "Liza Bruno"))
        s = apply(
            apply(s, ChooseCharacter("Johnny", "Liza Bruno")),
            ChooseCharacter("Claire", "Timmy Green"),
        )
        assert s.phase is Phase.BIDS and [len(p.hand) for p in s.players] == [3, 3, 3]

    def test_each_player_draws_the_favor_cards_their_card_says(self):
        """ "then draw the number of favor cards indicated on the back\" (and back up to it:
        2-Player Variant)."""
        cards = (
            Character("Big Sal", 4, "Shown, not enforced.", ()),
            Character("Little Al", 2, "Shown, not enforced.", ()),
        )
        s = characters_game(cards, names=("Maria", "Johnny"))
        s = apply(s, Shuffle(stacked_deck(s, None)))
        s = apply(
            apply(s, ChooseCharacter("Maria", "Big Sal")), ChooseCharacter("Johnny", "Little Al")
        )
        assert [len(p.hand) for p in s.players] == [4, 2]
        view = player_view(s, None)
        assert view["players"][0]["character"] == {
            "name": "Big Sal",
            "favors": 4,
            "ability": "Shown, not enforced.",
            "placeholders": [],
        }

    def test_without_characters_there_is_nothing_to_choose(self):
        s = GANGSTER_DICE.new_game(Setup((Seat("Maria"), Seat("Johnny"))), FILES)
        s = apply(s, Shuffle(tuple(s.to_shuffle)))
        with pytest.raises(RuleViolation, match="this is the tutorial game"):
            apply(s, ChooseCharacter("Maria", "Nancy Hughs"))
