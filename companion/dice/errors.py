"""The one error a dice decoder raises, so a source can catch exactly it and keep running."""

from __future__ import annotations


class DiceProtocolError(ValueError):
    """Bytes from a die that cannot be understood: too short, a bad value, an unknown layout.

    Decoders are pure and raise this with a sentence naming the packet and what is wrong; the
    Bluetooth sources catch it, log it once and drop the packet, so a bad radio packet never
    ends a source (let alone the table service).
    """

    def __init__(self, what: str, data: bytes, reason: str) -> None:
        self.what = what
        self.data = bytes(data)
        self.reason = reason
        super().__init__(f"{what} {self.data.hex(' ') or '(empty)'}: {reason}")


def need(what: str, data: bytes, size: int, exact: bool = False) -> None:
    """Raise unless ``data`` holds ``size`` bytes (at least, or exactly)."""
    if len(data) < size or (exact and len(data) != size):
        want = f"{size} bytes" if exact else f"at least {size} bytes"
        raise DiceProtocolError(what, data, f"{len(data)} bytes, expected {want}")
