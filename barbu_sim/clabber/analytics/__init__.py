"""Clabber's analytics: from a run's records to tables and charts.  No numba.

- :mod:`.schema`: the records' schema;  :mod:`.analysis`: polars pipelines;
- :mod:`.report`: ``barbu-sim clabber report``;  :mod:`.plots`: the charts.

May import the core and :mod:`..rules` (its numba-free modules); never the players, the engine or
the rooms above.
"""
