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

from ..core.fields import ArrayFields
from .rules.config import RULES_ARRAY_SIZE

# The fields in order, with their sizes in entries: the S_* offsets and STATE_SIZE follow from this list
# (tests/test_layouts.py pins today's numbers, so that a move is deliberate).
STATE = ArrayFields([
    ("seat", 1),  # the seat to play now
    ("dealer", 1),
    ("trump", 1),  # trump suit 0..3
    ("maker", 1),  # the seat that accepted the trump
    ("leader", 1),  # the seat that led the current trick
    ("trick", 1),  # trick number 0..5
    ("n_in_trick", 1),  # cards already in the current trick, 0..3
    ("trick_cards", 4),  # the current trick's cards in play order
    ("played", 1),  # mask of every card played so far (current trick included)
    ("win_card", 1),  # the card winning the current trick so far
    ("win_seat", 1),  # the seat that played it
    ("top_trump", 1),  # 1 + rank of the highest trump in the trick, 0 for none
    ("trick_points", 1),  # card points in the current trick so far
    ("team_points", 2),  # card points won so far by N+S and by E+W
    ("turned", 1),  # the turned-up card
    ("bid_round", 1),  # 1 or 2: the bidding round in which the trump was chosen
    ("rules", RULES_ARRAY_SIZE),  # the rules array (rules.R_* indices)
])

# The S_* offsets, one per field in the order declared above.
(S_SEAT, S_DEALER, S_TRUMP, S_MAKER, S_LEADER, S_TRICK, S_N_IN_TRICK, S_TRICK_CARDS, S_PLAYED, S_WIN_CARD,
 S_WIN_SEAT, S_TOP_TRUMP, S_TRICK_POINTS, S_TEAM_POINTS, S_TURNED, S_BID_ROUND, S_RULES) = STATE.offsets()
STATE_SIZE = STATE.size

# The kernels' state arrays hold three more entries, after what strategies read: when a play fails
# (an illegal card, a strategy that raised) the kernel leaves there the legal cards, the hand and
# the random state the strategy was called with, so that the caller can call it again in Python
# on the same state and show the exception's message.
STATE_ARRAY = ArrayFields([("fields", STATE_SIZE), ("snap_legal", 1), ("snap_hand", 1), ("snap_rng", 1)])
S_SNAP_LEGAL = STATE_ARRAY.offset("snap_legal")
S_SNAP_HAND = STATE_ARRAY.offset("snap_hand")
S_SNAP_RNG = STATE_ARRAY.offset("snap_rng")
STATE_ARRAY_SIZE = STATE_ARRAY.size
