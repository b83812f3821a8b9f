"""Bots: players the companion seats at a short-handed table, and hints for people.

A bot decides from what its seat knows (:class:`Observation`: its own view, and worlds drawn
from its information set), never from a game's state, by information-set Monte Carlo tree
search (:mod:`companion.bots.search`) with the game's own knowledge (A New Don's in
:mod:`companion.bots.new_don`; any other game plays through the protocol alone). See
docs/bots.md.
"""

from companion.bots.bot import DEFAULT_LEVEL, LEVELS, Bot, Decision, Level, LevelName
from companion.bots.observation import Observation

__all__ = ["DEFAULT_LEVEL", "LEVELS", "Bot", "Decision", "Level", "LevelName", "Observation"]
