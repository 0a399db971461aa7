"""Barbu's engine: the numba kernels that play deals.

- :mod:`.play_loops`: the play loops (one deal of a trick contract or of Domino) and the
  players' switch;
- :mod:`.deal_kernels`: the entry kernels: one deal with its record, and the one parallel batch
  driver (deal batches and hand evaluation), compiled on first use;
- :mod:`.deals`: dealing 52 cards inside the kernels.

May import the core, ``state``, :mod:`..rules` and :mod:`..players`; never ``api`` or the rooms
above.  This face imports nothing (no numba).
"""
