"""The rulebook's words, for the phones: what each phase is and what a player may do in it now,
and for every section a refusal cites, the rule in the rulebook's own words with one line
saying what to do instead.

Data, kept in this module rather than a file the engine would have to read: the engine reads
no files (the platform hands a game its files only at ``new_game``), and the help is needed by
``player_view`` and the web's refusals. Every quote is the rulebook's text word for word (a
quote of several passages joins them with " … "); ``tests/engine/test_rulebook_texts.py``
checks each against the rulebook, and that every section the engine cites has its entry.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.new_don.board import ABILITY_TEXT, Ability
from companion.games.new_don.state import Phase

GAP = " … "  # between two passages of one quote


@dataclass(frozen=True, slots=True)
class RuleText:
    """One section of the rulebook as a refusal shows it."""

    section: str  # as refusals cite it: "Offer B.a"
    quote: str  # the rulebook's words
    instead: str  # one line: what the player can do instead


def _appendix(ability: Ability) -> str:
    return f"Appendix: {ABILITY_TEXT[ability]}"


_TEXTS = (
    RuleText(
        "Setup",
        "Roll a die to see who will be the Godfather first. The player with the highest roll is "
        "the Godfather. All other players get to place one of their Soldier tokens in the #6 "
        "spot on the Favor track in the river.",
        "Roll one die; on a tie for the highest roll, only the tied players roll again.",
    ),
    RuleText(
        "Vegas",
        "The Godfather rolls the three red Vegas dice. Players who have a Soldier token on a "
        "number in Vegas get to take all the red dice that match the number where their Soldier "
        "token is placed." + GAP + "Dice claimed from Vegas can be added to the player's pool "
        'to be rolled for the next phase or players can "lock" a Vegas die on that number '
        "instead of rerolling it in the next phase.",
        "The Godfather rolls the red dice once a round from round 2; a player who won red dice "
        "locks them or rolls them with their pool.",
    ),
    RuleText(
        "Roll",
        "All players roll their dice simultaneously behind their screens. This becomes their "
        "dice pool." + GAP + "Next, each player simultaneously reveals one die from their dice "
        "pool and puts it in front of their screen for the Godfather to see.",
        "Roll the dice you are asked for, then show one of them as your favor (the Godfather "
        "shows none).",
    ),
    RuleText(
        "Offer",
        "Starting with the player to his left and proceeding clockwise until each player's offer "
        "has been considered, the Godfather chooses one of two options for each player:"
        + GAP
        + "After the Godfather has taken the revealed die or made an offer to the player, the "
        "player can immediately reroll any number of their dice, regardless of whether the "
        "Godfather took a die or not." + GAP + "The Godfather does not receive a free reroll.",
        "Wait for the Godfather's offer to you; right after it, reroll any of your dice or keep "
        "them.",
    ),
    RuleText(
        "Offer A",
        "Take the favor: The Godfather can choose to take the die a player has revealed as "
        "their favor. If he does, the Godfather takes the revealed die and places it in front of "
        "his screen. The player who revealed the die then places a Soldier token on that number "
        "on the Favor track.",
        "The Godfather takes the favor of the player whose offer it is, or names a number.",
    ),
    RuleText(
        "Offer B",
        "Make that player an offer they can't refuse: If the Godfather doesn't want the favor a "
        "player has revealed, then the Godfather can request a die with ANY number he wants "
        "from that player.",
        "Name a number from 1 to 6 for the player whose offer it is, or take their favor.",
    ),
    RuleText(
        "Offer B.a",
        "If that player has a die with the requested number, then they MUST give that die to "
        "the Godfather—it was an offer they couldn't refuse! That player then places one of "
        "their Soldier tokens on one of two spots on the Favor track in the river:"
        + GAP
        + "On the numbered spot equal to the number on the die the Godfather requested."
        + GAP
        + "On the numbered spot equal to the number on the die the player originally offered.",
        "Put your soldier on the spot of the number asked for, or of the favor you showed.",
    ),
    RuleText(
        "Offer B.b",
        "If that player does NOT have a die with the requested number on it, they must reveal "
        "their dice to prove they don't have what the Godfather requested. They do not give ANY "
        "die to the Godfather. They still place one of their Soldier tokens on the numbered "
        "spot equal to the number on the die they originally revealed to the Godfather.",
        "Nothing to do: the companion checks your dice, and the table only hears that you have "
        "none.",
    ),
    RuleText(
        "Resolution",
        "Starting with the Godfather and proceeding clockwise, each player reveals their dice "
        "and then takes their turn to resolve all of their dice and use favors. The Godfather "
        "CANNOT use favors.",
        "Wait for your turn to resolve: the Godfather goes first, then clockwise.",
    ),
    RuleText(
        "Resolution A",
        "Starting with the Godfather and proceeding clockwise, each player reveals their dice "
        "and then takes their turn to resolve all of their dice and use favors. The Godfather "
        "CANNOT use favors.",
        "Wait for your turn to resolve: the Godfather goes first, then clockwise.",
    ),
    RuleText(
        "Resolution B",
        "Players use their dice plus any dice they collected from Vegas and/or other players to "
        "compose various sets. Players then spend each set to claim a neighborhood that "
        "matches their set.",
        "Spend dice you have: tap your dice to see what exactly they can claim.",
    ),
    RuleText(
        "Resolution B.i",
        "Claim a neighborhood: Players may spend a set of dice by placing them behind their "
        "screen to indicate that they have been used. They then place one of their Soldier "
        "tokens on an empty neighborhood, matching the set's value and size." + GAP + "Players "
        "may claim as many neighborhoods on their turns as they are able to claim.",
        "Claim an empty neighborhood whose set your dice match exactly; one that is held can "
        "only be muscled out.",
    ),
    RuleText(
        "Resolution B.ii",
        "Muscle an opponent out of a neighborhood: If there are no empty neighborhoods matching "
        "a player's set and that player wants to claim a neighborhood occupied by an opponent, "
        "then they can Muscle the opponent out of that neighborhood as long as they are HIGHER "
        "on the Muscle track than the opponent.",
        "Claim an empty neighborhood that takes the set, or recruit muscle to climb above the "
        "holder first.",
    ),
    RuleText(
        "Resolution B.ii.d",
        "A player with a token in the Zero Zone cannot Muscle any opponents out and can be "
        "Muscled out by any opponent who is on a lettered or numbered space on the track.",
        "Recruit muscle first: any lettered or numbered space is above the Zero Zone.",
    ),
    RuleText(
        "Resolution C",
        "If a player has dice left over that cannot be used to claim a neighborhood, they can "
        "spend them to recruit muscle and/or make a bet in Vegas." + GAP + "These options are "
        "NOT available to the Godfather. The Godfather can only claim neighborhoods/muscle "
        "opponents out of a neighborhood on his turn.",
        "Claim or muscle out with your sets; recruit and bet with the dice no set can use (not "
        "as the Godfather).",
    ),
    RuleText(
        "Resolution C.i",
        "The player moves their Soldier token forward on the Muscle track a number of spaces "
        "equal to the sum of the dice they wish to spend. If a player is on a lettered space on "
        "the Muscle track, they begin movement starting with 1." + GAP + "Only one Soldier "
        "token is allowed per space (numerical or alphabetical) on the Muscle track.",
        "Recruit with dice you still have that were not rerolled by the Free Reroll favor.",
    ),
    RuleText(
        "Resolution C.ii",
        "For each die spent to make a bet, the player places one of their Soldier tokens on any "
        "empty spot on the Vegas track." + GAP + "If there are no empty spots, then no one "
        "else can place a Soldier token in Vegas.",
        "Bet one die on an empty Vegas spot, with a soldier from your House.",
    ),
    RuleText(
        "Resolution D",
        "All players EXCEPT the Godfather can use favors from the Favor track at any time on "
        "their turn—before, during, or after dice resolution.",
        "Use a favor on your own turn, on a spot where you have a soldier.",
    ),
    RuleText(
        "Resolution D.i",
        "A player elects to use a specific favor by removing their Soldier token from that area "
        "of the Favor track and placing the Soldier token back in their House.",
        "Use a favor where you have a soldier; soldiers get there through offers, or by being "
        "muscled out.",
    ),
    RuleText(
        "Clean up",
        "The player that is the highest on the Muscle track becomes the new Godfather for the "
        "next round.",
        "Nothing to do: the companion reorganizes the Muscle track and starts the next round.",
    ),
    RuleText(
        "Game End",
        "If one or more districts are full of Soldier tokens, the game is over at the end of "
        "that round. The game can also end if a player has no more Soldier tokens left in their "
        "House at the end of a round.",
        "The game is over: see the final score.",
    ),
    RuleText(
        "Scoring",
        "If there is a tie, then all tied players score the points awarded to the next lowest "
        "place, and all subsequent scores are awarded one rank lower as well, meaning that no "
        "points are awarded in certain situations such as ties for third place.",
        "",
    ),
    RuleText(
        _appendix(Ability.FREE_REROLL),
        "Reroll any dice in front of you. Dice that are rerolled can now only be used to make "
        "sets.",
        "Use the rerolled dice to claim or muscle out; recruit and bet with your other dice.",
    ),
    RuleText(
        _appendix(Ability.PLUS_MINUS_ONE),
        "Add or subtract one from a die result. Change a 4 to a 3 or a 5. (1 is low, 6 is high.)",
        "Change the die by one and stay between 1 and 6; favor 4 turns a die to any side.",
    ),
    RuleText(
        _appendix(Ability.MOVE),
        "On the map, move one of your Soldier tokens to an adjacent neighborhood (a "
        "neighborhood that shares part of the same border or connects via a bridge) as long as "
        "there are no Soldier tokens in the new neighborhood.",
        "Move a soldier you have on the map to an empty neighborhood next to it.",
    ),
    RuleText(
        _appendix(Ability.TURN_DIE),
        "Turn a die to any number you desire.",
        "Pick one of your dice and the face to turn it to.",
    ),
    RuleText(
        _appendix(Ability.EXTRA_DIE),
        "Add an imaginary die to your pool of dice. The number on this new imaginary die must "
        "match the number on one of your other dice you rolled.",
        "Copy a face one of your dice shows.",
    ),
    RuleText(
        _appendix(Ability.ANY),
        "Perform any action above.",
        "Name which of the five favors to perform.",
    ),
)

RULES: dict[str, RuleText] = {t.section: t for t in _TEXTS}


@dataclass(frozen=True, slots=True)
class PhaseHelp:
    """A phase as a phone explains it: what it is, and what a player may do in it now, by
    what the game waits for from them (``does``; ``<does>.godfather`` for the Godfather where
    that differs), or ``wait`` when it waits for others."""

    title: str
    section: str  # the rulebook section quoted with it
    what: str
    now: dict[str, str]


PHASES: dict[Phase, PhaseHelp] = {
    Phase.SETUP: PhaseHelp(
        "Setup: the first Godfather",
        "Setup",
        "Everyone rolls one die: the highest roll is the first Godfather, and every other "
        "player puts a soldier on Favor spot 6.",
        {
            "godfather_roll": "Roll one die.",
            "wait": "Wait for the others' rolls (a tie for the highest rolls again).",
        },
    ),
    Phase.VEGAS: PhaseHelp(
        "1. Vegas",
        "Vegas",
        "The Godfather rolls the three red dice. A soldier on a number in Vegas takes every red "
        "die showing it and goes home; the other soldiers stay for the next round.",
        {
            "vegas_roll": "You are the Godfather: roll the three red dice.",
            "keep_vegas": "You won red dice: lock any of them at their value, or roll them with "
            "your pool.",
            "wait": "Wait for the Godfather's red dice, and for who locks what.",
        },
    ),
    Phase.ROLL: PhaseHelp(
        "2. Roll",
        "Roll",
        "Everyone rolls their dice at once behind their screens, then shows one die, the "
        "favor, for the Godfather to see. Favors are shown only once everyone's is down.",
        {
            "roll": "Roll your dice behind your screen (a Vegas die you locked stays as it is).",
            "reveal_favor": "Show one of your dice as your favor: the Godfather may take it in "
            "the Offer phase, and your soldier goes on that number's Favor spot.",
            "wait": "Wait while the others roll and show their favors.",
            "wait.godfather": "You are the Godfather: you show no favor. Your offers come next.",
        },
    ),
    Phase.OFFER: PhaseHelp(
        "3. Offer",
        "Offer",
        "Clockwise from the Godfather's left, the Godfather takes each player's favor or asks "
        "them for any number; a player who has it must give it. Either way their soldier goes "
        "on the Favor track, and they may then reroll any of their dice for free.",
        {
            "offer": "Take the favor, or name any number: if they have it, they must give it to "
            "you.",
            "choose_favor_spot": "You gave the die: put your soldier on the spot of the number "
            "asked for, or of the favor you showed.",
            "reroll": "Free reroll: pick dice to roll again, or keep them all.",
            "roll": "Roll the dice you chose to reroll.",
            "wait": "Wait for your offer: the Godfather goes clockwise from their left.",
            "wait.godfather": "Wait while the player you made an offer to answers or rerolls.",
        },
    ),
    Phase.RESOLUTION: PhaseHelp(
        "4. Resolution",
        "Resolution",
        "Godfather first, then clockwise: each player shows their dice and spends them. Sets "
        "claim empty neighborhoods, or muscle out a player lower on the Muscle track when no "
        "empty one takes the set; leftover dice recruit muscle or bet on Vegas; favors any time "
        "in one's own turn. The Godfather only claims and muscles out.",
        {
            "resolve": "Spend sets on neighborhoods, then recruit or bet with leftover dice; use "
            "favors any time. Pass to end your turn.",
            "resolve.godfather": "Claim neighborhoods or muscle out lower players with your sets: "
            "the Godfather cannot recruit, bet or use favors. Pass to end "
            "your turn.",
            "roll": "Roll the dice of your Free Reroll favor: they can only make sets.",
            "wait": "Wait for your turn: players resolve clockwise from the Godfather.",
        },
    ),
    Phase.GAME_OVER: PhaseHelp(
        "Game over",
        "Game End",
        "The game ends with the round in which a district is full or a House is empty. Each "
        "district pays 1st, 2nd and 3rd place, the House 3, 2 and 1 point; tied players take "
        "the next lower place; a tie on points goes to the highest on the Muscle track.",
        {"wait": "The score is final."},
    ),
}


def phase_help(phase: Phase, waiting_on_me: list[str], godfather: bool) -> dict[str, Any]:
    """The help for ``phase`` as one viewer reads it: ``waiting_on_me`` is what the game
    waits for from them (empty for the table screen, or when others are to act)."""
    help_ = PHASES[phase]
    keys = [*(f"{d}.godfather" for d in waiting_on_me if godfather), *waiting_on_me]
    keys += ["wait.godfather"] if godfather else []
    now = next((help_.now[k] for k in [*keys, "wait"] if k in help_.now), "")
    rule = RULES[help_.section]
    return {
        "title": help_.title,
        "what": help_.what,
        "now": now,
        "rule": rule.section,
        "quote": rule.quote,
    }


def rulebook_json() -> dict[str, dict[str, str]]:
    """Every section a refusal may cite, with the rulebook's words and what to do instead."""
    return {t.section: {"quote": t.quote, "instead": t.instead} for t in _TEXTS}
