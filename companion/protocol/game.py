"""What a game is to the platform: the table service, the web, the dice and the command line
know a game only through :class:`Game`, and a new game is added by writing one.

A game is pure: no I/O, no clock, no randomness, no global state. Dice results and every other
chance outcome come in as actions, so a game is the replay of its record. A refused action
raises (:class:`~companion.protocol.errors.RuleViolation` naming the rulebook section, or
:class:`~companion.protocol.errors.MalformedAction`) and changes nothing.

Secrets leave a game only through its filters: :meth:`Game.player_view`,
:meth:`Game.action_view` and :meth:`Game.narrate` take the viewer (a player's name, or None for
the table screen), and :meth:`Game.scramble` lets the tests prove that nothing a viewer may not
see changes what they are shown.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, TypeVar

from companion.protocol.options import HouseRulesType, OptionInfo, option_infos
from companion.protocol.seats import Seat

OWN = "own"  # DiceRequest pool: the player's own dice (paired to their name or seat colour)
PIPS = (1, 2, 3, 4, 5, 6)


class Action(Protocol):
    """An action: who acts, and its line in the game record."""

    TYPE: ClassVar[str]

    @property
    def player(self) -> str: ...

    def to_dict(self) -> dict[str, Any]: ...


class Setup(Protocol):
    """A game's first record line: who sits where, the house rules, and the game's own
    choices (A New Don's board side, say)."""

    @property
    def seats(self) -> tuple[Seat, ...]: ...

    @property
    def options(self) -> HouseRulesType: ...

    def to_dict(self) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class DiceRequest:
    """Physical dice a game is waiting for: how many, from which dice, with which faces.

    ``pools`` names the dice that may be rolled: :data:`OWN` (the player's own, paired to
    their name or seat colour) and shared pools by name (A New Don's three red dice, "vegas").
    ``ask`` tells this request apart from the next one of the same player and kind: it changes
    once the roll is applied, so a roll handed over but not yet applied is not asked again.
    """

    count: int
    pools: tuple[str, ...] = (OWN,)
    faces: tuple[int, ...] = PIPS
    ask: str = ""
    prompt: str = ""  # the game's words to the roller: "Roll your 5 dice"


@dataclass(frozen=True, slots=True)
class Waiting:
    """The game waits for ``player`` to do ``does`` (a word the pages know); ``dice`` when
    what it waits for is a roll of physical dice. How many dice is private to that player."""

    player: str
    does: str
    dice: DiceRequest | None = None


@dataclass(frozen=True, slots=True)
class DiceSet:
    """Dice a table pairs once: a family's five dice (``owner`` its seat colour, or its name
    when it has none) or a shared pool such as the red dice."""

    owner: str
    label: str
    count: int
    noun: str = "die"  # one of them, as a sentence names it: "red die"


@dataclass(frozen=True, slots=True)
class Choice:
    """One legal action, as a phone offers it: a button's label, its group, the dice of the
    viewer's it spends, and any extra hints for the game's page."""

    action: dict[str, Any]
    group: str
    label: str
    dice: tuple[int, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "group": self.group,
            "label": self.label,
            "dice": list(self.dice),
            **self.extra,
        }


class Files(Protocol):
    """The data files a game may read, handed in by the platform (the I/O edge): files
    shipped in the game's own package, and files a user made (a traced board)."""

    def shipped(self, name: str) -> str: ...

    def user(self, ref: str) -> str: ...


S = TypeVar("S")  # the game's state
A = TypeVar("A")  # its actions
U = TypeVar("U")  # its setup


class Game(Protocol[S, A, U]):
    """A game the companion referees. See docs/architecture.md for how to add one."""

    # --- what it is ----------------------------------------------------------------------
    # Read-only, so a plain class attribute implements each (``players = (3, 6)``) and may be
    # of a narrower type than declared here (``house_rules = HouseRules``).
    @property
    def id(self) -> str:
        """The record's "game" value, e.g. "new-don"."""
        ...

    @property
    def name(self) -> str: ...

    @property
    def players(self) -> tuple[int, int]:
        """The fewest and the most players."""
        ...

    @property
    def rulebook(self) -> str:
        """The rulebook's file name, for "see the rulebook" links."""
        ...

    @property
    def house_rules(self) -> type[HouseRulesType]: ...

    @property
    def setup_choices(self) -> tuple[OptionInfo, ...]:
        """Setup-line keys besides players and options that a table may choose on the web,
        with the values it may choose (A New Don's board side). Nothing else may be set."""
        ...

    # --- the record ----------------------------------------------------------------------
    def setup_from_dict(self, data: dict[str, Any]) -> U:
        """The setup line (``"game"`` already checked); :class:`MalformedAction` if bad."""
        ...

    def action_from_dict(self, data: Any) -> A:
        """One record line as an action; :class:`MalformedAction` saying why not."""
        ...

    # --- the rules -----------------------------------------------------------------------
    def new_game(self, setup: U, files: Files) -> S:
        """The table before the first move; :class:`RuleViolation` for a setup the rules
        forbid (too many players, say)."""
        ...

    def apply(self, state: S, action: A) -> S: ...

    def legal_actions(self, state: S, player: str) -> list[A]:
        """Every choice ``player`` may make now. Chance (a roll) is never a choice: rolls
        are asked for by :meth:`waiting_for`."""
        ...

    def waiting_for(self, state: S) -> list[Waiting]: ...

    def roll_action(self, waiting: Waiting, faces: tuple[int, ...]) -> A:
        """The action that answers a dice request with the faces the dice show."""
        ...

    def chance_action(self, state: S, rng: random.Random) -> A | None:
        """The chance the game awaits that neither a die nor a player gives (a shuffle of the
        cards the companion holds for the players), drawn from ``rng``; None when it awaits
        none. The table service draws and records it at once (actor ``table``), so a record
        replays exactly; a game whose chance is all physical returns None."""
        ...

    def is_chance(self, action: A) -> bool:
        """Whether ``action`` is chance only the companion draws (nobody may submit it)."""
        ...

    def is_roll(self, action: A) -> bool:
        """Whether ``action`` only reports dice (what a dice reader may submit)."""
        ...

    def table_may_enter(self, action: A) -> bool:
        """Whether the host may enter ``action`` for its player: a public fact the whole
        table saw (where a foam gun points, which cards were flipped), never a choice whose
        legality depends on that player's secrets (the refusal would tell the host them)."""
        ...

    def player_may_undo(self, action: A) -> bool:
        """Whether a player may take back their own last move of this kind (one that
        revealed nothing and rolled no die); the host can take back anything."""
        ...

    def is_over(self, state: S) -> bool: ...

    def score(self, state: S) -> dict[str, Any]:
        """The score as JSON: at least ``winners`` (names) and ``totals`` (name -> points);
        an unfinished game is scored as it stands."""
        ...

    # --- what each viewer may see (None: the table screen) ------------------------------
    def player_view(self, state: S, viewer: str | None) -> dict[str, Any]: ...

    def action_view(self, before: S, action: A, viewer: str | None) -> dict[str, Any]: ...

    def narrate(self, before: S, action: A, after: S, viewer: str | None) -> list[str]: ...

    def choices(self, state: S, viewer: str) -> list[Choice]:
        """The viewer's own legal actions, labelled for buttons."""
        ...

    def table_data(self, state: S) -> dict[str, Any]:
        """What is printed and public (the board, the tracks), for the pages to draw. It may
        carry ``rulebook``: for each section a :class:`RuleViolation` cites, ``{"quote": the
        rulebook's words, "instead": one line on what to do instead}``; the web shows them
        with a refusal (a game without it is refused with its rule's name only)."""
        ...

    def dice_sets(self, state: S) -> list[DiceSet]:
        """The dice a table pairs for this game (from its first state)."""
        ...

    def scramble(self, state: S, viewer: str | None, rng: random.Random) -> S:
        """``state`` with every secret ``viewer`` may not see drawn anew (for the tests that
        prove the filters leak nothing); everything the viewer may see stays."""
        ...

    def random_action(self, state: S, rng: random.Random) -> A:
        """A random next action the way a table might play: dice where dice are awaited
        (faces drawn from ``rng``), else one of a waiting player's legal choices. For
        ``companion simulate``, the property tests and the benchmarks."""
        ...

    def score_position(self, text: str, files: Files) -> dict[str, Any]:
        """Score a final position a person typed in (for tables that did not track the game;
        the format is the game's, documented with it): the same JSON as :meth:`score`, or
        :class:`MalformedAction` saying what to fix."""
        ...

    def score_table(self, scores: dict[str, Any]) -> str:
        """A score (from :meth:`score` or :meth:`score_position`) as a plain-text table."""
        ...

    def progress(self, state: S) -> str:
        """Where the game stands, in a few words ("round 3, offer phase"), for game lists."""
        ...

    def summary(self, state: S) -> str:
        """The position and the score as plain text, for the terminal (``companion
        replay``): the table's view, no hidden die."""
        ...


def option_list(game: Game[Any, Any, Any]) -> Sequence[OptionInfo]:
    """A game's house rules, in order."""
    return list(option_infos(game.house_rules).values())
