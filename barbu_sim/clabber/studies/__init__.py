"""The studies of Clabber a user runs as commands: what one measures with many rounds, as a table.

- :mod:`.compare`: the paired comparison of two card players, one seat of A against B in that
  seat on the same rounds, as makers, as defenders and in total (``barbu-sim clabber compare``),
  and the line-ups played on the same rounds that the ladder is made of.
- :mod:`.ladder`: ``mc`` (or ``learned``) against ``heuristic``, alone at North and with its partner,
  as makers and as defenders (``barbu-sim clabber ladder``; ``results/clabber/ladder*.json``).
- :mod:`.headline`: the headline runs and games, makers by trump count and turned rank, the bidding
  threshold sweep, meld frequencies (``barbu-sim clabber study headline``; ``results/clabber/``).
- :mod:`.strong`: the headline study with a strong card player at every seat, next to ``heuristic``
  (``barbu-sim clabber study strong``; ``results/clabber/strong/``).

The top floor of the wing, beside :mod:`..game`: a study may import every room of its wing and
the core (numba included), never another wing.  This face imports nothing (no numba).
"""
