"""What a bot knows of A New Don beyond its rules: what dice are worth, and how to play fast.

Everything here reads the game through the protocol only: a world's views (``player_view``),
its legal actions as record lines, the printed board (``table_data``) and ``progress``. Nothing
imports the engine, so nothing here can read a secret the views do not show.

The heart is :func:`hand_value`: the best way to spend a pool of dice on the board as it
stands, each set on the open neighborhood (or the muscle-out) worth most to its owner, what is
left over recruiting or betting. It values a Godfather's offers, a reroll's outcomes and a
Resolution turn's claims alike. :class:`NewDonKnowledge` builds the search's policy, its
candidate moves, its horizon (the end of the hand-building phases, or of the bot's own
Resolution turn) and its value of a world (points as they stand, what each family's dice can
still claim, and what its muscle, favors and Vegas bets are worth for the rounds to come).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from companion.bots.knowledge import Horizon, share
from companion.bots.observation import World
from companion.games import AnyGame
from companion.protocol import Action

# What things are worth, in points at the game's end. Tuned by benchmarks/bots.py.
HOOD_BONUS = 0.6  # a neighborhood held: next round's majorities are built on it
VICTIM_WEIGHT = 0.5  # a rival's loss, as a share of one's own gain
GODFATHER_VALUE = 2.5  # being next round's Godfather (first to resolve, the others' dice)
MUSCLE_STEP = 0.05  # each space up the track (harder to muscle out, easier to muscle)
VEGAS_BET = 0.45  # a soldier waiting in Vegas: about half a red die next round
LEFTOVER = 0.25  # a spare die: a little muscle or a bet
LEFTOVER_PIP = 0.04
ABILITY_VALUE = {
    "free_reroll": 0.6,
    "plus_minus_one": 1.0,
    "move_to_empty_adjacent": 0.4,
    "turn_die": 1.4,
    "extra_die": 1.3,
    "any": 1.5,
}
HOUSE_POINTS = (3, 2, 1)
TEMPERATURE = 3.5  # points: how a lead turns into a chance to win
CANDIDATES = 10  # moves searched at most, best first
EFFORT = {"reveal_favor": 0.5, "keep_vegas": 0.5}  # a share of the level's iterations
REROLL_SAMPLES = 24  # rolls drawn to rank a reroll for the search
MARKETS = 512  # markets remembered (a market per player and position)
EXPECTED_SAMPLES = 24  # random pools that value dice the bot cannot see


# --- the printed board -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hood:
    """A neighborhood and the sets that fill it."""

    id: str
    name: str
    district: int
    kind: str  # pair, triple, four, straight
    sets: tuple[tuple[int, ...], ...]  # every set of faces that fills it, sorted
    text: str


@dataclass(frozen=True)
class Board:
    """The printed board as the bots use it, read from the game's public ``table_data``."""

    id: str
    hoods: tuple[Hood, ...]
    points: dict[int, tuple[int, ...]]  # district face -> 1st, 2nd, 3rd
    district_names: dict[int, str]
    abilities: dict[int, str]  # Favor spot -> ability
    letters: int  # lettered spaces on the Muscle track
    top: int  # the highest position
    vegas_spots: tuple[int, ...]
    wrap: bool
    by_id: dict[str, Hood] = field(default_factory=dict)
    groups: dict[tuple[int, tuple[int, ...]], tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def read(cls, data: dict[str, Any], wrap: bool) -> Board:
        hoods = tuple(_hood(n, wrap) for n in data["neighborhoods"])
        labels = data["muscle_track"]["labels"]
        letters = sum(1 for x in labels[1:] if not str(x).isdigit())
        board = cls(
            str(data["id"]),
            hoods,
            {d["face"]: tuple(d["points"]) for d in data["districts"]},
            {d["face"]: d["name"] for d in data["districts"]},
            {f["spot"]: f["ability"] for f in data["favor_track"]},
            letters,
            len(labels) - 1,
            tuple(data["vegas_spots"]),
            wrap,
        )
        board.by_id.update({h.id: h for h in hoods})
        groups: dict[tuple[int, tuple[int, ...]], list[str]] = {}
        for h in hoods:
            for s in h.sets:
                groups.setdefault((h.district, s), []).append(h.id)
        board.groups.update({k: tuple(v) for k, v in groups.items()})
        return board

    def value(self, position: int) -> int:
        """What a Muscle-track position counts for when recruiting (letters count zero)."""
        return max(0, position - self.letters)


_SET_TEXT = re.compile(r"^(pair|three|four) of (\d)s$")
_STRAIGHT_ANY = re.compile(r"^any straight with a (\d)$")
_STRAIGHT = re.compile(r"^straight (\d)-(\d)-(\d)$")


def _hood(n: dict[str, Any], wrap: bool) -> Hood:
    """A neighborhood from the board's public words for its set ("pair of 4s")."""
    text = str(n["set"])
    sets: tuple[tuple[int, ...], ...] = ()
    kind = "unknown"
    if m := _SET_TEXT.match(text):
        kind = {"pair": "pair", "three": "triple", "four": "four"}[m[1]]
        sets = ((int(m[2]),) * {"pair": 2, "triple": 3, "four": 4}[kind],)
    elif m := _STRAIGHT_ANY.match(text):
        kind = "straight"
        sets = tuple(s for s in STRAIGHTS[wrap] if int(m[1]) in s)
    elif m := _STRAIGHT.match(text):
        kind = "straight"
        sets = (tuple(sorted(int(x) for x in m.groups())),)
    return Hood(n["id"], n["name"], int(n["district"]), kind, sets, text)


def _straights(wrap: bool) -> tuple[tuple[int, ...], ...]:
    runs = [(a, a + 1, a + 2) for a in range(1, 5)]
    if wrap:
        runs += [(1, 5, 6), (1, 2, 6)]
    return tuple(runs)


STRAIGHTS = {w: _straights(w) for w in (False, True)}


# --- a position, as one player's view shows it --------------------------------------------


@dataclass
class Position:
    """The parts of a view the bots weigh: who holds what, and each family's assets."""

    board: Board
    view: dict[str, Any]
    names: list[str]
    holders: dict[str, str | None]
    muscle: dict[str, int]
    house: dict[str, int]
    counts: dict[int, dict[str, int]]  # district -> player -> neighborhoods held
    godfather: str | None
    phase: str
    friends_close: bool
    tie_block_next: bool

    @classmethod
    def read(cls, board: Board, view: dict[str, Any]) -> Position:
        players = view["players"]
        names = [p["name"] for p in players]
        holders = dict(view["neighborhoods"])
        counts: dict[int, dict[str, int]] = {d: dict.fromkeys(names, 0) for d in board.points}
        for hid, who in holders.items():
            if who is not None and hid in board.by_id:
                counts[board.by_id[hid].district][who] += 1
        options = view.get("options", {})
        return cls(
            board,
            view,
            names,
            holders,
            {p["name"]: p["muscle_position"] for p in players},
            {p["name"]: p["house"] for p in players},
            counts,
            view.get("godfather"),
            view["phase"],
            options.get("scoring") == "friends_close",
            options.get("tie_block") == "next_place",
        )

    def player(self, name: str) -> dict[str, Any]:
        return next(p for p in self.view["players"] if p["name"] == name)

    def place_points(self, counts: dict[str, int], points: Sequence[int]) -> dict[str, int]:
        """Points by count, ties pushing the tied down (the rulebook's way, and its house
        rules): the bots' own reckoning, for positions that do not exist yet."""
        result = dict.fromkeys(counts, 0)
        levels = sorted({c for c in counts.values() if c > 0}, reverse=True)
        place = 0
        for rank, level in enumerate(levels):
            tied = [n for n, c in counts.items() if c == level]
            if self.friends_close:
                index, step = rank, 1
            elif len(tied) == 1:
                index, step = place, 1
            elif self.tie_block_next:
                index, step = place + 1, 2
            else:
                index, step = place + len(tied) - 1, len(tied)
            for n in tied:
                result[n] = points[index] if index < len(points) else 0
            place += step
        return result

    def totals(self) -> dict[str, float]:
        """The score as it stands: districts and House."""
        out = dict.fromkeys(self.names, 0.0)
        for face, by in self.counts.items():
            for n, pts in self.place_points(by, self.board.points[face]).items():
                out[n] += pts
        for n, pts in self.place_points(self.house, HOUSE_POINTS).items():
            out[n] += pts
        return out

    def gain(self, district: int, me: str, victim: str | None = None) -> float:
        """What one more neighborhood in ``district`` is worth to ``me`` (taken from
        ``victim``: their loss counts too, at :data:`VICTIM_WEIGHT`)."""
        by = self.counts[district]
        points = self.board.points[district]
        now = self.place_points(by, points)
        after = dict(by)
        after[me] += 1
        if victim is not None:
            after[victim] -= 1
        then = self.place_points(after, points)
        value = then[me] - now[me] + HOOD_BONUS
        if victim is not None:
            value += VICTIM_WEIGHT * (now[victim] - then[victim] + HOOD_BONUS)
        return value

    def next_godfather(self) -> str | None:
        """Who clean-up would make the Godfather now: the highest on the Muscle track."""
        on = [(m, n) for n, m in self.muscle.items() if m > 0]
        return max(on)[1] if on else self.godfather


def _dice_count(pos: Position, entry: dict[str, Any]) -> int:
    """How many dice a family holds, from what the table sees: its own, the red dice it
    won, the dice handed to it as Godfather, less the die it handed over."""
    base = 5 + len(entry.get("vegas_taken", ())) + len(entry.get("collected", ()))
    return base - (1 if entry.get("gave") is not None else 0)


def dice_of(entry: dict[str, Any]) -> list[int] | None:
    """A family's dice faces, if the view shows them."""
    dice = entry.get("dice")
    return None if dice is None else sorted(d["face"] for d in dice)


# --- what a pool of dice is worth ------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """The best way found to spend a pool: the sets, each with the neighborhood it goes to
    (and whom it muscles out), and the value of it all."""

    value: float
    sets: tuple[tuple[tuple[int, ...], str, str | None], ...]  # (faces, hood id, victim)


class Target(NamedTuple):
    """Where a set could go: its worth, the neighborhood, and whom it muscles out."""

    value: float
    hood: str
    victim: str | None


class Market:
    """For one player in one position: what each set of faces can fill, and its worth."""

    def __init__(self, pos: Position, me: str) -> None:
        self.pos = pos
        self.me = me
        board = pos.board
        self.godfather = pos.godfather == me
        mine = pos.muscle.get(me, 0)
        # a set of faces -> where it could go, best first
        self.targets: dict[tuple[int, ...], list[Target]] = {}
        gains: dict[int, float] = {}
        for (district, faces), ids in board.groups.items():
            open_ids = [h for h in ids if pos.holders.get(h) is None]
            if open_ids:
                if district not in gains:
                    gains[district] = pos.gain(district, me)
                for h in open_ids:
                    self.targets.setdefault(faces, []).append(Target(gains[district], h, None))
                continue
            if mine == 0:
                continue
            for h in ids:
                holder = pos.holders.get(h)
                if holder is None or holder == me or pos.muscle.get(holder, 0) >= mine:
                    continue
                self.targets.setdefault(faces, []).append(
                    Target(pos.gain(district, me, holder), h, holder)
                )
        for faces in self.targets:
            self.targets[faces].sort(key=lambda t: -t.value)
        self.straights = [s for s in STRAIGHTS[board.wrap] if s in self.targets]
        self.memo: dict[tuple[tuple[int, ...], tuple[str, ...]], Plan] = {}
        self.means: dict[int, float] = {}

    def leftover(self, face: int) -> float:
        return 0.0 if self.godfather else LEFTOVER + LEFTOVER_PIP * face

    def expected(self, count: int) -> float:
        """What ``count`` dice rolled at random claim here, on average (the same draws every
        time: a value, not a guess)."""
        hit = self.means.get(count)
        if hit is None:
            rng = random.Random(count)
            total = sum(
                self.value([rng.randint(1, 6) for _ in range(count)])
                for _ in range(EXPECTED_SAMPLES)
            )
            hit = self.means[count] = total / EXPECTED_SAMPLES
        return hit

    def plan(self, faces: Iterable[int]) -> Plan:
        counts = [0] * 7
        for f in faces:
            counts[f] += 1
        return self._best(tuple(counts), ())

    def value(self, faces: Iterable[int]) -> float:
        return self.plan(faces).value

    def _best(self, counts: tuple[int, ...], used: tuple[str, ...]) -> Plan:
        return _best(self, counts, used)


def _best(market: Market, counts: tuple[int, ...], used: tuple[str, ...]) -> Plan:
    """The best plan for ``counts`` (dice per face) with the neighborhoods in ``used``
    already spoken for: the lowest face is either left over or starts a set."""
    key = (counts, used)
    hit = market.memo.get(key)
    if hit is None:
        hit = market.memo[key] = _best_new(market, counts, used)
    return hit


def _best_new(market: Market, counts: tuple[int, ...], used: tuple[str, ...]) -> Plan:
    low = next((f for f in range(1, 7) if counts[f]), 0)
    if not low:
        return Plan(0.0, ())
    rest = list(counts)
    rest[low] -= 1
    best = _best(market, tuple(rest), used)
    best = Plan(best.value + market.leftover(low), best.sets)
    options: list[tuple[int, ...]] = [
        (low,) * n for n in (2, 3, 4) if counts[low] >= n and (low,) * n in market.targets
    ]
    options += [
        s for s in market.straights if low in s and all(counts[f] for f in s) and min(s) == low
    ]
    for faces in options:
        target = next((t for t in market.targets[faces] if t.hood not in used), None)
        if target is None:
            continue
        left = list(counts)
        for f in faces:
            left[f] -= 1
        sub = _best(market, tuple(left), (*used, target.hood))
        value = sub.value + target.value
        if value > best.value:
            best = Plan(value, ((faces, target.hood, target.victim), *sub.sets))
    return best


# --- the horizon ------------------------------------------------------------------------------


_PROGRESS = re.compile(r"^round (\d+), (\w+) phase$")


def progress_of(game: AnyGame, world: World) -> tuple[int, str]:
    """(round, phase) from the game's own words; phase "over" once it has ended."""
    text = game.progress(world)
    m = _PROGRESS.match(text)
    if m is None:
        return (10**6, "over")
    return int(m[1]), m[2]


class DonHorizon:
    """Where a search iteration stops. A hand-building move (Vegas, Roll, Offer) is valued
    once the bot's own offer is settled (its dice are then what it resolves with), or when
    Resolution begins; a Resolution move when the bot's turn ends. Each family's dice are
    then valued as what they can claim."""

    def __init__(self, game: AnyGame, view: dict[str, Any], me: str) -> None:
        self.game = game
        self.me = me
        self.round, self.phase = view["round"], view["phase"]
        offer = view.get("offer") or {}
        # the Godfather has made the bot its offer (it is choosing a Favor spot or rerolling)
        self.offered = offer.get("target") == me and offer.get("step") != "godfather"

    def done(self, world: World, steps: int, last: Action, leaf: bool) -> bool:
        rnd, phase = progress_of(self.game, world)
        if rnd != self.round or phase == "over":
            return True
        mine = last.player == self.me
        if self.phase == "resolution":
            waits = self.game.waiting_for(world)
            if not waits or waits[0].player != self.me:
                return True  # the turn is over
            # Below the tree the dice left are valued as what they can claim: no need to
            # play them out (a Free Reroll's dice are rolled first).
            return leaf and waits[0].dice is None
        if self.phase == "vegas":
            return mine and last.TYPE == "roll"  # the bot's pool is rolled
        if last.TYPE in ("take_favor", "request"):
            if mine and leaf and self.phase == "offer":
                return True  # the Godfather's offer is made: the die came or it did not
            self.offered = self.offered or last.to_dict().get("target") == self.me
        elif self.offered and mine and last.TYPE in ("pass", "roll"):
            return True  # the bot's dice are what it will resolve with
        return phase == "resolution"


# --- the knowledge -------------------------------------------------------------------------


class NewDonKnowledge:
    """A New Don's :class:`~companion.bots.knowledge.Knowledge`."""

    def __init__(self, game: AnyGame) -> None:
        self.game = game
        self._boards: dict[tuple[str, bool], Board] = {}
        self._markets: dict[tuple[Any, ...], Market] = {}

    # --- reading a world -----------------------------------------------------------------

    def board(self, world: World, view: dict[str, Any]) -> Board:
        wrap = bool(view.get("options", {}).get("straights_wrap", False))
        key = (str(view["board"]), wrap)
        board = self._boards.get(key)
        if board is None:
            board = self._boards[key] = Board.read(self.game.table_data(world), wrap)
        return board

    def position(self, world: World, viewer: str) -> Position:
        view = self.game.player_view(world, viewer)
        return Position.read(self.board(world, view), view)

    def market(self, pos: Position, me: str) -> Market:
        """``me``'s market in ``pos``, shared by every position with the same board, muscle
        and Godfather (its plans are remembered)."""
        key = (
            pos.board.id,
            me,
            pos.godfather,
            tuple(pos.holders.values()),
            tuple(pos.muscle.values()),
            pos.friends_close,
            pos.tie_block_next,
        )
        market = self._markets.get(key)
        if market is None:
            if len(self._markets) >= MARKETS:
                self._markets.pop(next(iter(self._markets)))
            market = self._markets[key] = Market(pos, me)
        return market

    # --- Knowledge -----------------------------------------------------------------------

    def consistent(self, world: World, view: dict[str, Any], player: str) -> bool:
        """Every player the Godfather has still to make an offer to holds the favor they
        revealed, and none of the numbers they proved not to have. (A player whose offer is
        past may have handed the favor die over: theirs is not checked.)"""
        offer = view.get("offer")
        if view["phase"] != "offer" or not offer:
            return True
        names = [p["name"] for p in view["players"]]
        index, godfather = names.index(offer["target"]), names.index(view["godfather"])
        if offer["step"] != "godfather":
            index = (index + 1) % len(names)  # the current target's offer is under way
        while index != godfather:
            entry = view["players"][index]
            if entry["name"] != player and entry.get("favor") is not None and "dice" not in entry:
                seen = self.game.player_view(world, entry["name"])["players"][index]
                faces = dice_of(seen) or []
                if entry["favor"] not in faces or any(n in faces for n in entry["absent"]):
                    return False
            index = (index + 1) % len(names)
        return True

    def horizon(self, game: AnyGame, view: dict[str, Any], player: str) -> Horizon:
        return DonHorizon(game, view, player)

    def effort(self, view: dict[str, Any], player: str) -> float:
        """Half the iterations for the favor to show and the red dice to lock: each plays
        the offers round to the bot's own (three times the cost of any other), and the
        Godfather's answer, not the die shown, decides most of it."""
        does = next((w["does"] for w in view.get("waiting", ()) if w["player"] == player), "")
        return EFFORT.get(does, 1.0)

    def reward(self, world: World, player: str) -> float:
        _, phase = progress_of(self.game, world)
        if phase == "over":
            winners = self.game.score(world)["winners"]
            return 1.0 / len(winners) if player in winners else 0.0
        return share(self.values(world, player), player, TEMPERATURE)

    def values(self, world: World, player: str) -> dict[str, float]:
        """What each family's position is worth, in points: the score as it stands, what
        their dice can still claim this round (the bot's own exactly; another's, unless the
        table has seen them, as what that many dice claim on average), and their assets for
        the rounds to come."""
        pos = self.position(world, player)
        totals = pos.totals()
        future = self._future(pos)
        live = pos.phase in ("roll", "offer", "resolution")
        resolved = self._resolved(pos)
        nxt = pos.next_godfather()
        out = {}
        for entry in pos.view["players"]:
            name = entry["name"]
            value = totals[name]
            if live and name not in resolved:
                market = self.market(pos, name)
                faces = dice_of(entry)
                if faces is not None:
                    value += market.value(faces)
                else:
                    value += market.expected(_dice_count(pos, entry))
            assets = len([h for h, w in pos.holders.items() if w == name]) * HOOD_BONUS
            assets += sum(
                ABILITY_VALUE.get(pos.board.abilities.get(int(s), ""), 0.5) * n
                for s, n in entry["favor_tokens"].items()
            )
            assets += VEGAS_BET * entry["soldiers"]["vegas"]
            assets += MUSCLE_STEP * pos.muscle[name]
            if name == nxt:
                assets += GODFATHER_VALUE
            out[name] = value + future * assets
        return out

    @staticmethod
    def _resolved(pos: Position) -> set[str]:
        """Who has had their Resolution turn this round (their dice are spent)."""
        turn = pos.view.get("turn")
        if pos.phase != "resolution" or turn is None or pos.godfather is None:
            return set()
        names = pos.names
        start = names.index(pos.godfather)
        done = set()
        for i in range(len(names)):
            name = names[(start + i) % len(names)]
            if name == turn:
                break
            done.add(name)
        return done

    @staticmethod
    def _future(pos: Position) -> float:
        """How much the rounds to come still count (1: several left, 0: this is the last)."""
        fullest = max(
            sum(1 for h in pos.board.hoods if h.district == d and pos.holders.get(h.id) is not None)
            / max(1, sum(1 for h in pos.board.hoods if h.district == d))
            for d in pos.board.points
        )
        emptiest = min(pos.house.values())
        if fullest >= 1.0 or emptiest <= 0:
            return 0.0
        return max(0.0, min(1.0, (1.0 - fullest) * 3.0, emptiest / 6.0))

    def candidates(self, world: World, player: str, legal: Sequence[Action]) -> list[Action]:
        """The moves worth searching: the policy's first, then the best of each kind."""
        if len(legal) <= 1:
            return list(legal)
        does = self._does(world, player)
        pos = self.position(world, player)
        first = self._choose(pos, does, player, legal, random.Random(0))
        if does == "reroll":
            ranked = self._rank_rerolls(pos, player, legal)
        elif does == "resolve":
            ranked = self._rank_resolution(pos, player, legal)
        else:
            ranked = list(legal)
        out = [first]
        for a in ranked:
            if a not in out:
                out.append(a)
            if len(out) >= CANDIDATES:
                break
        return out

    def _rank_rerolls(self, pos: Position, me: str, legal: Sequence[Action]) -> list[Action]:
        """Rerolls by the mean value of a few rolls of the dice rerolled."""
        faces = dice_of(pos.player(me)) or []
        market = self.market(pos, me)
        rng = random.Random(len(faces))
        scored = []
        for a in legal:
            line = a.to_dict()
            keep = list(faces)
            for f in line.get("dice", []):
                keep.remove(f)
            n = len(faces) - len(keep)
            total = 0.0
            samples = REROLL_SAMPLES if n else 1
            for _ in range(samples):
                total += market.value(keep + [rng.randint(1, 6) for _ in range(n)])
            scored.append((total / samples, a))
        scored.sort(key=lambda x: -x[0])
        return [a for _, a in scored]

    def _rank_resolution(self, pos: Position, me: str, legal: Sequence[Action]) -> list[Action]:
        """Claims and muscle-outs one per district and set (the best neighborhood), favors
        that add most, a recruit, a bet, and passing."""
        entry = pos.player(me)
        faces = dice_of(entry) or []
        market = self.market(pos, me)
        now = market.value(faces)
        scored: list[tuple[float, Action]] = []
        seen: set[tuple[str, int, tuple[int, ...]]] = set()
        for a in legal:
            line = a.to_dict()
            kind = line["type"]
            if kind in ("claim", "muscle_out"):
                hood = pos.board.by_id.get(line["neighborhood"])
                if hood is None:
                    continue
                key = (kind, hood.district, tuple(line["dice"]))
                victim = pos.holders.get(hood.id) if kind == "muscle_out" else None
                rest = list(faces)
                for f in line["dice"]:
                    rest.remove(f)
                score = pos.gain(hood.district, me, victim) + market.value(rest)
                if key in seen:
                    continue
                seen.add(key)
                scored.append((score, a))
            elif kind == "favor":
                after = _favor_faces(faces, line)
                if after is None:
                    continue
                cost = ABILITY_VALUE.get(pos.board.abilities.get(line["spot"], ""), 0.5)
                scored.append((market.value(after) - cost, a))
            elif kind == "pass":
                scored.append((now, a))
        scored.sort(key=lambda x: -x[0])
        out = [a for _, a in scored]
        recruits = [a for a in legal if a.TYPE == "recruit"]
        if recruits:
            out.append(
                max(recruits, key=lambda a: (len(a.to_dict()["dice"]), sum(a.to_dict()["dice"])))
            )
        bets = [a for a in legal if a.TYPE == "bet"]
        if bets:
            out.append(bets[0])
        return out

    # --- the policy ------------------------------------------------------------------------

    def policy(self, world: World, player: str, rng: random.Random) -> Action:
        """A quick, sound move from ``player``'s own view of ``world``."""
        legal: list[Action] = self.game.legal_actions(world, player)
        if len(legal) == 1:
            return legal[0]
        return self._choose(
            self.position(world, player), self._does(world, player), player, legal, rng
        )

    def _does(self, world: World, player: str) -> str:
        return next((w.does for w in self.game.waiting_for(world) if w.player == player), "")

    def _choose(
        self, pos: Position, does: str, player: str, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        if len(legal) == 1:
            return legal[0]
        if does == "resolve":
            return self._resolve(pos, player, legal)
        if does == "keep_vegas":
            return self._keep_vegas(pos, player, legal)
        if does == "reveal_favor":
            return self._reveal(pos, player, legal)
        if does == "offer":
            return self._offer(pos, player, legal)
        if does == "choose_favor_spot":
            return max(
                legal,
                key=lambda a: ABILITY_VALUE.get(
                    pos.board.abilities.get(a.to_dict()["spot"], ""), 0.5
                ),
            )
        if does == "reroll":
            return self._reroll(pos, player, legal)
        return rng.choice(list(legal))

    def _keep_vegas(self, pos: Position, me: str, legal: Sequence[Action]) -> Action:
        """Lock the red dice that would make a set with each other or are high; roll the rest."""

        def score(a: Action) -> float:
            lock: list[int] = a.to_dict().get("lock", [])
            return self.market(pos, me).value(lock) + 0.01 * sum(lock)

        return max(legal, key=score)

    def _reveal(self, pos: Position, me: str, legal: Sequence[Action]) -> Action:
        """Show the die the Godfather may take at least cost: what the rest can claim, and
        the Favor spot it would earn."""
        faces = dice_of(pos.player(me)) or []
        market = self.market(pos, me)

        def score(a: Action) -> float:
            face = a.to_dict()["face"]
            rest = list(faces)
            rest.remove(face)
            spot = ABILITY_VALUE.get(pos.board.abilities.get(face, ""), 0.5)
            return market.value(rest) + 0.5 * spot

        return max(legal, key=score)

    def _offer(self, pos: Position, me: str, legal: Sequence[Action]) -> Action:
        """Take the favor or name the number whose die (if the player has one) adds most."""
        faces = dice_of(pos.player(me)) or []
        market = self.market(pos, me)
        base = market.value(faces)
        target_name = pos.view["offer"]["target"]
        target = pos.player(target_name)
        favor = target.get("favor")
        absent = set(target.get("absent", ()))
        k = 5 + len(target.get("vegas_taken", ()))

        def score(a: Action) -> float:
            line = a.to_dict()
            if line["type"] == "take_favor":
                return market.value([*faces, favor]) if favor else base
            n = line["number"]
            if n in absent:
                p = 0.0
            elif n == favor:
                p = 1.0
            else:
                p = 1.0 - (5 / 6) ** max(1, k - 1)
            return p * market.value([*faces, n]) + (1 - p) * base

        return max(legal, key=score)

    def _reroll(self, pos: Position, me: str, legal: Sequence[Action]) -> Action:
        """Keep the dice of the best plan's sets, roll the others again."""
        faces = dice_of(pos.player(me)) or []
        plan = self.market(pos, me).plan(faces)
        keep = Counter(f for s, _, _ in plan.sets for f in s)
        spare = Counter(faces) - keep
        wanted = sorted(spare.elements())
        if not wanted:
            return next(a for a in legal if a.TYPE == "pass")
        return next(
            (a for a in legal if a.to_dict().get("dice") == wanted),
            next(a for a in legal if a.TYPE == "pass"),
        )

    def _resolve(self, pos: Position, me: str, legal: Sequence[Action]) -> Action:
        """A favor that pays, else the best plan's first set, else spare dice to muscle (to
        be the next Godfather, or out of the Zero Zone) or to Vegas, else pass."""
        entry = pos.player(me)
        faces = dice_of(entry) or []
        market = self.market(pos, me)
        plan = market.plan(faces)
        favors = [a for a in legal if a.TYPE == "favor"]
        if favors:
            best_gain, best = 0.3, None
            for a in favors:
                line = a.to_dict()
                after = _favor_faces(faces, line)
                if after is None:
                    continue
                cost = ABILITY_VALUE.get(pos.board.abilities.get(line["spot"], ""), 0.5)
                gain = market.value(after) - plan.value - cost
                if gain > best_gain:
                    best_gain, best = gain, a
            if best is not None:
                return best
        if plan.sets:
            faces_, hood, victim = plan.sets[0]
            want = "muscle_out" if victim else "claim"
            for a in legal:
                line = a.to_dict()
                if (
                    line["type"] == want
                    and line["neighborhood"] == hood
                    and tuple(line["dice"]) == faces_
                ):
                    return a
            district = pos.board.by_id[hood].district
            for a in legal:
                line = a.to_dict()
                if (
                    line["type"] in ("claim", "muscle_out")
                    and tuple(line["dice"]) == faces_
                    and pos.board.by_id[line["neighborhood"]].district == district
                ):
                    return a
        sets = [a for a in legal if a.TYPE in ("claim", "muscle_out")]
        if sets:
            return sets[0]
        return self._spare(pos, me, entry, legal)

    def _spare(
        self, pos: Position, me: str, entry: dict[str, Any], legal: Sequence[Action]
    ) -> Action:
        passing = next(a for a in legal if a.TYPE == "pass")
        recruits = [a for a in legal if a.TYPE == "recruit"]
        if not recruits:
            return passing
        every = max(recruits, key=lambda a: (len(a.to_dict()["dice"]), sum(a.to_dict()["dice"])))
        pips = sum(every.to_dict()["dice"])
        mine = pos.muscle[me]
        landing = pos.board.letters + min(
            pos.board.top - pos.board.letters, pos.board.value(mine) + pips
        )
        others = [m for n, m in pos.muscle.items() if n != me]
        if landing > max(others, default=0) or mine == 0:
            return every
        bets = [a for a in legal if a.TYPE == "bet"]
        if bets and pos.house[me] > 3:
            return bets[0]
        return every

    # --- reasons for the table -------------------------------------------------------------

    def reason(
        self,
        board: dict[str, Any],
        before: dict[str, Any],
        action: dict[str, Any],
        after: dict[str, Any],
    ) -> str | None:
        """Why, in the table's words: built from the table's views and the table's view of
        the move only, so it can name no die the table has not seen."""
        kind = action.get("type")
        if kind not in ("claim", "muscle_out", "recruit", "bet"):
            return None
        b = Board.read(board, bool(before.get("options", {}).get("straights_wrap", False)))
        pos = Position.read(b, before)
        me = str(action["player"])
        if kind in ("claim", "muscle_out"):
            return _set_reason(b, pos, me, action)
        if kind == "recruit":
            post = Position.read(b, after)
            label = next(p["muscle"] for p in after["players"] if p["name"] == me)
            tail = (
                ": the highest on the track, the next Godfather"
                if post.next_godfather() == me
                else ""
            )
            return f"recruits {sum(action['dice'])} to {label} on the Muscle track{tail}"
        return f"bets a soldier on Vegas {action['spot']}: red dice next round"


def _favor_faces(faces: list[int], line: dict[str, Any]) -> list[int] | None:
    """The dice after a favor, for the favors that change faces (None for the others)."""
    ability = line.get("ability")
    die, to = line.get("die"), line.get("to")
    if ability in (None, "plus_minus_one", "turn_die") and isinstance(to, int) and die in faces:
        out = list(faces)
        out.remove(die)
        return [*out, to]
    if ability in (None, "extra_die") and die in faces and to is None and not line.get("dice"):
        return [*faces, die]
    return None


def _set_reason(b: Board, pos: Position, me: str, action: dict[str, Any]) -> str:
    hood = b.by_id.get(str(action["neighborhood"]))
    if hood is None:
        return f"takes {action['neighborhood']}"
    victim = pos.holders.get(hood.id) if action["type"] == "muscle_out" else None
    verb = f"muscles {victim} out of {hood.name}" if victim else f"claims {hood.name}"
    by = dict(pos.counts[hood.district])
    mine = by.get(me, 0) + 1
    if victim:
        by[victim] -= 1
    rival = max((c for n, c in by.items() if n != me), default=0)
    leaders = [n for n, c in by.items() if n != me and c == rival]
    district = b.district_names.get(hood.district, f"district {hood.district}")
    faces = tuple(sorted(action["dice"]))
    group = b.groups.get((hood.district, faces), ())
    left = [h for h in group if pos.holders.get(h) is None and h != hood.id]
    if not victim and not left:
        why = f"the last open neighborhood for {hood.text}"
    elif mine > rival:
        why = f"the lead in {district}, {mine} to {rival}" if rival else f"first in {district}"
    elif mine == rival:
        why = f"level with {' and '.join(leaders)} in {district} at {mine}"
    else:
        why = f"{mine} in {district}, closing on {' and '.join(leaders)}"
    return f"{verb}: {why}"
