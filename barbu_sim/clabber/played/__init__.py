"""Played Clabber rounds.

- :mod:`.round_text`: a played round as text (no numba);  :mod:`.round_file`: the played-round
  file (read and written);
- :mod:`.review`: the review as text and JSON, and mc's value of every legal card at each decision;
  :mod:`.bid_review`: every option of each bidding call, played out by mc from the caller's view;
  :mod:`.mc_review`: mc's values at one decision of a recorded round.

May import the core, ``state``, :mod:`..rules`, :mod:`..players`, :mod:`..engine` and ``api``;
never ``runs`` or :mod:`..game`.  This face imports nothing (no numba).
"""
