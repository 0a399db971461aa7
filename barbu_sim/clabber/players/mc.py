"""``mc``: Monte-Carlo card play for Clabber (``--strategy mc[:samples=N]``).

At each decision with more than one legal card the player deals the cards it cannot see to the
other three seats, ``samples`` times, consistently with everything the table has shown:

- every card played, and by whom (each seat holds 6 minus the cards it has played);
- the turned card, which the dealer holds until it is played;
- the melds each seat declared when it played to the first trick (the rules: "each player
  declares their melds during the first trick, before playing to it"); the cards of those
  melds are in that seat's hand until played;
- what each play proved a seat does not hold: a card ``c`` is not held when the card played
  would have been illegal from the hand ``{card, c}`` (a suit not followed; a trump not played,
  or not overtrumped, when the rules demanded it; :func:`observe`).

What the player leaves out: the bidding (a pass says a hand is weak; a round-two maker holds a
trump), both only "at least" or "likely" facts, not cards.

In each layout it plays each legal card, then finishes the round with ``heuristic`` at all four
seats (:mod:`barbu_sim.clabber.players.rollout`), and plays the card with the best mean **round score of
its own team**: the score the rules give the round (card points, last trick, melds after the comparison, the
bell; makers score nothing unless strictly above the defenders), which is what the round adds
to the team's total towards 500.  Every candidate is rolled out on the same layouts (common
random numbers), so the comparison between cards carries little sampling noise.  Clabber has no
equivalent cards to merge: no two ranks of a suit are worth the same points.

Reproducible: the layouts of a decision come from a key of the round's play stream and the
number of cards played so far, never from the hidden hands, so a round with ``mc`` seats is a
pure function of ``(seed, round)`` on any thread count, and two deals that look the same from
the seat give the same decision.  Knowledge and scratch space live in one uint64 array (``K_*``
and ``W_*`` offsets below) that the engine with the mc player carries beside the state array.
"""

from __future__ import annotations

import numpy as np
from numba.extending import register_jitable
from ...core.jit import njit

from ...core.bits import lowest_bit, popcount
from ...core.fields import ArrayFields, BitFields
from ...core.layouts import copy_into, deal_cards
from ...core.rng import STREAM_CLABBER_MC as STREAM_MC, stream_key
from ..rules.melds import lane6
from ..rules.play_rules import legal_mask
from .rollout import rollout, round_scores, step, trick_view
from ..rules.config import DECK, LOW_RANK, R_MELD_SHOW
from ..state import (
    S_DEALER, S_LEADER, S_MAKER, S_N_IN_TRICK, S_PLAYED, S_RULES, S_SEAT, S_TRICK, S_TRUMP, S_TURNED, STATE_ARRAY_SIZE,
)

U0 = np.uint64(0)
U1 = np.uint64(1)

MC_PLAY = 3  # an mc seat's kind: the low four bits of its strategy id (see MC_ID and is_mc)
DEFAULT_SAMPLES = 48
MAX_SAMPLES = 100_000

# An mc seat's strategy id: the fields in order from the lowest bit, with their widths.
MC_ID = BitFields([
    ("kind", 4),  # MC_PLAY; the other card players' ids (players.registry) are below 16 too
    ("spare", 4),  # free (Barbu's mc ids carry the rollout player there)
    ("samples", 24),  # layouts per decision, up to MAX_SAMPLES
])
MC_KIND_MASK = MC_ID.mask("kind")
MC_SAMPLES_SHIFT, MC_SAMPLES_MASK = MC_ID.shift("samples"), MC_ID.mask("samples")
assert MAX_SAMPLES <= MC_SAMPLES_MASK

# The knowledge the table has shown (public: every mc seat reads the same), then scratch space; sizes in
# uint64 entries.
MC_WORK = ArrayFields([
    ("root", 1),  # the round's play-stream key: each decision's layouts derive from it
    ("not_held", 4),  # masks: cards each seat is known not to hold
    ("played_by", 4),  # masks: cards each seat has played
    ("shown", 4),  # masks: cards each seat was seen to hold (the turned card, declared melds)
    ("layout", 4),  # the scratch space from here on (begin clears what comes before): a sampled layout
    ("dealt", 4),  # the layout's hands as dealt (the cards played given back)
    ("allowed", 4),  # deal_cards' scratch: the cards each seat may be dealt
    ("cap", 4),  # ... and how many it still takes (int64)
    ("hands", 4),  # the hands during a rollout
    ("rng", 1),  # the layout's random state
    ("state", STATE_ARRAY_SIZE),  # the state array a rollout plays on
    ("sums", 52),  # per card: sum of its own-team round scores (float64)
    ("squares", 52),  # ... and of their squares (float64)
])
# The K_* (knowledge) and W_* (scratch) offsets, one per field in the order declared above.
(K_ROOT, K_NOT_HELD, K_PLAYED_BY, K_SHOWN, W_LAYOUT, W_DEALT, W_ALLOWED, W_CAP, W_HANDS, W_RNG, W_STATE, W_SUMS,
 W_SQUARES) = MC_WORK.offsets()
MC_WORK_SIZE = MC_WORK.size


@register_jitable
def is_mc(sid):
    """True for an mc seat's strategy id (elementwise for an array of ids): in Python and, compiled in, in the
    kernels alike."""
    return (sid & MC_KIND_MASK) == MC_PLAY


def mc_id(samples: int = DEFAULT_SAMPLES) -> int:
    """The strategy id that carries an mc seat's samples to the kernels (see :data:`MC_ID`)."""
    return MC_ID.pack(kind=MC_PLAY, samples=samples)


def parse_mc(params: str) -> int:
    """The samples of ``mc:samples=N`` from the text after ``mc:`` (empty: the default); ValueError if wrong."""
    samples, seen = DEFAULT_SAMPLES, {}
    for item in filter(None, (p.strip() for p in params.split(","))):
        key, eq, value = (x.strip() for x in item.partition("="))
        if not eq:
            raise ValueError(f"mc parameter {item!r} is not NAME=VALUE (e.g. mc:samples=48)")
        if key in seen:  # taken silently, the last winning, it would hide a typo in a long command
            raise ValueError(f"mc parameter {key} is given twice ({seen[key]} and {item}): give each parameter once")
        seen[key] = item
        if key != "samples":
            raise ValueError(f"unknown mc parameter {key!r}: use samples=N")
        if not value.isdigit() or not 1 <= int(value) <= MAX_SAMPLES:
            raise ValueError(f"mc samples must be a whole number from 1 to {MAX_SAMPLES:,}, not {value!r}")
        samples = int(value)
    return samples


def _meld_lanes() -> np.ndarray:
    """Per 6-bit suit lane, the cards in its sequences: runs of 3 or more (a run of six: its top five)."""
    out = np.zeros(64, np.uint64)
    for lane in range(64):
        bits, run = 0, []
        for b in range(7):
            if b < 6 and lane >> b & 1:
                run.append(b)
                continue
            if len(run) >= 3:
                bits |= sum(1 << x for x in run[-5:])
            run = []
        out[lane] = bits
    return out


MELD_LANE = _meld_lanes()


@njit(cache=True)
def meld_cards(hand):
    """The cards of a dealt hand's melds (its four of a kind if any, else its sequences; see melds)."""
    four = lane6(hand, 0) & lane6(hand, 1) & lane6(hand, 2) & lane6(hand, 3)
    out = U0
    if four:
        b = np.uint64(LOW_RANK + lowest_bit(four))
        for s in range(4):
            out |= U1 << (np.uint64(13 * s) + b)
        return out
    for s in range(4):
        out |= MELD_LANE[lane6(hand, s)] << np.uint64(13 * s + LOW_RANK)
    return out


# ---------------------------------------------------------------- what the table has shown
@njit(cache=True, _nrt=False)
def begin(mcw, dealer, turned, root):
    """Forget the last round's knowledge: a new round, whose play stream starts at ``root``."""
    mcw[:W_LAYOUT] = U0
    mcw[K_ROOT] = root
    mcw[K_SHOWN + dealer] = U1 << np.uint64(turned)


@njit(cache=True, _nrt=False)
def show_all_melds(mcw, dealt):
    """Under ``meld-show=at-once``: every seat's melds are shown before the first lead (by default
    each seat's are shown when it plays to the first trick: :func:`observe`)."""
    for s in range(4):
        mcw[K_SHOWN + s] |= meld_cards(dealt[s])


@njit(cache=True, _nrt=False)
def observe(mcw, seat, card, hand, k, led, trump, top_trump, excused, played, trick):
    """Record what ``seat``'s legal play of ``card`` from ``hand`` shows, before it leaves the hand.

    At the first trick the seat declares its melds.  A card ``c`` not yet played is shown not held
    when ``card`` would have been illegal from ``{card, c}``: sound for Clabber's rules, where a
    card legal from a hand is legal from every part of that hand that holds it.  ``led``,
    ``top_trump`` (a card, -1 for none) and ``excused`` describe the trick as for ``legal_mask``;
    ``played``: every card played before this one.
    """
    b = U1 << np.uint64(card)
    if trick == 0:
        mcw[K_SHOWN + seat] |= meld_cards(hand)
    known = mcw[K_NOT_HELD + seat]
    if k > 0:
        cands = DECK & ~played & ~known & ~b
        while cands:
            c = cands & (~cands + U1)
            cands ^= c
            if not (legal_mask(b | c, k, led, trump, top_trump, excused) & b):
                known |= c
    mcw[K_NOT_HELD + seat] = known
    mcw[K_PLAYED_BY + seat] |= b


# ---------------------------------------------------------------- layouts of the unseen cards
@njit(cache=True, _nrt=False)
def sample_layout(rng, me, hand, state, mcw):
    """Deal the cards ``me`` cannot see into ``mcw[W_LAYOUT:]``, consistently with the knowledge in ``mcw``.

    Cards a seat was seen to hold go to it; the others one by one, in random order, to a random
    seat allowed them, in proportion to the room each has left, never to a seat whose choice would
    leave the rest undealable (Hall's condition).
    """
    layout = mcw[W_LAYOUT:W_LAYOUT + 4]
    allowed = mcw[W_ALLOWED:W_ALLOWED + 4]
    cap = mcw[W_CAP:W_CAP + 4].view(np.int64)
    played = state[S_PLAYED]
    rem = DECK & ~played & ~hand
    for j in range(4):
        layout[j] = mcw[K_SHOWN + j] & rem if j != me else hand
        rem &= ~layout[j]
    constrained = False
    for j in range(4):
        if j == me:
            allowed[j] = U0
            cap[j] = 0
            continue
        cap[j] = 6 - popcount(mcw[K_PLAYED_BY + j]) - popcount(layout[j])
        allowed[j] = rem & ~mcw[K_NOT_HELD + j]
        if allowed[j] != rem and cap[j] > 0:
            constrained = True
    deal_cards(rng, rem, allowed, cap, constrained, layout)


# ---------------------------------------------------------------- the decision
@njit(cache=True, _nrt=False)
def mc_estimates(cards, hand, state, mcw, key, samples):
    """Roll out every card of ``cards`` on ``samples`` layouts: per-card sums and sums of squares of the
    own team's round score, in ``mcw``'s float64 views ``W_SUMS`` / ``W_SQUARES`` (zeroed here).

    Layout ``k`` comes from the stream ``(key, k)``, the same for every card.
    """
    me = np.int64(state[S_SEAT])
    team = me & 1
    sums = mcw[W_SUMS:W_SUMS + 52].view(np.float64)
    squares = mcw[W_SQUARES:W_SQUARES + 52].view(np.float64)
    for c in range(52):
        sums[c] = 0.0
        squares[c] = 0.0
    layout = mcw[W_LAYOUT:W_LAYOUT + 4]
    dealt = mcw[W_DEALT:W_DEALT + 4]
    hands = mcw[W_HANDS:W_HANDS + 4]
    rng = mcw[W_RNG:W_RNG + 1]
    scratch = mcw[W_STATE:W_STATE + STATE_ARRAY_SIZE]
    for k in range(samples):
        rng[0] = stream_key(key, np.uint64(k), STREAM_MC)
        sample_layout(rng, me, hand, state, mcw)
        for j in range(4):
            dealt[j] = layout[j] | mcw[K_PLAYED_BY + j]
        cands = cards
        while cands:
            card = lowest_bit(cands)
            cands &= cands - U1
            copy_into(hands, layout, 4)
            copy_into(scratch, state, STATE_ARRAY_SIZE)
            rollout(scratch, hands, card)
            s0, s1 = round_scores(scratch, dealt)
            v = np.float64(s1 if team else s0)
            sums[card] += v
            squares[card] += v * v


@njit(cache=True, _nrt=False)
def decision_key(mcw, state):
    """The key of the layouts of the decision in ``state``: the round's play stream and the cards played."""
    return stream_key(mcw[K_ROOT], np.uint64(popcount(state[S_PLAYED])), STREAM_MC)


@njit(cache=True, _nrt=False)
def mc_choose(sid, legal, hand, state, mcw):
    """The card an mc seat (strategy id ``sid``, see :func:`mc_id`) plays: the only legal card, else the
    one with the best mean own-team round score over the rollouts (ties: the lowest card)."""
    if popcount(legal) == 1:
        return lowest_bit(legal)
    mc_estimates(legal, hand, state, mcw, decision_key(mcw, state), (sid >> MC_SAMPLES_SHIFT) & MC_SAMPLES_MASK)
    sums = mcw[W_SUMS:W_SUMS + 52].view(np.float64)
    best, best_sum = -1, -np.inf
    cands = legal
    while cands:
        card = lowest_bit(cands)
        cands &= cands - U1
        if sums[card] > best_sum:
            best, best_sum = card, sums[card]
    return best


@njit(cache=True, _nrt=False)
def replay_into(dealt, dealer, turned, trump, maker, rules, plays, n, state, hands, mcw, root):
    """The position before play ``n`` of a recorded round, from the table's view: fills ``state``
    (``STATE_ARRAY_SIZE``), ``hands`` (4,) and ``mcw``'s knowledge as the engine with mc would.

    ``plays``: (m, 2) rows ``(seat, card)`` in play order; ``root``: the round's play-stream key.
    """
    for i in range(STATE_ARRAY_SIZE):
        state[i] = U0
    for i in range(rules.shape[0]):
        state[S_RULES + i] = np.uint64(rules[i])
    state[S_TRUMP] = trump
    state[S_MAKER] = maker
    state[S_DEALER] = dealer
    state[S_TURNED] = turned
    state[S_SEAT] = (dealer + 1) & 3
    state[S_LEADER] = (dealer + 1) & 3
    for s in range(4):
        hands[s] = dealt[s]
    begin(mcw, dealer, turned, root)
    if rules[R_MELD_SHOW] == 1:
        show_all_melds(mcw, dealt)
    for i in range(n):
        seat = np.int64(state[S_SEAT])
        card = plays[i, 1]
        k = np.int64(state[S_N_IN_TRICK])
        led, top, excused = trick_view(state)
        observe(mcw, seat, card, hands[seat], k, led, trump, top, excused, state[S_PLAYED],
                np.int64(state[S_TRICK]))
        step(state, hands, card)
