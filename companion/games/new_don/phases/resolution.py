"""Resolution: claims, muscling out, recruiting and bets, Godfather first, clockwise."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from companion.games.new_don.actions import Bet, Claim, MuscleOut, Recruit
from companion.games.new_don.phases.common import (
    check_face,
    dice_text,
    need_soldier,
    replace_at,
    require_phase,
    spend,
)
from companion.games.new_don.state import Phase, PlayerState, State
from companion.protocol.errors import MalformedAction, RuleViolation


def my_turn(state: State, seat: int, rule: str) -> PlayerState:
    if state.turn != seat:
        raise RuleViolation(
            rule,
            f"it is {state.name(state.turn_seat)}'s turn to resolve, not {state.name(seat)}'s",
        )
    p = state.players[seat]
    if p.to_roll:
        raise RuleViolation(
            "Appendix: Free Reroll",
            f"{p.name} must first roll the {p.to_roll} dice of the Free Reroll",
        )
    return p


def not_godfather(state: State, seat: int, rule: str, what: str) -> None:
    if seat == state.godfather:
        raise RuleViolation(
            rule, f"{state.name(seat)} is the Godfather, who can only claim and muscle out: {what}"
        )


def neighborhood_index(state: State, nid: str) -> int:
    if not state.board.has(nid):
        raise MalformedAction(f"there is no neighborhood {nid!r} on this board")
    return state.board.index(nid)


def matches(state: State, index: int, dice: tuple[int, ...]) -> bool:
    return state.board.neighborhoods[index].requirement.matches(dice, state.rules.straights_wrap)


def check_set(state: State, index: int, dice: tuple[int, ...], rule: str) -> None:
    """Sets match "the set's value and size" exactly (Resolution B.i)."""
    if not matches(state, index, dice):
        n = state.board.neighborhoods[index]
        raise RuleViolation(
            rule, f"{n.name} needs {n.requirement.describe()}; {dice_text(dice)} is not that set"
        )


def place_soldier(state: State, seat: int, index: int, dice: tuple[int, ...], rule: str) -> State:
    """Spend the set and put a soldier from the House on the neighborhood."""
    need_soldier(state, seat, rule)
    state = spend(state, seat, dice, True, "Resolution B")
    state = state.with_player(seat, house=state.players[seat].house - 1)
    return replace(state, neighborhoods=replace_at(state.neighborhoods, index, seat))


def claim(state: State, seat: int, a: Claim) -> State:
    require_phase(state, Phase.RESOLUTION, "neighborhoods are claimed")
    p = my_turn(state, seat, "Resolution A")
    i = neighborhood_index(state, a.neighborhood)
    n = state.board.neighborhoods[i]
    holder = state.neighborhoods[i]
    if holder is not None:
        if holder == seat:
            raise RuleViolation("Resolution B.i", f"{p.name} already holds {n.name}")
        raise RuleViolation(
            "Resolution B.i",
            f"{n.name} is held by {state.name(holder)}: only empty neighborhoods are claimed; "
            "taking it means muscling out (Resolution B.ii)",
        )
    check_set(state, i, a.dice, "Resolution B.i")
    return place_soldier(state, seat, i, a.dice, "Resolution B.i")


def empty_matches(state: State, dice: tuple[int, ...]) -> list[str]:
    """Empty neighborhoods that ``dice`` could claim: while any exist, no muscling out."""
    return [
        n.id
        for i, n in enumerate(state.board.neighborhoods)
        if state.neighborhoods[i] is None and matches(state, i, dice)
    ]


def muscle_out(state: State, seat: int, a: MuscleOut) -> State:
    require_phase(state, Phase.RESOLUTION, "opponents are muscled out")
    p = my_turn(state, seat, "Resolution A")
    i = neighborhood_index(state, a.neighborhood)
    n = state.board.neighborhoods[i]
    holder = state.neighborhoods[i]
    if holder is None:
        raise RuleViolation(
            "Resolution B.ii", f"{n.name} is empty: claim it instead (Resolution B.i)"
        )
    if holder == seat:
        raise RuleViolation("Resolution B.ii", f"{p.name} already holds {n.name}")
    check_set(state, i, a.dice, "Resolution B.ii")
    open_ones = empty_matches(state, a.dice)
    if open_ones:
        raise RuleViolation(
            "Resolution B.ii",
            f"{', '.join(open_ones)} {'is' if len(open_ones) == 1 else 'are'} empty and "
            f"take{'s' if len(open_ones) == 1 else ''} {dice_text(a.dice)}: a player muscles "
            "out only when no empty neighborhood matches the set",
        )
    track = state.board.muscle_track
    h = state.players[holder]
    if p.muscle == track.ZERO_ZONE:
        raise RuleViolation(
            "Resolution B.ii.d",
            f"{p.name} is in the Zero Zone: a player there cannot muscle anyone out",
        )
    if p.muscle <= h.muscle:
        raise RuleViolation(
            "Resolution B.ii",
            f"{p.name} is on {track.label(p.muscle)} and {h.name} on {track.label(h.muscle)}: only "
            "a player higher on the Muscle track can muscle someone out",
        )
    state = place_soldier(state, seat, i, a.dice, "Resolution B.ii")
    # The displaced soldier goes to the Favor ability of its district's number (B.ii.c).
    hp = state.players[holder]
    spot = state.board.favor_spots.index(n.district)
    tokens = replace_at(hp.favor_tokens, spot, hp.favor_tokens[spot] + 1)
    return state.with_player(holder, favor_tokens=tokens)


def set_actions(state: State, seat: int) -> list[Claim | MuscleOut]:
    """Every claim and muscle-out the player's dice allow (Resolution B)."""
    p = state.players[seat]
    if p.house == 0 or not p.dice:
        return []
    have = Counter(d.face for d in p.dice)  # any die may make a set, restricted or not
    wrap = state.rules.straights_wrap
    track = state.board.muscle_track
    out: list[Claim | MuscleOut] = []
    for i, n in enumerate(state.board.neighborhoods):
        holder = state.neighborhoods[i]
        if holder == seat:
            continue
        if holder is not None and (
            p.muscle == track.ZERO_ZONE or p.muscle <= state.players[holder].muscle
        ):
            continue
        for dice in n.requirement.sets(wrap):
            if any(have[v] < k for v, k in Counter(dice).items()):
                continue
            if holder is None:
                out.append(Claim(p.name, n.id, dice))
            elif not empty_matches(state, dice):
                out.append(MuscleOut(p.name, n.id, dice))
    return out


def leftover_check(state: State, seat: int, dice: tuple[int, ...], rule: str) -> None:
    if state.rules.leftover_dice != "unusable_only":
        return
    usable = {v for act in set_actions(state, seat) for v in act.dice}
    used = sorted(usable & set(dice))
    if used:
        raise RuleViolation(
            rule,
            f"{dice_text(used)} can still claim or muscle into a neighborhood: only "
            "leftover dice recruit or bet (house rule leftover_dice = unusable_only)",
        )


def recruit_landing(state: State, seat: int, total: int) -> int:
    """Where a token lands after recruiting ``total`` (Resolution C.i)."""
    track = state.board.muscle_track
    p = state.players[seat]
    start = track.value(p.muscle)  # the Zero Zone and letters count as zero: move from 1
    target = track.number(min(track.top, start + total))
    taken = {q.muscle for i, q in enumerate(state.players) if i != seat}
    while target in taken and target > p.muscle:
        target -= 1  # the next empty space to the left
    return max(target, p.muscle)


def recruit(state: State, seat: int, a: Recruit) -> State:
    require_phase(state, Phase.RESOLUTION, "muscle is recruited")
    my_turn(state, seat, "Resolution A")
    not_godfather(state, seat, "Resolution C", "recruiting is not for the Godfather")
    leftover_check(state, seat, a.dice, "Resolution C")
    state = spend(state, seat, a.dice, False, "Resolution C.i")
    return state.with_player(seat, muscle=recruit_landing(state, seat, sum(a.dice)))


def bet(state: State, seat: int, a: Bet) -> State:
    require_phase(state, Phase.RESOLUTION, "bets are made")
    my_turn(state, seat, "Resolution A")
    not_godfather(state, seat, "Resolution C", "betting is not for the Godfather")
    check_face(a.die, "die")
    spots = [i for i, n in enumerate(state.board.vegas_spots) if n == a.spot]
    if not spots:
        raise MalformedAction(
            f"there is no Vegas spot {a.spot}; spots: {list(state.board.vegas_spots)}"
        )
    free = [i for i in spots if state.vegas[i] is None]
    if not free:
        holder = state.vegas[spots[0]]
        assert holder is not None  # no spot with that number is free
        raise RuleViolation(
            "Resolution C.ii", f"Vegas spot {a.spot} is taken by {state.name(holder)}"
        )
    need_soldier(state, seat, "Resolution C.ii")
    leftover_check(state, seat, (a.die,), "Resolution C")
    state = spend(state, seat, (a.die,), False, "Resolution C.ii")
    p = state.players[seat]
    state = state.with_player(seat, house=p.house - 1)
    return replace(state, vegas=replace_at(state.vegas, free[0], seat))
