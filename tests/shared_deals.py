"""Played deals more than one test file replays."""

# The example of docs/review-and-table.md: West, last to play to a trick South is winning with 6H,
# plays K♥ and wins it; a low heart would let South win, and West, void in spades, would discard K♥
# on the spades South must lead next.
EXAMPLE_DEAL = "N:2.5.AKQJT987654. .2..AKQJT9876543 AKQJT9876543.6.. .AKQJT98743.32.2"
EXAMPLE = f"""contract: barbu
declarer: N
deal: {EXAMPLE_DEAL}
play:
5H 2H 6H KH
"""

# A Clabber round (clabber play --seed 3 --record): North deals, ♦A turned; East passes, South plays; the makers
# N+S score 126, E+W 56.
CLABBER_ROUND = """# barbu-sim played round: docs/review-and-table.md describes the format
game: clabber
title: round 0 of seed 3
dealer: N
deal: N:.K.AKT.AK KQ.J.Q.J9 A.QT9.J9. JT9.A..QT
turned: AD
bidding: pass play
seed: 3
index: 0
play:
 9C  9D  QC  AC   # E leads
 JD  9S  KD  QD   # S leads
 AS  JS 10D  QS   # S leads
 KC  JC  9H 10C   # N leads
 AH  KH  JH  QH   # W leads
10S  AD  KS 10H   # W leads
"""

# A Clabber endgame whose loss is known exactly. Hearts are trump, named by South in round two; West and East
# showed no trump on the first trick. At trick 5 West leads ♠K, North ♠Q, East ♠10, and South, last, holds ♠A
# and ♠9: ♠A wins the trick (28 card points for N+S); ♠9 gives it to East (17 for E+W). North's last card is
# the one trump left, which wins trick 6 either way, so in every layout of the unseen cards ♠9 costs N+S
# exactly 28 - 11 = 17 points (the ♠A South keeps falls into North's last trick): N+S 169 as played, 186 with ♠A.
CLABBER_ENDGAME = """game: clabber
dealer: E
deal: N:Q.AKQT.9. JT..J.KQT A9.J9.Q.9 K..AKT.AJ
turned: JD
bidding: pass pass pass pass H
play:
JH TD QH TC
9H KD KH QC
9C JC AH KC
9D JD QD AD
KS QS TS 9S
JS AS AC TH
"""
