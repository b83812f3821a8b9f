"""A New Don's shipped boards for tests and benchmarks, read the way the companion reads them
(through the platform's files of the game's package)."""

from __future__ import annotations

from companion.gamefiles import GameFiles
from companion.games.new_don import NEW_DON, Board
from companion.games.new_don.boards import SHIPPED, load_board

FILES = GameFiles(NEW_DON)
__all__ = ["FILES", "SHIPPED", "board_for_players", "shipped_board"]


def shipped_board(board_id: str) -> Board:
    """A shipped side by id ("3-4" or "5-6")."""
    return load_board(board_id, 0, FILES)


def board_for_players(players: int) -> Board:
    """The side of the board for this many players."""
    return load_board(None, players, FILES)
