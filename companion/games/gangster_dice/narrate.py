"""What happened, in words, for one viewer (None: the table screen and the terminal demo).

The action is read through :func:`action_view` and everything it set off from the new state's
``happened``, which holds only public facts; the one private line is a player's own draw ("You
draw a 3"), told to that player alone.
"""

from __future__ import annotations

from collections import Counter

from companion.games.gangster_dice.actions import (
    Action,
    Bid,
    CardsMode,
    ChooseCharacter,
    Load,
    PlaceOnStreets,
    Roll,
    Shuffle,
    Swap,
    TakeOff,
)
from companion.games.gangster_dice.components import Colour, Dice, Token
from companion.games.gangster_dice.state import Happening, Phase, Reveal, State, What
from companion.games.gangster_dice.view import action_view, symbols_text


def narrate(before: State, action: Action, after: State, viewer: str | None = None) -> list[str]:
    """The action's line, then one line for each thing it set off."""
    lines = [_action_line(before, action, after, viewer)]
    drew = [h for h in after.happened if h.what is What.DREW]
    for h in after.happened:
        if h.what is What.REVEALED:
            assert after.reveal is not None
            lines += ["The cards are revealed:", *reveal_lines(after, after.reveal)]
        elif h.what is What.DREW:
            if h is drew[0]:
                lines.append(_draws(before, after, drew, viewer))
        else:
            line = _happening(before, after, h, viewer)
            if line:
                lines.append(line)
    return lines


def _draws(before: State, after: State, drew: list[Happening], viewer: str | None) -> str:
    """One line for the round's draws (and, for a player, the cards they drew)."""
    counts = {after.name(h.seat): h.count for h in drew}
    if len(counts) == len(after.players) and len(set(counts.values())) == 1:
        n = drew[0].count
        line = f"Everyone draws {n} favor card{'s' if n > 1 else ''}."
    else:
        line = "Favor cards drawn: " + ", ".join(f"{k} {v}" for k, v in counts.items()) + "."
    mine = _own_cards(before, after, viewer) if viewer in counts else ""
    return line + (f" You draw {mine}." if mine else "")


def _action_line(before: State, action: Action, after: State, viewer: str | None) -> str:
    who = action.player
    match action:
        case Shuffle():
            if before.phase is Phase.SETUP:
                return f"The favor deck is shuffled ({len(action.order)} cards)."
            return (
                f"The discard pile is shuffled into a new favor deck ({len(action.order)} cards)."
            )
        case ChooseCharacter():
            return f"{who} plays {action.name}."
        case Roll():
            die = before.components.die
            return f"{who} rolls {symbols_text(Counter(die(c).face(n) for c, n in action.dice))}."
        case Bid():
            seen = action_view(before, action, viewer)
            again = before.players[before.seat(who)].bid is not None
            if seen["bids"] == "hidden":
                return f"{who} {'changes their' if again else 'chooses their'} cards."
            bids = " and ".join(f"{b.token.named} with a {b.favor}" for b in action.bids)
            return f"You {'change your bid to' if again else 'bid on'} {bids}."
        case Swap():
            if not action.give:
                return f"{who} keeps their dice (no exchange at the Speakeasy)."
            return (
                f"{who} exchanges {_colours(action.give)} for {_colours(action.take)} "
                "at the Speakeasy."
            )
        case PlaceOnStreets():
            if action.colour is None:
                return f"{who} puts no die on the Streets."
            return (
                f"{who} puts a {action.colour} die on the Streets "
                f"({after.streets.total} there now)."
            )
        case Load():
            if action.colour is None:
                return f"{who} puts no dice on the Investigator."
            n = before.givable(before.seat(who)).count(action.colour)
            return f"{who} puts {_their(n, action.colour.value)} on the Investigator."
        case TakeOff():
            if action.colour is None:
                return f"{who} controls the Lawyer and leaves the dice on the Investigator."
            return f"{who} takes a {action.colour} die off the Investigator."
    raise AssertionError(f"no narration for {action!r}")


def _colours(colours: tuple[Colour, ...]) -> str:
    return Dice.of_colours(colours).describe()


def _their(n: int, colour: str) -> str:
    return f"their {colour} die" if n == 1 else f"their {n} {colour} dice"


def _happening(before: State, after: State, h: Happening, viewer: str | None) -> str | None:
    name = after.name(h.seat)
    token = h.token.named if h.token else ""
    match h.what:
        case What.DEALT:
            if after.cards is CardsMode.PHYSICAL:
                return "Everyone draws their favor cards from the real deck."
            sizes = ", ".join(f"{p.name} {len(p.hand)}" for p in after.players)
            mine = _own_cards(before, after, viewer)
            return f"The favor cards are dealt ({sizes})." + (f" You hold {mine}." if mine else "")
        case What.ROUND:
            return f"Round {h.count}: everyone rolls all the dice in their stash."
        case What.CONTROL:
            return f"{name} takes control of {token}."
        case What.AGAIN:
            effect = {
                Token.LAWYER: "takes a special +4 favor instead of drawing a favor card",
                Token.SPEAKEASY: "may exchange up to three dice with it",
                Token.STREETS: "may put a die from their stash on it",
            }[h.token]  # type: ignore[index]
            return f"{name} already controlled {token} and won it again: {name} {effect}."
        case What.PASSED:
            first = before.controller(Token.INVESTIGATOR) is None
            return (
                f"{name} wins the Investigator: it passes to {after.name(h.other)}, on "
                f"{name}'s left" + ("; no dice go on it this time." if first else ".")
            )
        case What.LOADED:
            holder = after.name(after.controller(Token.INVESTIGATOR))
            return (
                f"{name} puts {_their(h.count, str(h.colour))} on the Investigator "
                f"({holder} has it)."
            )
        case What.NOTHING:
            return f"{name} has no die they may give away: {token} does nothing."
        case What.TOOK:
            return f"{name} takes a {h.colour} die off the Investigator."
        case What.FOUR:
            return f"{name} takes a special +4 favor from the stack (the Lawyer)."
        case What.RESHUFFLE:
            return (
                f"The favor deck has run out: the discard pile ({h.count} cards) is "
                "shuffled into a new one."
            )
        case What.WON:
            return f"{name} has no dice left: {name} wins!"
    return None


def _own_cards(before: State, after: State, viewer: str | None) -> str:
    """The favor cards ``viewer`` gained in this action (their own secret), as words."""
    if viewer is None or after.cards is not CardsMode.COMPANION:
        return ""
    seat = after.seat(viewer)
    played: Counter[int] = Counter()
    if after.reveal is not None and any(h.what is What.REVEALED for h in after.happened):
        played = Counter(b.favor for b in after.reveal.bids if b.seat == seat)
    gained = Counter(after.players[seat].hand) - (Counter(before.players[seat].hand) - played)
    values = sorted(gained.elements())
    if not values:
        return ""
    return (
        ", ".join(f"a {v}" for v in values[:-1])
        + (" and " if len(values) > 1 else "")
        + f"a {values[-1]}"
    )


def reveal_lines(state: State, reveal: Reveal) -> list[str]:
    """Each bid with its score worked out, then who influences each token."""
    lines = []
    for b in reveal.bids:
        symbol = b.token.symbol
        shown = f"{b.symbols} {symbol.value if b.symbols == 1 else symbol.plural}"
        streets = f" + {b.streets} on the Streets" if b.streets else ""
        lines.append(
            f"  {state.players[b.seat].name}: {b.token.named} with a {b.favor}: "
            f"{shown} + {b.favor}{streets} = {b.score}"
        )
    for o in reveal.outcomes:
        title = o.token.heading
        if o.top is None:
            lines.append(f"  {title}: nobody bid.")
        elif o.winner is not None and o.by_streets:
            others = " and ".join(state.players[i].name for i in o.tied if i != o.winner)
            lines.append(
                f"  {title}: {state.players[o.winner].name} ties {others} at {o.top} "
                "and wins: the Streets breaks ties for its controller."
            )
        elif o.winner is not None:
            lines.append(f"  {title}: {state.players[o.winner].name} wins with {o.top}.")
        else:
            tied = " and ".join(state.players[i].name for i in o.tied)
            lines.append(f"  {title}: {tied} tie at {o.top}: nobody influences it.")
    return lines
