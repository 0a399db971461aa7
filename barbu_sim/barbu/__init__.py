"""Barbu, one wing of the house, in rooms (a room imports only the rooms below it; ``tests/test_layout.py``):

- ``state`` (the state array a strategy reads) and :mod:`rules` (the rules config, point
  values, legal cards and trick winners, the declarer's choices, the rules as text): the ground;
- :mod:`players` (the registry and ids, ``basic``, ``heuristic``, rollouts, exact endgames, ``mc``,
  ``learned`` and its model) and :mod:`analytics` (schema, polars pipelines, report, plots; no numba);
- :mod:`engine`: the numba play loops, their entry kernels, dealing;
- ``api``: the Python face of the engine;
- :mod:`played` (one deal card by card, played-deal files, PBN, explain, review, a deal at the
  table, training data) and ``runs`` (batch runs on the shared runner);
- :mod:`game`: full 28-hand games.

Importing this package, a room's face, or the analytics does not import numba: only the
engine's and the players' modules do.
"""
