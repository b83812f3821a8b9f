"""The game protocol: what every game implements and all the platform knows of one.

Games import only this package and the standard library; the table service, the web, the dice
layer and the command line reach a game only through :class:`Game`. See docs/architecture.md.
"""

from companion.protocol.errors import MalformedAction, RuleViolation
from companion.protocol.game import (
    OWN,
    PIPS,
    Action,
    Choice,
    DiceRequest,
    DiceSet,
    Files,
    Game,
    Setup,
    Waiting,
    option_list,
)
from companion.protocol.options import OptionInfo, option, options_from_dict, options_to_dict
from companion.protocol.seats import COLOURS, Seat, parse_seats

__all__ = [
    "COLOURS",
    "OWN",
    "PIPS",
    "Action",
    "Choice",
    "DiceRequest",
    "DiceSet",
    "Files",
    "Game",
    "MalformedAction",
    "OptionInfo",
    "RuleViolation",
    "Seat",
    "Setup",
    "Waiting",
    "option",
    "option_list",
    "options_from_dict",
    "options_to_dict",
    "parse_seats",
]
