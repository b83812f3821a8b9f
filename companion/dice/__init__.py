"""Physical dice in: every source (simulated, phone, Bluetooth, serial, camera) yields readings,
and the hub turns them into the engine's dice actions. See docs/dice.md.

Every source keeps one contract (``source``) and is built by kind from one registry
(``sources``); ``service`` holds a table's hub and sources, and ``table`` ties them to the game
being played. The Bluetooth parts (``radio``, ``pixels_source``, ``godice_source``,
``fakeble``) import bleak: the registry imports them only when such a source is built, so the
rest stays light and a table of phones runs without a Bluetooth library.
"""

from companion.dice.assignment import TABLE, Assignment, AssignmentStore, DieRef
from companion.dice.errors import DiceProtocolError
from companion.dice.hub import (
    DiceEvent,
    DiceHub,
    DiceProblem,
    DieCounted,
    RollDone,
    RollWanted,
    UnknownDie,
    WhoseDie,
)
from companion.dice.phone import PhoneEntry, PhoneEntryError
from companion.dice.reading import DieReading, DieState

__all__ = [
    "TABLE",
    "Assignment",
    "AssignmentStore",
    "DiceEvent",
    "DiceHub",
    "DiceProblem",
    "DiceProtocolError",
    "DieCounted",
    "DieReading",
    "DieRef",
    "DieState",
    "PhoneEntry",
    "PhoneEntryError",
    "RollDone",
    "RollWanted",
    "UnknownDie",
    "WhoseDie",
]
