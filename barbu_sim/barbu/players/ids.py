"""The small-int ids by which the kernels switch between Barbu's built-in players.

Its own module, below the players, the mc player and the registry alike, so that each of
them can name the ids without importing the others (``mc`` packs its parameters around
its own id, :data:`barbu_sim.barbu.players.mc.player.MC`).
"""

RANDOM, HEURISTIC, LOWEST, USER, BASIC = 0, 1, 2, 3, 4
LEARNED = 6  # (5 is mc's, in the low four bits of its id: mc_params.MC)
