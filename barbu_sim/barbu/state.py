"""The state array a strategy reads: what the table knows at the moment of a play.

Every strategy, built-in or user-written, is an ``@njit`` function::

    def my_strategy(legal, hand, state, rng) -> int:
        ...

- ``legal``: uint64 mask of the cards this seat may play now (never empty);
- ``hand``: uint64 mask of this seat's cards;
- ``state``: ``uint64[::1]`` array of ``STATE_SIZE`` entries, indexed by the ``S_*``
  constants below (read it, never write it);
- ``rng``: one-element ``uint64[::1]`` random state, for
  ``barbu_sim.core.rng.rand_below(rng, n)``.

It returns the card int (0..51) to play, which must be in ``legal``.

Trick contracts fill the trick fields; Domino fills the column fields (a
column not yet opened has ``S_DOMINO_LOW + suit`` = 13).  Cards are ints
``suit * 13 + rank`` (see ``barbu_sim.core.cards``); suits C, D, H, S = 0..3.
"""

from ..core.fields import ArrayFields
from .rules.config import RULES_ARRAY_SIZE

# The fields in order, with their sizes in entries: the S_* offsets and STATE_SIZE follow from this
# list (tests/test_layouts.py pins today's numbers, so that a move is deliberate).
STATE = ArrayFields([
    ("contract", 1),  # contract id, see barbu_sim.barbu.rules.Contract
    ("param", 1),  # trump suit (Trumps) or starting rank (Domino); 0 otherwise
    ("seat", 1),  # the seat to play now
    ("declarer", 1),
    ("leader", 1),  # the seat that led the current trick
    ("trick", 1),  # trick number, 0..12
    ("n_in_trick", 1),  # cards already in the current trick, 0..3
    ("trick_cards", 4),  # the current trick's cards in play order
    ("played", 1),  # mask of every card played so far (current trick included)
    ("won", 4),  # mask of the cards each seat has won in tricks
    ("tricks_won", 4),  # tricks won by each seat
    ("domino_low", 4),  # the rank at the low end of each suit's column (13: column not open; the lowest played
    # rank, or 12 once the ace is down under domino-ace=low)
    ("domino_high", 4),  # the rank at the high end of each suit's column
    ("cards_left", 4),  # cards still in each seat's hand
    ("voids", 4),  # bit s set when that seat has shown out of suit s
    ("win_card", 1),  # the card winning the current trick so far
    ("win_seat", 1),  # the seat that played it
    ("not_held", 4),  # cards each seat is known not to hold, from the rules of play alone (a Domino pass shows
    # that no playable card was held; in trick contracts, kept only when some seat plays a strategy that reads
    # it, such as ``mc``: a card not followed, a trump not played, a trump not overtrumped...)
    ("rules", RULES_ARRAY_SIZE),  # the rules array (barbu_sim.barbu.rules.R_* indices); kept last: the engine
    # copies it in once per state array (one per chunk of work) and clears only the fields before it between deals
])

# The S_* offsets, one per field in the order declared above.
(S_CONTRACT, S_PARAM, S_SEAT, S_DECLARER, S_LEADER, S_TRICK, S_N_IN_TRICK, S_TRICK_CARDS, S_PLAYED, S_WON,
 S_TRICKS_WON, S_DOMINO_LOW, S_DOMINO_HIGH, S_CARDS_LEFT, S_VOIDS, S_WIN_CARD, S_WIN_SEAT, S_NOT_HELD,
 S_RULES) = STATE.offsets()
STATE_SIZE = STATE.size
PASS = -1  # the card recorded for a Domino pass (the play loops, records, played deals)
