"""The rules of Gangster Dice, one module per part of the rulebook (docs/gangster-dice.md)."""
