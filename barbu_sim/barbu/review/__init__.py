"""The review of a played Barbu deal: every legal card valued at each decision, and how it is shown.

- :mod:`.estimate`: the one estimator of hints and review (mc's, exact from five tricks left, layouts
  added until a label is settled);
- :mod:`.review`: the values, losses, labels scaled to the contract and accuracy of a deal's decisions;
  :mod:`.text`: the review as text;  :mod:`.step`: ``review --step``, the walk at the terminal;
  :mod:`.page`: ``review --html``, one self-contained web page (its script the data file ``page.js``);
- :mod:`.explain`: ``play --explain``, each mc decision as text;  :mod:`.stability`: how far the
  labels hold across seeds.

May import the core, ``state``, :mod:`..rules`, :mod:`..players`, :mod:`..engine`, ``api``,
:mod:`..position` and :mod:`..formats`.  This face imports nothing (no numba).
"""
