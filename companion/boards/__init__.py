"""The boards shipped with the companion, and loading a user's traced board file.

This is the I/O edge for boards: the engine itself only parses text it is given.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

from companion.engine.board import Board
from companion.engine.board_file import parse_board

SHIPPED = {"3-4": "three-four.toml", "5-6": "five-six.toml"}


@cache  # boards are immutable; parsing one takes ~10 ms, so read each file once
def shipped_board(board_id: str) -> Board:
    """A board that ships with the companion, by id ("3-4" or "5-6")."""
    if board_id not in SHIPPED:
        raise KeyError(f"no shipped board {board_id!r}; shipped: {', '.join(SHIPPED)}")
    text = resources.files(__package__).joinpath(SHIPPED[board_id]).read_text("utf-8")
    return parse_board(text, SHIPPED[board_id])


def board_for_players(count: int) -> Board:
    """The side of the board for this many players (Setup)."""
    return shipped_board("3-4" if count <= 4 else "5-6")


def load_board(ref: str | None, players: int, base: Path | None = None) -> Board:
    """A shipped board by id, a board file by path (relative to ``base``), or by player count."""
    if ref is None:
        return board_for_players(players)
    if ref in SHIPPED:
        return shipped_board(ref)
    path = Path(ref)
    if base is not None and not path.is_absolute():
        path = base / path
    return parse_board(path.read_text("utf-8"), str(path))
