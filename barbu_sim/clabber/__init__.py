"""Clabber, the 24-card partnership game: rules, numba engine, bidding, strategies, runs, games, analytics.

Importing this package (or its analytics modules ``schema``, ``analysis``, ``report``, ``plots``)
does not import numba: only the engine modules do.
"""
