"""What any card game of barbu-sim needs: bit tricks, counter-based randomness, the atomic
work counter, card and seat encoding, statistics, chunked runs, the chart style and the fit of the learned
players.

Nothing here knows a game's rules; the game wings (``barbu_sim.barbu``, ...) import it.
"""
