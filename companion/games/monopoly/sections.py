"""The rulebook's sections, as refusals and the docs name them.

The rulebook (``monopoly-godfather-rules.txt``) has no numbering of its own beyond its headings
and their numbered items, so a section is its heading and item: "Where Did You Land? 2".
"""

from __future__ import annotations

from enum import StrEnum


class Rule(StrEnum):
    SETUP = "Set It Up!"
    FIRST = "Who Goes First?"
    TURN = "On Your Turn"
    DOUBLES = "How to Play 5 (doubles)"
    UNOWNED = "Where Did You Land? 1 (an unowned property)"
    RENT = "Where Did You Land? 2 (a property owned by another player)"
    CARDS = "Where Did You Land? 3 (Friends or Enemies)"
    GO_TO_JAIL = "Where Did You Land? 5 (Go to Jail)"
    JAIL = "Q: How do I get out of Jail?"
    DEBT = "Help! I'm in Debt!"
    COLLECT_RENT = "Don't Wait for Your Turn 1 (collect rent)"
    AUCTION = "Don't Wait for Your Turn 2 (auction)"
    BUILD = "Don't Wait for Your Turn 3 (build)"
    SHORTAGE = "Don't Wait for Your Turn 3 (Hideout/Compound shortage)"
    SELL = "Don't Wait for Your Turn 4 (sell Hideouts/Compounds)"
    MORTGAGE = "Don't Wait for Your Turn 5 (mortgage properties)"
    DEAL = "Don't Wait for Your Turn 6 (do a deal)"
    NO_LOANS = "Play It Right!"
    SPEED_DEEDS = "Speed Play Rules 1"
    SPEED_JAIL = "Speed Play Rules 3"
    SPEED_END = "Speed Play Rules: End of Game"
    DON = "For Custom Godfather Gameplay (Don cards)"
    WIN = "How Do I Win?"
    OVER = "Game Over"
