"""Physical dice in: every source (simulated, phone, Bluetooth, serial, camera) yields readings,
and the hub turns them into the engine's dice actions. See docs/dice.md.

The Bluetooth parts (``radio``, ``pixels_source``, ``godice_source``, ``service``) import bleak;
import them from their modules so the rest stays light.
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
