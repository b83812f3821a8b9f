"""What happened, in words, for the table's log, the phones and the terminal demo.

Narration goes through :func:`action_view` and reads only what the viewer may see of the
states, so it says no more than the viewer may know: the table hears "Maria puts a Bullet card
face-down", Maria's phone "Maria loads a Bang! face-down".
"""

from __future__ import annotations

from typing import Any

from companion.games.cash_n_guns.actions import Action, Bullet, Courage
from companion.games.cash_n_guns.box import LootKind
from companion.games.cash_n_guns.scoring import end_reason, score
from companion.games.cash_n_guns.state import Outcome, Phase, Shot, State
from companion.games.cash_n_guns.view import HIDDEN, action_view


def _list(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def narrate(before: State, action: Action, after: State, viewer: str | None = None) -> list[str]:
    a = action_view(before, action, viewer)
    who = a["player"]
    kind = a["type"]
    lines: list[str] = []
    if kind == "flip":
        cards = [before.box.label(c) for c in a["cards"]]
        lines.append(f"{who} flips {_list(cards)}.")
    elif kind == "load":
        lines.append(
            f"{who} puts a Bullet card face-down."
            if a["card"] == HIDDEN
            else f"{who} loads a {Bullet(a['card']).label} face-down."
        )
    elif kind == "aim":
        lines.append(_aim(before, who, a))
    elif kind == "confirm_aim":
        gun = after.players[after.seat(who)].gun
        target = after.name(gun.target) if gun and gun.target is not None else "nobody"
        lines.append(f"{who} confirms: aiming at {target}.")
    elif kind == "privilege":
        if a["order"] is None:
            lines.append(f"{who}, the Godfather, lets every aim stand.")
        else:
            gun = before.players[before.seat(a["order"])].gun
            had = before.name(gun.target) if gun and gun.target is not None else "nobody"
            lines.append(
                f"{who}, the Godfather, orders {a['order']} to stop aiming at {had} "
                "and choose a different target."
            )
    elif kind == "courage":
        if a["choice"] == HIDDEN:
            lines.append(f"{who} has chosen.")
        else:
            lines.append(
                f"{who} chooses to "
                + ("lie down." if a["choice"] == Courage.LIE_DOWN else "stand and shout Banzai!")
            )
    elif kind == "take":
        lines.append(_take(before, after, who, a["card"]))
    elif kind == "take_token":
        lines.append(f"{who} flips the New Godfather token: the Godfather next turn.")
    elif kind == "discard":
        lines.append(
            f"{who} discards a Bullet card face-down."
            if a["card"] == HIDDEN
            else f"{who} discards a {Bullet(a['card']).label} face-up."
        )
    lines.extend(_steps(before, after))
    return lines


def _aim(before: State, who: str, a: dict[str, Any]) -> str:
    target = a["target"]
    table = a.get("by") == "table"
    if before.phase is Phase.CHANGE_TARGET:
        return (
            f"{'The table records: ' if table else ''}{who} changes target and now aims "
            f"at {target}."
        )
    if target is None:
        said = f"{who} was too slow and holds nobody up."
    else:
        said = f"{who} aims at {target}."
    return f"The table records: {said}" if table else said


def _take(before: State, after: State, who: str, card_id: str) -> str:
    card = before.box.card(card_id)
    assert card is not None
    seat = before.seat(who)
    if card.kind is LootKind.FIRST_AID_KIT:
        wounds = before.players[seat].wounds
        if wounds:
            return f"{who} takes the First aid kit and heals {_wounds(wounds)}."
        return f"{who} takes the First aid kit: no wounds, so it is discarded without effect."
    if card.kind is LootKind.CLIP:
        if len(after.discard) == len(before.discard):
            return f"{who} takes the Clip: no Bang! in the discard pile, the Clip is lost."
        if after.clip == seat:
            return (
                f"{who} takes the Clip and a Bang! from the discard pile, and must discard "
                "another card."
            )
        return (
            f"{who} takes the Clip and a Bang! from the discard pile (no other card left "
            "to discard)."
        )
    return f"{who} takes a {card.label}."


def _wounds(n: int) -> str:
    return f"{n} wound" + ("" if n == 1 else "s")


def _steps(before: State, after: State) -> list[str]:
    """What the table does by itself after a move: the next step, the card effects, the
    next turn, the end."""
    out: list[str] = []
    if after.phase is Phase.BULLETS and before.phase is Phase.LOOT:
        offer = (
            ""
            if not before.table and not before.flipped
            else "The loot on offer: " + _list([after.box.label(c) for c in after.table]) + ". "
        )
        out.append(f"{offer}Everyone chooses a Bullet card.")
    if after.phase is Phase.HOLD_UP and before.phase is Phase.BULLETS:
        out.append("Every Bullet card is down. The Godfather counts to three: hold someone up!")
    if after.phase is Phase.COURAGE and before.phase is not Phase.COURAGE:
        out.append("The Godfather counts to three again: lie down, or stand and shout Banzai!")
    if before.phase is Phase.COURAGE and after.phase is not Phase.COURAGE:
        out.extend(_effects(before, after))
    if after.phase is Phase.SHARING and before.phase is not Phase.SHARING:
        assert after.sharer is not None
        out.append(f"Loot sharing: {after.name(after.sharer)} takes the first share.")
    if after.turn != before.turn:
        out.append(
            f"Turn {after.turn} of {after.box.turns}: "
            f"{after.name(after.godfather)} is the Godfather."
        )
    if after.is_over:
        out.append(f"Game over: {end_reason(after)}.")
        winners = score(after).winners
        out.append("Winner: " + (_list(list(winners)) if winners else "nobody") + ".")
    return out


def _effects(before: State, after: State) -> list[str]:
    """5. and 6.: the choices shown at once, every card's effect, wounds and deaths."""
    name = after.name
    brave = [name(s.shooter) for s in after.shots if s.stood]
    down = [name(s.shooter) for s in after.shots if not s.stood]
    out = [
        "Banzai!: "
        + (_list(brave) or "nobody")
        + ". Lying down: "
        + (_list(down) or "nobody")
        + "."
    ]
    out.extend(_shot(after, s) for s in after.shots)
    hit = set()
    for s in before.alive:
        b, p = before.players[s], after.players[s]
        if p.wounds > b.wounds:
            hit.add(s)
            out.append(
                f"{p.name} takes {_wounds(p.wounds - b.wounds)} ({p.wounds} in all)"
                + (": dead, out of the game." if p.dead else " and lies down.")
            )
    if not after.is_over and not any(s.stood and s.shooter not in hit for s in after.shots):
        left = "stays on the table" if after.rules.unshared_loot == "stays" else "is discarded"
        out.append(f"Nobody is standing: the loot {left}.")
    return out


def _shot(state: State, shot: Shot) -> str:
    who = state.name(shot.shooter)
    target = state.name(shot.target) if shot.target is not None else "nobody"
    if shot.outcome is Outcome.FIRED:
        if shot.card is Bullet.BANG:
            return f"{who} reveals a Bang!: {target} is hit."
        return f"{who} reveals a Click at {target}: nothing happens."
    why = {
        Outcome.LAY_DOWN: f"{who} lay down",
        Outcome.TARGET_DOWN: f"{who}'s target {target} lay down (you don't shoot cowards)",
        Outcome.NO_TARGET: f"{who} held nobody up",
    }[shot.outcome]
    return f"{why}: {who}'s card is discarded face-down."
