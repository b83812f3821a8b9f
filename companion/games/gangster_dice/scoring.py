"""The score: "If at the end of any round you have no dice left in your stash, the game ends and
you are the winner. Multiple players may win simultaneously if they run out of dice on the same
round" (End of Game). Fewer dice is better; a game not over is scored as it stands (the fewest
dice lead). Also a final position typed in by hand (``companion score --game gangster-dice``) and
the plain-text tables for the terminal.
"""

from __future__ import annotations

import tomllib
from typing import Any

from companion.games.gangster_dice.components import COLOURS, Components, Dice, Token
from companion.games.gangster_dice.narrate import reveal_lines
from companion.games.gangster_dice.state import State
from companion.protocol.errors import MalformedAction

EXAMPLE = """\
# Each player's stash at the end of the last round: a number of dice, or dice by colour.
[stash]
Maria = 0
Johnny = { red = 1, blue = 2 }
Claire = 3
"""


def score(state: State) -> dict[str, Any]:
    """``winners`` (no dice left; while the game goes on, whoever has the fewest), ``totals``
    (dice left per player), ``stashes`` (by colour), ``over`` and ``round``."""
    stashes = {p.name: p.stash for p in state.players}
    return _scores(stashes, state.is_over, state.round)


def _scores(stashes: dict[str, Dice], over: bool, round_: int | None) -> dict[str, Any]:
    totals = {name: d.total for name, d in stashes.items()}
    fewest = min(totals.values())
    return {
        "winners": [name for name, n in totals.items() if n == fewest],
        "totals": totals,
        "stashes": {name: d.to_json() for name, d in stashes.items()},
        "over": over,
        "round": round_,
        "fewest_wins": True,
    }


def score_position(text: str, components: Components) -> dict[str, Any]:
    """A final position typed in by hand (TOML, see :data:`EXAMPLE`): the same JSON as
    :func:`score`, or :class:`MalformedAction` saying what to fix."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise MalformedAction(f"not valid TOML: {exc}") from None
    unknown = set(data) - {"stash", "round"}
    if unknown:
        raise MalformedAction(
            f"unknown keys {', '.join(sorted(unknown))}; write a [stash] "
            f"table (and round = N if you like), e.g.\n{EXAMPLE}"
        )
    stash = data.get("stash")
    most = len(components.bid_colours)
    if not isinstance(stash, dict) or not 2 <= len(stash) <= most:
        raise MalformedAction(
            f"write one line per player (2 to {most}) under [stash], e.g.\n{EXAMPLE}"
        )
    round_ = data.get("round")
    if round_ is not None and (not _int(round_) or round_ < 1):
        raise MalformedAction(f"round = {round_!r}: a round number, 1 or more")
    in_play = components.per_colour - components.on_speakeasy  # the Speakeasy keeps its dice
    stashes: dict[str, Dice] = {}
    for name, value in stash.items():
        if _int(value) and value >= 0:
            dice = None
            count = value
        elif (
            isinstance(value, dict)
            and set(value) <= {c.value for c in COLOURS}
            and all(_int(n) and n >= 0 for n in value.values())
        ):
            dice = Dice(**value)
            count = dice.total
        else:
            raise MalformedAction(
                f"[stash] {name} = {value!r}: a number of dice, or "
                "{ white = n, red = n, blue = n }"
            )
        if dice is not None and any(n > in_play for _, n in dice):
            raise MalformedAction(
                f"[stash] {name}: at most {in_play} dice of a colour are off the Speakeasy"
            )
        if count > in_play * len(COLOURS):
            raise MalformedAction(
                f"[stash] {name} = {count}: at most {in_play * len(COLOURS)} "
                "dice are off the Speakeasy"
            )
        stashes[name] = dice if dice is not None else Dice(white=count)
    totals = Dice()
    for d in stashes.values():
        totals = totals + d
    if sum(n for _, n in totals) > in_play * len(COLOURS):
        raise MalformedAction(
            f"the stashes hold {sum(n for _, n in totals)} dice; only "
            f"{in_play * len(COLOURS)} are off the Speakeasy"
        )
    out = _scores(stashes, any(d.total == 0 for d in stashes.values()), round_)
    # A count with no colours says nothing of colours: do not pretend it does.
    out["stashes"] = {name: (v if isinstance(v, dict) else None) for name, v in stash.items()}
    return out


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def score_table(scores: dict[str, Any]) -> str:
    """A score as a plain-text table: dice left, fewest first."""
    totals: dict[str, int] = scores["totals"]
    width = max(len(n) for n in totals)
    lines = ["Dice left in each stash (an empty stash wins):"]
    for name, n in sorted(totals.items(), key=lambda x: x[1]):
        mark = "  winner" if name in scores["winners"] and scores.get("over") else ""
        lines.append(f"  {name:<{width}}  {n:>2}{mark}")
    lines.append(_verdict(scores))
    return "\n".join(lines)


def _verdict(scores: dict[str, Any]) -> str:
    winners = " and ".join(scores["winners"])
    if scores.get("over"):
        return f"Winner{'s' if len(scores['winners']) > 1 else ''}: {winners}"
    return (
        f"The game is not over yet: nobody's stash is empty. Fewest dice: {winners} "
        f"({scores['totals'][scores['winners'][0]]})."
    )


def summary(state: State) -> str:
    """The table as the screen shows it, and the score, as plain text."""
    lines = [f"Round {state.round}" + (", over." if state.is_over else ".")]
    lines.append("Tokens:")
    for t in (Token.LAWYER, Token.SPEAKEASY, Token.STREETS, Token.INVESTIGATOR):
        who = state.name(state.controller(t)) or "nobody"
        dice = {
            Token.SPEAKEASY: state.speakeasy,
            Token.STREETS: state.streets,
            Token.INVESTIGATOR: state.investigator,
        }.get(t)
        on = f"; on it: {dice.describe()}" if dice is not None else ""
        lines.append(f"  {t.heading:<17} {who}{on}")
    lines.append("Stashes:")
    for p in state.players:
        lines.append(f"  {p.name:<12} {p.stash.total:>2} ({p.stash.describe()})")
    if state.reveal is not None:
        lines.append(f"Round {state.reveal.round}'s bids:")
        lines += reveal_lines(state, state.reveal)
    lines.append(score_table(score(state)))
    return "\n".join(lines)
