"""Every kind of dice source, registered in one place, built by name.

The dice service (:class:`~companion.dice.service.DiceService`) and ``companion serve`` ask this
registry for sources by *kind* (``simulated``, ``pixels``, ``diy-ble``, ``camera``...) with
options (a serial port, a Bluetooth address, a camera spec and whose dice it sees); they never
import a source's module themselves. That keeps two promises:

- **Bluetooth is imported only when a Bluetooth source is built.** A kind names its factory as
  ``"module:function"`` text and the module is imported on first use, so a table with phones
  only, and the table service always, run without bleak (or serial, or OpenCV) loaded.
- **Outer layers plug in without the companion importing them.** A package adds a kind (or
  replaces a built-in one) with an entry point in the group :data:`GROUP`, whose object is a
  factory like the built-in ones. The camera's parts come from ``vision`` through entry
  points too (see :mod:`companion.dice.camera`).

A factory is called as ``factory(context, **options)`` and returns a
:class:`~companion.dice.source.DiceSource`; it raises :class:`SourceError` with a sentence the
command line can print when the hardware is not there or an option is wrong. To add a source:
docs/dice.md, "Adding a dice source".
"""

from __future__ import annotations

import importlib
import inspect
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any

from companion.dice.hub import DiceHub
from companion.dice.source import DiceSource

if TYPE_CHECKING:  # the radio module imports bleak: only a Bluetooth source loads it
    from companion.dice.radio import BleRadio

log = logging.getLogger(__name__)

GROUP = "godfather_companion.dice_sources"  # entry points: kind = "module:factory"


class SourceKind(StrEnum):
    """The kinds the companion itself provides."""

    SIMULATED = "simulated"  # virtual dice that roll when the game asks (no hardware)
    PHONE = "phone"  # faces tapped on a player's phone (always there)
    PIXELS = "pixels"  # Pixels smart dice, from their adverts or connected
    GODICE = "godice"  # GoDice smart dice, connected
    DIY_SERIAL = "diy-serial"  # the DIY die (or a hub of them) on a USB serial port
    DIY_BLE = "diy-ble"  # the DIY die with an HM-10 module, over Bluetooth LE
    CAMERA = "camera"  # a camera over a tray or behind a screen (vision, via entry points)


BUILTIN: dict[str, str] = {
    SourceKind.SIMULATED: "companion.dice.simulated:simulated_dice",
    SourceKind.PHONE: "companion.dice.phone:phone_entry",
    SourceKind.PIXELS: "companion.dice.pixels_source:pixels_dice",
    SourceKind.GODICE: "companion.dice.godice_source:godice_dice",
    SourceKind.DIY_SERIAL: "companion.die.serial_source:serial_dice",
    SourceKind.DIY_BLE: "companion.die.ble_source:ble_dice",
    SourceKind.CAMERA: "companion.dice.camera:camera_dice",
}

# ``companion serve --dice MODE``: the sources each mode starts (phone entry works in all).
MODES: dict[str, tuple[SourceKind, ...]] = {
    "simulated": (SourceKind.SIMULATED,),
    "phone": (),
    "bluetooth": (SourceKind.PIXELS, SourceKind.GODICE),
}


class SourceError(ValueError):
    """A source that cannot be built: an unknown kind, a wrong option, hardware that is not
    there. The message is a sentence for the person at the command line."""


@dataclass(frozen=True)
class SourceSpec:
    """Which source to build: its kind and the options its factory takes."""

    kind: str
    options: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, value: SourceSpec | str) -> SourceSpec:
        return value if isinstance(value, SourceSpec) else cls(value)

    def __str__(self) -> str:
        opts = " ".join(f"{k}={v}" for k, v in self.options.items())
        return f"{self.kind} {opts}".strip()


@dataclass
class SourceContext:
    """What a factory may use: the hub (the assignment, and the events simulated dice roll
    on) and the table's one Bluetooth radio, made (and imported) when first asked for."""

    hub: DiceHub
    radio: Callable[[], BleRadio]


Factory = Callable[..., DiceSource]


def registered() -> dict[str, str]:
    """Every kind and where its factory lives: the built-ins, then the entry points (which
    may replace a built-in kind: a layer that knows better takes over)."""
    kinds = dict(BUILTIN)
    for ep in entry_points(group=GROUP):
        if ep.name in kinds and kinds[ep.name] != ep.value:
            log.info("dice source %s comes from %s (not %s)", ep.name, ep.value, kinds[ep.name])
        kinds[ep.name] = ep.value
    return kinds


def factory(kind: str) -> Factory:
    """The factory of ``kind``, its module imported now (and not before)."""
    where = registered().get(kind)
    if where is None:
        raise SourceError(
            f"no dice source {kind!r}: the known ones are {', '.join(sorted(registered()))}"
        )
    module, _, name = where.partition(":")
    try:
        found: Factory = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        raise SourceError(f"dice source {kind!r} ({where}) cannot be loaded: {exc}") from exc
    return found


def build(spec: SourceSpec | str, context: SourceContext) -> DiceSource:
    """A new source of ``spec``'s kind, not started yet."""
    spec = SourceSpec.of(spec)
    make = factory(spec.kind)
    try:
        inspect.signature(make).bind(context, **spec.options)
    except TypeError as exc:  # an option the factory does not take, or one missing
        raise SourceError(f"dice source {spec.kind!r}: {exc}") from None
    return make(context, **spec.options)
