"""Table companion for The Godfather: A New Don.

The rules engine lives in :mod:`companion.games.new_don`; everything else (storage, table service,
dice sources, command line) is built around it and imports it, never the other way round.
"""
