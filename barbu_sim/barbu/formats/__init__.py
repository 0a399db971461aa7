"""The files a played Barbu deal is kept in and read from, and the deal as text.

- :mod:`.deal_file`: the played-deal file (written by ``play --record`` and ``table``, read and checked
  by ``review``);  :mod:`.pbn_play`: a PBN game's tags and play section as a played deal;
- :mod:`.deal_text`: a played deal as ``barbu-sim play`` prints it.

May import the core, ``state``, :mod:`..rules`, :mod:`..players`, :mod:`..engine`, ``api`` and
:mod:`..position`.  This face imports nothing (no numba).
"""
