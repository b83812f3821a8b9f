"""Reading and checking board files (TOML).

A board file is what a user traces from their own printed board, so every problem is reported
with the line it is on and what to write instead; ``companion board check FILE`` prints them.
This module parses text only: reading the file is the caller's business (the engine does no I/O).
The format is documented in ``docs/boards.md``.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from typing import Any

from companion.games.new_don.board import (
    Ability,
    Board,
    District,
    MuscleTrack,
    Neighborhood,
    Requirement,
    SetKind,
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


class _Checker:
    def __init__(self, text: str) -> None:
        self.lines = _Lines(text)
        self.problems: list[Problem] = []

    def error(self, line: int | None, message: str, fix: str = "") -> None:
        self.problems.append(Problem(line, message, fix))

    def warn(self, line: int | None, message: str, fix: str = "") -> None:
        self.problems.append(Problem(line, message, fix, warning=True))

    def unknown_keys(self, table: dict, allowed: set[str], where: str, line_of) -> None:
        for key in table:
            if key not in allowed:
                self.error(
                    line_of(key),
                    f"unknown key {key!r} in {where}",
                    f"use one of: {', '.join(sorted(allowed))}",
                )

    def sources(self, raw: Any, fields: list[str], line: int | None, where: str):
        """Normalise ``source = "x"`` or ``source = {default = "x", field = "y"}``."""
        if raw is None:
            self.error(line, f"{where} has no source", 'add source = "traced" (or "placeholder")')
            return ()
        if isinstance(raw, str):
            raw = {"default": raw}
        if not isinstance(raw, dict):
            self.error(line, f"{where}: source must be a string or a table", 'source = "traced"')
            return ()
        out = []
        for key, value in raw.items():
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
        for f in fields:
            out.append((f, raw.get(f, raw.get("default", "placeholder"))))
        if "default" not in raw and any(f not in raw for f in fields):
            missing = [f for f in fields if f not in raw]
            self.error(
                line,
                f"{where}: no source for {', '.join(missing)}",
                'add default = "traced" to the source table',
            )
        return tuple(out)


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_board(text: str) -> tuple[Board | None, list[Problem]]:
    """Parse and check a board file: the board (None if it has errors) and every problem."""
    c = _Checker(text)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        c.error(
            int(m.group(1)) if m else None,
            f"not valid TOML: {exc}",
            "check quotes, brackets and commas on that line",
        )
        return None, c.problems

    L = c.lines
    c.unknown_keys(
        data, _TOP_KEYS, "the top level", lambda k: L.key(k) or (L.block(k) and L.block(k)[0])
    )
    if data.get("format") != FORMAT:
        c.error(
            L.key("format"),
            f"format must be {FORMAT}, found {data.get('format')!r}",
            f"write format = {FORMAT} at the top of the file",
        )
    board_id = data.get("id")
    if not isinstance(board_id, str) or not _ID.match(board_id or ""):
        c.error(
            L.key("id"),
            "the board needs an id: letters, digits, '-', '_' or '.'",
            'id = "my-board-3-4"',
        )
        board_id = "board"
    name = data.get("name") if isinstance(data.get("name"), str) else board_id
    players = data.get("players")
    if not (
        isinstance(players, list)
        and len(players) == 2
        and all(_int(p) for p in players)
        and 3 <= players[0] <= players[1] <= 6
    ):
        c.error(
            L.key("players"),
            "players must be [fewest, most], between 3 and 6",
            "players = [3, 4] or players = [5, 6]",
        )
        players = [3, 6]
    board_sources = c.sources(
        data.get("source"), ["id", "name", "players"], L.key("source"), "the board"
    )

    # Components
    comp = data.get("components", {})
    comp_line = L.block("components")[0] if L.block("components") else None
    if not isinstance(comp, dict):
        c.error(comp_line, "[components] must be a table", "see docs/boards.md")
        comp = {}
    c.unknown_keys(comp, _COMPONENT_KEYS, "[components]", lambda k: L.key(k, "components"))
    counts = {}
    for key, default in (("soldiers_per_player", 15), ("dice_per_player", 5), ("vegas_dice", 3)):
        value = comp.get(key, default)
        if not _int(value) or value < 1:
            c.error(
                L.key(key, "components"),
                f"{key} must be a positive whole number",
                f"{key} = {default}",
            )
            value = default
        counts[key] = value
    comp_sources = c.sources(
        comp.get("source", "rulebook"), list(counts), comp_line, "[components]"
    )

    # Districts
    districts: list[District] = []
    raw_districts = data.get("districts", [])
    if not isinstance(raw_districts, list):
        c.error(
            L.key("districts"),
            "districts must be written as [[districts]] tables",
            "see docs/boards.md",
        )
        raw_districts = []
    seen_faces: dict[int, int] = {}
    for i, d in enumerate(raw_districts):
        span = L.block("districts", i)
        line = span[0] if span else None

        def at(k, i=i):
            return L.key(k, "districts", i)

        c.unknown_keys(d, _DISTRICT_KEYS, f"district #{i + 1}", at)
        face = d.get("face")
        if not _int(face) or not 1 <= face <= 6:
            c.error(
                at("face"),
                f"district #{i + 1}: face must be a die face 1-6",
                "face = 1 (the number its neighborhoods' sets use)",
            )
            continue
        if face in seen_faces:
            c.error(
                at("face"),
                f"district {face} is defined twice (first on line {seen_faces[face]})",
                "give each of the six districts its own face 1-6",
            )
            continue
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
            isinstance(points, list)
            and len(points) == 3
            and all(_int(p) and p >= 0 for p in points)
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
        dname = d.get("name") if isinstance(d.get("name"), str) else f"District {face}"
        src = c.sources(
            d.get("source"), ["face", "name", "colour", "points"], line, f"district {face}"
        )
        districts.append(District(face, dname, colour, tuple(points), src))
    for face in range(1, 7):
        if face not in seen_faces:
            c.error(
                L.block("districts", 0)[0] if L.block("districts", 0) else None,
                f"district {face} is missing: the board has one district per die face",
                f"add a [[districts]] table with face = {face}",
            )
    districts.sort(key=lambda d: d.face)
    by_face = {d.face: d for d in districts}
    if len(districts) == 6 and any(
        by_face[f].points[0] < by_face[f - 1].points[0] for f in range(2, 7)
    ):
        c.warn(
            L.block("districts", 0)[0] if L.block("districts", 0) else None,
            "district points do not rise with the die face, as reviews of the game say they do",
            "check the scoring indicators on your board",
        )

    # Neighborhoods
    neighborhoods: list[Neighborhood] = []
    raw_n = data.get("neighborhoods", [])
    if not isinstance(raw_n, list) or not raw_n:
        c.error(None, "the board has no neighborhoods", "add [[neighborhoods]] tables")
        raw_n = []
    ids: dict[str, int] = {}
    links: list[tuple[str, str, bool, int | None]] = []
    for i, n in enumerate(raw_n):
        span = L.block("neighborhoods", i)
        line = span[0] if span else None

        def at(k, i=i):
            return L.key(k, "neighborhoods", i)

        c.unknown_keys(n, _NEIGHBORHOOD_KEYS, f"neighborhood #{i + 1}", at)
        nid = n.get("id")
        if not isinstance(nid, str) or not _ID.match(nid):
            c.error(
                at("id"),
                f"neighborhood #{i + 1} needs an id (letters, digits, - or _)",
                'id = "3a"',
            )
            continue
        if nid in ids:
            c.error(
                at("id"),
                f"neighborhood id {nid!r} is used twice (first on line {ids[nid]})",
                "give every neighborhood its own id",
            )
            continue
        ids[nid] = line or 0
        face = n.get("district")
        if not _int(face) or face not in by_face:
            c.error(
                at("district"),
                f"neighborhood {nid}: district {face!r} is not one of the board's districts",
                "district = the die face of its district, 1-6",
            )
            continue
        kind_raw = n.get("set")
        try:
            kind = SetKind(kind_raw)
        except ValueError:
            c.error(
                at("set"),
                f"neighborhood {nid}: set {kind_raw!r} is not known",
                'set = "pair", "triple", "four" or "straight"',
            )
            continue
        straight: tuple[int, ...] = ()
        if kind is SetKind.STRAIGHT:
            raw_s = n.get("straight", "any")
            if raw_s != "any":
                if not (
                    isinstance(raw_s, list)
                    and all(_int(v) and 1 <= v <= 6 for v in raw_s)
                    and is_straight(raw_s)
                ):
                    c.error(
                        at("straight"),
                        f"neighborhood {nid}: {raw_s!r} is not a straight of three faces in a row",
                        'straight = [3, 4, 5], or "any"',
                    )
                    continue
                if face not in raw_s:
                    c.error(
                        at("straight"),
                        f"neighborhood {nid}: straight {raw_s} does not "
                        f"contain its district's face {face}",
                        f"use a straight with a {face}, e.g. "
                        f"{[max(1, min(face, 4)) + k for k in range(3)]}",
                    )
                    continue
                straight = tuple(sorted(raw_s))
        elif "straight" in n:
            c.error(
                at("straight"),
                f'neighborhood {nid}: only set = "straight" takes straight',
                "remove the straight line",
            )
        at_xy = n.get("at")
        if at_xy is not None and not (
            isinstance(at_xy, list)
            and len(at_xy) == 2
            and all(isinstance(v, int | float) and not isinstance(v, bool) for v in at_xy)
        ):
            c.error(at("at"), f"neighborhood {nid}: at must be [x, y]", "at = [120, 80]")
            at_xy = None
        for key, bridge in (("adjacent", False), ("bridges", True)):
            others = n.get(key, [])
            if not isinstance(others, list) or not all(isinstance(o, str) for o in others):
                c.error(
                    at(key),
                    f"neighborhood {nid}: {key} must be a list of ids",
                    f'{key} = ["3b", "4a"]',
                )
                continue
            links.extend((nid, o, bridge, at(key)) for o in others)
        nname = n.get("name") if isinstance(n.get("name"), str) else nid
        src = c.sources(
            n.get("source"), ["name", "set", "adjacent", "at"], line, f"neighborhood {nid}"
        )
        neighborhoods.append(
            Neighborhood(
                nid,
                nname,
                face,
                Requirement(kind, face, straight),
                tuple(at_xy) if at_xy else None,
                src,
            )
        )
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
    for face in by_face:
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

    # Muscle track
    mt = data.get("muscle_track", {})
    mline = L.block("muscle_track")[0] if L.block("muscle_track") else None
    if not isinstance(mt, dict) or not mt:
        c.error(mline, "the board needs a [muscle_track] table", "see docs/boards.md")
        mt = {}
    c.unknown_keys(mt, _MUSCLE_KEYS, "[muscle_track]", lambda k: L.key(k, "muscle_track"))
    letters = mt.get("letters", [])
    if not (
        isinstance(letters, list)
        and letters
        and all(isinstance(x, str) and x for x in letters)
        and len(set(letters)) == len(letters)
    ):
        c.error(
            L.key("letters", "muscle_track"),
            "letters must be a list of different labels",
            'letters = ["A", "B", "C", "D", "E", "F"]',
        )
        letters = ["A", "B", "C", "D", "E", "F"]
    elif len(letters) < players[1]:
        c.error(
            L.key("letters", "muscle_track"),
            f"{len(letters)} lettered spaces cannot hold {players[1]} players' muscle after "
            "reorganization (Clean up A.ii)",
            f"list at least {players[1]} letters",
        )
    top = mt.get("top", 12)
    if not _int(top) or top < 3:
        c.error(
            L.key("top", "muscle_track"), "top must be the highest number on the track", "top = 12"
        )
        top = 12
    gf = mt.get("godfather_space", 3)
    if not _int(gf) or not 1 <= gf <= top:
        c.error(
            L.key("godfather_space", "muscle_track"),
            "godfather_space must be a numbered space on the track (the red 3)",
            "godfather_space = 3",
        )
        gf = 3
    muscle_sources = c.sources(
        mt.get("source"), ["letters", "top", "godfather_space"], mline, "[muscle_track]"
    )

    # Vegas
    vg = data.get("vegas", {})
    vline = L.block("vegas")[0] if L.block("vegas") else None
    if not isinstance(vg, dict):
        vg = {}
    c.unknown_keys(vg, _VEGAS_KEYS, "[vegas]", lambda k: L.key(k, "vegas"))
    spots = vg.get("spots", [1, 2, 3, 4, 5, 6])
    if not (isinstance(spots, list) and spots and all(_int(s) and 1 <= s <= 6 for s in spots)):
        c.error(
            L.key("spots", "vegas"),
            "Vegas spots must be a list of die faces 1-6",
            "spots = [1, 2, 3, 4, 5, 6]",
        )
        spots = [1, 2, 3, 4, 5, 6]
    elif len(set(spots)) != len(spots):
        c.error(
            L.key("spots", "vegas"),
            "two Vegas spots show the same number; the rulebook does "
            "not say who would take the dice, so the engine does not support it",
            "list each number once",
        )
    vegas_sources = c.sources(vg.get("source", "placeholder"), ["spots"], vline, "[vegas]")

    # Favor track
    ft = data.get("favor_track", {str(k): v.value for k, v in DEFAULT_FAVOR_TRACK.items()})
    fline = L.block("favor_track")[0] if L.block("favor_track") else None
    favor: dict[int, Ability] = {}
    if not isinstance(ft, dict):
        ft = {}
    for key, value in ft.items():
        if key == "source":
            continue
        if not key.isdigit() or not 1 <= int(key) <= 6:
            c.error(
                L.key(key, "favor_track"),
                f"favor track spot {key!r} is not a number 1-6",
                "spots are numbered 1 to 6",
            )
            continue
        try:
            favor[int(key)] = Ability(value)
        except ValueError:
            c.error(
                L.key(key, "favor_track"),
                f"favor spot {key}: ability {value!r} is not known",
                f"use one of: {', '.join(a.value for a in Ability)}",
            )
    for spot in range(1, 7):
        if spot not in favor and f"{spot}" not in ft:
            c.error(
                fline,
                f"favor track spot {spot} is missing (a muscled-out soldier from "
                f"district {spot} goes there, Resolution B.ii.c)",
                f'{spot} = "{DEFAULT_FAVOR_TRACK[spot].value}"',
            )
    c.sources(ft.get("source", "rulebook"), ["abilities"], fline, "[favor_track]")

    c.problems.sort(key=lambda p: (p.line is None, p.line or 0))
    if any(not p.warning for p in c.problems):
        return None, c.problems
    board = Board(
        id=board_id,
        name=name,
        players=(players[0], players[1]),
        soldiers_per_player=counts["soldiers_per_player"],
        dice_per_player=counts["dice_per_player"],
        vegas_dice=counts["vegas_dice"],
        districts=tuple(districts),
        neighborhoods=tuple(neighborhoods),
        adjacency=frozenset(adjacency),
        bridges=frozenset(bridges),
        muscle_track=MuscleTrack(tuple(letters), top, gf),
        vegas_spots=tuple(spots),
        favor_track=tuple(sorted(favor.items())),
        sources=board_sources + comp_sources + muscle_sources + vegas_sources,
    )
    return board, c.problems


def parse_board(text: str, filename: str = "board") -> Board:
    """The board in ``text``, or :class:`BoardError` listing every problem."""
    board, problems = check_board(text)
    if board is None:
        raise BoardError(problems, filename)
    return board
