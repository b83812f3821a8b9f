"""The club: many tables, one PostgreSQL, every game backed up off the Pi.

- :mod:`companion.club.wire`: what travels between a table and the club (an event as JSON, a
  batch's limits, the refusals), the one definition both sides use.
- :mod:`companion.club.sync`: the table's side. It follows the table service from outside
  (``subscribe``) and pushes each durable event to the club, offline first.
- :mod:`companion.club.client`: the HTTP client the sync and restore speak through.
- :mod:`companion.club.restore`: a table's games brought back from the club into a data folder.
- :mod:`companion.club.store`: the club's side: the event logs of every table in PostgreSQL,
  pushes idempotent by (table, game, seq), and what the public pages may show of each game.
- :mod:`companion.club.league`: standings, ratings and the BG Stats export, from finished games.
- :mod:`companion.club.localpg`: a PostgreSQL cluster of one's own in a folder (initdb,
  pg_ctl), for a club night on a laptop, the tests and the benchmark.

The table service knows nothing of any of this: the club is an outer layer that reads the
service's log, never a part of it (``docs/club.md``).
"""
