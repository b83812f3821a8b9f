"""What one person may see: the single filter between the engine and the world.

Monopoly is played in the open: cash, deeds, buildings, mortgages, cards held, bids and
proposed deals are on the table for all. The one secret is a player's "Don" card until they
play it: its holder sees it, nobody else does (the table screen included). A deal being drafted
lives on its phone until proposed, so the engine never holds it.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from companion.games.monopoly.actions import Action, DonCardDealt
from companion.games.monopoly.buildings import shortage
from companion.games.monopoly.deals import can_propose
from companion.games.monopoly.flow import hold
from companion.games.monopoly.legal import waiting_for
from companion.games.monopoly.money import liquidation_value
from companion.games.monopoly.mortgages import repay_cost
from companion.games.monopoly.rent import rent_due
from companion.games.monopoly.sales import lot_name
from companion.games.monopoly.scoring import fortune_of, score
from companion.games.monopoly.state import COMPOUND, HIDEOUT, Phase, State
from companion.protocol.options import options_to_dict

HIDDEN = "hidden"


def _don(state: State, seat: int, viewer: int | None) -> dict[str, Any]:
    p = state.players[seat]
    out: dict[str, Any] = {"dealt": p.don is not None, "played": p.don_played}
    if p.don is not None and (p.don_played or seat == viewer):
        card = state.edition.don(p.don)
        assert card is not None
        out.update(card=card.id, name=card.name, text=card.text)
    return out


def _player(state: State, seat: int, viewer: int | None) -> dict[str, Any]:
    p = state.players[seat]
    tradeable = [
        i
        for i in state.owned_by(seat)  # a group's buildings are sold first
        if not any(state.holding(j).buildings for j in state.board.set_of(i))
    ]
    return {
        "name": p.name,
        "colour": p.colour,
        "cash": p.cash,
        "position": p.position,
        "space": state.space_name(p.position),
        "in_jail": p.in_jail,
        "jail_rolls": p.jail_rolls,
        "jail_cards": list(p.jail_cards),
        "bankrupt": p.bankrupt,
        "deeds": list(state.owned_by(seat)),
        "tradeable": tradeable,
        "worth": fortune_of(state, seat).total,
        "can_raise": liquidation_value(state, seat) if not p.bankrupt else 0,
        "may_deal": can_propose(state, seat),
        "don": _don(state, seat, viewer),
    }


def _spaces(state: State) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for i, h in enumerate(state.holdings):
        if h is None:
            continue
        entry: dict[str, Any] = {
            "owner": state.name(h.owner) if h.owner is not None else None,
            "mortgaged": h.mortgaged,
            "hideouts": h.hideouts,
            "compound": h.compound,
        }
        if h.owner is not None:
            entry["rent"] = rent_due(state, i, state.dice or (0, 0))
            if h.mortgaged:
                entry["repay"] = repay_cost(state, i)
        out[str(i)] = entry
    return out


def _auction(state: State) -> dict[str, Any] | None:
    a = state.auction
    if a is None:
        return None
    return {
        "lot": a.lot,
        "lot_name": lot_name(state, a.lot),
        "high_bid": a.high_bid,
        "high_bidder": state.name(a.high_bidder) if a.high_bidder is not None else None,
        "turn": state.name(a.turn),
        "bidders": [state.name(s) for s in a.order],
        "out": [state.name(s) for s in a.out],
        "min_bid": max(1, a.high_bid + 1),
        "max_bid": state.players[a.turn].cash,
    }


def _deal(state: State) -> dict[str, Any] | None:
    d = state.deal
    if d is None:
        return None
    return {
        "proposer": state.name(d.proposer),
        "partner": state.name(d.partner),
        "give": d.give.to_dict(),
        "take": d.take.to_dict(),
    }


def player_view(state: State, viewer: str | None) -> dict[str, Any]:
    """The game as ``viewer`` may see it (None: the table screen), as plain JSON."""
    me = state.seat(viewer) if viewer is not None else None
    bank = state.board.bank
    view: dict[str, Any] = {
        "viewer": viewer,
        "phase": state.phase.value,
        "step": state.step.value if state.phase is Phase.PLAY else None,
        "hold": h.value if (h := hold(state)) is not None else None,
        "round": state.round,
        "moves": state.moves,
        "turn": state.name(state.turn) if state.phase is Phase.PLAY else None,
        "players": [_player(state, i, me) for i in range(len(state.players))],
        "spaces": _spaces(state),
        "bank": {
            "hideouts": state.hideouts_left(),
            "compounds": state.compounds_left(),
            "hideouts_per_compound": state.hideouts_per_compound,
            "shortage": {
                b: [state.name(s) for s in short]
                for b in (HIDEOUT, COMPOUND)
                if state.phase is Phase.PLAY and (short := shortage(state, b))
            },
            "salary": bank.salary,
            "jail_fine": bank.jail_fine,
        },
        "dice": list(state.dice),
        "doubles": state.doubles,
        "events": [
            {
                "kind": e.kind.value,
                "text": e.text,
                "player": e.player,
                "amount": e.amount,
                "space": e.space,
            }
            for e in state.events
        ],
        "drawing": state.drawing.value if state.drawing is not None else None,
        "auction": _auction(state),
        "lots": [state.space_name(s) for s in state.lots],
        "debts": [
            {
                "debtor": state.name(d.debtor),
                "creditor": state.name(d.creditor) if d.creditor is not None else None,
                "amount": d.amount,
                "reason": d.reason,
            }
            for d in state.debts
        ],
        "deal": _deal(state),
        "fees": [
            {
                "player": state.name(s),
                "space": sp,
                "repay": repay_cost(state, sp),
                "interest": repay_cost(state, sp) - state.board.spaces[sp].mortgage,
            }
            for s, sp in state.fees
        ],
        "placing": (
            {"player": state.name(state.placing[0]), "building": state.placing[1]}
            if state.placing
            else None
        ),
        "claims": [
            {
                "owner": state.name(c.owner),
                "payer": state.name(c.payer),
                "space": c.space,
                "amount": c.amount,
            }
            for c in state.claims
        ],
        "rolloff": {state.name(s): t for s, t in state.rolloff},
        "waiting": [
            {"player": w.player, "does": w.does, **({"dice": w.dice.count} if w.dice else {})}
            for w in waiting_for(state)
        ],
        "options": options_to_dict(state.rules),
        "end": state.end,
    }
    if state.phase is Phase.OVER:
        view["scores"] = score(state)
    return view


def action_view(before: State, action: Action, viewer: str | None) -> dict[str, Any]:
    """An action as ``viewer`` may see it: a Don card dealt is its holder's secret."""
    data = action.to_dict()
    if isinstance(action, DonCardDealt) and viewer != action.player:
        data["card"] = HIDDEN
    return data


def scramble(state: State, viewer: str | None, rng: random.Random) -> State:
    """``state`` with every Don card ``viewer`` may not see dealt anew (the tests check the
    viewer's view does not change)."""
    me = state.seat(viewer) if viewer is not None else None
    ids = [d.id for d in state.edition.dons]
    players = tuple(
        replace(p, don=rng.choice(ids)) if p.don is not None and not p.don_played and i != me else p
        for i, p in enumerate(state.players)
    )
    return replace(state, players=players)
