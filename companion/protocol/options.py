"""House rules: named choices where a rulebook is silent or can be read two ways.

A game writes its house rules once, as a frozen dataclass whose fields are made by
:func:`option`: the allowed values (the first is the default) and one line saying what the
choice means. Everything else (the web's list of options, ``companion rules``, parsing a record's
``options``, writing only the options that differ from the defaults) is read off those fields,
so a default cannot be written twice and drift.
"""

from __future__ import annotations

from dataclasses import Field, dataclass, field, fields
from typing import Any, ClassVar, Protocol, TypeVar

from companion.protocol.errors import MalformedAction


def option(*values: Any, text: str) -> Any:
    """A house-rule field: its allowed values, the first being the default, and its meaning."""
    if not values:
        raise ValueError("an option needs at least one value")
    return field(default=values[0], metadata={"values": values, "text": text})


@dataclass(frozen=True, slots=True)
class OptionInfo:
    """One house rule as people read it."""

    name: str
    values: tuple[Any, ...]
    default: Any
    text: str


class HouseRulesType(Protocol):
    """A frozen dataclass of :func:`option` fields."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]


R = TypeVar("R", bound=HouseRulesType)


def option_infos(rules: type[HouseRulesType]) -> dict[str, OptionInfo]:
    """Every option of a house-rules class, in the order it declares them."""
    out = {}
    for f in fields(rules):
        values = tuple(f.metadata["values"])
        out[f.name] = OptionInfo(f.name, values, values[0], f.metadata["text"])
    return out


def options_from_dict(rules: type[R], data: object) -> R:
    """The house rules a record's ``options`` object names (absent ones at their default);
    :class:`MalformedAction` naming an unknown option or a value it cannot take."""
    data = data or {}
    if not isinstance(data, dict):
        raise MalformedAction("options must be an object of house-rule names to values")
    infos = option_infos(rules)
    for key, value in data.items():
        info = infos.get(key)
        if info is None:
            raise MalformedAction(f"unknown house rule {key!r}; known: {', '.join(sorted(infos))}")
        if not any(value == v and type(value) is type(v) for v in info.values):
            raise MalformedAction(
                f"house rule {key} cannot be {value!r}; choose one of "
                + ", ".join(repr(v) for v in info.values)
            )
    return rules(**data)


def options_to_dict(rules: HouseRulesType) -> dict[str, Any]:
    """Only the options that differ from their defaults, so records stay short."""
    infos = option_infos(type(rules))
    return {
        name: getattr(rules, name)
        for name, info in infos.items()
        if getattr(rules, name) != info.default
    }
