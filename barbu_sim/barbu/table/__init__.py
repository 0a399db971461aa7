"""A person at the table: against the bots (``barbu-sim table``) or keeping a real table's score (``sheet``).

- :mod:`.deal`: one deal at the table, the person's input, the bots, hint and undo;
  :mod:`.screen`: what the table shows (one card notation, colours);  :mod:`.words`: what a person
  types at its prompts;
- :mod:`.session`: a deal, a block or a game against the bots; saving and resuming a session;
- :mod:`.sheet`: a real table's hands checked, settled and saved as ``hands.parquet``.

May import every room of the wing below it (the review for hints, :mod:`..game` for blocks and
games) and the core.  This face imports nothing (no numba).
"""
