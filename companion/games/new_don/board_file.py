"""Reading and checking board files (TOML).

A board file is what a user traces from their own printed board, so every problem is reported
with the line it is on and what to write instead; ``companion board check FILE`` prints them.
This module parses text only: reading the file is the caller's business (the engine does no I/O).
The format is documented in ``docs/boards.md``.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeGuard

from companion.games.new_don.board import (
    Ability,
    Board,
    District,
    MuscleTrack,
    Neighborhood,
    Requirement,
    SetKind,
    Sources,
)
from companion.games.new_don.dice import is_straight

FORMAT = 1
SOURCES = ("rulebook", "placeholder", "traced")
DEFAULT_FAVOR_TRACK = {
    1: Ability.FREE_REROLL,
    2: Ability.PLUS_MINUS_ONE,
    3: Ability.MOVE,
    4: Ability.TURN_DIE,
    5: Ability.EXTRA_DIE,
    6: Ability.ANY,
}
_TOP_KEYS = {
    "format",
    "id",
    "name",
    "players",
    "source",
    "components",
    "districts",
    "neighborhoods",
    "muscle_track",
    "vegas",
    "favor_track",
}
_COMPONENT_KEYS = {"soldiers_per_player", "dice_per_player", "vegas_dice", "source"}
_DISTRICT_KEYS = {"face", "name", "colour", "points", "source"}
_NEIGHBORHOOD_KEYS = {
    "id",
    "name",
    "district",
    "set",
    "straight",
    "adjacent",
    "bridges",
    "at",
    "source",
}
_MUSCLE_KEYS = {"letters", "top", "godfather_space", "source"}
_VEGAS_KEYS = {"spots", "source"}
_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a board file, where it is, and how to fix it."""

    line: int | None
    message: str
    fix: str = ""
    warning: bool = False

    def format(self, filename: str) -> str:
        where = f"{filename}:{self.line}" if self.line else filename
        kind = "warning" if self.warning else "error"
        text = f"{where}: {kind}: {self.message}"
        return f"{text}\n    fix: {self.fix}" if self.fix else text


class BoardError(ValueError):
    """A board file with errors; ``problems`` lists every one of them, not just the first."""

    def __init__(self, problems: list[Problem], filename: str = "board") -> None:
        self.problems = problems
        self.filename = filename
        errors = [p for p in problems if not p.warning]
        super().__init__("\n".join(p.format(filename) for p in errors))


class _Lines:
    """Finds the line a table, array entry or key sits on (tomllib keeps no positions)."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.headers: list[tuple[int, str]] = []
        for no, line in enumerate(self.lines, 1):
            m = re.match(r"^\s*\[\[?\s*([A-Za-z0-9_.\"-]+)\s*\]\]?", line)
            if m:
                self.headers.append((no, m.group(1).strip('"')))

    def block(self, name: str, index: int | None = None) -> tuple[int, int] | None:
        """First and last line of ``[name]`` or of the ``index``-th ``[[name]]``."""
        seen = -1
        for i, (no, header) in enumerate(self.headers):
            if header != name:
                continue
            seen += 1
            if index is None or seen == index:
                end = self.headers[i + 1][0] - 1 if i + 1 < len(self.headers) else len(self.lines)
                return no, end
        return None

    def start(self, name: str, index: int | None = None) -> int | None:
        """The header line of ``[name]`` or of the ``index``-th ``[[name]]``."""
        span = self.block(name, index)
        return span[0] if span else None

    def key(self, key: str, name: str | None = None, index: int | None = None) -> int | None:
        """Line of ``key = ...`` inside a block, or at the top of the file when ``name`` is None."""
        if name is None:
            start, end = 1, (self.headers[0][0] - 1 if self.headers else len(self.lines))
        else:
            span = self.block(name, index)
            if span is None:
                return None
            start, end = span
        pattern = re.compile(rf"^\s*\"?{re.escape(key)}\"?\s*=")
        for no in range(start, end + 1):
            if pattern.match(self.lines[no - 1]):
                return no
        return start if name is not None else None

    def keys_of(self, name: str, index: int | None = None) -> Callable[[str], int | None]:
        """:meth:`key` for one block: where each of its keys is."""
        return lambda key: self.key(key, name, index)


class _Checker:
    """The problems found so far, and where things are in the file."""

    def __init__(self, text: str) -> None:
        self.lines = _Lines(text)
        self.problems: list[Problem] = []

    def error(self, line: int | None, message: str, fix: str = "") -> None:
        self.problems.append(Problem(line, message, fix))

    def warn(self, line: int | None, message: str, fix: str = "") -> None:
        self.problems.append(Problem(line, message, fix, warning=True))

    def unknown_keys(
        self,
        table: dict[str, Any],
        allowed: set[str],
        where: str,
        line_of: Callable[[str], int | None],
    ) -> None:
        for key in table:
            if key not in allowed:
                self.error(
                    line_of(key),
                    f"unknown key {key!r} in {where}",
                    f"use one of: {', '.join(sorted(allowed))}",
                )

    def sources(self, raw: Any, fields: list[str], line: int | None, where: str) -> Sources:
        """Normalise ``source = "x"`` or ``source = {default = "x", field = "y"}``."""
        if raw is None:
            self.error(line, f"{where} has no source", 'add source = "traced" (or "placeholder")')
            return ()
        if isinstance(raw, str):
            raw = {"default": raw}
        if not isinstance(raw, dict):
            self.error(line, f"{where}: source must be a string or a table", 'source = "traced"')
            return ()
        table: dict[str, Any] = raw
        for key, value in table.items():
            if value not in SOURCES:
                self.error(
                    line,
                    f"{where}: source {value!r} is not known",
                    f"use one of {', '.join(SOURCES)}",
                )
            if key != "default" and key not in fields:
                self.error(
                    line,
                    f"{where}: source names {key!r}, which {where} does not have",
                    f"name one of: default, {', '.join(fields)}",
                )
        out = tuple((f, table.get(f, table.get("default", "placeholder"))) for f in fields)
        if "default" not in table and any(f not in table for f in fields):
            missing = [f for f in fields if f not in table]
            self.error(
                line,
                f"{where}: no source for {', '.join(missing)}",
                'add default = "traced" to the source table',
            )
        return out


def _int(value: object) -> TypeGuard[int]:
    """A whole number (TOML's ``true`` is not one)."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_board(text: str) -> tuple[Board | None, list[Problem]]:
    """Parse and check a board file: the board (None if it has errors) and every problem.

    Each part of the file is checked in turn, every problem recorded, and a stand-in value
    used for a bad one so the checks after it still run: a person fixing a traced board sees
    every mistake at once, sorted by line.
    """
    c = _Checker(text)
    data = _toml(c, text)
    if data is None:
        return None, c.problems
    board_id, name, players, board_sources = _header(c, data)
    counts, comp_sources = _components(c, data)
    districts = _districts(c, data)
    neighborhoods, adjacency, bridges = _neighborhoods(c, data, [d.face for d in districts])
    muscle_track, muscle_sources = _muscle_track(c, data, players[1])
    vegas_spots, vegas_sources = _vegas(c, data)
    favor_track = _favor_track(c, data)

    c.problems.sort(key=lambda p: (p.line is None, p.line or 0))
    if any(not p.warning for p in c.problems):
        return None, c.problems
    board = Board(
        id=board_id,
        name=name,
        players=players,
        soldiers_per_player=counts["soldiers_per_player"],
        dice_per_player=counts["dice_per_player"],
        vegas_dice=counts["vegas_dice"],
        districts=tuple(districts),
        neighborhoods=tuple(neighborhoods),
        adjacency=adjacency,
        bridges=bridges,
        muscle_track=muscle_track,
        vegas_spots=vegas_spots,
        favor_track=favor_track,
        sources=board_sources + comp_sources + muscle_sources + vegas_sources,
    )
    return board, c.problems


def parse_board(text: str, filename: str = "board") -> Board:
    """The board in ``text``, or :class:`BoardError` listing every problem."""
    board, problems = check_board(text)
    if board is None:
        raise BoardError(problems, filename)
    return board


def _toml(c: _Checker, text: str) -> dict[str, Any] | None:
    """The file's tables, or None (and the problem, on its line) if it is not TOML at all."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        c.error(
            int(m.group(1)) if m else None,
            f"not valid TOML: {exc}",
            "check quotes, brackets and commas on that line",
        )
        return None


def _header(c: _Checker, data: dict[str, Any]) -> tuple[str, str, tuple[int, int], Sources]:
    """The top of the file: its keys, format, id, name, players and source."""
    lines = c.lines
    c.unknown_keys(data, _TOP_KEYS, "the top level", lambda k: lines.key(k) or lines.start(k))
    if data.get("format") != FORMAT:
        c.error(
            lines.key("format"),
            f"format must be {FORMAT}, found {data.get('format')!r}",
            f"write format = {FORMAT} at the top of the file",
        )
    board_id = data.get("id")
    if not isinstance(board_id, str) or not _ID.match(board_id):
        c.error(
            lines.key("id"),
            "the board needs an id: letters, digits, '-', '_' or '.'",
            'id = "my-board-3-4"',
        )
        board_id = "board"
    name = data.get("name")
    if not isinstance(name, str):
        name = board_id
    players = data.get("players")
    if not (
        isinstance(players, list)
        and len(players) == 2
        and all(_int(p) for p in players)
        and 3 <= players[0] <= players[1] <= 6
    ):
        c.error(
            lines.key("players"),
            "players must be [fewest, most], between 3 and 6",
            "players = [3, 4] or players = [5, 6]",
        )
        players = [3, 6]
    sources = c.sources(
        data.get("source"), ["id", "name", "players"], lines.key("source"), "the board"
    )
    return board_id, name, (players[0], players[1]), sources


def _components(c: _Checker, data: dict[str, Any]) -> tuple[dict[str, int], Sources]:
    """[components]: soldiers and dice per player, and the red dice."""
    comp = data.get("components", {})
    line = c.lines.start("components")
    if not isinstance(comp, dict):
        c.error(line, "[components] must be a table", "see docs/boards.md")
        comp = {}
    key_line = c.lines.keys_of("components")
    c.unknown_keys(comp, _COMPONENT_KEYS, "[components]", key_line)
    counts = {}
    for key, default in (("soldiers_per_player", 15), ("dice_per_player", 5), ("vegas_dice", 3)):
        value = comp.get(key, default)
        if not _int(value) or value < 1:
            c.error(
                key_line(key),
                f"{key} must be a positive whole number",
                f"{key} = {default}",
            )
            value = default
        counts[key] = value
    return counts, c.sources(comp.get("source", "rulebook"), list(counts), line, "[components]")


def _tables(c: _Checker, raw: list[Any], key: str) -> list[dict[str, Any] | None]:
    """The entries of a ``[[key]]`` list, None for each that is not a table (reported)."""
    out: list[dict[str, Any] | None] = []
    for i, table in enumerate(raw):
        if isinstance(table, dict):
            out.append(table)
            continue
        c.error(
            c.lines.key(key),
            f"{key} #{i + 1} is {table!r}, not a table",
            f"write each one as a [[{key}]] table (see docs/boards.md)",
        )
        out.append(None)
    return out


def _districts(c: _Checker, data: dict[str, Any]) -> list[District]:
    """[[districts]]: one for each die face, sorted by face."""
    raw = data.get("districts", [])
    if not isinstance(raw, list):
        c.error(
            c.lines.key("districts"),
            "districts must be written as [[districts]] tables",
            "see docs/boards.md",
        )
        raw = []
    seen_faces: dict[int, int] = {}  # face -> the line it was first defined on
    districts = [
        d
        for i, table in enumerate(_tables(c, raw, "districts"))
        if table is not None and (d := _district(c, i, table, seen_faces)) is not None
    ]
    first = c.lines.start("districts", 0)
    for face in range(1, 7):
        if face not in seen_faces:
            c.error(
                first,
                f"district {face} is missing: the board has one district per die face",
                f"add a [[districts]] table with face = {face}",
            )
    districts.sort(key=lambda d: d.face)
    by_face = {d.face: d for d in districts}
    if len(districts) == 6 and any(
        by_face[f].points[0] < by_face[f - 1].points[0] for f in range(2, 7)
    ):
        c.warn(
            first,
            "district points do not rise with the die face, as reviews of the game say they do",
            "check the scoring indicators on your board",
        )
    return districts


def _district(
    c: _Checker, i: int, d: dict[str, Any], seen_faces: dict[int, int]
) -> District | None:
    """The ``i``-th [[districts]] table, or None when its face is unusable."""
    line = c.lines.start("districts", i)
    at = c.lines.keys_of("districts", i)
    c.unknown_keys(d, _DISTRICT_KEYS, f"district #{i + 1}", at)
    face = d.get("face")
    if not _int(face) or not 1 <= face <= 6:
        c.error(
            at("face"),
            f"district #{i + 1}: face must be a die face 1-6",
            "face = 1 (the number its neighborhoods' sets use)",
        )
        return None
    if face in seen_faces:
        c.error(
            at("face"),
            f"district {face} is defined twice (first on line {seen_faces[face]})",
            "give each of the six districts its own face 1-6",
        )
        return None
    seen_faces[face] = line or 0
    colour = d.get("colour", "#888888")
    if not isinstance(colour, str) or not _COLOUR.match(colour):
        c.error(
            at("colour"),
            f'district {face}: colour must look like "#a0522d"',
            'colour = "#a0522d"',
        )
        colour = "#888888"
    points = d.get("points")
    if not (
        isinstance(points, list) and len(points) == 3 and all(_int(p) and p >= 0 for p in points)
    ):
        c.error(
            at("points"),
            f"district {face}: points must be three whole numbers, for 1st, 2nd and 3rd place",
            "points = [7, 4, 2]",
        )
        points = [0, 0, 0]
    elif not points[0] >= points[1] >= points[2]:
        c.error(
            at("points"),
            f"district {face}: points {points} do not fall from 1st to 3rd",
            "write them in the order 1st, 2nd, 3rd, as printed on the scoring indicator",
        )
    name = d.get("name")
    if not isinstance(name, str):
        name = f"District {face}"
    sources = c.sources(
        d.get("source"), ["face", "name", "colour", "points"], line, f"district {face}"
    )
    return District(face, name, colour, tuple(points), sources)


class _Link(NamedTuple):
    """One neighbour a neighborhood lists, and the line that lists it."""

    a: str
    b: str
    bridge: bool
    line: int | None


def _neighborhoods(
    c: _Checker, data: dict[str, Any], faces: Collection[int]
) -> tuple[list[Neighborhood], frozenset[frozenset[str]], frozenset[frozenset[str]]]:
    """[[neighborhoods]] in ``faces``' districts, and which of them border each other
    (adjacency, and the bridges among them)."""
    raw = data.get("neighborhoods", [])
    if not isinstance(raw, list) or not raw:
        c.error(None, "the board has no neighborhoods", "add [[neighborhoods]] tables")
        raw = []
    ids: dict[str, int] = {}  # id -> the line it was first defined on
    links: list[_Link] = []
    neighborhoods: list[Neighborhood] = []
    for i, table in enumerate(_tables(c, raw, "neighborhoods")):
        found = _neighborhood(c, i, table, faces, ids) if table is not None else None
        if found is not None:
            neighborhoods.append(found[0])
            links.extend(found[1])
    adjacency, bridges = _links(c, links, ids)
    for face in faces:
        if not any(n.district == face for n in neighborhoods):
            c.error(
                None,
                f"district {face} has no neighborhoods",
                f"add [[neighborhoods]] with district = {face}",
            )
    lonely = [n.id for n in neighborhoods if not any(n.id in p for p in adjacency)]
    for nid in lonely:
        c.warn(
            ids.get(nid),
            f"neighborhood {nid} has no neighbours: the Move favor can never reach or leave it",
            "list the neighborhoods it borders under adjacent",
        )
    return neighborhoods, frozenset(adjacency), frozenset(bridges)


def _neighborhood(
    c: _Checker, i: int, n: dict[str, Any], faces: Collection[int], ids: dict[str, int]
) -> tuple[Neighborhood, list[_Link]] | None:
    """The ``i``-th [[neighborhoods]] table and the neighbours it lists, or None when its id,
    district or set is unusable."""
    line = c.lines.start("neighborhoods", i)
    at = c.lines.keys_of("neighborhoods", i)
    c.unknown_keys(n, _NEIGHBORHOOD_KEYS, f"neighborhood #{i + 1}", at)
    nid = n.get("id")
    if not isinstance(nid, str) or not _ID.match(nid):
        c.error(
            at("id"),
            f"neighborhood #{i + 1} needs an id (letters, digits, - or _)",
            'id = "3a"',
        )
        return None
    if nid in ids:
        c.error(
            at("id"),
            f"neighborhood id {nid!r} is used twice (first on line {ids[nid]})",
            "give every neighborhood its own id",
        )
        return None
    ids[nid] = line or 0
    face = n.get("district")
    if not _int(face) or face not in faces:
        c.error(
            at("district"),
            f"neighborhood {nid}: district {face!r} is not one of the board's districts",
            "district = the die face of its district, 1-6",
        )
        return None
    kind_raw = n.get("set")
    kind = next((k for k in SetKind if k.value == kind_raw), None)
    if kind is None:
        c.error(
            at("set"),
            f"neighborhood {nid}: set {kind_raw!r} is not known",
            'set = "pair", "triple", "four" or "straight"',
        )
        return None
    straight = _straight(c, n, nid, kind, face, at)
    if straight is None:
        return None
    position = _position(c, n, nid, at)
    links = _neighbours(c, n, nid, at)
    name = n.get("name")
    if not isinstance(name, str):
        name = nid
    sources = c.sources(
        n.get("source"), ["name", "set", "adjacent", "at"], line, f"neighborhood {nid}"
    )
    hood = Neighborhood(nid, name, face, Requirement(kind, face, straight), position, sources)
    return hood, links


def _straight(
    c: _Checker,
    n: dict[str, Any],
    nid: str,
    kind: SetKind,
    face: int,
    at: Callable[[str], int | None],
) -> tuple[int, ...] | None:
    """The faces of a given straight; () for any straight with the district's face (or a set
    that is not a straight); None when the straight is unusable."""
    if kind is not SetKind.STRAIGHT:
        if "straight" in n:
            c.error(
                at("straight"),
                f'neighborhood {nid}: only set = "straight" takes straight',
                "remove the straight line",
            )
        return ()
    raw = n.get("straight", "any")
    if raw == "any":
        return ()
    if not (
        isinstance(raw, list) and all(_int(v) and 1 <= v <= 6 for v in raw) and is_straight(raw)
    ):
        c.error(
            at("straight"),
            f"neighborhood {nid}: {raw!r} is not a straight of three faces in a row",
            'straight = [3, 4, 5], or "any"',
        )
        return None
    if face not in raw:
        c.error(
            at("straight"),
            f"neighborhood {nid}: straight {raw} does not contain its district's face {face}",
            f"use a straight with a {face}, e.g. {[max(1, min(face, 4)) + k for k in range(3)]}",
        )
        return None
    return tuple(sorted(raw))


def _position(
    c: _Checker, n: dict[str, Any], nid: str, at: Callable[[str], int | None]
) -> tuple[float, float] | None:
    """Where the neighborhood is drawn on the map, if the file says."""
    xy = n.get("at")
    if xy is None:
        return None
    if not (
        isinstance(xy, list)
        and len(xy) == 2
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in xy)
    ):
        c.error(at("at"), f"neighborhood {nid}: at must be [x, y]", "at = [120, 80]")
        return None
    return xy[0], xy[1]


def _neighbours(
    c: _Checker, n: dict[str, Any], nid: str, at: Callable[[str], int | None]
) -> list[_Link]:
    """The neighbours a neighborhood lists, across a road or over a bridge."""
    links: list[_Link] = []
    for key, bridge in (("adjacent", False), ("bridges", True)):
        others = n.get(key, [])
        if not isinstance(others, list) or not all(isinstance(o, str) for o in others):
            c.error(
                at(key),
                f"neighborhood {nid}: {key} must be a list of ids",
                f'{key} = ["3b", "4a"]',
            )
            continue
        links.extend(_Link(nid, o, bridge, at(key)) for o in others)
    return links


def _links(
    c: _Checker, links: list[_Link], ids: dict[str, int]
) -> tuple[set[frozenset[str]], set[frozenset[str]]]:
    """Which neighborhoods border each other, and which of those borders are bridges: every
    listed neighbour must be a neighborhood of the board, and not the one listing it."""
    adjacency: set[frozenset[str]] = set()
    bridges: set[frozenset[str]] = set()
    for a, b, bridge, line in links:
        if b not in ids:
            close = [x for x in ids if x.lower() == b.lower()] or sorted(ids)[:3]
            c.error(
                line,
                f"neighborhood {a} lists neighbour {b!r}, which is not a neighborhood "
                "on this board",
                f"use an id defined with [[neighborhoods]] (e.g. "
                f"{', '.join(repr(x) for x in close)}) or remove it",
            )
            continue
        if a == b:
            c.error(line, f"neighborhood {a} lists itself as a neighbour", "remove it")
            continue
        adjacency.add(frozenset((a, b)))
        if bridge:
            bridges.add(frozenset((a, b)))
    return adjacency, bridges


def _muscle_track(
    c: _Checker, data: dict[str, Any], most_players: int
) -> tuple[MuscleTrack, Sources]:
    """[muscle_track]: the lettered spaces (enough for every player's muscle), the highest
    number and the Godfather's space."""
    mt = data.get("muscle_track", {})
    line = c.lines.start("muscle_track")
    if not isinstance(mt, dict) or not mt:
        c.error(line, "the board needs a [muscle_track] table", "see docs/boards.md")
        mt = {}
    key_line = c.lines.keys_of("muscle_track")
    c.unknown_keys(mt, _MUSCLE_KEYS, "[muscle_track]", key_line)
    letters = mt.get("letters", [])
    if not (
        isinstance(letters, list)
        and letters
        and all(isinstance(x, str) and x for x in letters)
        and len(set(letters)) == len(letters)
    ):
        c.error(
            key_line("letters"),
            "letters must be a list of different labels",
            'letters = ["A", "B", "C", "D", "E", "F"]',
        )
        letters = ["A", "B", "C", "D", "E", "F"]
    elif len(letters) < most_players:
        c.error(
            key_line("letters"),
            f"{len(letters)} lettered spaces cannot hold {most_players} players' muscle after "
            "reorganization (Clean up A.ii)",
            f"list at least {most_players} letters",
        )
    top = mt.get("top", 12)
    if not _int(top) or top < 3:
        c.error(key_line("top"), "top must be the highest number on the track", "top = 12")
        top = 12
    gf = mt.get("godfather_space", 3)
    if not _int(gf) or not 1 <= gf <= top:
        c.error(
            key_line("godfather_space"),
            "godfather_space must be a numbered space on the track (the red 3)",
            "godfather_space = 3",
        )
        gf = 3
    sources = c.sources(
        mt.get("source"), ["letters", "top", "godfather_space"], line, "[muscle_track]"
    )
    return MuscleTrack(tuple(letters), top, gf), sources


def _vegas(c: _Checker, data: dict[str, Any]) -> tuple[tuple[int, ...], Sources]:
    """[vegas]: the number on each spot."""
    vg = data.get("vegas", {})
    if not isinstance(vg, dict):
        vg = {}
    key_line = c.lines.keys_of("vegas")
    c.unknown_keys(vg, _VEGAS_KEYS, "[vegas]", key_line)
    spots = vg.get("spots", [1, 2, 3, 4, 5, 6])
    if not (isinstance(spots, list) and spots and all(_int(s) and 1 <= s <= 6 for s in spots)):
        c.error(
            key_line("spots"),
            "Vegas spots must be a list of die faces 1-6",
            "spots = [1, 2, 3, 4, 5, 6]",
        )
        spots = [1, 2, 3, 4, 5, 6]
    elif len(set(spots)) != len(spots):
        c.error(
            key_line("spots"),
            "two Vegas spots show the same number; the rulebook does "
            "not say who would take the dice, so the engine does not support it",
            "list each number once",
        )
    line = c.lines.start("vegas")
    return tuple(spots), c.sources(vg.get("source", "placeholder"), ["spots"], line, "[vegas]")


def _favor_track(c: _Checker, data: dict[str, Any]) -> tuple[tuple[int, Ability], ...]:
    """[favor_track]: the ability on each of the six spots, by spot."""
    ft = data.get("favor_track", {str(k): v.value for k, v in DEFAULT_FAVOR_TRACK.items()})
    line = c.lines.start("favor_track")
    favor: dict[int, Ability] = {}
    if not isinstance(ft, dict):
        ft = {}
    for key, value in ft.items():
        if key == "source":
            continue
        if not key.isdigit() or not 1 <= int(key) <= 6:
            c.error(
                c.lines.key(key, "favor_track"),
                f"favor track spot {key!r} is not a number 1-6",
                "spots are numbered 1 to 6",
            )
            continue
        try:
            favor[int(key)] = Ability(value)
        except ValueError:
            c.error(
                c.lines.key(key, "favor_track"),
                f"favor spot {key}: ability {value!r} is not known",
                f"use one of: {', '.join(a.value for a in Ability)}",
            )
    for spot in range(1, 7):
        if spot not in favor and f"{spot}" not in ft:
            c.error(
                line,
                f"favor track spot {spot} is missing (a muscled-out soldier from "
                f"district {spot} goes there, Resolution B.ii.c)",
                f'{spot} = "{DEFAULT_FAVOR_TRACK[spot].value}"',
            )
    c.sources(ft.get("source", "rulebook"), ["abilities"], line, "[favor_track]")
    return tuple(sorted(favor.items()))
