"""Information-set Monte Carlo tree search (single observer), for any game of the protocol.

Each iteration draws one *world* from the bot's information set (:meth:`Observation.world`:
the others' hidden dice, locks and favors redrawn), then plays it forward:

- the bot's own moves come from one tree shared by every world (Cowling, Powley and Whitehouse,
  "Information Set Monte Carlo Tree Search", 2012): a node's children are the bot's moves, a
  move is chosen by UCB1 counting only the iterations in which it was possible, and each
  iteration adds one new node;
- chance is drawn: where the game waits for dice, faces are rolled, and a shuffle the game
  awaits is drawn as the table would (the tree is open-loop: a node stands for a sequence of
  the bot's moves whatever the dice showed);
- the other players move by the game knowledge's quick policy, each from its own view of the
  world, and so do the bot's moves below the tree;
- at the knowledge's horizon the world is valued (a share of the chance to win, in [0, 1]).

So hidden dice are averaged over rather than guessed, chance is sampled as it falls, and the
move played is the root's most visited one. A world the view cannot rule out but the rules
can (a favor die that must be there) ends its iteration unvalued.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.bots.knowledge import Knowledge
from companion.bots.observation import Observation, World
from companion.protocol import Action, MalformedAction, RuleViolation

EXPLORATION = 0.7  # UCB1's constant, for rewards in [0, 1]
MAX_STEPS = 400  # actions one iteration may play before it is valued anyway


def action_key(action: Action) -> Hashable:
    """One key per distinct move: the action itself when it is a frozen value (A New Don's
    are), else its record line."""
    try:
        hash(action)
    except TypeError:
        return json.dumps(action.to_dict(), sort_keys=True, separators=(",", ":"))
    key: Hashable = action  # type: ignore[assignment]  # hashable: it just hashed
    return key


@dataclass(slots=True)
class Node:
    """The bot's moves after one sequence of its own moves, over every world it was met in."""

    visits: int = 0
    total: float = 0.0
    available: int = 0  # iterations in which this node's move was possible
    action: Action | None = None
    children: dict[Hashable, Node] = field(default_factory=dict)
    # The bot's moves here, worked out in the first world that reached this node: the bot's
    # own moves depend on what it knows, the same in every world, unless chance came between
    # (a reroll); then the node is ``volatile`` and they are worked out in each world.
    options: list[Action] | None = None
    volatile: bool = False

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a move may think: iterations, and a cap in seconds (None: none)."""

    iterations: int
    seconds: float | None = None


@dataclass(frozen=True, slots=True)
class Result:
    """The move, and what the search saw: each root move's visits and mean value."""

    action: Action
    iterations: int
    discarded: int
    seconds: float
    stats: tuple[tuple[dict[str, Any], int, float], ...] = ()  # (move, visits, mean)
    next_root: Node | None = None  # the chosen move's node: the tree if the bot moves again


def search(
    obs: Observation,
    knowledge: Knowledge,
    budget: Budget,
    rng: random.Random,
    exploration: float = EXPLORATION,
    root: Node | None = None,
) -> Result:
    """The move to play in ``obs``: see the module's docstring. ``root``: the tree grown
    under the bot's previous move when it moves again at once (its iterations count towards
    this move's budget: a Resolution turn of several moves is searched about once)."""
    start = time.perf_counter()
    game, me = obs.game, obs.player
    legal = game.legal_actions(obs.anchor, me)
    if not legal:
        raise ValueError(f"{me} has nothing to choose now")
    options = knowledge.candidates(obs.anchor, me, legal)
    if len(options) == 1:
        return Result(options[0], 0, 0, time.perf_counter() - start)
    if root is None:
        root = Node()
    root.options, root.volatile = options, False
    done, discarded = root.visits, 0
    deadline = None if budget.seconds is None else start + budget.seconds
    iterations = max(1, round(budget.iterations * knowledge.effort(obs.view, me)))
    while done < iterations:
        if deadline is not None and done and time.perf_counter() > deadline:
            break
        done += 1
        world = obs.world(rng)
        try:
            path, world = _iterate(obs, knowledge, root, world, rng, exploration)
        except (RuleViolation, MalformedAction, AssertionError):
            discarded += 1  # a world the rules rule out: nothing is learnt from it
            continue
        reward = knowledge.reward(world, me)
        for node in path:
            node.visits += 1
            node.total += reward
    keys = {action_key(a) for a in options}
    ranked = sorted(
        ((k, n) for k, n in root.children.items() if k in keys),
        key=lambda kv: (-kv[1].visits, -kv[1].mean),
    )
    best = ranked[0][1].action if ranked else options[0]
    assert best is not None
    stats = tuple(
        (n.action.to_dict(), n.visits, round(n.mean, 4)) for _, n in ranked if n.action is not None
    )
    return Result(
        best, done, discarded, time.perf_counter() - start, stats, ranked[0][1] if ranked else None
    )


def _iterate(
    obs: Observation,
    knowledge: Knowledge,
    root: Node,
    world: World,
    rng: random.Random,
    exploration: float,
) -> tuple[list[Node], World]:
    """Play one world from the root to the horizon: the tree's path, and the world reached."""
    game, me = obs.game, obs.player
    horizon = knowledge.horizon(game, obs.view, me)
    node: Node | None = root
    path = [root]
    last: Action | None = None
    for steps in range(MAX_STEPS):
        if game.is_over(world) or (
            last is not None and horizon.done(world, steps, last, node is None)
        ):
            break
        chance = game.chance_action(world, rng)  # a shuffle: the companion's to draw
        waits = [] if chance is not None else game.waiting_for(world)
        roll = next((w for w in waits if w.dice is not None), None)
        if chance is not None:
            action = chance
        elif not waits:
            break
        elif roll is not None:
            assert roll.dice is not None
            faces = tuple(rng.choice(roll.dice.faces) for _ in range(roll.dice.count))
            action = game.roll_action(roll, faces)
        elif waits[0].player == me and node is not None:
            if node.options is None or node.volatile:
                node.options = knowledge.candidates(world, me, game.legal_actions(world, me))
            action, child = _select(node, node.options, exploration)
            path.append(child)
            try:
                world = game.apply(world, action)
            except (RuleViolation, MalformedAction):
                if node is root or node.volatile:
                    raise
                node.volatile = True  # chance changed the bot's moves since
                raise
            last = action
            node = child if child.visits else None  # a new leaf: the policy plays on
            continue
        else:
            action = knowledge.policy(world, waits[0].player, rng)
        world = game.apply(world, action)
        last = action
    return path, world


def _select(node: Node, moves: Sequence[Action], exploration: float) -> tuple[Action, Node]:
    """The first move never tried here, else the best by UCB1 among the moves possible now
    (each counted only in the iterations where it was possible)."""
    keyed = [(action_key(a), a) for a in moves]
    for key, action in keyed:
        child = node.children.get(key)
        if child is None:
            child = node.children[key] = Node(action=action)
        child.available += 1
    fresh = next(((k, a) for k, a in keyed if node.children[k].visits == 0), None)
    if fresh is not None:
        return fresh[1], node.children[fresh[0]]
    best_key, best_value = keyed[0][0], -math.inf
    for key, _ in keyed:
        child = node.children[key]
        value = child.mean + exploration * math.sqrt(math.log(child.available) / child.visits)
        if value > best_value:
            best_key, best_value = key, value
    child = node.children[best_key]
    assert child.action is not None
    return child.action, child
