"""Full Clabber games to 500 (:mod:`.game`) and the advisor (:mod:`.advice`).

The top room of the wing: it may import every other room.  This face imports nothing (no numba).
"""
