"""5. Courage and 6. Card effects.

Courage is chosen secretly and shown at once ("The Godfather counts to three again"): nobody's
choice is seen until every living player has chosen, and the moment the last choice is in, the
cards take effect, all at the same time ("two players pointing at each other can wound each
other"), and the loot sharing (7.) begins.
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.cash_n_guns.actions import Bullet, Courage, CourageChoice
from companion.games.cash_n_guns.common import COURAGE, require_phase
from companion.games.cash_n_guns.sharing import start_sharing
from companion.games.cash_n_guns.state import Discarded, Outcome, Phase, Shot, State
from companion.protocol.errors import RuleViolation


def courage(state: State, seat: int, action: CourageChoice) -> State:
    require_phase(state, COURAGE, "lying down or shouting Banzai", Phase.COURAGE)
    if state.players[seat].courage is not None:
        raise RuleViolation(COURAGE, f"{state.name(seat)} has already chosen")
    state = state.with_player(seat, replace(state.players[seat], courage=action.choice))
    if any(state.players[s].courage is None for s in state.alive):
        return state
    state = card_effects(state)
    if len(state.alive) <= 1:
        # "At any point in the game, if there's only one player left alive, that player
        # automatically wins the game." (No one alive: nobody can claim victory.)
        return replace(state, phase=Phase.OVER, last_alive=True)
    return start_sharing(state)


def outcome(state: State, seat: int) -> Outcome:
    """What becomes of ``seat``'s Bullet card: "A player who lays down their Character
    discards their Bullet card face-down"; "If your target has decided to lie down, you must
    discard your Bullet card face-down"; a player too slow to aim holds nobody up."""
    p = state.players[seat]
    target = p.gun.target if p.gun is not None else None
    if p.courage is Courage.LIE_DOWN:
        return Outcome.LAY_DOWN
    if target is None:
        return Outcome.NO_TARGET
    if state.players[target].courage is Courage.LIE_DOWN:
        return Outcome.TARGET_DOWN
    return Outcome.FIRED


def card_effects(state: State) -> State:
    """6. Every card at once: a Click does nothing; a Bang! wounds its target, who lies down
    and takes no share; a player with 3 or more wounds dies. Cards not revealed are
    discarded face-down."""
    living = state.alive
    hits = dict.fromkeys(living, 0)
    shots: list[Shot] = []
    discards: list[Discarded] = []
    for s in living:
        p = state.players[s]
        assert p.loaded is not None and p.courage is not None
        result = outcome(state, s)
        fired = result is Outcome.FIRED
        target = p.gun.target if p.gun is not None else None
        shots.append(
            Shot(s, p.courage is Courage.BANZAI, target, result, p.loaded if fired else None)
        )
        discards.append(Discarded(s, p.loaded, face_up=fired))
        if fired and p.loaded is Bullet.BANG and target is not None:
            hits[target] += 1
    for s in living:
        p = state.players[s]
        wounds = p.wounds + hits[s]
        state = state.with_player(
            s,
            replace(
                p,
                loaded=None,
                wounds=wounds,
                dead=wounds >= state.box.deadly_wounds,
                down=p.courage is Courage.LIE_DOWN or hits[s] > 0,
            ),
        )
    return replace(
        state, shots=tuple(shots), shots_turn=state.turn, discard=state.discard + tuple(discards)
    )
