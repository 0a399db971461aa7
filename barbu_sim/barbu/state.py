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

S_CONTRACT = 0  # contract id, see barbu_sim.barbu.rules.Contract
S_PARAM = 1  # trump suit (Trumps) or starting rank (Domino); 0 otherwise
S_SEAT = 2  # the seat to play now
S_DECLARER = 3
S_LEADER = 4  # the seat that led the current trick
S_TRICK = 5  # trick number, 0..12
S_N_IN_TRICK = 6  # cards already in the current trick, 0..3
S_TRICK_CARDS = 7  # 4 entries: the current trick's cards in play order
S_PLAYED = 11  # mask of every card played so far (current trick included)
S_WON = 12  # 4 entries: mask of the cards each seat has won in tricks
S_TRICKS_WON = 16  # 4 entries: tricks won by each seat
S_DOMINO_LOW = 20  # 4 entries: the rank at the low end of each suit's column (13: column not open; the
# lowest played rank, or 12 once the ace is down under domino-ace=low)
S_DOMINO_HIGH = 24  # 4 entries: the rank at the high end of each suit's column
S_CARDS_LEFT = 28  # 4 entries: cards still in each seat's hand
S_VOIDS = 32  # 4 entries: bit s set when that seat has shown out of suit s
S_WIN_CARD = 36  # the card winning the current trick so far
S_WIN_SEAT = 37  # the seat that played it
S_NOT_HELD = 38  # 4 entries: cards each seat is known not to hold, from the rules of play alone (a Domino
# pass shows that no playable card was held; in trick contracts, kept only when some seat plays a strategy
# that reads it, such as ``mc``: a card not followed, a trump not played, a trump not overtrumped...)
S_RULES = 42  # the rules array (barbu_sim.barbu.rules.R_* indices), RULES_ARRAY_SIZE entries; kept last:
# the engine copies it in once per state array (one per chunk of work) and clears only the fields before it
# between deals
STATE_SIZE = 66
PASS = -1  # the card recorded for a Domino pass (the play loops, records, played deals)
