"""Played deals, one at a time from Python.

- :mod:`.position`: a deal played card by card on the engine's state array, and why a card is
  illegal;
- :mod:`.deal_file`: the played-deal file (read and written);  :mod:`.pbn_play`: a played deal
  from PBN;
- :mod:`.deal_text`: what ``barbu-sim play`` prints;  :mod:`.explain`: what ``play --explain``
  prints;
- :mod:`.review` and :mod:`.review_text`: mc's value of every legal card at each decision;
- :mod:`.table_deal`: one deal at the table, a person against the bots;  :mod:`.table_screen`:
  what the table shows (one card notation, colours);  :mod:`.table_words`: what a person types
  at its prompts;
- :mod:`.training_data`: the ``learned`` player's training rows, from deals played on
  ``Position``.

May import the core, ``state``, :mod:`..rules`, :mod:`..players`, :mod:`..engine` and ``api``;
never ``runs`` or :mod:`..game`.  This face imports nothing (no numba).
"""
