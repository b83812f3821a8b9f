"""The web side of the dice layer: the host's pairing desk.

The pairing desk keeps the one pairing the host is running ("roll your five dice now") and
saves it when the last die is found, so the next game needs no pairing. What the phones see of
the dice (prompts, progress, whose die) is made in :mod:`web.views`, like everything else a
viewer sees.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from companion.dice.assignment import DieRef
from companion.dice.pairing import Pairing
from companion.dice.service import DiceService
from companion.dice.simulated import SIM_SOURCE
from companion.dice.table import TableDice
from companion.protocol import DiceSet
from web.views import ref_json

PRIVACY_WARNING = (
    "Pixels dice broadcast their face in clear text in every Bluetooth advertisement. Anyone "
    "nearby with a scanning app can read every Pixels die, including the hidden rolls behind "
    "the screens, and Bluetooth links to the dice are not encrypted either. When hidden rolls "
    "matter, read those players' Pixels in connected mode (a connected die stops broadcasting "
    "its face; at most about 5 per Pi), or have them type their rolls on their phones, or use "
    "the camera behind the screen or the DIY die."
)


@dataclass
class PairingDesk:
    """The host's one pairing at a time ("roll your five dice now"), saved when complete."""

    table_dice: TableDice
    pairing: Pairing | None = None
    saved: list[DieRef] | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def dice(self, game_id: str) -> DiceService:
        """The live dice service: the table's, whichever game it follows (a table has one set
        of dice, so pairing from any game's host page pairs the table)."""
        bridge = self.table_dice.bridge or self.table_dice.follow(game_id)
        assert bridge.dice is not None
        return bridge.dice

    def start(self, game_id: str, owner: str, count: int) -> Pairing:
        dice = self.dice(game_id)
        with self._lock:  # a die found before self.pairing is set waits here to be saved
            if self.pairing is not None:
                self.pairing.cancel()
            self.saved = None
            self.pairing = dice.pair(owner, count, on_found=lambda _ref: self._found(dice))
            return self.pairing

    def _found(self, dice: DiceService) -> None:
        # The last die of the count: save at once, so closing the page loses nothing.
        with self._lock:
            pairing = self.pairing
        if pairing is not None and len(pairing.found) >= pairing.count:
            self.save(dice, pairing)

    def save(self, dice: DiceService, pairing: Pairing | None = None) -> list[DieRef]:
        with self._lock:
            pairing = pairing or self.pairing
            if pairing is None or pairing is not self.pairing:
                return []
            pairing.cancel()
            self.saved = dice.save_pairing(pairing)
            return list(self.saved)

    def status(self, game_id: str, owners: list[dict[str, Any]]) -> dict[str, Any]:
        dice = self.dice(game_id)
        assignment = dice.assignment
        paired = []
        for o in owners:
            refs = [r for r in assignment.owned_by(o["owner"]) if r.source != SIM_SOURCE]
            paired.append({**o, "dice": [ref_json(r, dice) for r in refs]})
        pairing = self.pairing
        if pairing is not None and pairing.done.is_set() and self.saved is None:
            self.save(dice, pairing)  # a die found before on_found was set: save it anyway
        current = None
        if pairing is not None:
            current = {
                "owner": pairing.owner,
                "count": pairing.count,
                "found": [ref_json(r) for r in list(pairing.found)],
                "done": pairing.done.is_set(),
                "saved": self.saved is not None,
            }
        following = self.table_dice.game_id == game_id
        return {
            "mode": self.table_dice.mode,
            "sources": [{"name": s.name, "needs": s.needs.value} for s in dice.sources],
            # Who has a roll in progress (names only: how many dice is theirs to know), for
            # the host's "void" button.
            "rolling": list(dict.fromkeys(w.player for w in dice.hub.waiting()))
            if following
            else [],
            "table": self.table_dice.table,
            "privacy": PRIVACY_WARNING,
            "owners": paired,
            "pairing": current,
        }


def owners_of(sets: list[DiceSet]) -> list[dict[str, Any]]:
    """Who dice can be paired to: the game's dice sets (A New Don: each family by its seat
    colour, so a pairing outlives the players' names, then the three red dice)."""
    return [{"owner": d.owner, "label": d.label, "count": d.count} for d in sets]
