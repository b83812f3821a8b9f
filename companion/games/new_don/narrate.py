"""One sentence per action, for the table's log and the terminal demo.

Narration goes through :func:`action_view`, so it says no more than the viewer may know: the
table screen reads "Maria rolled her dice", Maria's phone reads "You rolled 2-3-3-5-6".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from companion.games.new_don.actions import (
    Action,
    Bet,
    ChooseFavorSpot,
    Claim,
    GodfatherRoll,
    KeepVegas,
    MuscleOut,
    Pass,
    Recruit,
    Request,
    Reroll,
    RevealFavor,
    Roll,
    TakeFavor,
    UseFavor,
    VegasRoll,
)
from companion.games.new_don.board import ABILITY_TEXT, Ability, Board
from companion.games.new_don.phases.cleanup import game_end_reason
from companion.games.new_don.state import Phase, State
from companion.games.new_don.view import HIDDEN, action_view

# One sentence (or a few) for an action as the viewer sees it (``action_view``), from the
# states before and after it.
Telling = Callable[[dict[str, Any], State, State], list[str]]


def narrate(before: State, action: Action, after: State, viewer: str | None = None) -> list[str]:
    """What happened, in words, for ``viewer`` (None: everyone at the table)."""
    a = action_view(before, action, viewer)
    lines = _TELLINGS[a["type"]](a, before, after)
    if before.phase is not after.phase or before.round != after.round:
        lines.extend(_phase_change(before, after))
    return lines


def _dice(values: Iterable[int] | str) -> str:
    if isinstance(values, str):  # HIDDEN: dice this viewer may not see
        return "some dice"
    return "-".join(str(v) for v in sorted(values))


def _hood(board: Board, neighborhood_id: str) -> str:
    return board.neighborhood(neighborhood_id).name


def _godfather_roll(a: dict[str, Any], before: State, after: State) -> list[str]:
    return [f"{a['player']} rolls {a['face']} for Godfather."]


def _vegas_roll(a: dict[str, Any], before: State, after: State) -> list[str]:
    lines = [f"{a['player']}, the Godfather, rolls the Vegas dice: {_dice(a['faces'])}."]
    if before.phase is Phase.ROLL:
        return [*lines, "  Nobody has a soldier in Vegas: the roll wins nothing (Vegas)."]
    for p0, p1 in zip(before.players, after.players, strict=True):
        if len(p1.vegas_taken) > len(p0.vegas_taken):
            lines.append(
                f"  {p1.name} takes {_dice(p1.vegas_taken)} from Vegas; the soldier goes home."
            )
    return lines


def _keep_vegas(a: dict[str, Any], before: State, after: State) -> list[str]:
    locked = a.get("lock", [])
    return [
        f"{a['player']} decides which Vegas dice to lock"
        + ("." if locked == HIDDEN else f": {_dice(locked) if locked else 'none'}.")
    ]


def _roll(a: dict[str, Any], before: State, after: State) -> list[str]:
    who = a["player"]
    if before.phase is Phase.RESOLUTION:
        return [f"{who} rerolls and gets {_dice(a['faces'])}."]
    return [f"{who} rolls" + ("." if a["faces"] == HIDDEN else f": {_dice(a['faces'])}.")]


def _reveal_favor(a: dict[str, Any], before: State, after: State) -> list[str]:
    return [
        f"{a['player']} puts a favor in front of the screen"
        + ("." if a["face"] == HIDDEN else f": a {a['face']}.")
    ]


def _take_favor(a: dict[str, Any], before: State, after: State) -> list[str]:
    target = a["target"]
    fav = before.players[before.seat(target)].favor
    return [
        f"The Godfather takes {target}'s favor, a {fav}; {target}'s "
        f"soldier goes to Favor spot {fav}."
    ]


def _request(a: dict[str, Any], before: State, after: State) -> list[str]:
    target, number = a["target"], a["number"]
    was = before.players[before.seat(target)]
    now = after.players[after.seat(target)]
    if number in now.absent[len(was.absent) :]:
        return [
            f"The Godfather asks {target} for a {number}. "
            f"{target} has none (checked); the soldier goes to spot {now.favor}."
        ]
    return [
        f"The Godfather asks {target} for a {number}: an offer "
        "that can't be refused. The die is handed over."
    ]


def _choose_favor_spot(a: dict[str, Any], before: State, after: State) -> list[str]:
    return [f"{a['player']} puts a soldier on Favor spot {a['spot']}."]


def _reroll(a: dict[str, Any], before: State, after: State) -> list[str]:
    return [f"{a['player']} rerolls {_dice(a['dice'])}."]


def _pass(a: dict[str, Any], before: State, after: State) -> list[str]:
    who = a["player"]
    return [f"{who} keeps the dice." if before.phase is Phase.OFFER else f"{who} ends the turn."]


def _claim(a: dict[str, Any], before: State, after: State) -> list[str]:
    n = before.board.neighborhood(a["neighborhood"])
    return [f"{a['player']} claims {n.name} ({n.requirement.describe()}) with {_dice(a['dice'])}."]


def _muscle_out(a: dict[str, Any], before: State, after: State) -> list[str]:
    n = before.board.neighborhood(a["neighborhood"])
    holder = before.neighborhoods[before.board.index(n.id)]
    assert holder is not None  # the muscle-out was applied: someone held it
    victim = before.name(holder)
    return [
        f"{a['player']} muscles {victim} out of {n.name} with {_dice(a['dice'])}; "
        f"{victim}'s soldier goes to Favor spot {n.district}."
    ]


def _recruit(a: dict[str, Any], before: State, after: State) -> list[str]:
    who = a["player"]
    track = before.board.muscle_track
    return [
        f"{who} recruits muscle with {_dice(a['dice'])}: "
        f"{track.label(before.players[before.seat(who)].muscle)} -> "
        f"{track.label(after.players[after.seat(who)].muscle)}."
    ]


def _bet(a: dict[str, Any], before: State, after: State) -> list[str]:
    return [f"{a['player']} bets a {a['die']} on Vegas spot {a['spot']}."]


def _favor(a: dict[str, Any], before: State, after: State) -> list[str]:
    board = before.board
    ability = Ability(a.get("ability") or board.ability(a["spot"]))
    if ability is Ability.FREE_REROLL:
        detail = f"rerolling {_dice(a.get('dice', []))}"
    elif ability in (Ability.PLUS_MINUS_ONE, Ability.TURN_DIE):
        detail = f"{a.get('die')} -> {a.get('to')}"
    elif ability is Ability.EXTRA_DIE:
        detail = f"an extra {a.get('die')}"
    else:
        detail = f"{_hood(board, a['from'])} -> {_hood(board, a['to'])}"
    return [f"{a['player']} uses favor {a['spot']}, {ABILITY_TEXT[ability]}: {detail}."]


_TELLINGS: dict[str, Telling] = {
    GodfatherRoll.TYPE: _godfather_roll,
    VegasRoll.TYPE: _vegas_roll,
    KeepVegas.TYPE: _keep_vegas,
    Roll.TYPE: _roll,
    RevealFavor.TYPE: _reveal_favor,
    TakeFavor.TYPE: _take_favor,
    Request.TYPE: _request,
    ChooseFavorSpot.TYPE: _choose_favor_spot,
    Reroll.TYPE: _reroll,
    Pass.TYPE: _pass,
    Claim.TYPE: _claim,
    MuscleOut.TYPE: _muscle_out,
    Recruit.TYPE: _recruit,
    Bet.TYPE: _bet,
    UseFavor.TYPE: _favor,
}


def _phase_change(before: State, after: State) -> list[str]:
    out: list[str] = []
    if before.phase is Phase.SETUP and after.godfather is not None:
        out.append(
            f"{after.name(after.godfather)} is the first Godfather; everyone else puts a "
            "soldier on Favor spot 6."
        )
    if after.round != before.round or after.phase is Phase.GAME_OVER:
        track = after.board.muscle_track
        order = sorted((p for p in after.players if p.muscle), key=lambda p: p.muscle)
        if order:
            out.append(
                "Clean up: muscle reorganized: "
                + ", ".join(f"{p.name} {track.label(p.muscle)}" for p in order)
                + "."
            )
        if after.godfather is not None:
            out.append(f"{after.name(after.godfather)} is the Godfather.")
    if after.phase is Phase.GAME_OVER:
        out.append(f"Game over: {game_end_reason(after)}.")
    elif after.round != before.round:
        out.append(
            f"Round {after.round}"
            + (" (nobody bet on Vegas)." if after.phase is Phase.ROLL else ".")
        )
    if after.phase is Phase.OFFER and before.phase is not Phase.OFFER:
        out.append("Every favor is down. The Godfather makes offers.")
    if after.phase is Phase.RESOLUTION and before.phase is not Phase.RESOLUTION:
        out.append("Resolution: the Godfather goes first.")
    return out
