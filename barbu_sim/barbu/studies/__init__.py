"""The studies of Barbu a user runs as commands: what one measures with many deals, as a table.

- :mod:`.compare`: the paired comparison of two players, one seat of A against B in that seat on
  the same deals, per contract and in total (``barbu-sim compare``), and its rows file;
- :mod:`.ladder`: each rung of the strength ladder against the one below it (``barbu-sim ladder``);
- :mod:`.headline`, :mod:`.strong`, :mod:`.presets`, :mod:`.convergence`, :mod:`.domino_rank`,
  :mod:`.doubling`: the studies whose tables and charts are published in ``results/``
  (``barbu-sim study ...``).

The top floor of the wing, beside :mod:`..game`: a study may import every room of its wing and
the core (numba included), never another wing.  This face imports nothing (no numba).
"""
