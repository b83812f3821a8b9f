"""A final position typed in by hand (TOML), as ``companion score --game cash-n-guns FILE``
reads it, for tables that did not track the game: each player's Loot and wounds.

One table per player, clockwise, with the values printed on their cards::

    [Maria]
    bills = [20000, 10000, 10000, 5000]   # or the bills' total: bills = 45000
    diamonds = [1000, 5000]               # one value per diamond card: their count matters
    paintings = 3
    wounds = 1                            # 3 or more: dead, cannot win

    [Johnny]
    bills = [20000]
    wounds = 3

A position with one player alive is that player's win, whatever the money says ("if there's
only one player left alive, that player automatically wins"). ``box = "file.toml"`` at the top
names a box of the table's own (docs/cash-n-guns.md).
"""

from __future__ import annotations

import tomllib
from typing import Any

from companion.games.cash_n_guns.box import Box, LootKind, dollars, whole
from companion.games.cash_n_guns.box_file import BoxError, load_box
from companion.games.cash_n_guns.scoring import Haul, Scores, score_hauls
from companion.protocol.errors import MalformedAction
from companion.protocol.game import Files

EXAMPLE = """\
[Maria]
bills = [20000, 10000, 5000]
diamonds = [1000, 5000]
paintings = 3
wounds = 1
"""
_KEYS = {"bills", "diamonds", "paintings", "wounds"}


class PositionError(MalformedAction):
    """A position that cannot be scored: the message says what to fix."""


def read_position(text: str, files: Files) -> Scores:
    """Score the position ``text`` describes."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PositionError(f"not valid TOML: {exc}") from None
    box_ref = data.pop("box", None)
    if box_ref is not None and not isinstance(box_ref, str):
        raise PositionError('box must name a box file, e.g. box = "my-deck.toml"')
    try:
        box = load_box(box_ref, files)
    except (BoxError, OSError) as exc:
        raise PositionError(f"cannot read the box: {exc}") from None
    players = {name: table for name, table in data.items() if isinstance(table, dict)}
    strays = [name for name in data if name not in players]
    if strays:
        raise PositionError(
            f"{', '.join(strays)}: write one [Name] table per player, e.g.\n{EXAMPLE}"
        )
    if not players:
        raise PositionError(f"no players: write one [Name] table per player, e.g.\n{EXAMPLE}")
    low, high = box.players
    if not low <= len(players) <= high:
        raise PositionError(
            f"{len(players)} player(s) listed, but {box.name} is played by {low} to {high} players"
        )
    hauls = {name: _haul(box, name, table) for name, table in players.items()}
    alive = [n for n, h in hauls.items() if h.alive]
    end = "the position typed in"
    if len(alive) <= 1:
        end = (
            f"{alive[0]} is the last player alive and wins at once"
            if alive
            else "nobody is left alive: nobody can claim victory"
        )
    return score_hauls(box, hauls, end, last_alive=len(alive) <= 1)


def _haul(box: Box, name: str, table: dict[str, Any]) -> Haul:
    unknown = set(table) - _KEYS
    if unknown:
        raise PositionError(
            f"[{name}]: unknown {', '.join(sorted(unknown))}; use: {', '.join(sorted(_KEYS))}"
        )
    printed = {
        kind: sorted({c.value for c in box.cards if c.kind is kind})
        for kind in (LootKind.BILL, LootKind.DIAMOND)
    }

    def cards(key: str, kind: LootKind) -> list[int]:
        values = table.get(key, [])
        if not isinstance(values, list) or not all(whole(v) for v in values):
            raise PositionError(
                f"[{name}] {key} is a list of card values, e.g. {key} = {printed[kind][:2]}"
            )
        for v in values:
            if v not in printed[kind]:
                raise PositionError(
                    f"[{name}] {key}: no {kind.value} is worth {dollars(v)}; "
                    f"they are worth {', '.join(map(dollars, printed[kind]))}"
                )
        return values

    total = table.get("bills")
    bills = total if whole(total) and total >= 0 else sum(cards("bills", LootKind.BILL))
    diamonds = cards("diamonds", LootKind.DIAMOND)
    paintings = table.get("paintings", 0)
    most = len(box.painting_values)
    if not whole(paintings) or not 0 <= paintings <= most:
        raise PositionError(f"[{name}] paintings is how many paintings, 0 to {most}")
    wounds = table.get("wounds", 0)
    if not whole(wounds) or wounds < 0:
        raise PositionError(f"[{name}] wounds is a count of wounds (3 or more: dead)")
    return Haul(
        bills, sum(diamonds), len(diamonds), paintings, wounds, alive=wounds < box.deadly_wounds
    )
