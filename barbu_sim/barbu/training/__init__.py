"""Training Barbu's ``learned`` player, as ``barbu-sim train ...`` runs it.

- :mod:`.training_data`: the training rows, mc's estimate of every legal card along played deals
  (a chunk of deals a pure function of its arguments: here or as Ray tasks, the same bytes);
- :mod:`.player`: the data folder (chunks and their ``config.json``), the fit per contract and the
  model file (``barbu-sim train player``);
- :mod:`.iterate`: expert iteration, rounds of data taught by ``mc:rollout=learned`` on the last
  model, each new model measured head to head against the last (``barbu-sim train iterate`` and
  ``barbu-sim train compare``);
- :mod:`.temperatures`: the temperatures of mc's policy inference, fitted by maximum likelihood
  on played deals (``barbu-sim train temperatures``).

The top floor of the wing: training may import the studies, every room below them and the core
(numba included), never another wing.  This face imports nothing (no numba).
"""
