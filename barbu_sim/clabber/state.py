"""The state array a Clabber strategy reads: what the table knows at the moment of a play.

Every strategy, built-in or user-written, is an ``@njit`` function::

    def my_strategy(legal, hand, state, rng) -> int:
        ...

- ``legal``: uint64 mask of the cards this seat may play now (never empty);
- ``hand``: uint64 mask of this seat's cards;
- ``state``: ``uint64[::1]`` array of ``STATE_SIZE`` entries indexed by the ``S_*`` constants
  below (read it, never write it);
- ``rng``: one-element ``uint64[::1]`` random state for ``barbu_sim.core.rng.rand_below(rng, n)``.

It returns the card int to play (``suit * 13 + rank``, rank 7 = 9 .. 12 = A), which must be in
``legal``.  Seats are 0..3 = N E S W; N+S is team 0, E+W team 1.
"""

S_SEAT = 0  # the seat to play now
S_DEALER = 1
S_TRUMP = 2  # trump suit 0..3
S_MAKER = 3  # the seat that accepted the trump
S_LEADER = 4  # the seat that led the current trick
S_TRICK = 5  # trick number 0..5
S_N_IN_TRICK = 6  # cards already in the current trick, 0..3
S_TRICK_CARDS = 7  # 4 entries: the current trick's cards in play order
S_PLAYED = 11  # mask of every card played so far (current trick included)
S_WIN_CARD = 12  # the card winning the current trick so far
S_WIN_SEAT = 13  # the seat that played it
S_TOP_TRUMP = 14  # 1 + rank of the highest trump in the trick, 0 for none
S_TRICK_POINTS = 15  # card points in the current trick so far
S_TEAM_POINTS = 16  # 2 entries: card points won so far by N+S and by E+W
S_TURNED = 18  # the turned-up card
S_BID_ROUND = 19  # 1 or 2: the bidding round in which the trump was chosen
S_RULES = 20  # the rules array (rules.R_* indices), RULES_ARRAY_SIZE entries
STATE_SIZE = 25

# The kernels' state arrays hold three more entries, after what strategies read: when a play fails
# (an illegal card, a strategy that raised) the kernel leaves there the legal cards, the hand and
# the random state the strategy was called with, so that the caller can call it again in Python
# on the same state and show the exception's message.
S_SNAP_LEGAL = STATE_SIZE
S_SNAP_HAND = STATE_SIZE + 1
S_SNAP_RNG = STATE_SIZE + 2
STATE_ARRAY_SIZE = STATE_SIZE + 3
