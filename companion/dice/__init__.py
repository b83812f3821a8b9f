"""Physical dice in: every source (simulated, phone, Bluetooth, serial, camera) yields readings."""

from companion.dice.reading import DieReading, DieState

__all__ = ["DieReading", "DieState"]
