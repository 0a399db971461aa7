"""Barbu's analytics: from a run's records to tables and charts.  No numba.

- :mod:`.schema`: the records' schema, the contract between the engine and the analytics;
- :mod:`.analysis`: polars pipelines, expected scores with confidence intervals;
- :mod:`.report`: ``barbu-sim report``;  :mod:`.plots` and :mod:`.compare_plots`: the charts.

May import the core and :mod:`..rules` (its numba-free modules); never the players, the engine
or the rooms above (``tests/test_layout.py`` checks that importing it loads no numba).
"""
