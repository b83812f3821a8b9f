"""Hideouts and Compounds (Don't Wait for Your Turn 3 and 4).

- Build on a location only with its whole colour group, none of it mortgaged, and evenly: one
  Hideout on each before a second on any. At most four Hideouts (three in Speed Play), then a
  Compound for the listed price, the Hideouts going back to the Bank.
- The Bank has 32 Hideouts and 12 Compounds. With none left, nobody can build; with fewer left
  than players who could build (a shortage), the Banker auctions them: asking to build opens
  the bidding at the listed price, and the others may outbid.
- Sell back to the Bank at half price, evenly; a Compound is sold for half and exchanged for
  the Hideouts it replaced (when the Bank has them; any it has not are sold at half too).
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.monopoly.actions import Build, Sell
from companion.games.monopoly.board import Kind
from companion.games.monopoly.flow import Hold, hold, may_manage
from companion.games.monopoly.sales import open_auction
from companion.games.monopoly.sections import Rule
from companion.games.monopoly.state import HIDEOUT, EventKind, State
from companion.protocol.errors import RuleViolation


def _location(state: State, seat: int, space: int, rule: str) -> str:
    name = state.space_name(space)
    if state.board.spaces[space].kind is not Kind.LOCATION:
        raise RuleViolation(
            rule, f"{name} is not a location: only locations take Hideouts and Compounds"
        )
    owner = state.holding(space).owner
    if owner != seat:
        raise RuleViolation(
            rule,
            f"{name} is not {state.name(seat)}'s"
            + (f" but {state.name(owner)}'s" if owner is not None else ""),
        )
    return name


def left(state: State, building: str) -> int:
    return state.hideouts_left() if building == HIDEOUT else state.compounds_left()


def why_not_build(state: State, seat: int, space: int) -> str | None:
    """Why ``seat`` may not put the next building on ``space`` (ignoring cash and a shortage),
    or None if they may."""
    s = state.board.spaces[space]
    if s.kind is not Kind.LOCATION or state.holding(space).owner != seat:
        return "not theirs to build on"
    group = state.board.set_of(space)
    if not state.owns_set(seat, space):
        group_name = state.board.group(s.group or "").name
        return f"{state.name(seat)} does not own all of the {group_name} group"
    mortgaged = [i for i in group if state.holding(i).mortgaged]
    if mortgaged:
        return (
            f"{state.space_name(mortgaged[0])} in its group is mortgaged: nothing is built in "
            "a group with a mortgage"
        )
    building = state.next_building(space)
    if building is None:
        return f"{s.name} has a Compound: nothing more can be built there"
    level = state.level(space)
    lowest = min(group, key=state.level)
    if state.level(lowest) < level:
        return (
            f"build evenly: {state.space_name(lowest)} has {state.level(lowest)} and "
            f"{s.name} {level}; build there first"
        )
    if left(state, building) == 0:
        return f"the Bank has no {building.capitalize()}s left: wait until someone sells one"
    return None


def able_to_build(state: State, building: str) -> tuple[int, ...]:
    """The players who could put a ``building`` somewhere now (cash aside)."""
    return tuple(
        seat
        for seat in state.active
        if any(
            state.next_building(i) == building and why_not_build(state, seat, i) is None
            for i in state.owned_by(seat)
            if state.board.spaces[i].kind is Kind.LOCATION
        )
    )


def shortage(state: State, building: str) -> tuple[int, ...]:
    """The players able to build when the Bank has fewer ``building``s than them (and at
    least two want them), else ()."""
    if left(state, building) >= len(state.active):
        return ()  # enough for everyone who could possibly want one
    able = able_to_build(state, building)
    return able if len(able) >= 2 and left(state, building) < len(able) else ()


def build(state: State, seat: int, action: Build) -> State:
    """Buy the next building for a location (or place the one won at a shortage auction)."""
    placing = hold(state) is Hold.PLACING and state.placing is not None and state.placing[0] == seat
    if not placing:
        may_manage(state, seat, Rule.BUILD, "building")
    name = _location(state, seat, action.space, Rule.BUILD)
    why = why_not_build(state, seat, action.space)
    if why is not None:
        raise RuleViolation(Rule.BUILD, why)
    building = state.next_building(action.space)
    assert building is not None
    cost = state.board.spaces[action.space].building_cost
    if placing:
        assert state.placing is not None
        if building != state.placing[1]:
            raise RuleViolation(
                Rule.SHORTAGE,
                f"{state.name(seat)} won a {state.placing[1]}, and {name} takes a {building} next",
            )
        state = replace(state.add_building(action.space), placing=None)
        return state.log(
            EventKind.BUILD,
            f"{state.name(seat)} puts the {building} won at auction on {name}.",
            seat,
            space=action.space,
        )
    cash = state.players[seat].cash
    if cash < cost:
        raise RuleViolation(
            Rule.BUILD, f"a {building} on {name} costs ${cost} and {state.name(seat)} has ${cash}"
        )
    bidders = shortage(state, building)
    if bidders:
        n = left(state, building)
        state = state.log(
            EventKind.AUCTION,
            f"{building.capitalize()} shortage: the Bank has "
            f"{n} and {len(bidders)} players can build. {state.name(seat)} bids "
            f"the listed ${cost} for one on {name}; the others may bid more.",
            seat,
            cost,
            action.space,
        )
        return open_auction(
            state,
            building,
            state.left_of(seat),
            bidders,
            opening=cost,
            opener=seat,
            requested=action.space,
        )
    state = state.pay(seat, cost).add_building(action.space)
    return state.log(
        EventKind.BUILD,
        f"{state.name(seat)} builds a {building} on {name} for ${cost}.",
        seat,
        cost,
        action.space,
    )


def why_not_sell(state: State, seat: int, space: int) -> str | None:
    if state.board.spaces[space].kind is not Kind.LOCATION or state.holding(space).owner != seat:
        return "not theirs"
    if not state.holding(space).buildings:
        return f"{state.space_name(space)} has no building to sell"
    group = state.board.set_of(space)
    highest = max(group, key=state.level)
    if state.level(highest) > state.level(space):
        return f"sell evenly: {state.space_name(highest)} has more buildings; sell there first"
    return None


def sell(state: State, seat: int, action: Sell) -> State:
    """Sell a location's top building back to the Bank at half its price."""
    may_manage(state, seat, Rule.SELL, "selling buildings", raising=True)
    name = _location(state, seat, action.space, Rule.SELL)
    why = why_not_sell(state, seat, action.space)
    if why is not None:
        raise RuleViolation(Rule.SELL, why)
    half = state.board.spaces[action.space].building_cost // 2
    h = state.holding(action.space)
    who = state.name(seat)
    if not h.compound:
        state = state.pay(seat, -half).with_holding(action.space, hideouts=h.hideouts - 1)
        return state.log(
            EventKind.BUILD,
            f"{who} sells a Hideout on {name} for ${half}.",
            seat,
            half,
            action.space,
        )
    wanted = state.hideouts_per_compound
    back = min(wanted, state.hideouts_left())
    paid = half * (1 + wanted - back)
    state = state.pay(seat, -paid).with_holding(action.space, compound=False, hideouts=back)
    extra = (
        f"; the Bank has only {back} Hideouts, the other {wanted - back} are sold too"
        if back < wanted
        else ""
    )
    return state.log(
        EventKind.BUILD,
        f"{who} sells the Compound on {name} for ${paid}: it is "
        f"exchanged for {back} Hideouts{extra}.",
        seat,
        paid,
        action.space,
    )
