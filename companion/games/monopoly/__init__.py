"""The rules of Monopoly: The Godfather edition, as a pure engine: the companion is the Bank
and the referee of every money rule, and the physical dice move the tokens. :data:`MONOPOLY`
is the game as the platform sees it (``companion.protocol.Game``).

The engine's own face, for tests and tools::

    state = MONOPOLY.new_game(setup, files)   # Setup: players, house rules, data files
    state = apply(state, action)              # or RuleViolation(rule, reason) / MalformedAction
    legal_actions(state, "Maria")             # every choice Maria may make now
    waiting_for(state)                        # who the game waits on (the two dice included)
    player_view(state, "Maria")               # what Maria's phone may show (None: the table)
    score(state)                              # fortunes, places and the winner

No I/O, clock, randomness or global state: the dice and the cards drawn come in as actions.
See docs/monopoly-godfather.md.
"""

from companion.games.monopoly.actions import (
    ACTION_TYPES,
    Accept,
    Action,
    AskRent,
    Bankrupt,
    Bid,
    Build,
    Buy,
    Decline,
    DonCardDealt,
    Draw,
    EndTurn,
    KeepMortgaged,
    Mortgage,
    Offer,
    Pass,
    PayFine,
    PlayDon,
    Propose,
    Reject,
    Roll,
    Sell,
    Setup,
    TakeDeed,
    TryDoubles,
    Unmortgage,
    UseJailCard,
    Withdraw,
    action_from_dict,
)
from companion.games.monopoly.apply import apply
from companion.games.monopoly.data_file import DataError, Problem, check, report
from companion.games.monopoly.game import MONOPOLY
from companion.games.monopoly.legal import legal_actions, waiting_for
from companion.games.monopoly.rules import HouseRules
from companion.games.monopoly.scoring import score
from companion.games.monopoly.state import Phase, State, Step
from companion.games.monopoly.view import action_view, player_view

__all__ = [
    "ACTION_TYPES",
    "MONOPOLY",
    "Accept",
    "Action",
    "AskRent",
    "Bankrupt",
    "Bid",
    "Build",
    "Buy",
    "DataError",
    "Decline",
    "DonCardDealt",
    "Draw",
    "EndTurn",
    "HouseRules",
    "KeepMortgaged",
    "Mortgage",
    "Offer",
    "Pass",
    "PayFine",
    "Phase",
    "PlayDon",
    "Problem",
    "Propose",
    "Reject",
    "Roll",
    "Sell",
    "Setup",
    "State",
    "Step",
    "TakeDeed",
    "TryDoubles",
    "Unmortgage",
    "UseJailCard",
    "Withdraw",
    "action_from_dict",
    "action_view",
    "apply",
    "check",
    "legal_actions",
    "player_view",
    "report",
    "score",
    "waiting_for",
]
