"""Barbu's players: how a seat chooses its card.

- :mod:`.registry`: the built-ins by name, user plugins, seat specs;  :mod:`.ids`: the small-int
  ids the kernels switch on;
- :mod:`.basic` and :mod:`.heuristic`: the rule-based players;
- :mod:`.trick_step`: a card played (into a trick, onto the Domino table) as the state array records
  it, the one step the engine's play loops, the rollouts and ``Position`` share;
- :mod:`.rollout`: a deal finished from any position by a built-in player;  :mod:`.endgame`:
  exact search of the last tricks with every hand known;
- :mod:`.mc`: the Monte-Carlo player (``mc``, ``pimc``);
- :mod:`.features`, :mod:`.learned` and ``models/``: the ``learned`` player and its weights.

May import the core, ``state`` and :mod:`..rules`; never the engine, ``api`` or the rooms
above.  This face imports nothing (no numba).
"""
