"""Which board a game is played on: a side that ships with the companion, by id, or a board a
user traced from their own copy (``docs/boards.md``). The files come from the platform
(:class:`~companion.protocol.Files`), so this module reads nothing itself."""

from __future__ import annotations

from functools import lru_cache

from companion.games.new_don.board import Board
from companion.games.new_don.board_file import parse_board
from companion.protocol.game import Files

SHIPPED = {"3-4": "three-four.toml", "5-6": "five-six.toml"}


def board_id_for(players: int) -> str:
    """The side of the board for this many players (Setup)."""
    return "3-4" if players <= 4 else "5-6"


@lru_cache(maxsize=32)  # a board is immutable and parsing one takes ~10 ms: once per text
def _parsed(text: str, name: str) -> Board:
    return parse_board(text, name)


def load_board(ref: str | None, players: int, files: Files) -> Board:
    """The board ``ref`` names (a shipped id, or a traced board's file), or the side for
    ``players`` when it names none."""
    ref = ref or board_id_for(players)
    if ref in SHIPPED:
        return _parsed(files.shipped(f"boards/{SHIPPED[ref]}"), SHIPPED[ref])
    return _parsed(files.user(ref), ref)
