"""What one person may see: the single filter between the engine and the world.

Every outbound path (pages, API replies, event streams, logs, error messages) goes through
:func:`player_view` or :func:`action_view`. A player sees their own dice; everyone else's stay
behind the screen until that player's Resolution turn reveals them. Which Vegas dice a player
locked, how many dice they are about to roll, which faces they reroll and the favor they chose
before everyone has chosen are all hidden the same way.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from companion.games.new_don.actions import Action, KeepVegas, Reroll, RevealFavor, Roll
from companion.games.new_don.dice import Die
from companion.games.new_don.legal import waiting_for
from companion.games.new_don.phases.cleanup import game_end_reason
from companion.games.new_don.rulebook import phase_help
from companion.games.new_don.scoring import score
from companion.games.new_don.state import Phase, State
from companion.protocol.options import options_to_dict


def dice_public(state: State, seat: int) -> bool:
    """Resolution A: a player reveals their dice when their turn to resolve comes."""
    if state.phase is not Phase.RESOLUTION or state.turn is None or state.godfather is None:
        return False
    n = len(state.players)
    return (seat - state.godfather) % n <= (state.turn - state.godfather) % n


def favors_public(state: State) -> bool:
    """Favors are revealed simultaneously: nobody sees one until all are down."""
    if state.phase is not Phase.ROLL:
        return True
    return all(p.favor is not None for i, p in enumerate(state.players) if i != state.godfather)


def player_view(state: State, viewer: str | None) -> dict[str, Any]:
    """The game as ``viewer`` may see it (``None``: the shared table screen), as plain JSON."""
    me = state.seat(viewer) if viewer is not None else None
    view: dict[str, Any] = {
        "viewer": viewer,
        "board": state.board.id,
        "round": state.round,
        "phase": state.phase.value,
        "moves": state.moves,
        "godfather": _name_or_none(state, state.godfather),
        "players": [_player(state, i, mine=i == me) for i in range(len(state.players))],
        "neighborhoods": {
            n.id: _name_or_none(state, s)
            for n, s in zip(state.board.neighborhoods, state.neighborhoods, strict=True)
        },
        "vegas": [
            {"number": num, "holder": _name_or_none(state, s)}
            for num, s in zip(state.board.vegas_spots, state.vegas, strict=True)
        ],
        "vegas_faces": list(state.vegas_faces),
        "rolloff": {state.name(s): f for s, f in state.rolloff},
        "offer": None,
        "turn": _name_or_none(state, state.turn),
        "waiting": _waiting(state, viewer),
        "options": options_to_dict(state.rules),
        "help": _help(state, viewer),
        # The score as it stands (the tie rule applied): everything it counts is public.
        "standing": score(state).to_dict(),
    }
    if state.phase is Phase.OFFER:
        view["offer"] = {
            "target": state.name(state.offer_seat),
            "step": state.offer_step.value if state.offer_step else None,
            "number": state.offer_number,
        }
    if state.phase is Phase.GAME_OVER:
        view["end"] = game_end_reason(state)
        view["scores"] = score(state).to_dict()
    return view


def _name_or_none(state: State, seat: int | None) -> str | None:
    return state.name(seat) if seat is not None else None


def _player(state: State, seat: int, mine: bool) -> dict[str, Any]:
    """One family as a viewer sees it: their own dice, locks and roll are theirs alone; the
    dice of others only once their Resolution turn has shown them; a favor only once all are
    down."""
    p = state.players[seat]
    entry: dict[str, Any] = {
        "name": p.name,
        "colour": p.colour,
        "house": p.house,
        "muscle": state.board.muscle_track.label(p.muscle),
        "muscle_position": p.muscle,
        "favor_tokens": {
            str(spot): n
            for spot, n in zip(state.board.favor_spots, p.favor_tokens, strict=True)
            if n
        },
        "soldiers": state.soldiers(seat),
        "neighborhoods": state.held_by(seat),
        "rolled": p.rolled,
        "favor_revealed": p.favor is not None,
        "favor": p.favor if (mine or favors_public(state)) else None,
        "vegas_taken": list(p.vegas_taken),
        "collected": list(p.collected),
        "gave": p.gave,
        "absent": list(p.absent),
    }
    if mine or dice_public(state, seat):
        entry["dice"] = [
            {"face": d.face, "sets_only": d.sets_only, "imaginary": d.imaginary}
            for d in sorted(p.dice)
        ]
    if mine:
        entry["locked"] = list(p.locked)
        entry["to_roll"] = p.to_roll
    return entry


def _waiting(state: State, viewer: str | None) -> list[dict[str, Any]]:
    """Who the game waits on; how many dice a roll takes is the roller's secret, except for
    the rolls everyone watches (the roll-off, Vegas, and rerolls during Resolution)."""
    waiting = []
    for w in waiting_for(state):
        item: dict[str, Any] = {"player": w.player, "does": w.does}
        if w.dice is not None and (
            w.player == viewer
            or w.does in ("godfather_roll", "vegas_roll")
            or state.phase is Phase.RESOLUTION
        ):
            item["dice"] = w.dice.count
        waiting.append(item)
    return waiting


def _help(state: State, viewer: str | None) -> dict[str, Any]:
    """This phase in the rulebook's words, and what ``viewer`` may do in it now (the table
    screen gets no "now": it does nothing)."""
    mine = [w.does for w in waiting_for(state) if w.player == viewer] if viewer else []
    godfather = viewer is not None and state.godfather == state.seat(viewer)
    out = phase_help(state.phase, mine, godfather)
    if viewer is None:
        out["now"] = ""
    return out


HIDDEN = "hidden"


def action_view(before: State, action: Action, viewer: str | None) -> dict[str, Any]:
    """An action as ``viewer`` may see it in a log or event stream.

    ``before`` is the state the action was applied to: whether a roll is secret depends on
    when it happened (a reroll in the Offer phase is hidden, one during its player's own
    Resolution turn is on the table for all to see).
    """
    data = action.to_dict()
    if viewer == action.player:
        return data
    seat = before.seat(action.player)
    public_dice = dice_public(before, seat)
    if isinstance(action, Roll) and not public_dice:
        data["faces"] = HIDDEN
    elif isinstance(action, Reroll):
        data["dice"] = HIDDEN
    elif isinstance(action, KeepVegas):
        data["lock"] = HIDDEN
    elif isinstance(action, RevealFavor):
        data["face"] = HIDDEN  # shown by the views once every favor is down
    return data


def scramble(state: State, viewer: str | None, rng: random.Random) -> State:
    """``state`` with everything ``viewer`` may not know drawn anew: other players' dice
    behind the screen (and how many they are about to roll, and which red dice they locked),
    and favors not yet all down. The tests check that ``viewer``'s view does not change."""
    me = state.seat(viewer) if viewer is not None else None
    players = list(state.players)
    for i, p in enumerate(players):
        if i == me:
            continue
        if not dice_public(state, i):
            p = replace(
                p,
                dice=tuple(Die(rng.randint(1, 6), d.sets_only, d.imaginary) for d in p.dice),
                locked=tuple(sorted(rng.sample(p.vegas_taken, rng.randint(0, len(p.vegas_taken))))),
                to_roll=rng.randint(1, 8) if p.to_roll else 0,
            )
        if not favors_public(state) and p.favor is not None:
            p = replace(p, favor=rng.randint(1, 6))
        players[i] = p
    return replace(state, players=tuple(players))
