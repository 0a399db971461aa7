"""A slow, readable pure-Python Clabber engine: the reference the numba engine must match.

Cards are the package's ints ``suit * 13 + rank`` (rank 7 = 9 .. 12 = A; suits C D H S = 0..3);
hands are Python sets.  Everything here is written from the rules (``docs/rules.md``) as plainly as
possible, with its own tables and its own splitmix64, so that an error in the engine's tables or
bit tricks cannot hide in a shared helper.

Conventions shared with the engine (they are choices the rule text leaves open):

- Deal: the 24 cards, ascending, shuffled by Fisher-Yates (``i`` from 23 down to 1, swap with
  ``rand_below(i + 1)``) on the stream ``(seed, round, STREAM_DEAL)``; card ``i`` of the shuffled
  pack goes to the seat ``dealer + 1 + i``, so the last one (the turned card) is the dealer's.
- Bidding draws (policy ``random``) come from ``(seed, round, STREAM_BID)``, play draws from
  ``(seed, round, STREAM_PLAY)``: every bidding policy and strategy sees the same deals.
- A player's melds are the partition of their dealt cards worth most points; among partitions
  worth the same, the one whose highest meld ranks highest.  A run of six counts as one sequence
  of five (the top five).
"""

from itertools import combinations

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
STREAM_DEAL = 0x1F83D9ABFB41BD6B
STREAM_BID = 0x5BE0CD19137E2179
STREAM_PLAY = 0xCBBB9D5DC1059ED8

NINE, TEN, JACK, QUEEN, KING, ACE = 7, 8, 9, 10, 11, 12
RANKS = (NINE, TEN, JACK, QUEEN, KING, ACE)
DECK = [s * 13 + r for s in range(4) for r in RANKS]

TRUMP_ORDER = [JACK, NINE, ACE, TEN, KING, QUEEN]  # highest first
PLAIN_ORDER = [ACE, TEN, KING, QUEEN, JACK, NINE]
TRUMP_POINTS = {JACK: 20, NINE: 14, ACE: 11, TEN: 10, KING: 4, QUEEN: 3}
PLAIN_POINTS = {ACE: 11, TEN: 10, KING: 4, QUEEN: 3, JACK: 2, NINE: 0}
# Four of a kind, in the rules table's order: four jacks highest, then 9s, aces, 10s, kings, queens.
FOURS_ORDER = [JACK, NINE, ACE, TEN, KING, QUEEN]


def suit(card):
    return card // 13


def rank(card):
    return card % 13


def team(seat):
    return seat % 2  # 0: N+S, 1: E+W


# ---------------------------------------------------------------- random numbers
def mix64(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


class Rng:
    """splitmix64 keyed by (seed, index, stream), as ``barbu_sim.core.rng``."""

    def __init__(self, seed, index, stream):
        self.state = mix64((mix64((seed ^ stream) & MASK) + index * GOLDEN) & MASK)

    def below(self, n):
        self.state = (self.state + GOLDEN) & MASK
        return ((mix64(self.state) >> 32) * n) >> 32


# ---------------------------------------------------------------- deal
def deal(seed, round_index, dealer):
    """The four hands (sets, by seat) and the turned card of round ``round_index`` of run ``seed``."""
    rng = Rng(seed, round_index, STREAM_DEAL)
    pack = list(DECK)
    for i in range(23, 0, -1):
        j = rng.below(i + 1)
        pack[i], pack[j] = pack[j], pack[i]
    hands = [set() for _ in range(4)]
    for i, card in enumerate(pack):
        hands[(dealer + 1 + i) % 4].add(card)
    return hands, pack[23]


# ---------------------------------------------------------------- card order and points
def strength(card, trump, led):
    """How strongly a card plays in a trick: trumps above the led suit, other cards nothing."""
    if suit(card) == trump:
        return 100 - TRUMP_ORDER.index(rank(card))
    if suit(card) == led:
        return 50 - PLAIN_ORDER.index(rank(card))
    return 0


def points(card, trump):
    return TRUMP_POINTS[rank(card)] if suit(card) == trump else PLAIN_POINTS[rank(card)]


def trick_winner(cards, trump):
    """Index in ``cards`` (in play order) of the card that wins the trick."""
    led = suit(cards[0])
    powers = [strength(c, trump, led) for c in cards]
    return powers.index(max(powers))


def legal_cards(hand, trick, seats, trump, seat, partner_excuse=False):
    """The cards of ``hand`` that ``seat`` may play to ``trick`` (cards so far, played by ``seats``)."""
    if not trick:
        return set(hand)
    led = suit(trick[0])
    follow = {c for c in hand if suit(c) == led}
    my_trumps = {c for c in hand if suit(c) == trump}
    trick_trumps = [c for c in trick if suit(c) == trump]
    top = max((strength(c, trump, led) for c in trick_trumps), default=None)
    partner_winning = seats[trick_winner(trick, trump)] == (seat + 2) % 4
    excused = partner_excuse and partner_winning
    if led == trump:
        if not follow:
            return set(hand)
        if excused:
            return follow
        beating = {c for c in follow if strength(c, trump, led) > top}
        return beating or follow
    if follow:
        return follow
    if not my_trumps or excused:
        return set(hand)
    beating = {c for c in my_trumps if top is None or strength(c, trump, led) > top}
    return beating or my_trumps


# ---------------------------------------------------------------- melds
FOURS_BY_CARD_RANK = [JACK, ACE, KING, QUEEN, TEN, NINE]


def meld_key(meld, trump, rules=None):
    """A comparable rank of a meld ``(kind, cards)``.

    The rule text (``meld-ranking=fours-first``): fours above sequences, fours in the table's order
    (or by card rank under ``meld-fours=card-rank``, jacks always first), sequences by length, top
    card, trumps.  ``points-first``: points, then the top card, then a four over a sequence, then a
    trump sequence over a plain one.
    """
    kind, cards = meld
    top = max(rank(c) for c in cards)
    if rules is not None and rules.meld_ranking == "points-first":
        return (meld_points(meld), top, int(kind == "four"), int(kind != "four" and suit(cards[0]) == trump))
    if kind == "four":
        order = FOURS_BY_CARD_RANK if rules is not None and rules.meld_fours == "card-rank" else FOURS_ORDER
        return (3, 0, 0, 0) if top == JACK else (2, 5 - order.index(top), 0, 0)
    return (1, len(cards), top, int(suit(cards[0]) == trump))


def meld_points(meld):
    kind, cards = meld
    if kind == "four":
        return 200 if rank(cards[0]) == JACK else 100
    return {3: 20, 4: 50, 5: 100}[len(cards)]


def candidate_melds(hand):
    """Every meld a hand could declare, overlapping ones included."""
    melds = []
    for r in RANKS:
        four = [s * 13 + r for s in range(4)]
        if all(c in hand for c in four):
            melds.append(("four", tuple(four)))
    for s in range(4):
        for length in (3, 4, 5):
            for low in range(NINE, ACE - length + 2):
                run = tuple(s * 13 + r for r in range(low, low + length))
                if all(c in hand for c in run):
                    melds.append(("sequence", run))
    return melds


def best_melds(hand, trump):
    """The holder's best partition: a list of disjoint melds, most points, then highest top meld."""
    cands = candidate_melds(hand)
    best, best_value = [], (0, ())
    for k in range(1, len(cands) + 1):
        for combo in combinations(cands, k):
            used = [c for m in combo for c in m[1]]
            if len(used) != len(set(used)):
                continue
            value = (sum(meld_points(m) for m in combo), max(meld_key(m, trump) for m in combo))
            if value > best_value:
                best, best_value = list(combo), value
    return best


def team_melds(hands, trump, rules=None):
    """(meld points scored by team 0, by team 1, the melds of each seat) after the comparison."""
    per_seat = [best_melds(h, trump) for h in hands]
    tops = []
    for t in range(2):
        keys = [meld_key(m, trump, rules) for s in (t, t + 2) for m in per_seat[s]]
        tops.append(max(keys) if keys else None)
    totals = [sum(meld_points(m) for s in (t, t + 2) for m in per_seat[s]) for t in range(2)]
    if tops[0] is None and tops[1] is None or tops[0] == tops[1]:
        return 0, 0, per_seat
    if tops[1] is None or (tops[0] is not None and tops[0] > tops[1]):
        return totals[0], 0, per_seat
    return 0, totals[1], per_seat


def longest_run(hand):
    """The longest run of one suit in natural order among a hand's cards (a six counts as 6)."""
    best = 0
    for s in range(4):
        run = 0
        for r in RANKS:
            run = run + 1 if s * 13 + r in hand else 0
            best = max(best, run)
    return best


def has_four(hand):
    return any(all(s * 13 + r in hand for s in range(4)) for r in RANKS)


# ---------------------------------------------------------------- bidding
def hand_strength(hand, trump):
    """The ``threshold`` policy's score: trump card points + 10 per trump + 10 per side ace."""
    score = 0
    for c in hand:
        if suit(c) == trump:
            score += TRUMP_POINTS[rank(c)] + 10
        elif rank(c) == ACE:
            score += 10
    return score


def bid_decision(policy, hand, turned, round_two, rng):
    """One player's bid: ``True``/``False`` in round one; a suit or ``None`` in round two.

    ``policy`` is ``("accept-first",)``, ``("random",)`` or ``("threshold", X)``.
    """
    allowed = [s for s in range(4) if s != suit(turned) and any(suit(c) == s for c in hand)]
    name = policy[0]
    if not round_two:
        if name == "accept-first":
            return True
        if name == "random":
            return rng.below(2) == 1
        return hand_strength(hand, suit(turned)) >= policy[1]
    if name == "accept-first":
        return allowed[0] if allowed else None
    if name == "random":
        k = rng.below(len(allowed) + 1)
        return allowed[k - 1] if k else None
    best = max(allowed, key=lambda s: (hand_strength(hand, s), -s), default=None)
    return best if best is not None and hand_strength(hand, best) >= policy[1] else None


def bidding(hands, turned, dealer, policies, rng):
    """(bidding round 1 or 2, maker seat, trump suit, bids) or (0, None, None, bids) when thrown in."""
    bids = []
    for k in range(4):
        seat = (dealer + 1 + k) % 4
        accept = bid_decision(policies[seat], hands[seat], turned, False, rng)
        bids.append((seat, "play" if accept else "pass"))
        if accept:
            return 1, seat, suit(turned), bids
    for k in range(4):
        seat = (dealer + 1 + k) % 4
        named = bid_decision(policies[seat], hands[seat], turned, True, rng)
        bids.append((seat, "CDHS"[named] if named is not None else "pass"))
        if named is not None:
            return 2, seat, named, bids
    return 0, None, None, bids


# ---------------------------------------------------------------- play and score
def settle(totals, makers):
    """The makers' rule: the makers score their total only if strictly above the defenders'."""
    scores = list(totals)
    if totals[makers] <= totals[1 - makers]:
        scores[makers] = 0
    return scores


def random_strategy(legal, hand, view, rng):
    """Uniform among the legal cards, drawing exactly as the engine's ``random`` does."""
    ordered = sorted(legal)
    return ordered[rng.below(len(ordered))]


def play_round(hands, turned, dealer, policies, strategies, seed=0, round_index=0, partner_excuse=False,
               forced_bidding=None, replay=None, misplay="error", meld_rules=None):
    """Play one round from dealt ``hands`` and return everything that happened, as a dict.

    ``strategies[seat](legal, hand, view, rng)`` returns a card; with ``replay`` (a list of cards in
    play order) the cards are taken from it instead and each is checked for legality.
    ``forced_bidding`` = (bid_round, maker, trump) skips the bidding.  ``misplay="penalty"``: an
    illegal card ends the round, the opponents scoring 162 plus all their melds, the offenders nothing.
    ``meld_rules``: a Clabber ``Rules`` whose meld ranking applies (None: the rule text's).
    """
    dealt = [set(h) for h in hands]
    hands = [set(h) for h in hands]
    if forced_bidding is not None:
        bid_round, maker, trump = forced_bidding
        bids = []
    else:
        bid_round, maker, trump, bids = bidding(hands, turned, dealer, policies, Rng(seed, round_index, STREAM_BID))
    out = {"bid_round": bid_round, "maker": maker, "trump": trump, "bids": bids, "plays": [], "winners": [],
           "card_points": [0, 0], "meld_points": [0, 0], "bell": [0, 0], "totals": [0, 0], "scores": [0, 0],
           "melds": [[] for _ in range(4)]}
    if bid_round == 0:
        return out
    rng = Rng(seed, round_index, STREAM_PLAY)
    leader = (dealer + 1) % 4
    card_points = [0, 0]
    bell = [0, 0]
    bell_holder = next((s for s in range(4) if {trump * 13 + KING, trump * 13 + QUEEN} <= dealt[s]), None)
    bell_played = 0
    replay_iter = iter(replay) if replay is not None else None
    for t in range(6):
        trick, seats = [], []
        for k in range(4):
            seat = (leader + k) % 4
            legal = legal_cards(hands[seat], trick, seats, trump, seat, partner_excuse)
            if replay_iter is not None:
                card = next(replay_iter)
            else:
                card = strategies[seat](legal, set(hands[seat]), {"trick": list(trick), "trump": trump}, rng)
            if card not in legal:
                if misplay == "penalty":
                    other = 1 - team(seat)
                    melds = sum(meld_points(m) for s in (other, other + 2) for m in best_melds(dealt[s], trump))
                    scores = [0, 0]
                    scores[other] = 162 + melds
                    out.update(scores=scores, misplay=seat)
                    return out
                raise ValueError(f"illegal card {card} by seat {seat} in trick {t}")
            hands[seat].remove(card)
            trick.append(card)
            seats.append(seat)
            out["plays"].append((seat, card))
            if seat == bell_holder and card in (trump * 13 + KING, trump * 13 + QUEEN):
                bell_played += 1
                if bell_played == 2:
                    bell[team(seat)] = 20
        w = seats[trick_winner(trick, trump)]
        out["winners"].append(w)
        card_points[team(w)] += sum(points(c, trump) for c in trick) + (10 if t == 5 else 0)
        leader = w
    m0, m1, per_seat = team_melds(dealt, trump, meld_rules)
    totals = [card_points[0] + m0 + bell[0], card_points[1] + m1 + bell[1]]
    scores = settle(totals, team(maker))
    out.update(card_points=card_points, meld_points=[m0, m1], bell=bell, totals=totals, scores=scores,
               melds=per_seat)
    return out
