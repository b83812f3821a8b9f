"""One sentence per action, for the table's log and the terminal demo.

Narration goes through :func:`action_view`, so it says no more than the viewer may know: the
table screen reads "Maria rolled her dice", Maria's phone reads "You rolled 2-3-3-5-6".
"""

from __future__ import annotations

from companion.games.new_don.actions import Action
from companion.games.new_don.board import ABILITY_TEXT, Ability
from companion.games.new_don.phases.cleanup import game_end_reason
from companion.games.new_don.state import Phase, State
from companion.games.new_don.view import HIDDEN, action_view


def _dice(values: object) -> str:
    if values == HIDDEN:
        return "some dice"
    return "-".join(str(v) for v in sorted(values))


def _name(board, nid: object) -> str:
    return board.neighborhoods[board.index(nid)].name if isinstance(nid, str) else str(nid)


def narrate(before: State, action: Action, after: State, viewer: str | None = None) -> list[str]:
    """What happened, in words, for ``viewer`` (None: everyone at the table)."""
    a = action_view(before, action, viewer)
    who = a["player"]
    t = a["type"]
    board = before.board
    lines: list[str] = []
    if t == "godfather_roll":
        lines.append(f"{who} rolls {a['face']} for Godfather.")
    elif t == "vegas_roll":
        lines.append(f"{who}, the Godfather, rolls the Vegas dice: {_dice(a['faces'])}.")
        for p0, p1 in zip(before.players, after.players, strict=True):
            if len(p1.vegas_taken) > len(p0.vegas_taken):
                lines.append(
                    f"  {p1.name} takes {_dice(p1.vegas_taken)} from Vegas; the soldier goes home."
                )
    elif t == "keep_vegas":
        locked = a.get("lock", [])
        lines.append(
            f"{who} decides which Vegas dice to lock"
            + ("." if locked == HIDDEN else f": {_dice(locked) if locked else 'none'}.")
        )
    elif t == "roll":
        if before.phase is Phase.RESOLUTION:
            lines.append(f"{who} rerolls and gets {_dice(a['faces'])}.")
        else:
            lines.append(
                f"{who} rolls" + ("." if a["faces"] == HIDDEN else f": {_dice(a['faces'])}.")
            )
    elif t == "reveal_favor":
        lines.append(
            f"{who} puts a favor in front of the screen"
            + ("." if a["face"] == HIDDEN else f": a {a['face']}.")
        )
    elif t == "take_favor":
        fav = before.players[before.seat(a["target"])].favor
        lines.append(
            f"The Godfather takes {a['target']}'s favor, a {fav}; {a['target']}'s "
            f"soldier goes to Favor spot {fav}."
        )
    elif t == "request":
        target = after.players[after.seat(a["target"])]
        if a["number"] in target.absent[len(before.players[before.seat(a["target"])].absent) :]:
            lines.append(
                f"The Godfather asks {a['target']} for a {a['number']}. "
                f"{a['target']} has none (checked); the soldier goes to spot "
                f"{target.favor}."
            )
        else:
            lines.append(
                f"The Godfather asks {a['target']} for a {a['number']}: an offer "
                "that can't be refused. The die is handed over."
            )
    elif t == "choose_favor_spot":
        lines.append(f"{who} puts a soldier on Favor spot {a['spot']}.")
    elif t == "reroll":
        lines.append(
            f"{who} rerolls " + ("some dice." if a["dice"] == HIDDEN else f"{_dice(a['dice'])}.")
        )
    elif t == "pass":
        lines.append(
            f"{who} keeps the dice." if before.phase is Phase.OFFER else f"{who} ends the turn."
        )
    elif t in ("claim", "muscle_out"):
        n = board.neighborhoods[board.index(a["neighborhood"])]
        if t == "claim":
            lines.append(
                f"{who} claims {n.name} ({n.requirement.describe()}) with {_dice(a['dice'])}."
            )
        else:
            victim = before.name(before.neighborhoods[board.index(n.id)])
            lines.append(
                f"{who} muscles {victim} out of {n.name} with {_dice(a['dice'])}; "
                f"{victim}'s soldier goes to Favor spot {n.district}."
            )
    elif t == "recruit":
        track = board.muscle_track
        lines.append(
            f"{who} recruits muscle with {_dice(a['dice'])}: "
            f"{track.label(before.players[before.seat(who)].muscle)} -> "
            f"{track.label(after.players[after.seat(who)].muscle)}."
        )
    elif t == "bet":
        lines.append(f"{who} bets a {a['die']} on Vegas spot {a['spot']}.")
    elif t == "favor":
        ability = Ability(a.get("ability") or board.ability(a["spot"]))
        detail = {
            Ability.FREE_REROLL: f"rerolling {_dice(a.get('dice', []))}",
            Ability.PLUS_MINUS_ONE: f"{a.get('die')} -> {a.get('to')}",
            Ability.TURN_DIE: f"{a.get('die')} -> {a.get('to')}",
            Ability.EXTRA_DIE: f"an extra {a.get('die')}",
            Ability.MOVE: f"{_name(board, a.get('from'))} -> {_name(board, a.get('to'))}",
        }[ability]
        lines.append(f"{who} uses favor {a['spot']}, {ABILITY_TEXT[ability]}: {detail}.")
    if before.phase is not after.phase or before.round != after.round:
        lines.extend(_phase_change(before, after))
    return lines


def _phase_change(before: State, after: State) -> list[str]:
    out = []
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
