"""What the mc player knows of the hidden hands: inference from the rules and from the play, and layouts.

- :func:`infer_not_held`: the cards a legal play shows its seat cannot hold (sound, from
  the rules of play alone);
- :func:`record_play` and :func:`layout_weight`: inference from the play, a sampled
  layout weighted by how likely the other seats' actual plays were in it under a model
  of their play (the rollout player);
- :func:`policy_weight`: the same with a policy model, each play weighted by its
  probability under a softmax of the learned player's card scores (``mc:infer=policy``);
- :func:`sample_layout`: a random deal of the unseen cards consistent with the first.

It also fixes the layout of the mc player's scratch space (``W_*``).
"""

import numpy as np
from ....core.jit import njit

from ....core.bits import lowest_bit, popcount
from ....core.fields import ArrayFields
from ....core.layouts import deal_cards
from ..endgame import TT_WORDS
from ..learned import LEARNED_WORK_SIZE, learned_scores
from ..ids import LEARNED
from .params import LOG_WEIGHT_FLOOR, POLICY_EPSILON, POLICY_TEMPERATURE
from ...rules.play_rules import forced_discard, lead_restriction, legal_mask, suit_bits
from ..rollout import choose_trick_card, trick_so_far
from ...rules.config import RULES_ARRAY_SIZE
from ...state import S_CARDS_LEFT, S_LEADER, S_N_IN_TRICK, S_NOT_HELD, S_PLAYED, S_SEAT, S_VOIDS, STATE_SIZE

U0 = np.uint64(0)
U1 = np.uint64(1)
ALL_CARDS = np.uint64((1 << 52) - 1)

# The mc player's scratch space: the engine allocates it after the state array
# (entries STATE_SIZE on), because the play loops run without reference counting
# and so cannot allocate.  Sizes in uint64 entries; some fields are viewed as int64 / float64.
MC_WORK = ArrayFields([
    ("layout", 4),  # the sampled layout: each seat's hand
    ("hands", 4),  # the hands during a rollout
    ("allowed", 4),  # sample_layout's scratch: the cards each seat may be dealt
    ("cap", 4),  # ... and how many it still takes (int64)
    ("scores", 4),  # a rollout's scores (int64)
    ("rules", RULES_ARRAY_SIZE),  # the rules, signed (int64)
    ("rng", 1),  # the layout's random state
    ("state", STATE_SIZE),  # the state array a rollout plays on...
    ("learned", LEARNED_WORK_SIZE),  # ... and right after it, the learned player's scratch (learned rollouts)
    ("card_scores", 52),  # policy inference: the learned player's score of each legal card (float64)
    ("sums", 52),  # per card: weighted sum of its values (float64)
    ("squares", 52),  # ... and of their squares (float64)
    ("values", 52),  # one layout's exact endgame values, per card (float64)
    ("counts", 52),  # layouts each card was valued on (sequential halving gives the finalists more; float64)
    ("weights", 52),  # the layouts' total weight per card (inference from the play; float64)
    ("tt", TT_WORDS),  # the endgame search's transposition table
    ("hist", 52 * STATE_SIZE),  # the deal so far: the state each play was made from...
    ("hist_card", 52),  # ... then each card played
    ("cross", 13 * 13),  # early stopping: weighted sums of products of two candidates' values (float64)
    ("layout_sums", 2),  # early stopping: the layouts' total weight and total squared weight (float64)
])
# The W_* offsets, one per field in the order declared above.
(W_LAYOUT, W_HANDS, W_ALLOWED, W_CAP, W_SCORES, W_RULES, W_RNG, W_STATE, W_LEARNED, W_CARD_SCORES, W_SUMS,
 W_SQUARES, W_VALUES, W_COUNTS, W_WEIGHTS, W_TT, W_HIST, W_HIST_CARD, W_CROSS, W_LAYOUT_SUMS) = MC_WORK.offsets()
MC_WORK_SIZE = MC_WORK.size
ROLLOUT_STATE_SIZE = STATE_SIZE + LEARNED_WORK_SIZE  # a rollout's state: the fields, then the learned player's room
assert W_LEARNED == W_STATE + STATE_SIZE
_TEMPERATURE = np.array(POLICY_TEMPERATURE, np.float64)
_EPSILON = np.array(POLICY_EPSILON, np.float64)


@njit(cache=True, _nrt=False)
def infer_not_held(state, seat, card, k, led, restricted_lead, forced, contract, trump, top_trump, rules):
    """Add to ``seat``'s known-not-held cards what its legal play of ``card`` shows.

    A card ``c`` is shown not held when ``card`` would have been illegal from the hand
    ``{card, c}``.  That is sound for Barbu's rules of play: a card legal from a hand is
    legal from every part of that hand that still holds it (following suit, trumping,
    overtrumping, the lead restrictions and the forced discard all have that shape).
    Call it before the card leaves the table's unplayed cards.
    """
    b = U1 << np.uint64(card)
    known = state[S_NOT_HELD + seat]
    candidates = ALL_CARDS & ~state[S_PLAYED] & ~known & ~b
    while candidates:
        c = candidates & (~candidates + U1)
        candidates ^= c
        if not (legal_mask(b | c, k, led, restricted_lead, forced, contract, trump, top_trump, rules) & b):
            known |= c
    state[S_NOT_HELD + seat] = known


@njit(cache=True, _nrt=False)
def sample_layout(rng, me, hand, state, layout, allowed, cap):
    """Deal the cards ``me`` cannot see to the other seats, consistently with ``state``.

    Each other seat gets as many cards as it holds, none it is known not to hold.
    Cards go one by one, in random order, to a random seat among those allowed it,
    in proportion to the room each has left, never to a seat whose choice would leave
    the rest undealable (Hall's condition).  ``allowed`` and ``cap``: (4,) scratch.
    """
    played = state[S_PLAYED]
    rem = ALL_CARDS & ~played & ~hand
    constrained = False
    for j in range(4):
        layout[j] = U0
        if j == me:
            allowed[j] = U0
            cap[j] = 0
            continue
        voids = U0
        v = state[S_VOIDS + j]
        for s in range(4):
            if (v >> np.uint64(s)) & U1:
                voids |= suit_bits(s)
        allowed[j] = rem & ~voids & ~state[S_NOT_HELD + j]
        cap[j] = np.int64(state[S_CARDS_LEFT + j])
        if allowed[j] != rem and cap[j] > 0:
            constrained = True
    layout[me] = hand
    deal_cards(rng, rem, allowed, cap, constrained, layout)


@njit(cache=True, _nrt=False)
def record_play(state, card):
    """Keep the state a play was made from, and its card, for inference from the play (see :func:`layout_weight`).

    Called by the engine with mc before the play changes ``state``; the copies go to the
    scratch space after the state array, one slot per card played in the deal.
    """
    i = popcount(state[S_PLAYED])
    base = STATE_SIZE + W_HIST + i * STATE_SIZE
    for j in range(STATE_SIZE):
        state[base + j] = state[j]
    state[STATE_SIZE + W_HIST_CARD + i] = card


@njit(cache=True, _nrt=False)
def layout_weight(layout, state, work, me, model, miss, rules, contract, trump, after, rng, net):
    """How likely the other seats' plays so far are in ``layout``, if they played like ``model``.

    Each earlier play of another seat with a choice is replayed from the state it was made
    from, with that seat's hand as the layout has it then; each card the model would not
    have played multiplies the weight by ``miss``.  ``after``: (4,) uint64 scratch; ``net``: the learned
    player's model array (read when ``model`` is the learned player, which is replayed on a copy of the
    state with its scratch space after it).
    """
    scratch = work[W_STATE:W_STATE + ROLLOUT_STATE_SIZE]
    weight = 1.0
    restricted_lead = lead_restriction(contract, rules)
    forced = forced_discard(contract, rules)
    for j in range(4):
        after[j] = U0
    for i in range(popcount(state[S_PLAYED]) - 1, -1, -1):
        snap = work[W_HIST + i * STATE_SIZE:W_HIST + (i + 1) * STATE_SIZE]
        seat = np.int64(snap[S_SEAT]) & 3
        card = np.int64(work[W_HIST_CARD + i])
        b = U1 << np.uint64(card)
        if seat != me:
            hand = layout[seat] | after[seat] | b
            k = np.int64(snap[S_N_IN_TRICK])
            _, led, _, _, _, top_trump = trick_so_far(snap, k, np.int64(snap[S_LEADER]) & 3, contract, trump)
            legal = legal_mask(hand, k, led, restricted_lead, forced, contract, trump, top_trump, rules)
            if popcount(legal) > 1:
                seen = snap
                if model == LEARNED:  # the learned player needs scratch space after the state: a copy with it
                    for j in range(STATE_SIZE):
                        scratch[j] = snap[j]
                    seen = scratch
                if choose_trick_card(model, legal, hand, seen, rng, net) != card:
                    weight *= miss
        after[seat] |= b
    return weight


@njit(cache=True, _nrt=False)
def policy_weight(layout, state, work, me, net, policy, rules, contract, trump, after, rng):
    """How likely the other seats' plays so far are in ``layout`` under the policy model (``mc:infer=policy``).

    Each earlier play of another seat with a choice is replayed as in :func:`layout_weight`,
    and its card's probability is ``(1 - eps) * softmax(v / T) + eps / n`` over the ``n`` legal
    cards, ``v`` the learned player's card scores from that seat's view in the layout
    (:func:`barbu_sim.barbu.players.learned.learned_scores`), ``T`` and ``eps`` those fitted
    for the contract on the table ``policy`` names (``params.POLICY_TEMPERATURE``).  The
    probabilities are multiplied in log space (each softmax taken from its largest term) and the
    weight is ``exp`` of the sum, floored at ``exp(LOG_WEIGHT_FLOOR)`` so that no layout's weight
    nor its square is 0.  The weights need no normalising: mc uses only their ratios.
    """
    t = _TEMPERATURE[policy, contract]
    eps = _EPSILON[policy, contract]
    restricted_lead = lead_restriction(contract, rules)
    forced = forced_discard(contract, rules)
    scratch = work[W_STATE:W_STATE + ROLLOUT_STATE_SIZE]
    scores = work[W_CARD_SCORES:W_CARD_SCORES + 52].view(np.float64)
    log_w = 0.0
    for j in range(4):
        after[j] = U0
    for i in range(popcount(state[S_PLAYED]) - 1, -1, -1):
        snap = work[W_HIST + i * STATE_SIZE:W_HIST + (i + 1) * STATE_SIZE]
        seat = np.int64(snap[S_SEAT]) & 3
        card = np.int64(work[W_HIST_CARD + i])
        b = U1 << np.uint64(card)
        if seat != me:
            hand = layout[seat] | after[seat] | b
            k = np.int64(snap[S_N_IN_TRICK])
            _, led, _, _, _, top_trump = trick_so_far(snap, k, np.int64(snap[S_LEADER]) & 3, contract, trump)
            legal = legal_mask(hand, k, led, restricted_lead, forced, contract, trump, top_trump, rules)
            n = popcount(legal)
            if n > 1:
                for j in range(STATE_SIZE):
                    scratch[j] = snap[j]
                learned_scores(legal, hand, scratch, rng, net, np.int64(STATE_SIZE), scores)
                log_w += policy_log_prob(legal, card, scores, t, eps)
        after[seat] |= b
    return np.exp(max(log_w, LOG_WEIGHT_FLOOR))


@njit(cache=True, _nrt=False)
def policy_log_prob(legal, card, scores, t, eps):
    """log of ``card``'s probability among ``legal`` under ``(1 - eps) * softmax(scores / t) + eps / n``."""
    top = -np.inf
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - U1
        top = max(top, scores[c])
    total = 0.0
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - U1
        total += np.exp((scores[c] - top) / t)
    n = popcount(legal)
    return np.log((1.0 - eps) * np.exp((scores[card] - top) / t) / total + eps / n)
