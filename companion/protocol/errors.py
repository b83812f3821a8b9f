"""The two ways an action can be refused.

Like python-chess's ``InvalidMoveError`` / ``IllegalMoveError``: a malformed action (unknown type,
missing field, a player who is not at the table) is a different mistake from a well-formed action
the rules forbid, and callers treat them differently (a 400 versus a referee's ruling).
"""

from __future__ import annotations


class MalformedAction(ValueError):
    """The action cannot be understood at all: wrong shape, unknown type or player."""


class RuleViolation(ValueError):
    """A well-formed action that the rules forbid now.

    ``rule`` names the rulebook section it breaks ("Resolution B.ii"); ``reason`` is a plain
    sentence with the facts of this table, for the player who acted: it may speak of their own
    hidden dice. ``public`` is what anyone else may be told; None means the reason is private,
    and others hear only that the rule was broken. ``str()`` joins rule and reason the way a
    referee says it to the player.
    """

    def __init__(self, rule: str, reason: str, public: str | None = None) -> None:
        self.rule = rule
        self.reason = reason
        self.public = public
        super().__init__(f"{reason} ({rule})")
