"""The Clabber learned player's features: one vector per legal card, from its seat's view only.

What the seat sees: its hand, every card played and by whom (the state array), the turned card
(the dealer holds it until it is played), the melds each seat declared when it played to the
first trick, and what each play proved a seat does not hold (a suit not followed; a trump not
played, or not overtrumped, when the rules demanded it).  The last three are the table's public
knowledge, kept by the play loop in the knowledge part of the ``mc`` player's array
(:func:`barbu_sim.clabber.players.mc.observe`: ``K_NOT_HELD``, ``K_PLAYED_BY``, ``K_SHOWN``), which
the engine with the learned player keeps as the engine with ``mc`` does.

From that knowledge, for each other seat: the unseen cards it may hold (not shown not held) and
those it surely holds (shown by a meld or as the turned card, not played since).  The features
(:data:`SLOTS`, in the model's order) read the card, its suit among the unseen cards, the trick
so far, and who still plays to it and may beat it.  Every value is a small whole number divided
by a small one, computed in float64 and stored as float32, so a plain-Python reference
(``tests/test_clabber_learned.py``) gives the same bits.
"""

from __future__ import annotations

import numpy as np

from ...core.bits import lowest_bit, popcount
from ...core.jit import njit
from ..rules.config import DECK, JACK, NINE, ROUND_POINTS, RULES_ARRAY_SIZE
from ..rules.melds import hand_melds_ranked, meld_ranking
from ..rules.play_rules import beaters, card_points, power_by_trump, suit_bits
from ..state import (
    S_MAKER, S_N_IN_TRICK, S_PLAYED, S_RULES, S_SEAT, S_TEAM_POINTS, S_TRICK, S_TRICK_CARDS, S_TRICK_POINTS, S_TRUMP,
    S_WIN_CARD, S_WIN_SEAT,
)
from .mc import K_NOT_HELD, K_PLAYED_BY, K_SHOWN

U0 = np.uint64(0)
U1 = np.uint64(1)

# The features in the order the model reads them: (slot, what it says).  A change means retraining.
SLOTS = (
    ("heuristic", "heuristic's card"),
    ("trump", "a trump"),
    ("points", "its points (/20)"),
    ("order", "its place in its suit's order, 1 lowest .. 6 highest (/6)"),
    ("master", "no unseen card of its suit beats it"),
    ("unseen_above", "unseen cards of its suit that beat it (/6)"),
    ("my_length", "my cards in its suit (/6)"),
    ("unseen_in_suit", "unseen cards in its suit (/6)"),
    ("wins", "following: it wins the trick so far"),
    ("sure", "it wins, and no opponent still to play may beat it"),
    ("wins_take", "wins x the trick's points so far (/50)"),
    ("sure_take", "sure x the trick's points with it (/50)"),
    ("feed_partner", "partner wins safely x its points (/20)"),
    ("feed_opponent", "an opponent wins and it does not x its points (/20)"),
    ("lead_opp_ruff", "leading a side suit: opponents void in it that may hold trumps (/2)"),
    ("lead_partner_ruff", "leading a side suit: partner void in it and may hold trumps"),
    ("lead_master", "leading x master"),
    ("lead_trump_opp_trumps", "leading a trump x trumps the opponents may hold (/6)"),
    ("trump_makers", "trump x my team made the trump"),
    ("trump_unseen", "trump x unseen trumps (/6)"),
    ("trump_mine", "trump x my trumps (/6)"),
    ("opp_shown_beater", "an opponent was shown to hold a card of its suit that beats it"),
    ("lead_partner_shown_master", "leading x partner was shown to hold the master of its suit"),
    ("opp_void", "opponents known void in its suit (/2)"),
    ("lowest_legal", "lowest legal card of its suit"),
    ("highest_legal", "highest legal card of its suit"),
    ("late_order", "trick 5 or 6 x its place in its suit (/6)"),
    ("trick_order", "trick number x its place in its suit (/30)"),
    ("later_threats", "opponents still to play that may beat it (/2)"),
    ("partner_later_master", "partner still to play may hold the master of the trick"),
    ("makers_lead_trump", "leading a trump x my team made the trump"),
    ("ahead_wins", "wins x (my team's card points less theirs) (/162)"),
    # The decision's context, the same for every card: the network's hidden units weigh the cards by it.
    ("c_makers", "context: my team made the trump"),
    ("c_margin", "context: my team's card points and known melds less theirs (/100)"),
    ("c_left", "context: card points still to win, the last trick's 10 included (/162)"),
    ("c_trick", "context: trick number (/5)"),
    ("c_place", "context: cards already in the trick (/3)"),
    ("c_partner_wins", "context: my partner wins the trick so far"),
    ("c_trick_points", "context: the trick's points so far (/50)"),
    ("c_my_trumps", "context: my trumps (/6)"),
    ("c_unseen_trumps", "context: unseen trumps (/6)"),
    ("c_opp_trumps", "context: trumps the opponents may hold (/6)"),
    ("c_partner_trumps", "context: trumps my partner may hold (/6)"),
    ("c_top_trumps_out", "context: the jack and 9 of trumps unseen (/2)"),
    ("partner_may_beat", "my partner may hold a card of its suit that beats it"),
)
N_FEATURES = len(SLOTS)
FEATURE_NAMES = tuple(name for name, _ in SLOTS)
F = {name: i for i, name in enumerate(FEATURE_NAMES)}
(F_HEURISTIC, F_TRUMP, F_POINTS, F_ORDER, F_MASTER, F_UNSEEN_ABOVE, F_MY_LENGTH, F_UNSEEN_IN_SUIT, F_WINS, F_SURE,
 F_WINS_TAKE, F_SURE_TAKE, F_FEED_PARTNER, F_FEED_OPPONENT, F_LEAD_OPP_RUFF, F_LEAD_PARTNER_RUFF, F_LEAD_MASTER,
 F_LEAD_TRUMP_OPP_TRUMPS, F_TRUMP_MAKERS, F_TRUMP_UNSEEN, F_TRUMP_MINE, F_OPP_SHOWN_BEATER, F_LEAD_PARTNER_SHOWN_MASTER,
 F_OPP_VOID, F_LOWEST_LEGAL, F_HIGHEST_LEGAL, F_LATE_ORDER, F_TRICK_ORDER, F_LATER_THREATS, F_PARTNER_LATER_MASTER,
 F_MAKERS_LEAD_TRUMP, F_AHEAD_WINS, F_C_MAKERS, F_C_MARGIN, F_C_LEFT, F_C_TRICK, F_C_PLACE, F_C_PARTNER_WINS,
 F_C_TRICK_POINTS, F_C_MY_TRUMPS, F_C_UNSEEN_TRUMPS, F_C_OPP_TRUMPS, F_C_PARTNER_TRUMPS, F_C_TOP_TRUMPS_OUT,
 F_PARTNER_MAY_BEAT) = range(N_FEATURES)


@njit(inline="always", cache=True)
def may_hold(know, seat, unseen):
    """The unseen cards ``seat`` may hold: those no play proved it does not hold."""
    return unseen & ~know[K_NOT_HELD + seat]


@njit(inline="always", cache=True)
def threatens(may, surely, card, led, trump):
    """True when a seat that may hold ``may`` (and surely holds ``surely``) may beat ``card`` in a trick led
    in ``led``: a higher card of ``card``'s suit, or, ``card`` not a trump, a trump while it may be void in
    ``led`` (it is not known to hold a card of it)."""
    if may & beaters(card, trump):
        return True
    if card // 13 == trump:
        return False
    return (surely & suit_bits(led)) == U0 and (may & suit_bits(trump)) != U0


@njit(inline="always", cache=True)
def known_meld_margin(hand, state, know):
    """My team's meld points less theirs, as far as the seat knows: its own melds (its cards as dealt), and
    those the other seats have shown; only the team with the single highest meld scores."""
    me = np.int64(state[S_SEAT])
    trump = np.int64(state[S_TRUMP])
    ranking = meld_ranking(state[S_RULES:S_RULES + RULES_ARRAY_SIZE])
    p_me, k_me = hand_melds_ranked(hand | know[K_PLAYED_BY + me], trump, ranking)
    p_pa, k_pa = hand_melds_ranked(know[K_SHOWN + (me ^ 2)], trump, ranking)
    p_o1, k_o1 = hand_melds_ranked(know[K_SHOWN + (me ^ 1)], trump, ranking)
    p_o3, k_o3 = hand_melds_ranked(know[K_SHOWN + (me ^ 3)], trump, ranking)
    top_us = max(k_me, k_pa)
    top_them = max(k_o1, k_o3)
    if top_us > top_them:
        return p_me + p_pa
    if top_them > top_us:
        return -(p_o1 + p_o3)
    return 0


@njit(cache=True, _nrt=False)
def fill_features(legal, hand, state, know, heur, x):
    """Fill ``x`` (at least popcount(legal) rows of ``N_FEATURES`` float32) with one row per legal card,
    lowest card first; returns the number of rows.

    ``know``: the table's knowledge (``K_NOT_HELD``, ``K_SHOWN`` of the mc array); ``heur``: the card
    ``heuristic`` plays here.
    """
    me = np.int64(state[S_SEAT])
    partner = me ^ 2
    trump = np.int64(state[S_TRUMP])
    k = np.int64(state[S_N_IN_TRICK])
    trick = np.int64(state[S_TRICK])
    played = state[S_PLAYED]
    unseen = DECK & ~played & ~hand
    tb = suit_bits(trump)
    makers = (np.int64(state[S_MAKER]) & 1) == (me & 1)
    ours = np.int64(state[S_TEAM_POINTS + (me & 1)])
    theirs = np.int64(state[S_TEAM_POINTS + 1 - (me & 1)])
    ahead = np.float64(ours - theirs)
    margin = np.float64(ours - theirs + known_meld_margin(hand, state, know))
    lead = k == 0
    top_trumps = (U1 << np.uint64(13 * trump + JACK)) | (U1 << np.uint64(13 * trump + NINE))
    led = np.int64(state[S_TRICK_CARDS]) // 13 if k > 0 else -1
    win_card = np.int64(state[S_WIN_CARD]) if k > 0 else -1
    win_seat = np.int64(state[S_WIN_SEAT]) if k > 0 else -1
    trick_pts = np.float64(np.int64(state[S_TRICK_POINTS])) if k > 0 else 0.0
    opp_trumps = U0
    # Per seat: what it may hold and what it surely holds (shown, not played since).
    may0 = may_hold(know, 0, unseen)
    may1 = may_hold(know, 1, unseen)
    may2 = may_hold(know, 2, unseen)
    may3 = may_hold(know, 3, unseen)
    for j in (me ^ 1, me ^ 3):
        opp_trumps |= may_hold(know, j, unseen) & tb
    # The seats still to play to this trick after me: me + 1 .. me + 3 - k.
    n_later = 3 - k
    partner_later = n_later >= 2  # the partner sits two seats on
    opp_winning = k > 0 and (win_seat & 1) != (me & 1)
    partner_safe = False
    if k > 0 and win_seat == partner:
        partner_safe = True
        for d in range(1, n_later + 1):
            j = (me + d) & 3
            if (j & 1) != (me & 1):
                mj = may0 if j == 0 else may1 if j == 1 else may2 if j == 2 else may3
                if threatens(mj, know[K_SHOWN + j] & unseen, win_card, led, trump):
                    partner_safe = False
    n = 0
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - U1
        s = c // 13
        sb = suit_bits(s)
        row = x[n]
        for i in range(N_FEATURES):
            row[i] = np.float32(0.0)
        is_trump = s == trump
        pts = np.float64(card_points(c, trump))
        order = np.float64(power_by_trump(c, trump) - (16 if is_trump else 0))
        above = unseen & beaters(c, trump)
        master = above == U0
        lead_suit = s if lead else led
        if lead:
            wins = True
        else:
            wins = (is_trump or s == led) and power_by_trump(c, trump) > power_by_trump(win_card, trump)
        threats = 0
        for d in range(1, n_later + 1):
            j = (me + d) & 3
            if (j & 1) != (me & 1):
                mj = may0 if j == 0 else may1 if j == 1 else may2 if j == 2 else may3
                if threatens(mj, know[K_SHOWN + j] & unseen, c, lead_suit, trump):
                    threats += 1
        sure = wins and threats == 0
        row[F_HEURISTIC] = np.float32(1.0 if c == heur else 0.0)
        row[F_TRUMP] = np.float32(1.0 if is_trump else 0.0)
        row[F_POINTS] = np.float32(pts / 20.0)
        row[F_ORDER] = np.float32(order / 6.0)
        row[F_MASTER] = np.float32(1.0 if master else 0.0)
        row[F_UNSEEN_ABOVE] = np.float32(popcount(above) / 6.0)
        row[F_MY_LENGTH] = np.float32(popcount(hand & sb) / 6.0)
        row[F_UNSEEN_IN_SUIT] = np.float32(popcount(unseen & sb) / 6.0)
        if not lead:
            row[F_WINS] = np.float32(1.0 if wins else 0.0)
            row[F_WINS_TAKE] = np.float32(trick_pts / 50.0 if wins else 0.0)
            row[F_AHEAD_WINS] = np.float32(ahead / ROUND_POINTS if wins else 0.0)
        row[F_SURE] = np.float32(1.0 if sure else 0.0)
        row[F_SURE_TAKE] = np.float32((trick_pts + pts) / 50.0 if sure else 0.0)
        row[F_FEED_PARTNER] = np.float32(pts / 20.0 if partner_safe else 0.0)
        row[F_FEED_OPPONENT] = np.float32(pts / 20.0 if opp_winning and not wins else 0.0)
        opp_void = 0
        opp_ruff = 0
        for j in (me ^ 1, me ^ 3):
            mj = may0 if j == 0 else may1 if j == 1 else may2 if j == 2 else may3
            if (mj & sb) == U0:
                opp_void += 1
                if (mj & tb) != U0:
                    opp_ruff += 1
        row[F_OPP_VOID] = np.float32(opp_void / 2.0)
        mp = may0 if partner == 0 else may1 if partner == 1 else may2 if partner == 2 else may3
        if lead and not is_trump:
            row[F_LEAD_OPP_RUFF] = np.float32(opp_ruff / 2.0)
            row[F_LEAD_PARTNER_RUFF] = np.float32(1.0 if (mp & sb) == U0 and (mp & tb) != U0 else 0.0)
        if lead:
            row[F_LEAD_MASTER] = np.float32(1.0 if master else 0.0)
            if is_trump:
                row[F_LEAD_TRUMP_OPP_TRUMPS] = np.float32(popcount(opp_trumps) / 6.0)
                row[F_MAKERS_LEAD_TRUMP] = np.float32(1.0 if makers else 0.0)
        if is_trump:
            row[F_TRUMP_MAKERS] = np.float32(1.0 if makers else 0.0)
            row[F_TRUMP_UNSEEN] = np.float32(popcount(unseen & tb) / 6.0)
            row[F_TRUMP_MINE] = np.float32(popcount(hand & tb) / 6.0)
        shown_opp = (know[K_SHOWN + (me ^ 1)] | know[K_SHOWN + (me ^ 3)]) & unseen
        row[F_OPP_SHOWN_BEATER] = np.float32(1.0 if (shown_opp & above) != U0 else 0.0)
        # the master of the suit among the unseen cards and mine: the one no other unseen card beats
        if lead:
            best_unseen = _master_of(unseen & sb, unseen, trump)
            if best_unseen >= 0 and (know[K_SHOWN + partner] >> np.uint64(best_unseen)) & U1:
                row[F_LEAD_PARTNER_SHOWN_MASTER] = np.float32(1.0)
        others = legal & sb & ~(U1 << np.uint64(c))
        row[F_LOWEST_LEGAL] = np.float32(1.0 if (others & beaters(c, trump)) == others else 0.0)
        row[F_HIGHEST_LEGAL] = np.float32(1.0 if (others & beaters(c, trump)) == U0 else 0.0)
        if trick >= 4:
            row[F_LATE_ORDER] = np.float32(order / 6.0)
        row[F_TRICK_ORDER] = np.float32(np.float64(trick) * order / 30.0)
        row[F_LATER_THREATS] = np.float32(threats / 2.0)
        if partner_later:
            # the partner may beat every card the trick holds or will hold from me: it may hold the
            # highest unseen contender (a trump if any is unseen, else the led suit's best)
            row[F_PARTNER_LATER_MASTER] = np.float32(1.0 if _may_hold_master(mp, unseen, lead_suit, trump) else 0.0)
        row[F_C_MAKERS] = np.float32(1.0 if makers else 0.0)
        row[F_C_MARGIN] = np.float32(margin / 100.0)
        row[F_C_LEFT] = np.float32(np.float64(ROUND_POINTS - ours - theirs) / ROUND_POINTS)
        row[F_C_TRICK] = np.float32(np.float64(trick) / 5.0)
        row[F_C_PLACE] = np.float32(np.float64(k) / 3.0)
        row[F_C_PARTNER_WINS] = np.float32(1.0 if k > 0 and win_seat == partner else 0.0)
        row[F_C_TRICK_POINTS] = np.float32(trick_pts / 50.0)
        row[F_C_MY_TRUMPS] = np.float32(popcount(hand & tb) / 6.0)
        row[F_C_UNSEEN_TRUMPS] = np.float32(popcount(unseen & tb) / 6.0)
        row[F_C_OPP_TRUMPS] = np.float32(popcount(opp_trumps) / 6.0)
        row[F_C_PARTNER_TRUMPS] = np.float32(popcount(mp & tb) / 6.0)
        row[F_C_TOP_TRUMPS_OUT] = np.float32(popcount(unseen & top_trumps) / 2.0)
        row[F_PARTNER_MAY_BEAT] = np.float32(1.0 if (mp & above) != U0 else 0.0)
        n += 1
    return n


@njit(inline="always", cache=True)
def _master_of(pool, unseen, trump):
    """The card of ``pool`` that no card of ``unseen`` beats (the last such in card order), or -1 for none."""
    best = -1
    while pool:
        u = lowest_bit(pool)
        pool &= pool - U1
        if (unseen & beaters(u, trump)) == U0:
            best = u
    return best


@njit(inline="always", cache=True)
def _may_hold_master(mp, unseen, led, trump):
    """True when the seat that may hold ``mp`` may hold the best unseen card that can win a trick led in ``led``."""
    pool = unseen & suit_bits(trump)
    if pool == U0:
        pool = unseen & suit_bits(led)
    best = _master_of(pool, unseen, trump)
    return best >= 0 and ((mp >> np.uint64(best)) & U1) != U0


