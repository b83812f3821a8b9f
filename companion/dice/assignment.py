"""Which physical die belongs to whom, saved per table so the next game needs no pairing.

An *owner* is a family (the seat colour, so the assignment outlives the players' names), a
player's name (a phone, a camera behind one screen), a game's shared pool by its name (A New
Don's three red dice are ``vegas``), or :data:`TABLE` for a shared tray whose dice belong to
whoever is rolling alone. A die is named by
:class:`DieRef`, its source plus its id within that source: a Pixels die by its pixel id, a
GoDice by its address, a DIY die by its configured name.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from companion.dice.reading import DieReading

TABLE = "table"  # shared dice: whoever is the only one rolling


class DieRef(NamedTuple):
    """One physical die: the source that reads it and its id there."""

    source: str
    die_id: str

    @classmethod
    def of(cls, reading: DieReading) -> DieRef:
        return cls(reading.source, reading.die_id)

    def __str__(self) -> str:
        return f"{self.source}/{self.die_id}"

    def spoken(self) -> str:
        """The die as a message to a player names it, at the start of a sentence.

        A camera's die has no identity a player could find on the tray (its id is its place
        in the roll's order), so it is named by the camera that sees it; any other die by its
        id, which its pairing page shows."""
        kind, _, rest = self.source.partition(":")
        if kind == "camera":
            return f"A die camera {rest.partition(':')[0]} sees"
        if kind == "phone":
            return "A die entered on a phone"
        return f"Die {self.die_id}"


def source_owner(source: str) -> str | None:
    """Owners that come with the source's name: ``phone:<player>``, ``camera:<cam>:<owner>``."""
    kind, _, rest = source.partition(":")
    if kind == "phone" and rest:
        return rest
    if kind == "camera" and ":" in rest:
        return rest.rsplit(":", 1)[1]
    return None


@dataclass
class Assignment:
    """The table's dice: owners per die and per whole source, and per-die settings.

    ``settings`` holds what a die cannot tell us itself: a GoDice's ``shell``, whether a Pixels
    die is read ``connected`` rather than from its adverts.
    """

    dice: dict[DieRef, str] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)
    settings: dict[DieRef, dict[str, Any]] = field(default_factory=dict)

    def owner(self, ref: DieRef) -> str | None:
        """Who ``ref`` belongs to: the die's own entry, then its source's, then the name's."""
        return self.dice.get(ref) or self.sources.get(ref.source) or source_owner(ref.source)

    def assign(self, ref: DieRef, owner: str, **settings: Any) -> None:
        self.dice[ref] = owner
        if settings:
            self.settings.setdefault(ref, {}).update(settings)

    def unassign(self, ref: DieRef) -> None:
        self.dice.pop(ref, None)
        self.settings.pop(ref, None)

    def owned_by(self, owner: str) -> list[DieRef]:
        return sorted(ref for ref, who in self.dice.items() if who == owner)

    def setting(self, ref: DieRef, name: str, default: Any = None) -> Any:
        return self.settings.get(ref, {}).get(name, default)

    def to_json(self) -> dict[str, Any]:
        return {
            "version": 1,
            "dice": [
                {
                    "source": r.source,
                    "die": r.die_id,
                    "owner": o,
                    **({"settings": self.settings[r]} if r in self.settings else {}),
                }
                for r, o in sorted(self.dice.items())
            ],
            "sources": dict(sorted(self.sources.items())),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Assignment:
        if data.get("version") != 1:
            raise ValueError(f"unknown dice assignment version {data.get('version')!r}")
        out = cls(sources={str(k): str(v) for k, v in data.get("sources", {}).items()})
        for entry in data.get("dice", []):
            ref = DieRef(str(entry["source"]), str(entry["die"]))
            out.assign(ref, str(entry["owner"]), **entry.get("settings", {}))
        return out


_TABLE_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


class AssignmentStore:
    """One small JSON file per table under ``data_dir/dice/``, written atomically.

    Atomic (a temporary file renamed over the old one) because the Pi's power cord gets
    kicked: a half-written file would cost the table its pairing.
    """

    def __init__(self, data_dir: Path | str) -> None:
        self.folder = Path(data_dir) / "dice"

    def path(self, table: str) -> Path:
        if not _TABLE_NAME.match(table):
            raise ValueError(f"a table name is 1-64 letters, digits, '.', '_' or '-': {table!r}")
        return self.folder / f"{table}.json"

    def load(self, table: str) -> Assignment:
        """The saved assignment, or an empty one for a table never paired."""
        path = self.path(table)
        if not path.exists():
            return Assignment()
        return Assignment.from_json(json.loads(path.read_text(encoding="utf-8")))

    def save(self, table: str, assignment: Assignment) -> Path:
        path = self.path(table)
        self.folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=f".{table}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(assignment.to_json(), f, indent=2)
                f.write("\n")
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return path

    def tables(self) -> list[str]:
        return sorted(p.stem for p in self.folder.glob("*.json"))
