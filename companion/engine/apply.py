"""``apply(state, action)``: the only way a game moves on.

Every check happens before anything changes, and a refused action raises instead of returning,
so a rejected action leaves the caller's state exactly as it was. Rejections name the rulebook
section (the rulebook's own numbering: "Offer B.a", "Resolution B.ii.d") and the facts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace

from companion.engine.actions import (
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
    Setup,
    TakeFavor,
    UseFavor,
    VegasRoll,
)
from companion.engine.board import ABILITY_TEXT, Ability, Board
from companion.engine.dice import Die, take
from companion.engine.errors import MalformedAction, RuleViolation
from companion.engine.state import OfferStep, Phase, PlayerState, State

PHASE_RULE = {
    Phase.SETUP: "Setup",
    Phase.VEGAS: "Vegas",
    Phase.ROLL: "Roll",
    Phase.OFFER: "Offer",
    Phase.RESOLUTION: "Resolution",
    Phase.GAME_OVER: "Game End",
}


def new_game(setup: Setup, board: Board) -> State:
    """The table before the first die is rolled (Setup)."""
    n = len(setup.seats)
    if not 3 <= n <= 6:
        raise RuleViolation("Setup", f"A New Don is played by 3 to 6 players, not {n}")
    low, high = board.players
    if not low <= n <= high:
        raise RuleViolation(
            "Setup",
            f"the board {board.name!r} is the side for {low}-{high} players, and {n} are playing",
        )
    players = tuple(
        PlayerState(
            name=s.name,
            colour=s.colour,
            house=board.soldiers_per_player - 1,  # one soldier starts in the Zero Zone
            muscle=board.muscle_track.ZERO_ZONE,
            favor_tokens=(0,) * len(board.favor_track),
        )
        for s in setup.seats
    )
    return State(
        board=board,
        rules=setup.options,
        players=players,
        phase=Phase.SETUP,
        round=1,
        godfather=None,
        neighborhoods=(None,) * len(board.neighborhoods),
        vegas=(None,) * len(board.vegas_spots),
        rolloff=tuple((i, None) for i in range(n)),
    )


def apply(state: State, action: Action) -> State:
    """The state after ``action``, or :class:`RuleViolation` / :class:`MalformedAction`."""
    if not isinstance(action, Action):
        raise MalformedAction(f"not an action: {action!r}")
    seat = state.seat(action.player)
    if state.phase is Phase.GAME_OVER:
        raise RuleViolation("Game End", "the game is over: nothing more can be played")
    handler = _HANDLERS[type(action)]
    return replace(handler(state, seat, action), moves=state.moves + 1)


# --- small helpers -------------------------------------------------------------------------


def _phase(state: State, phase: Phase, what: str) -> None:
    if state.phase is not phase:
        raise RuleViolation(
            PHASE_RULE[phase],
            f"it is the {state.phase.value.replace('_', ' ')} phase: {what} only in the "
            f"{phase.value} phase",
        )


def _face(value: int, what: str) -> None:
    if not 1 <= value <= 6:
        raise MalformedAction(f"{what} must be a die face 1-6, not {value}")


def _dice_text(values: tuple[int, ...] | list[int]) -> str:
    return "-".join(str(v) for v in sorted(values)) if values else "no dice"


def _pool_text(p: PlayerState) -> str:
    return _dice_text([d.face for d in p.dice])


def _spend(state: State, seat: int, values: tuple[int, ...], for_sets: bool, rule: str) -> State:
    p = state.players[seat]
    if not values:
        raise RuleViolation(rule, "name the dice to spend")
    rest = take(p.dice, values, for_sets)
    if rest is None:
        restricted = take(p.dice, values, True) is not None
        if restricted:
            raise RuleViolation(
                "Appendix: Free Reroll",
                f"{p.name}'s dice {_dice_text(values)} include dice rerolled by the Free Reroll "
                "favor, which can only be used to make sets",
            )
        raise RuleViolation(
            rule, f"{p.name} does not have {_dice_text(values)}; the dice left are {_pool_text(p)}"
        )
    return state.with_player(seat, dice=rest)


def _place_on_favor(state: State, seat: int, spot: int) -> State:
    """A soldier from the House to a Favor spot; an empty House follows the house rule."""
    p = state.players[seat]
    i = state.board.favor_spots.index(spot)
    tokens = p.favor_tokens[:i] + (p.favor_tokens[i] + 1,) + p.favor_tokens[i + 1 :]
    if p.house > 0:
        return state.with_player(seat, house=p.house - 1, favor_tokens=tokens)
    if state.rules.empty_house == "from_vegas" and seat in state.vegas:
        j = state.vegas.index(seat)
        vegas = state.vegas[:j] + (None,) + state.vegas[j + 1 :]
        return replace(state.with_player(seat, favor_tokens=tokens), vegas=vegas)
    return state  # nothing to place: the favor is lost (house rule "empty_house")


def _need_soldier(state: State, seat: int, rule: str) -> None:
    p = state.players[seat]
    if p.house == 0:
        raise RuleViolation(rule, f"{p.name}'s House is empty: there is no soldier to place")


# --- Setup ---------------------------------------------------------------------------------


def _godfather_roll(state: State, seat: int, a: GodfatherRoll) -> State:
    _phase(state, Phase.SETUP, "rolling for the first Godfather happens")
    _face(a.face, "face")
    faces = dict(state.rolloff)
    if seat not in faces:
        leaders = ", ".join(state.name(s) for s in faces)
        raise RuleViolation("Setup", f"only {leaders} roll again: they tied for the highest roll")
    if faces[seat] is not None:
        raise RuleViolation("Setup", f"{state.name(seat)} has already rolled {faces[seat]}")
    faces[seat] = a.face
    if any(f is None for f in faces.values()):
        return replace(state, rolloff=tuple(faces.items()))
    best = max(f for f in faces.values() if f is not None)
    tied = [s for s, f in faces.items() if f == best]
    if len(tied) > 1:
        return replace(state, rolloff=tuple((s, None) for s in tied))
    godfather = tied[0]
    state = replace(state, rolloff=(), godfather=godfather)
    for s in range(len(state.players)):
        if s != godfather:
            state = _place_on_favor(state, s, 6)
    return _start_roll_phase(state)


# --- Vegas ---------------------------------------------------------------------------------


def _vegas_roll(state: State, seat: int, a: VegasRoll) -> State:
    _phase(state, Phase.VEGAS, "the red dice are rolled")
    if seat != state.godfather:
        raise RuleViolation(
            "Vegas",
            f"the Godfather, {state.name(state.godfather)}, rolls the Vegas dice",
        )
    if state.vegas_faces:
        raise RuleViolation(
            "Vegas", f"the Vegas dice were already rolled: {_dice_text(state.vegas_faces)}"
        )
    if len(a.faces) != state.board.vegas_dice:
        raise MalformedAction(
            f"the Vegas roll has {state.board.vegas_dice} dice, not {len(a.faces)}"
        )
    state = replace(state, vegas_faces=tuple(a.faces))
    vegas = list(state.vegas)
    for i, (number, owner) in enumerate(zip(state.board.vegas_spots, state.vegas, strict=True)):
        won = tuple(f for f in a.faces if f == number)
        if owner is None or not won:
            continue
        p = state.players[owner]
        state = state.with_player(
            owner, vegas_taken=p.vegas_taken + won, vegas_pending=True, house=p.house + 1
        )
        vegas[i] = None
    state = replace(state, vegas=tuple(vegas))
    if not any(p.vegas_pending for p in state.players):
        return _start_roll_phase(state)
    return state


def _keep_vegas(state: State, seat: int, a: KeepVegas) -> State:
    _phase(state, Phase.VEGAS, "Vegas dice are locked")
    p = state.players[seat]
    if not p.vegas_pending:
        if not state.vegas_faces:
            raise RuleViolation("Vegas", "the Godfather has not rolled the Vegas dice yet")
        raise RuleViolation("Vegas", f"{p.name} has no Vegas dice waiting to be kept or rolled")
    if Counter(a.lock) - Counter(p.vegas_taken):
        raise RuleViolation(
            "Vegas", f"{p.name} took {_dice_text(p.vegas_taken)} from Vegas and can lock only those"
        )
    state = state.with_player(
        seat,
        locked=tuple(sorted(a.lock)),
        vegas_pending=False,
        dice=p.dice + tuple(Die(f) for f in sorted(a.lock)),
    )
    if not any(q.vegas_pending for q in state.players):
        return _start_roll_phase(state)
    return state


# --- Roll ----------------------------------------------------------------------------------


def _start_roll_phase(state: State) -> State:
    players = tuple(
        replace(
            p,
            to_roll=state.board.dice_per_player + len(p.vegas_taken) - len(p.locked),
            to_roll_sets_only=False,
        )
        for p in state.players
    )
    return replace(state, players=players, phase=Phase.ROLL)


def _roll(state: State, seat: int, a: Roll) -> State:
    p = state.players[seat]
    if p.to_roll == 0:
        what = {
            Phase.ROLL: f"{p.name} has already rolled this round",
            Phase.OFFER: f"{p.name} has no dice to reroll now",
            Phase.RESOLUTION: f"{p.name} has no dice to reroll now",
        }.get(state.phase, f"no dice are rolled in the {state.phase.value} phase")
        raise RuleViolation(PHASE_RULE[state.phase], what)
    if len(a.faces) != p.to_roll:
        raise RuleViolation(
            PHASE_RULE[state.phase], f"{p.name} rolls {p.to_roll} dice, not {len(a.faces)}"
        )
    new_dice = tuple(Die(f, sets_only=p.to_roll_sets_only) for f in a.faces)
    state = state.with_player(
        seat,
        dice=p.dice + new_dice,
        to_roll=0,
        to_roll_sets_only=False,
        rolled=p.rolled or state.phase is Phase.ROLL,
    )
    if state.phase is Phase.ROLL:
        return _maybe_start_offers(state)
    if state.phase is Phase.OFFER:
        return _next_offer(state)
    return state  # a Free Reroll favor during Resolution: the turn goes on


def _reveal_favor(state: State, seat: int, a: RevealFavor) -> State:
    _phase(state, Phase.ROLL, "favors are revealed")
    _face(a.face, "face")
    p = state.players[seat]
    if seat == state.godfather:
        raise RuleViolation("Roll", f"{p.name} is the Godfather and reveals no favor")
    if not p.rolled:
        raise RuleViolation("Roll", f"{p.name} reveals a favor after rolling")
    if p.favor is not None:
        raise RuleViolation("Roll", f"{p.name} has already revealed a {p.favor}")
    if take(p.dice, (a.face,), True) is None:
        raise RuleViolation(
            "Roll", f"{p.name} has no {a.face} to reveal; the dice show {_pool_text(p)}"
        )
    return _maybe_start_offers(state.with_player(seat, favor=a.face))


def _maybe_start_offers(state: State) -> State:
    waiting = any(
        not p.rolled or (i != state.godfather and p.favor is None)
        for i, p in enumerate(state.players)
    )
    if waiting:
        return state
    first = state.left_of(state.godfather)
    return replace(state, phase=Phase.OFFER, offer_target=first, offer_step=OfferStep.GODFATHER)


# --- Offer ---------------------------------------------------------------------------------


def _offer_target(state: State, seat: int, target_name: str, rule: str) -> int:
    _phase(state, Phase.OFFER, "the Godfather makes offers")
    if seat != state.godfather:
        raise RuleViolation(
            rule, f"only the Godfather, {state.name(state.godfather)}, makes offers"
        )
    target = state.seat(target_name)
    if state.offer_step is not OfferStep.GODFATHER:
        raise RuleViolation(
            rule,
            f"the offer to {state.name(state.offer_target)} is settled; "
            f"{state.name(state.offer_target)} decides first",
        )
    if target != state.offer_target:
        raise RuleViolation(
            "Offer",
            "offers go clockwise from the Godfather's left: it is "
            f"{state.name(state.offer_target)}'s turn, not {target_name}'s",
        )
    return target


def _hand_over(state: State, giver: int, face: int) -> State:
    g = state.godfather
    assert g is not None
    rest = take(state.players[giver].dice, (face,), True)
    assert rest is not None
    state = state.with_player(giver, dice=rest, gave=face)
    gp = state.players[g]
    return state.with_player(g, dice=gp.dice + (Die(face),), collected=gp.collected + (face,))


def _take_favor(state: State, seat: int, a: TakeFavor) -> State:
    target = _offer_target(state, seat, a.target, "Offer A")
    favor = state.players[target].favor
    assert favor is not None
    state = _hand_over(state, target, favor)
    state = _place_on_favor(state, target, favor)
    return replace(state, offer_step=OfferStep.REROLL)


def _request(state: State, seat: int, a: Request) -> State:
    target = _offer_target(state, seat, a.target, "Offer B")
    _face(a.number, "number")
    t = state.players[target]
    if a.number == t.favor and state.rules.request_revealed_number == "forbidden":
        raise RuleViolation(
            "Offer B",
            f"{t.name} revealed a {t.favor}: to have it, take the favor (house rule "
            "request_revealed_number = forbidden)",
        )
    if take(t.dice, (a.number,), True) is None:
        # Offer B.b: proof of absence; the engine knows the dice, so it is checked, not trusted.
        state = state.with_player(target, absent=t.absent + (a.number,))
        state = _place_on_favor(state, target, t.favor)
        return replace(state, offer_step=OfferStep.REROLL, offer_number=a.number)
    state = _hand_over(state, target, a.number)
    if a.number == t.favor:
        state = _place_on_favor(state, target, a.number)
        return replace(state, offer_step=OfferStep.REROLL, offer_number=a.number)
    return replace(state, offer_step=OfferStep.SPOT, offer_number=a.number)


def _choose_favor_spot(state: State, seat: int, a: ChooseFavorSpot) -> State:
    _phase(state, Phase.OFFER, "Favor spots are chosen")
    if state.offer_step is not OfferStep.SPOT or seat != state.offer_target:
        raise RuleViolation("Offer B.a", f"{state.name(seat)} has no Favor spot to choose now")
    t = state.players[seat]
    options = (state.offer_number, t.favor)
    if a.spot not in options:
        raise RuleViolation(
            "Offer B.a",
            f"{t.name} gave a {state.offer_number} after revealing a {t.favor}: the soldier goes "
            f"on spot {state.offer_number} or {t.favor}, not {a.spot}",
        )
    state = _place_on_favor(state, seat, a.spot)
    return replace(state, offer_step=OfferStep.REROLL)


def _reroll(state: State, seat: int, a: Reroll) -> State:
    _phase(state, Phase.OFFER, "the free reroll happens")
    if seat == state.godfather:
        raise RuleViolation("Offer", "the Godfather does not receive a free reroll")
    if state.offer_step is not OfferStep.REROLL or seat != state.offer_target:
        raise RuleViolation("Offer", f"{state.name(seat)} rerolls right after their own offer")
    if state.players[seat].to_roll:
        raise RuleViolation("Offer", f"{state.name(seat)} is rerolling: roll the dice first")
    state = _spend(state, seat, a.dice, True, "Offer")
    return state.with_player(seat, to_roll=len(a.dice), to_roll_sets_only=False)


def _next_offer(state: State) -> State:
    nxt = state.left_of(state.offer_target)
    if nxt == state.godfather:
        return replace(
            state,
            phase=Phase.RESOLUTION,
            offer_target=None,
            offer_step=None,
            offer_number=None,
            turn=state.godfather,
        )
    return replace(state, offer_target=nxt, offer_step=OfferStep.GODFATHER, offer_number=None)


def _pass(state: State, seat: int, a: Pass) -> State:
    if state.phase is Phase.OFFER:
        if state.offer_step is not OfferStep.REROLL or seat != state.offer_target:
            raise RuleViolation("Offer", f"{state.name(seat)} has nothing to pass on now")
        if state.players[seat].to_roll:
            raise RuleViolation("Offer", f"{state.name(seat)} is rerolling: roll the dice first")
        return _next_offer(state)
    _phase(state, Phase.RESOLUTION, "a turn is passed")
    _my_turn(state, seat, "Resolution A")
    return _end_turn(state)


# --- Resolution ----------------------------------------------------------------------------


def _my_turn(state: State, seat: int, rule: str) -> PlayerState:
    if state.turn != seat:
        raise RuleViolation(
            rule,
            f"it is {state.name(state.turn)}'s turn to resolve, not {state.name(seat)}'s",
        )
    p = state.players[seat]
    if p.to_roll:
        raise RuleViolation(
            "Appendix: Free Reroll",
            f"{p.name} must first roll the {p.to_roll} dice of the Free Reroll",
        )
    return p


def _not_godfather(state: State, seat: int, rule: str, what: str) -> None:
    if seat == state.godfather:
        raise RuleViolation(
            rule, f"{state.name(seat)} is the Godfather, who can only claim and muscle out: {what}"
        )


def _neighborhood(state: State, nid: str) -> int:
    if not state.board.has(nid):
        raise MalformedAction(f"there is no neighborhood {nid!r} on this board")
    return state.board.index(nid)


def _matches(state: State, index: int, dice: tuple[int, ...]) -> bool:
    return state.board.neighborhoods[index].requirement.matches(dice, state.rules.straights_wrap)


def _claim(state: State, seat: int, a: Claim) -> State:
    _phase(state, Phase.RESOLUTION, "neighborhoods are claimed")
    p = _my_turn(state, seat, "Resolution A")
    i = _neighborhood(state, a.neighborhood)
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
    if not _matches(state, i, a.dice):
        raise RuleViolation(
            "Resolution B.i",
            f"{n.name} needs {n.requirement.describe()}; {_dice_text(a.dice)} is not that set",
        )
    _need_soldier(state, seat, "Resolution B.i")
    state = _spend(state, seat, a.dice, True, "Resolution B")
    q = state.players[seat]
    state = state.with_player(seat, house=q.house - 1)
    return replace(state, neighborhoods=_set(state.neighborhoods, i, seat))


def _set(t: tuple, i: int, value: object) -> tuple:
    return t[:i] + (value,) + t[i + 1 :]


def empty_matches(state: State, dice: tuple[int, ...]) -> list[str]:
    """Empty neighborhoods that ``dice`` could claim: while any exist, no muscling out."""
    return [
        n.id
        for i, n in enumerate(state.board.neighborhoods)
        if state.neighborhoods[i] is None and _matches(state, i, dice)
    ]


def _muscle_out(state: State, seat: int, a: MuscleOut) -> State:
    _phase(state, Phase.RESOLUTION, "opponents are muscled out")
    p = _my_turn(state, seat, "Resolution A")
    i = _neighborhood(state, a.neighborhood)
    n = state.board.neighborhoods[i]
    holder = state.neighborhoods[i]
    if holder is None:
        raise RuleViolation(
            "Resolution B.ii", f"{n.name} is empty: claim it instead (Resolution B.i)"
        )
    if holder == seat:
        raise RuleViolation("Resolution B.ii", f"{p.name} already holds {n.name}")
    if not _matches(state, i, a.dice):
        raise RuleViolation(
            "Resolution B.ii",
            f"{n.name} needs {n.requirement.describe()}; {_dice_text(a.dice)} is not that set",
        )
    open_ones = empty_matches(state, a.dice)
    if open_ones:
        raise RuleViolation(
            "Resolution B.ii",
            f"{', '.join(open_ones)} {'is' if len(open_ones) == 1 else 'are'} empty and "
            f"take{'s' if len(open_ones) == 1 else ''} {_dice_text(a.dice)}: a player muscles "
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
    _need_soldier(state, seat, "Resolution B.ii")
    state = _spend(state, seat, a.dice, True, "Resolution B")
    q = state.players[seat]
    state = state.with_player(seat, house=q.house - 1)
    state = replace(state, neighborhoods=_set(state.neighborhoods, i, seat))
    # The displaced soldier goes to the Favor ability of its district's number (B.ii.c).
    hp = state.players[holder]
    spot = state.board.favor_spots.index(n.district)
    tokens = _set(hp.favor_tokens, spot, hp.favor_tokens[spot] + 1)
    return state.with_player(holder, favor_tokens=tokens)


def _leftover_check(state: State, seat: int, dice: tuple[int, ...], rule: str) -> None:
    if state.rules.leftover_dice != "unusable_only":
        return
    from companion.engine.legal import set_actions  # late: legal imports this module

    usable = {v for act in set_actions(state, seat) for v in act.dice}
    used = sorted(usable & set(dice))
    if used:
        raise RuleViolation(
            rule,
            f"{_dice_text(used)} can still claim or muscle into a neighborhood: only "
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


def _recruit(state: State, seat: int, a: Recruit) -> State:
    _phase(state, Phase.RESOLUTION, "muscle is recruited")
    _my_turn(state, seat, "Resolution A")
    _not_godfather(state, seat, "Resolution C", "recruiting is not for the Godfather")
    _leftover_check(state, seat, a.dice, "Resolution C")
    state = _spend(state, seat, a.dice, False, "Resolution C.i")
    return state.with_player(seat, muscle=recruit_landing(state, seat, sum(a.dice)))


def _bet(state: State, seat: int, a: Bet) -> State:
    _phase(state, Phase.RESOLUTION, "bets are made")
    _my_turn(state, seat, "Resolution A")
    _not_godfather(state, seat, "Resolution C", "betting is not for the Godfather")
    _face(a.die, "die")
    spots = [i for i, n in enumerate(state.board.vegas_spots) if n == a.spot]
    if not spots:
        raise MalformedAction(
            f"there is no Vegas spot {a.spot}; spots: {list(state.board.vegas_spots)}"
        )
    free = [i for i in spots if state.vegas[i] is None]
    if not free:
        raise RuleViolation(
            "Resolution C.ii",
            f"Vegas spot {a.spot} is taken by {state.name(state.vegas[spots[0]])}",
        )
    _need_soldier(state, seat, "Resolution C.ii")
    _leftover_check(state, seat, (a.die,), "Resolution C")
    state = _spend(state, seat, (a.die,), False, "Resolution C.ii")
    p = state.players[seat]
    state = state.with_player(seat, house=p.house - 1)
    return replace(state, vegas=_set(state.vegas, free[0], seat))


def _use_favor(state: State, seat: int, a: UseFavor) -> State:
    _phase(state, Phase.RESOLUTION, "favors are used")
    p = _my_turn(state, seat, "Resolution D")
    if seat == state.godfather:
        raise RuleViolation("Resolution A", f"{p.name} is the Godfather, who cannot use favors")
    if a.spot not in state.board.favor_spots:
        raise MalformedAction(f"there is no Favor spot {a.spot}")
    if state.favor_count(seat, a.spot) == 0:
        raise RuleViolation(
            "Resolution D.i", f"{p.name} has no soldier on Favor spot {a.spot} to use"
        )
    printed = state.board.ability(a.spot)
    if printed is Ability.ANY:
        try:
            ability = Ability(a.ability)
        except ValueError:
            raise MalformedAction(
                f"spot {a.spot} performs any action: say which with ability = one of "
                + ", ".join(x.value for x in Ability if x is not Ability.ANY)
            ) from None
        if ability is Ability.ANY:
            raise MalformedAction("choose a concrete ability for the 'any' spot")
    else:
        if a.ability is not None and a.ability != printed.value:
            raise RuleViolation(
                "Resolution D", f"Favor spot {a.spot} is {ABILITY_TEXT[printed]}, not {a.ability}"
            )
        ability = printed
    state = _FAVOR_EFFECTS[ability](state, seat, a)
    # The soldier goes home: Resolution D.i.
    q = state.players[seat]
    spot = state.board.favor_spots.index(a.spot)
    return state.with_player(
        seat, house=q.house + 1, favor_tokens=_set(q.favor_tokens, spot, q.favor_tokens[spot] - 1)
    )


def _args(a: UseFavor, allowed: set[str], ability: Ability) -> None:
    values = (("dice", a.dice or None), ("die", a.die), ("to", a.to), ("from", a.from_))
    given = {k for k, v in values if v is not None}
    extra = given - allowed
    missing = allowed - given
    if extra or missing:
        raise MalformedAction(
            f"{ABILITY_TEXT[ability]} takes {', '.join(sorted(allowed))}"
            + (f"; not {', '.join(sorted(extra))}" if extra else "")
        )


def _favor_reroll(state: State, seat: int, a: UseFavor) -> State:
    _args(a, {"dice"}, Ability.FREE_REROLL)
    state = _spend(state, seat, a.dice, True, "Appendix: Free Reroll")
    return state.with_player(seat, to_roll=len(a.dice), to_roll_sets_only=True)


def _change_die(state: State, seat: int, a: UseFavor, ability: Ability) -> State:
    _args(a, {"die", "to"}, ability)
    rule = f"Appendix: {ABILITY_TEXT[ability]}"
    if not isinstance(a.to, int) or isinstance(a.to, bool):
        raise MalformedAction(f"{ABILITY_TEXT[ability]}: to must be a die face")
    _face(a.die, "die")
    _face(a.to, "to")
    if ability is Ability.PLUS_MINUS_ONE and abs(a.to - a.die) != 1:
        options = " or ".join(str(v) for v in (a.die - 1, a.die + 1) if 1 <= v <= 6)
        raise RuleViolation(
            rule, f"+/-1 turns a {a.die} into {options} (1 is low, 6 is high), not {a.to}"
        )
    if a.to == a.die:
        raise RuleViolation(rule, f"the die already shows {a.die}")
    p = state.players[seat]
    # The changed die keeps its restriction, if it had one.
    old = sorted((d for d in p.dice if d.face == a.die), key=lambda d: (not d.sets_only,))
    if not old:
        raise RuleViolation(rule, f"{p.name} has no {a.die}; the dice left are {_pool_text(p)}")
    dice = list(p.dice)
    dice.remove(old[0])
    dice.append(replace(old[0], face=a.to))
    return state.with_player(seat, dice=tuple(dice))


def _favor_extra(state: State, seat: int, a: UseFavor) -> State:
    _args(a, {"die"}, Ability.EXTRA_DIE)
    _face(a.die, "die")
    p = state.players[seat]
    same = [d for d in p.dice if d.face == a.die]
    if not same:
        raise RuleViolation(
            "Appendix: Treat 1 die as 2 dice",
            f"the extra die must match one of {p.name}'s dice; they show {_pool_text(p)}",
        )
    extra = Die(a.die, sets_only=all(d.sets_only for d in same), imaginary=True)
    return state.with_player(seat, dice=p.dice + (extra,))


def _favor_move(state: State, seat: int, a: UseFavor) -> State:
    _args(a, {"from", "to"}, Ability.MOVE)
    rule = "Appendix: Move to an empty adjacent neighborhood"
    if not isinstance(a.to, str):
        raise MalformedAction("the Move favor takes from and to as neighborhood ids")
    i, j = _neighborhood(state, a.from_), _neighborhood(state, a.to)
    board = state.board
    if state.neighborhoods[i] != seat:
        raise RuleViolation(
            rule, f"{state.name(seat)} has no soldier on {board.neighborhoods[i].name}"
        )
    if not board.adjacent(a.from_, a.to):
        near = ", ".join(board.neighbours(a.from_)) or "none"
        raise RuleViolation(
            rule,
            f"{board.neighborhoods[j].name} is not next to {board.neighborhoods[i].name} "
            f"(its neighbours: {near})",
        )
    if state.neighborhoods[j] is not None:
        raise RuleViolation(rule, f"{board.neighborhoods[j].name} is not empty")
    hoods = _set(_set(state.neighborhoods, i, None), j, seat)
    return replace(state, neighborhoods=hoods)


_FAVOR_EFFECTS: dict[Ability, Callable[[State, int, UseFavor], State]] = {
    Ability.FREE_REROLL: _favor_reroll,
    Ability.PLUS_MINUS_ONE: lambda s, i, a: _change_die(s, i, a, Ability.PLUS_MINUS_ONE),
    Ability.TURN_DIE: lambda s, i, a: _change_die(s, i, a, Ability.TURN_DIE),
    Ability.EXTRA_DIE: _favor_extra,
    Ability.MOVE: _favor_move,
}


# --- Clean up ------------------------------------------------------------------------------


def _end_turn(state: State) -> State:
    nxt = state.left_of(state.turn)
    if nxt != state.godfather:
        return replace(state, turn=nxt)
    return clean_up(state)


def clean_up(state: State) -> State:
    """Clean up: reorganize muscle, appoint the Godfather, refresh dice, check the game end."""
    track = state.board.muscle_track
    on_track = sorted(
        (i for i, p in enumerate(state.players) if p.muscle != track.ZERO_ZONE),
        key=lambda i: state.players[i].muscle,
    )
    muscle = [p.muscle for p in state.players]
    for rank, i in enumerate(on_track):
        muscle[i] = rank + 1  # slide left, keeping order: A, B, C...
    if on_track:
        godfather = on_track[-1]
        muscle[godfather] = track.godfather_position  # the red 3
    elif state.rules.empty_track_godfather == "seat_left":
        godfather = state.left_of(state.godfather)
    else:
        godfather = state.godfather
    players = tuple(
        replace(
            p,
            muscle=muscle[i],
            dice=(),
            to_roll=0,
            to_roll_sets_only=False,
            rolled=False,
            favor=None,
            vegas_taken=(),
            locked=(),
            vegas_pending=False,
            collected=(),
            absent=(),
            gave=None,
        )
        for i, p in enumerate(state.players)
    )
    state = replace(
        state,
        players=players,
        godfather=godfather,
        turn=None,
        vegas_faces=(),
    )
    if game_end_reason(state):
        return replace(state, phase=Phase.GAME_OVER)
    state = replace(state, round=state.round + 1)
    if any(s is not None for s in state.vegas):
        return replace(state, phase=Phase.VEGAS)
    return _start_roll_phase(state)  # nobody bet on Vegas: nothing to roll for


def game_end_reason(state: State) -> str | None:
    """Why the game ends at this round's end, or None (Game End)."""
    board = state.board
    for d in board.districts:
        idx = board.in_district(d.face)
        if idx and all(state.neighborhoods[i] is not None for i in idx):
            return f"{d.name} is full"
    for p in state.players:
        if p.house == 0:
            return f"{p.name}'s House is empty"
    return None


_HANDLERS: dict[type[Action], Callable[[State, int, Action], State]] = {
    GodfatherRoll: _godfather_roll,
    VegasRoll: _vegas_roll,
    KeepVegas: _keep_vegas,
    Roll: _roll,
    RevealFavor: _reveal_favor,
    TakeFavor: _take_favor,
    Request: _request,
    ChooseFavorSpot: _choose_favor_spot,
    Reroll: _reroll,
    Pass: _pass,
    Claim: _claim,
    MuscleOut: _muscle_out,
    Recruit: _recruit,
    Bet: _bet,
    UseFavor: _use_favor,
}
