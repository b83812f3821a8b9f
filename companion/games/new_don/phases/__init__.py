"""The rules of each phase: one module per phase of the round, in the rulebook's order."""
