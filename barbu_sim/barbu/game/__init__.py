"""Full 28-hand games of Barbu: doubling and settlement, hand evaluation, policies, order comparison.

- :mod:`.rules`: who declares, the doubling round, settlement, the referee;  :mod:`.game`:
  playing a game;
- :mod:`.evaluation`, :mod:`.settled`, :mod:`.proxy`: what a hand is worth, raw and settled;
- :mod:`.policies` and :mod:`.doubling`: how a player declares and doubles;  :mod:`.advice`:
  the advisor;  :mod:`.orders`: comparing contract orders;
- :mod:`.game_runs`: running many games into ``hands.parquet``;  :mod:`.verify_games`: checking
  recorded games (no numba);
- :mod:`.table_session` and :mod:`.sheet`: a session at the table, a real table's score sheet.

The top room of the wing: it may import every other room.  This face imports nothing (no numba).
"""
