"""A final position of A New Don typed in by hand (TOML), as ``companion score FILE`` reads it,
for tables that did not track the whole game: who holds how many neighborhoods in each
district, how many soldiers are left in each House, and the Muscle track from the top.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from companion.games.new_don.board import Board
from companion.games.new_don.board_file import BoardError
from companion.games.new_don.boards import load_board
from companion.games.new_don.rules import HouseRules
from companion.games.new_don.scoring import Scores, score_position
from companion.protocol.errors import MalformedAction
from companion.protocol.game import Files
from companion.protocol.options import options_from_dict

EXAMPLE = """\
players = ["Vincent", "Maria", "Claire", "Johnny"]
muscle = ["Claire", "Johnny", "Maria"]    # highest first; anyone missing is in the Zero Zone

[house]                                  # soldiers left in each House
Vincent = 2
Maria = 5

[districts]                              # neighborhoods held, per district (its die face)
3 = { Vincent = 3, Maria = 2, Claire = 2, Johnny = 1 }
"""


class ScoreFileError(MalformedAction):
    """A position file that cannot be scored: the message says what to fix."""


@dataclass(frozen=True)
class Position:
    board: Board
    players: list[str]
    districts: dict[int, dict[str, int]]
    house: dict[str, int]
    muscle: list[str]
    rules: HouseRules

    def score(self) -> Scores:
        return score_position(
            self.board, self.players, self.districts, self.house, self.muscle, self.rules
        )


def read_position(text: str, files: Files) -> Position:
    """The position ``text`` describes; ``files`` holds a traced board it may name."""
    data = _toml(text)
    players = _players(data)
    try:
        rules = options_from_dict(HouseRules, data.get("options"))
        board = load_board(data.get("board"), len(players), files)
    except (MalformedAction, BoardError, OSError, ValueError) as exc:
        raise ScoreFileError(f"{exc}") from None
    muscle = _muscle(data, players)
    house = _house(data, players, board)
    districts = _districts(data, players, board)
    return Position(board, players, districts, house, muscle, rules)


def _toml(text: str) -> dict[str, Any]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScoreFileError(f"not valid TOML: {exc}") from None
    known = {"players", "board", "muscle", "house", "districts", "options"}
    unknown = set(data) - known
    if unknown:
        raise ScoreFileError(
            f"unknown keys {', '.join(sorted(unknown))}; use: {', '.join(sorted(known))}"
        )
    return data


def _players(data: dict[str, Any]) -> list[str]:
    players = data.get("players")
    if not (isinstance(players, list) and players and all(isinstance(p, str) for p in players)):
        raise ScoreFileError(f"players must list the names, e.g.\n{EXAMPLE}")
    if len(set(players)) != len(players):
        raise ScoreFileError("a player is listed twice in players")
    return players


def _check_names(players: list[str], where: str, names: Iterable[str]) -> None:
    for n in names:
        if n not in players:
            raise ScoreFileError(
                f"{where} names {n!r}, who is not in players ({', '.join(players)})"
            )


def _muscle(data: dict[str, Any], players: list[str]) -> list[str]:
    """The Muscle track, highest first."""
    muscle = data.get("muscle", [])
    if not isinstance(muscle, list) or not all(isinstance(m, str) for m in muscle):
        raise ScoreFileError("muscle is a list of names, highest first")
    _check_names(players, "muscle", muscle)
    if len(set(muscle)) != len(muscle):
        raise ScoreFileError("muscle lists a player twice; one token each")
    return muscle


def _house(data: dict[str, Any], players: list[str], board: Board) -> dict[str, int]:
    """Soldiers left in each House."""
    house = data.get("house", {})
    if not isinstance(house, dict):
        raise ScoreFileError("[house] is a table of soldiers left: Name = count")
    _check_names(players, "[house]", house)
    for n, v in house.items():
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= board.soldiers_per_player:
            raise ScoreFileError(
                f"[house] {n} = {v!r}: a count from 0 to {board.soldiers_per_player}"
            )
    return dict(house)


def _districts(data: dict[str, Any], players: list[str], board: Board) -> dict[int, dict[str, int]]:
    """Neighborhoods held, per district (by its die face); no more than the district has."""
    districts: dict[int, dict[str, int]] = {}
    raw = data.get("districts", {})
    if not isinstance(raw, dict):
        raise ScoreFileError("[districts] is a table: 3 = { Name = count, ... }")
    for key, counts in raw.items():
        if not key.isdigit() or not 1 <= int(key) <= 6:
            raise ScoreFileError(f"[districts] {key}: districts are named by die face 1-6")
        if not isinstance(counts, dict):
            raise ScoreFileError(f"[districts] {key} = {{ Name = count, ... }}")
        _check_names(players, f"district {key}", counts)
        face = int(key)
        size = len(board.in_district(face))
        for n, v in counts.items():
            if not isinstance(v, int) or v < 0:
                raise ScoreFileError(f"district {key}: {n} = {v!r} is not a count")
        if sum(counts.values()) > size:
            raise ScoreFileError(
                f"district {key} has {size} neighborhoods on board "
                f"{board.id!r}, but {sum(counts.values())} are listed as held"
            )
        districts[face] = dict(counts)
    return districts
