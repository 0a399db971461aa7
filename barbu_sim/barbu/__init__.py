"""Barbu: rules, numba engine, strategies, runs, analytics; full games in :mod:`barbu_sim.barbu.game`.

Importing this package (or its analytics modules ``analysis``, ``report``, ``plots``,
``schema``) does not import numba: only the engine modules do.
"""
