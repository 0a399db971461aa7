"""The file a played Clabber round is kept in and read from, and the round as text.

- :mod:`.round_text`: a played round as text (no numba);  :mod:`.round_file`: the played-round file
  (read and written).

May import the core, ``state``, :mod:`..rules`, :mod:`..players`, :mod:`..engine` and ``api``.
This face imports nothing (no numba).
"""
