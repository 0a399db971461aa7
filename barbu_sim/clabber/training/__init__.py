"""Training Clabber's ``learned`` player, as ``barbu-sim clabber train`` runs it.

- :mod:`.training_data`: the training rows, mc's estimate of every legal card along played rounds
  (a chunk of rounds a pure function of its arguments: here or as Ray tasks, the same bytes);
- :mod:`.player`: the data folder (chunks and their ``config.json``), the fit and the model file.

The top floor of the wing: training may import the studies, every room below them and the core
(numba included), never another wing.  This face imports nothing (no numba).
"""
