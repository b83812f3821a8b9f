"""The web side of the dice layer: the host's pairing desk, and dice progress for the phones.

Dice events carry hidden information: how many dice a player rolls (``RollWanted.dice``) and
the faces as they land (``DieCounted.face``). :func:`dice_message` is the one filter every dice
event passes through on its way to a stream, built for one viewer like ``player_view``: the
roller's own phone gets the count and faces, everyone else at most "Maria is rolling".

The pairing desk keeps the one pairing the host is running ("roll your five dice now") and
saves it when the last die is found, so the next game needs no pairing.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from companion.dice.assignment import VEGAS, DieRef
from companion.dice.hub import DiceEvent, DiceProblem, DieCounted, RollWanted, WhoseDie
from companion.dice.pairing import Pairing
from companion.dice.service import DiceService
from companion.dice.simulated import SIM_SOURCE
from companion.table.dice_bridge import TableDice

PRIVACY_WARNING = (
    "Pixels dice broadcast their face in clear text in every Bluetooth advertisement. Anyone "
    "nearby with a scanning app can read every Pixels die, including the hidden rolls behind "
    "the screens, and Bluetooth links to the dice are not encrypted either. When hidden rolls "
    "matter, read those players' Pixels in connected mode (a connected die stops broadcasting "
    "its face; at most about 5 per Pi), or have them type their rolls on their phones, or use "
    "the camera behind the screen or the DIY die."
)

FAMILY_DICE = 5
VEGAS_DICE = 3


def dice_message(event: DiceEvent, viewer: str | None) -> dict[str, Any] | None:
    """What ``viewer`` (a player's name, or None for the table screen) may see of one dice
    event, or None. Counts and faces go to the roller only; RollDone reaches screens as the
    action itself, through the table service; UnknownDie is for the pairing page."""
    if isinstance(event, RollWanted):
        if viewer == event.player:
            what = "red dice" if event.does == "vegas_roll" else "dice"
            if event.does == "godfather_roll":
                text = "Roll one die for the Godfather roll-off"
            else:
                text = f"Roll your {event.dice} {what}"
            return {"kind": "roll_wanted", "player": event.player, "does": event.does,
                    "dice": event.dice, "text": text}
        return {"kind": "rolling", "player": event.player, "text": f"{event.player} is rolling"}
    if isinstance(event, DieCounted):
        if viewer != event.player:
            return None
        return {"kind": "counted", "player": event.player, "face": event.face,
                "have": event.have, "need": event.need,
                "text": f"{event.have} of {event.need} dice settled"}
    if isinstance(event, DiceProblem):
        # A problem names a die, never a face; one with no player is the table's to fix.
        if viewer != event.player:
            return None
        return {"kind": "problem", "player": event.player, "text": event.message}
    if isinstance(event, WhoseDie) and (viewer is None or viewer in event.candidates):
        # Whose die, never its face: the table screen names every candidate, the host page
        # gives each a button, a candidate's phone asks "yours?" (POST .../dice/whose).
        names = " or ".join(event.candidates)
        text = (f"A red die landed: whose is it, {names}? Say so on your phone or the host "
                "page." if viewer is None else
                "A red die landed while another player is rolling red dice too: is it yours?")
        return {"kind": "whose_die", "die": ref_json(event.ref),
                "candidates": list(event.candidates), "text": text}
    return None


def progress_message(dice: DiceService, viewer: str) -> dict[str, Any] | None:
    """A (re)connecting phone's pending roll, so it shows "3 of 5" without waiting for the
    next die (events missed while it was away are not replayed)."""
    for wait in dice.hub.waiting():
        if wait.player == viewer:
            have, need = dice.hub.progress(viewer) or (0, wait.dice)
            return {"kind": "progress", "player": viewer, "does": wait.does, "have": have,
                    "need": need, "text": f"Roll your {need} dice: {have} of {need} settled"
                    if have else f"Roll your {need} dice"}
    return None


def ref_json(ref: DieRef, dice: DiceService | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"source": ref.source, "die": ref.die_id}
    if dice is not None:
        last = dice.hub.last_readings().get(ref)
        if last is not None and last.battery is not None:
            out["battery"] = round(last.battery, 2)
    return out


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
        with self._lock:
            if self.pairing is not None:
                self.pairing.cancel()
            self.saved = None
            pairing = self.pairing = dice.pair(owner, count)
            pairing.on_found = lambda _ref: self._found(dice, pairing)
        self.table_dice.roll_virtual(owner, count)
        return pairing

    def _found(self, dice: DiceService, pairing: Pairing) -> None:
        # The last die of the count: save at once, so closing the page loses nothing.
        if len(pairing.found) >= pairing.count:
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
        return {
            "mode": self.table_dice.mode,
            "table": self.table_dice.table,
            "privacy": PRIVACY_WARNING,
            "owners": paired,
            "pairing": current,
        }


def owners_of(seats: list[tuple[str, str | None]]) -> list[dict[str, Any]]:
    """Who dice can be paired to: each family by its seat colour (a pairing outlives the
    players' names), then the three red Vegas dice."""
    out = [{"owner": colour or name, "label": f"{name} ({colour})" if colour else name,
            "count": FAMILY_DICE} for name, colour in seats]
    out.append({"owner": VEGAS, "label": "Vegas (the three red dice)", "count": VEGAS_DICE})
    return out
