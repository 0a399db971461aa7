"""The studies of Clabber a user runs as commands: what one measures with many rounds, as a table.

- :mod:`.compare`: the paired comparison of two card players, one seat of A against B in that
  seat on the same rounds, as makers, as defenders and in total (``barbu-sim clabber compare``).

The top floor of the wing, beside :mod:`..game`: a study may import every room of its wing and
the core (numba included), never another wing.  This face imports nothing (no numba).
"""
