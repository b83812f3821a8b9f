"""Which seats of which game a bot plays, and each table's hint option: ``bots.json`` in the
data folder, so the bots sit down again after a restart.

A bot seat is the table's arrangement, not part of the game: the record does not change when a
bot takes a seat (its moves are the seat's moves, and a record replays without any bot).
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import asdict, dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from companion.bots.bot import DEFAULT_LEVEL, LEVELS, MAX_SECONDS, RETIRED_LEVELS

FILE = "bots.json"
MIN_SECONDS = 0.02  # the least time a host may give a bot per move


class BotDice(StrEnum):
    """Who rolls a bot's dice: the companion (virtual dice, or the table's simulated ones),
    or someone at the table with a real die (read by the table's dice, or typed on the host
    page)."""

    COMPANION = "companion"
    TABLE = "table"


class SeatingError(ValueError):
    """A bot seat that cannot be: the message says why."""


@dataclass(frozen=True, slots=True)
class BotSeat:
    """A seat a bot plays: its level, the time it may think per move (None: its level's),
    and who rolls its dice."""

    player: str
    level: str = DEFAULT_LEVEL
    seconds: float | None = None
    dice: BotDice = BotDice.COMPANION

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise SeatingError(f"level must be one of {', '.join(LEVELS)}, not {self.level!r}")
        if self.seconds is not None and not MIN_SECONDS <= self.seconds <= MAX_SECONDS:
            raise SeatingError(
                f"a bot thinks {MIN_SECONDS}-{MAX_SECONDS:g} s per move, not {self.seconds}"
            )

    @property
    def budget(self) -> float:
        """Seconds per move: the host's, else the level's."""
        return self.seconds if self.seconds is not None else LEVELS[self.level].seconds

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "dice": self.dice.value, "budget": self.budget}


class Seating:
    """The bot seats and hint options of every game in one data folder (thread-safe)."""

    def __init__(self, data_dir: Path | str) -> None:
        self.path = Path(data_dir) / FILE
        self._lock = threading.Lock()
        self._games: dict[str, dict[str, Any]] = {}
        if self.path.exists():
            self._games = self._read()

    def _read(self) -> dict[str, dict[str, Any]]:
        try:
            data = json.loads(self.path.read_text("utf-8"))
        except (OSError, ValueError):
            return {}  # a broken file seats no bot: the host seats them again
        return data if isinstance(data, dict) else {}

    def _write(self) -> None:
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self._games, indent=1, sort_keys=True), "utf-8")
        os.replace(tmp, self.path)

    def bots(self, game_id: str) -> dict[str, BotSeat]:
        with self._lock:
            seats = self._games.get(game_id, {}).get("bots", {})
        out = {}
        for name, data in seats.items():
            try:
                level = data.get("level", DEFAULT_LEVEL)
                out[name] = BotSeat(
                    name,
                    RETIRED_LEVELS.get(level, level),
                    data.get("seconds"),
                    BotDice(data.get("dice", "companion")),
                )
            except (SeatingError, ValueError):
                continue  # an entry an older companion wrote: that seat has no bot
        return out

    def games(self) -> list[str]:
        """The games with a bot seated."""
        with self._lock:
            return [g for g, data in self._games.items() if data.get("bots")]

    def seat(self, game_id: str, seat: BotSeat) -> None:
        with self._lock:
            entry = self._games.setdefault(game_id, {})
            entry.setdefault("bots", {})[seat.player] = {
                "level": seat.level,
                "seconds": seat.seconds,
                "dice": seat.dice.value,
            }
            self._write()

    def unseat(self, game_id: str, player: str) -> bool:
        with self._lock:
            bots = self._games.get(game_id, {}).get("bots", {})
            if player not in bots:
                return False
            del bots[player]
            self._write()
            return True

    def hints(self, game_id: str) -> bool:
        """Whether players may ask their phones for a hint (on unless the table said no)."""
        with self._lock:
            return bool(self._games.get(game_id, {}).get("hints", True))

    def set_hints(self, game_id: str, allowed: bool) -> None:
        with self._lock:
            self._games.setdefault(game_id, {})["hints"] = allowed
            self._write()
