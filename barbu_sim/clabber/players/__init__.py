"""Clabber's players: how a seat plays its card and how it bids.

- :mod:`.registry`: the built-in play strategies by name, user plugins;
- :mod:`.heuristic`: the rule-based player;  :mod:`.rollout`: a round finished from any position;
- :mod:`.mc`: Monte-Carlo card play;
- :mod:`.bidding`: the bidding policies (Monte Carlo bidding plays rounds out, so it lives in
  :mod:`..engine`).

May import the core, ``state`` and :mod:`..rules`; never the engine or the rooms above.  This face
imports nothing (no numba).
"""
