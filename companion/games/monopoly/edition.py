"""Which printed edition a game is played with: the shipped data files, or an owner's own
(their board's names, their deck's texts), named in the setup line. The files come from the
platform (:class:`~companion.protocol.Files`), so this module reads nothing itself."""

from __future__ import annotations

from functools import lru_cache

from companion.games.monopoly.board import Edition
from companion.games.monopoly.data_file import (
    parse_board,
    parse_cards,
    parse_dons,
    placeholders,
)
from companion.protocol.game import Files

SHIPPED = {"board": "data/board.toml", "cards": "data/cards.toml", "dons": "data/dons.toml"}


@lru_cache(maxsize=16)  # an edition is immutable: parse each set of texts once
def _edition(
    board_text: str, cards_text: str, dons_text: str, names: tuple[str, str, str]
) -> Edition:
    board = parse_board(board_text, names[0])
    cards = parse_cards(cards_text, names[1], board)
    dons = parse_dons(dons_text, names[2])
    count = sum(len(placeholders(t)) for t in (board_text, cards_text, dons_text))
    return Edition(board, cards, dons, count)


def _text(ref: str | None, kind: str, files: Files) -> tuple[str, str]:
    if ref is None:
        return files.shipped(SHIPPED[kind]), SHIPPED[kind]
    return files.user(ref), ref


def load_edition(
    files: Files, board: str | None = None, cards: str | None = None, dons: str | None = None
) -> Edition:
    """The edition the setup names (None: the shipped file of that kind). Raises
    :class:`~companion.games.monopoly.data_file.DataError` for a file with errors and
    ``OSError`` for one that cannot be read."""
    texts = [
        _text(ref, kind, files)
        for ref, kind in ((board, "board"), (cards, "cards"), (dons, "dons"))
    ]
    names = (texts[0][1], texts[1][1], texts[2][1])
    return _edition(texts[0][0], texts[1][0], texts[2][0], names)
