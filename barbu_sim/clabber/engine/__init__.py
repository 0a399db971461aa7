"""Clabber's engine: the numba kernels that play rounds and games.

- :mod:`.play_loops`: the six tricks of a round and its score, shared by every kernel;
- :mod:`.round_kernels`: bidding, a whole round, the parallel batch of rounds;
  :mod:`.game_kernels`: games to 500;
- :mod:`.deals`: dealing the 24 cards;  :mod:`.mc_bidding`: the ``mc`` bidding policy (it plays
  rounds out);  :mod:`.evaluation`: a hand's options valued before bidding;  :mod:`.bid_values`:
  every option of one call played out (the review of the bidding).

May import the core, ``state``, :mod:`..rules` and :mod:`..players`; never ``api`` or the rooms
above.  This face imports nothing (no numba).
"""
