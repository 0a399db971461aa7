"""Barbu, one wing of the house, in rooms (a room imports only the rooms below it; ``tests/test_layout.py``):

- ``state`` (the state array a strategy reads) and :mod:`rules` (the rules config, point
  values, legal cards and trick winners, the declarer's choices, the rules as text): the ground;
- :mod:`players` (the registry and ids, ``basic``, ``heuristic``, rollouts, exact endgames, ``mc``,
  ``learned`` and its model) and :mod:`analytics` (schema, polars pipelines, report, plots; no numba);
- :mod:`engine`: the numba play loops, their entry kernels, dealing;
- ``api``: the Python face of the engine, and beside it ``position`` (one deal card by card on the
  engine's state array, and the rule an illegal card breaks);
- :mod:`formats` (the played-deal file, PBN, a deal as text) and ``runs`` (batch runs on the shared
  runner);
- :mod:`review` (every legal card valued; text, step by step, the page; explain) and :mod:`game`
  (full 28-hand games, contract choice, doubling, the advisor);
- :mod:`table` (a person against the bots; a real table's score sheet) and :mod:`studies` (the
  comparison of players, the ladder, the published studies);
- :mod:`training`: the learned player's data and fit, expert iteration.

Importing this package, a room's face, or the analytics does not import numba: only the
engine's and the players' modules do.
"""
