"""Clabber, the 24-card partnership game: the same rooms as Barbu, the same names where the job is the same.

- ``state`` and :mod:`rules` (cards, orders, points, options; the rules of play; melds): the ground;
- :mod:`players` (the registry, ``heuristic``, rollouts, ``mc`` card play, the bidding policies)
  and :mod:`analytics` (schema, analysis, report, plots; no numba);
- :mod:`engine`: the play loop, the round and game kernels, dealing, Monte Carlo bidding,
  hand evaluation;
- ``api``: the Python face of the engine;
- :mod:`formats` (a played round as text, the played-round file) and ``runs``;
- :mod:`review` (card play and bidding valued) and :mod:`game` (full games to 500, the advisor);
- :mod:`studies` (the comparison of players, the ladder, the published studies);
- :mod:`training`: the learned player's data and fit.

Importing this package, a room's face, or the analytics does not import numba.
"""
