"""The review of a played Clabber round: every legal card and every bidding option valued.

- :mod:`.review`: the review as text and JSON, and mc's value of every legal card at each decision;
- :mod:`.bidding`: every option of each bidding call, played out by mc from the caller's view;
- :mod:`.mc`: mc's values at one decision of a recorded round;  :mod:`.labels`: the noise rule and
  the labels both share.

May import the core, ``state``, :mod:`..rules`, :mod:`..players`, :mod:`..engine`, ``api`` and
:mod:`..formats`.  This face imports nothing (no numba).
"""
