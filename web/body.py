"""Reading a request's JSON body: the one place where untrusted bytes become Python values.

Every POST reads its body here, so every one gets the same limits: a size cap (Flask's
``MAX_CONTENT_LENGTH``, a 413 before the body is read), nesting no deeper than
:data:`MAX_DEPTH` (Python's parser would otherwise recurse until it fails), no NaN or
Infinity, and text that is valid Unicode (a lone surrogate cannot be written to a page or a
log). Fields are then read by type with :func:`int_field` and :func:`str_field`, so a wrong
type is a 400 that names the field, never a ``TypeError`` deep in a handler.
"""

from __future__ import annotations

import json
from typing import Any

from flask import request

from web.security import ApiError

MAX_BODY = 64 * 1024  # bytes: the largest real body (a game's setup) is under 2 KB
MAX_DEPTH = 8  # the deepest real body is {"action": {"faces": [...]}}: three levels
MAX_TEXT = 500  # characters in any one string field ("why" a move was corrected is the longest)


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _check_value(value: Any, depth: int = 0) -> None:
    """Walk the parsed value without recursion limits of its own: depth and text checked."""
    stack = [(value, depth)]
    while stack:
        item, level = stack.pop()
        if level > MAX_DEPTH:
            raise ApiError(400, "malformed", f"the JSON is nested deeper than {MAX_DEPTH} levels")
        if isinstance(item, str):
            _check_text(item)
        elif isinstance(item, dict):
            for key, inner in item.items():
                _check_text(key)
                stack.append((inner, level + 1))
        elif isinstance(item, list):
            stack.extend((inner, level + 1) for inner in item)


def _check_text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ApiError(400, "malformed", "the JSON holds broken text (a lone surrogate)") from None


def json_body() -> dict[str, Any]:
    """The request's JSON object, checked as above; a 400 saying what is wrong otherwise."""
    raw = request.get_data(cache=True)  # a body over MAX_CONTENT_LENGTH is a 413 here
    if not request.is_json:
        raise ApiError(400, "malformed", "send a JSON object with Content-Type: application/json")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ApiError(400, "malformed", "the body is not UTF-8 text") from None
    if _too_deep(text):
        raise ApiError(400, "malformed", f"the JSON is nested deeper than {MAX_DEPTH} levels")
    try:
        data = json.loads(text, parse_constant=_constant)
    except (ValueError, RecursionError) as exc:
        raise ApiError(400, "malformed", f"the body is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ApiError(400, "malformed", "send a JSON object ({...}), not " + type(data).__name__)
    _check_value(data)
    return data


def _too_deep(text: str) -> bool:
    """Whether the brackets outside strings nest deeper than :data:`MAX_DEPTH` (checked
    before parsing, so no parser ever recurses that far)."""
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH + 1:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def int_field(data: dict[str, Any], name: str) -> int:
    """A whole number (not a bool, not a float, not absent)."""
    value = data.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or abs(value) > 2**53:
        raise ApiError(400, "malformed", f"{name} must be a whole number, not {_shown(value)}")
    return value


def optional_int_field(data: dict[str, Any], name: str) -> int | None:
    """A whole number, or None when it is absent (or null)."""
    return None if data.get(name) is None else int_field(data, name)


def str_field(
    data: dict[str, Any], name: str, required: bool = True, max_length: int = MAX_TEXT
) -> str | None:
    """A string of at most ``max_length`` characters, or None when absent and not required."""
    value = data.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise ApiError(400, "malformed", f"{name} must be text, not {_shown(value)}")
    if len(value) > max_length:
        raise ApiError(400, "malformed", f"{name} is longer than {max_length} characters")
    return value


def choice_field(data: dict[str, Any], name: str, choices: tuple[str, ...], default: str) -> str:
    """One of ``choices`` (text), ``default`` when absent."""
    value = data.get(name, default)
    if not isinstance(value, str) or value not in choices:
        raise ApiError(
            400, "malformed", f"{name} must be one of {', '.join(choices)}, not {_shown(value)}"
        )
    return value


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
