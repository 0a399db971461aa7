"""Clabber's learned player: a plain-Python reference of its features (from the seat's view, with the
table's knowledge rebuilt from the record) and of its network agrees with the kernels to the bit, and
the kernels' plays are the reference's, decision by decision (the swap test); the weights are an
argument; the model id reaches the manifests; a damaged model file is a one-line error."""

import numpy as np
import pytest

from barbu_sim.clabber import api
from barbu_sim.clabber.api import play_round
from barbu_sim.clabber.players import learned
from barbu_sim.clabber.players.features import F, N_FEATURES, fill_features
from barbu_sim.clabber.players.heuristic import heuristic_strategy
from barbu_sim.clabber.players.learned import MAX_HIDDEN, MAX_LEGAL, W_BIAS, W_INPUT, W_LINEAR, W_OUTPUT
from barbu_sim.clabber.players.mc import MC_WORK_SIZE, replay_into
from barbu_sim.clabber.players.registry import resolve_strategy
from barbu_sim.clabber.players.rollout import legal_now
from barbu_sim.clabber.rules import Rules
from barbu_sim.clabber.runs import seat_players
from barbu_sim.clabber.state import STATE_ARRAY_SIZE
from clabber_reference import team_melds as ref_team_melds
from clabber_reference import PLAIN_ORDER, PLAIN_POINTS, TRUMP_ORDER, TRUMP_POINTS, legal_cards, rank, suit

NINE, ACE = 7, 12
DECK = {s * 13 + r for s in range(4) for r in range(NINE, ACE + 1)}


# ---------------------------------------------------------------- the reference
def order(c, trump):
    """1 (lowest) .. 6 (highest) within its suit."""
    return 6 - (TRUMP_ORDER if suit(c) == trump else PLAIN_ORDER).index(rank(c))


def pts(c, trump):
    return (TRUMP_POINTS if suit(c) == trump else PLAIN_POINTS)[rank(c)]


def beaters(c, pool, trump):
    return {d for d in pool if suit(d) == suit(c) and order(d, trump) > order(c, trump)}


def meld_cards(hand):
    """The cards of a dealt hand's melds: its four of a kind, else its runs of 3+ (of six: the top five)."""
    for r in range(NINE, ACE + 1):
        if all(s * 13 + r in hand for s in range(4)):
            return {s * 13 + r for s in range(4)}
    out = set()
    for s in range(4):
        run = []
        for r in list(range(NINE, ACE + 1)) + [None]:
            if r is not None and s * 13 + r in hand:
                run.append(s * 13 + r)
                continue
            if len(run) >= 3:
                out |= set(run[-5:])
            run = []
    return out


def knowledge(r, n, rules):
    """``(not_held, shown)`` per seat before play ``n``, from the record: what each play proved a seat does
    not hold, and the turned card and the melds shown (each seat's when it plays to the first trick)."""
    not_held, shown = [set() for _ in range(4)], [set() for _ in range(4)]
    shown[r.dealer].add(r.turned)
    hands = [{c for c in range(52) if int(h) >> c & 1} for h in r.hands]
    if rules.meld_show == "at-once":
        for s in range(4):
            shown[s] |= meld_cards(hands[s])
    played, trick, seats = set(), [], []
    trump = r.row["trump"]
    for seat, card in r.plays[:n]:
        if len(played) < 4:  # the first trick: the seat shows its melds
            shown[seat] |= meld_cards(hands[seat])
        if trick:
            for d in DECK - played - not_held[seat] - {card}:
                if card not in legal_cards({card, d}, trick, seats, trump, seat, rules.partner_excuse):
                    not_held[seat].add(d)
        played.add(card)
        trick.append(card)
        seats.append(seat)
        if len(trick) == 4:
            trick, seats = [], []
    return not_held, shown


def threatens(may, surely, card, led, trump):
    if beaters(card, may, trump):
        return True
    if suit(card) == trump:
        return False
    return not any(suit(d) == led for d in surely) and any(suit(d) == trump for d in may)


def master_of(pool, unseen, trump):
    tops = [u for u in pool if not beaters(u, unseen, trump)]
    return tops[0] if tops else None


def reference_features(r, n, rules, heur):
    """The feature rows of the decision before play ``n`` (lowest legal card first), in plain Python."""
    from clabber_reference import strength, trick_winner
    trump, maker = r.row["trump"], r.row["maker"]
    hands = [{c for c in range(52) if int(h) >> c & 1} for h in r.hands]
    plays = r.plays[:n]
    done = n - n % 4
    # who leads the current trick, and the team points so far
    team_pts, leader, t0 = [0, 0], (r.dealer + 1) % 4, 0
    for i in range(0, done, 4):
        cards = [c for _, c in plays[i:i + 4]]
        w = plays[i + trick_winner(cards, trump)][0]
        team_pts[w % 2] += sum(pts(c, trump) for c in cards) + (10 if i == 20 else 0)
        leader = w
        t0 += 1
    trick = [c for _, c in plays[done:]]
    tseats = [s for s, _ in plays[done:]]
    me = (leader + len(trick)) % 4
    for s, c in plays:
        hands[s].discard(c)
    hand = hands[me]
    played = {c for _, c in plays}
    unseen = DECK - played - hand
    not_held, shown = knowledge(r, n, rules)
    may = [unseen - not_held[j] for j in range(4)]
    surely = [shown[j] & unseen for j in range(4)]
    legal = sorted(legal_cards(hand, trick, tseats, trump, me, rules.partner_excuse))
    k = len(trick)
    lead = k == 0
    led = suit(trick[0]) if trick else None
    win_card = trick[trick_winner(trick, trump)] if trick else None
    win_seat = tseats[trick_winner(trick, trump)] if trick else None
    trick_pts = float(sum(pts(c, trump) for c in trick))
    makers = maker % 2 == me % 2
    ahead = float(team_pts[me % 2] - team_pts[1 - me % 2])
    partner = me ^ 2
    # the melds as far as the seat knows them: its own (its cards as dealt), the others' shown ones
    seen = [{c for c in range(52) if int(r.hands[me]) >> c & 1} if j == me else shown[j] for j in range(4)]
    m0, m1, _ = ref_team_melds(seen, trump, rules)
    meld_margin = float((m0 - m1) if me % 2 == 0 else (m1 - m0))
    later = [(me + d) % 4 for d in range(1, 4 - k)]
    later_opps = [j for j in later if j % 2 != me % 2]
    opps = [me ^ 1, me ^ 3]
    opp_trumps = {d for j in opps for d in may[j] if suit(d) == trump}
    partner_safe = k > 0 and win_seat == partner and not any(
        threatens(may[j], surely[j], win_card, led, trump) for j in later_opps)
    rows = []
    for c in legal:
        s = suit(c)
        x = np.zeros(N_FEATURES, np.float32)
        is_trump = s == trump
        p = float(pts(c, trump))
        o = float(order(c, trump))
        above = beaters(c, unseen, trump)
        master = not above
        lead_suit = s if lead else led
        wins = True if lead else (is_trump or s == led) and strength(c, trump, led) > strength(win_card, trump, led)
        threats = sum(threatens(may[j], surely[j], c, lead_suit, trump) for j in later_opps)
        sure = wins and threats == 0
        x[F["heuristic"]] = c == heur
        x[F["trump"]] = is_trump
        x[F["points"]] = p / 20.0
        x[F["order"]] = o / 6.0
        x[F["master"]] = master
        x[F["unseen_above"]] = len(above) / 6.0
        x[F["my_length"]] = sum(suit(d) == s for d in hand) / 6.0
        x[F["unseen_in_suit"]] = sum(suit(d) == s for d in unseen) / 6.0
        if not lead:
            x[F["wins"]] = wins
            x[F["wins_take"]] = trick_pts / 50.0 if wins else 0.0
            x[F["ahead_wins"]] = ahead / 162.0 if wins else 0.0
        x[F["sure"]] = sure
        x[F["sure_take"]] = (trick_pts + p) / 50.0 if sure else 0.0
        x[F["feed_partner"]] = p / 20.0 if partner_safe else 0.0
        x[F["feed_opponent"]] = p / 20.0 if k > 0 and win_seat % 2 != me % 2 and not wins else 0.0
        voids = [j for j in opps if not any(suit(d) == s for d in may[j])]
        x[F["opp_void"]] = len(voids) / 2.0
        if lead and not is_trump:
            x[F["lead_opp_ruff"]] = sum(any(suit(d) == trump for d in may[j]) for j in voids) / 2.0
            x[F["lead_partner_ruff"]] = not any(suit(d) == s for d in may[partner]) and any(
                suit(d) == trump for d in may[partner])
        if lead:
            x[F["lead_master"]] = master
            if is_trump:
                x[F["lead_trump_opp_trumps"]] = len(opp_trumps) / 6.0
                x[F["makers_lead_trump"]] = makers
            best = master_of({d for d in unseen if suit(d) == s}, unseen, trump)
            x[F["lead_partner_shown_master"]] = best is not None and best in shown[partner]
        if is_trump:
            x[F["trump_makers"]] = makers
            x[F["trump_unseen"]] = sum(suit(d) == trump for d in unseen) / 6.0
            x[F["trump_mine"]] = sum(suit(d) == trump for d in hand) / 6.0
        x[F["opp_shown_beater"]] = bool(above & ((shown[me ^ 1] | shown[me ^ 3]) & unseen))
        mine = [d for d in legal if suit(d) == s and d != c]
        x[F["lowest_legal"]] = all(order(d, trump) > o for d in mine)
        x[F["highest_legal"]] = all(order(d, trump) < o for d in mine)
        if t0 >= 4:
            x[F["late_order"]] = o / 6.0
        x[F["trick_order"]] = t0 * o / 30.0
        x[F["later_threats"]] = threats / 2.0
        if len(later) >= 2:
            pool = {d for d in unseen if suit(d) == trump} or {d for d in unseen if suit(d) == lead_suit}
            best = master_of(pool, unseen, trump)
            x[F["partner_later_master"]] = best is not None and best in may[partner]
        x[F["c_makers"]] = makers
        x[F["c_margin"]] = (ahead + meld_margin) / 100.0
        x[F["c_left"]] = (162 - team_pts[0] - team_pts[1]) / 162.0
        x[F["c_trick"]] = t0 / 5.0
        x[F["c_place"]] = k / 3.0
        x[F["c_partner_wins"]] = k > 0 and win_seat == partner
        x[F["c_trick_points"]] = trick_pts / 50.0
        x[F["c_my_trumps"]] = sum(suit(d) == trump for d in hand) / 6.0
        x[F["c_unseen_trumps"]] = sum(suit(d) == trump for d in unseen) / 6.0
        x[F["c_opp_trumps"]] = len(opp_trumps) / 6.0
        x[F["c_partner_trumps"]] = sum(suit(d) == trump for d in may[partner]) / 6.0
        x[F["c_top_trumps_out"]] = len({trump * 13 + 9, trump * 13 + NINE} & unseen) / 2.0
        x[F["partner_may_beat"]] = bool(above & may[partner])
        rows.append(x)
    return legal, rows


def reference_predict(model, x):
    """The network in numpy float32, in the model's order: feature after feature (the hidden units side by side,
    each sum rounded to float32 at every step as a scalar's would be), then the output layer unit after unit."""
    h = int(model[0])
    units = model[W_BIAS:W_BIAS + h].astype(np.float32)
    v = np.float32(0.0)
    for i in range(N_FEATURES):
        if x[i] != 0:
            v = np.float32(v + model[W_LINEAR + i] * x[i])
            units = (units + model[W_INPUT + i * MAX_HIDDEN:W_INPUT + i * MAX_HIDDEN + h] * x[i]).astype(np.float32)
    for j in range(h):
        if units[j] > 0:
            v = np.float32(v + model[W_OUTPUT + j] * units[j])
    return v


# ---------------------------------------------------------------- the tests
def _engine_view(r, n, rules):
    state = np.zeros(STATE_ARRAY_SIZE, np.uint64)
    hands = np.empty(4, np.uint64)
    mcw = np.zeros(MC_WORK_SIZE, np.uint64)
    plays = np.array(r.plays, np.int64).reshape(-1, 2)
    replay_into(np.ascontiguousarray(r.hands, np.uint64), r.dealer, r.turned, r.row["trump"], r.row["maker"],
                rules.to_array(), plays, n, state, hands, mcw, np.uint64(0))
    return state, hands, mcw


CASES = [(Rules(), "accept-first", 120), (Rules(partner_excuse=True, meld_show="at-once"), "threshold:60", 40)]


@pytest.mark.parametrize("rules,bidding,rounds", CASES)
def test_features_and_plays_match_the_reference(rules, bidding, rounds):
    """Every decision of learned-against-heuristic and all-learned rounds: the kernel's features are the
    reference's to the bit, and each learned seat plays the reference's card (the first divergence is named)."""
    model = learned.model_array()
    decisions = learned_checked = 0
    for i in range(rounds):
        seats = ["learned"] * 4 if i % 2 else ["learned", "heuristic", "learned", "heuristic"]
        r = play_round(11, i, dealer=i % 4, bidding=bidding, strategies=seats, rules=rules)
        if r.row["maker"] < 0:
            continue
        for n, (seat, card) in enumerate(r.plays):
            state, hands, mcw = _engine_view(r, n, rules)
            legal = np.uint64(legal_now(hands[seat], state))
            if bin(int(legal)).count("1") < 2:
                continue
            heur = int(heuristic_strategy(legal, hands[seat], state, np.zeros(1, np.uint64)))
            xs = np.zeros((MAX_LEGAL, N_FEATURES), np.float32)
            k = fill_features(legal, hands[seat], state, mcw, heur, xs)
            cards, rows = reference_features(r, n, rules, heur)
            assert k == len(rows) and cards == [c for c in range(52) if int(legal) >> c & 1]
            for c, a, b in zip(cards, xs[:k], rows):
                bad = [name for name, i in F.items() if a[i].tobytes() != b[i].tobytes()]
                assert not bad, f"round {i} play {n} card {c}: features {bad} differ: {a} vs {b}"
            decisions += 1
            if seats[seat] == "learned":
                values = [reference_predict(model, x) for x in rows]
                best = cards[int(np.argmax(values))]
                assert card == best, f"round {i}: the first divergence is play {n} (seat {seat}): {card} vs {best}"
                learned_checked += 1
    assert decisions > 10 * rounds and learned_checked > 5 * rounds


def test_weights_are_an_argument(monkeypatch):
    """A model of zero weights, handed to the same compiled kernel, values every card alike: the lowest plays."""
    zero = np.zeros_like(learned.model_array())
    monkeypatch.setattr(api, "model_array", lambda: zero)
    r = play_round(5, 2, strategies="learned")
    for n, (seat, card) in enumerate(r.plays):
        state, hands, _ = _engine_view(r, n, Rules())
        assert card == min(c for c in range(52) if int(legal_now(hands[seat], state)) >> c & 1)
    monkeypatch.undo()
    assert play_round(5, 2, strategies="learned").plays != r.plays  # the packaged model plays otherwise


def test_model_id_in_names_and_manifests():
    mid = learned.model_id()
    assert len(mid) == 12 and int(mid, 16) >= 0
    assert resolve_strategy("learned").name == f"learned@{mid}"
    assert resolve_strategy(f"learned@{mid}").builtin_id == resolve_strategy("learned").builtin_id
    players = seat_players(["learned", "heuristic", "learned", "heuristic"], ["accept-first"] * 4)
    assert [p["player"] for p in players] == [f"learned@{mid}", "heuristic", f"learned@{mid}", "heuristic"]
    with pytest.raises(ValueError, match="this installation does not have"):
        resolve_strategy("learned@000000000000")
    with pytest.raises(ValueError, match="takes no parameters"):
        resolve_strategy("learned:samples=3")


@pytest.mark.parametrize("text,message", [
    ("{", "not valid JSON"),
    ('{"features": 3, "weights": {"w": []}}', "trained on 3 features"),
    ('{"features": %d, "weights": {"w": [1, 2]}}' % N_FEATURES, f"w must be a list of {N_FEATURES} numbers"),
    ('{"features": %d, "weights": {"w": [NaN%s]}}' % (N_FEATURES, ", 0" * (N_FEATURES - 1)), "not finite"),
])
def test_damaged_model_files_are_one_line_errors(tmp_path, text, message):
    path = tmp_path / "learned.json"
    path.write_text(text)
    with pytest.raises(ValueError, match=message) as e:
        learned.load_model(str(path))
    assert "\n" not in str(e.value) and str(path) in str(e.value)


def test_meld_cards_reference_is_the_rule():
    """The reference's meld cards on hand-made hands (a four; a run of six gives its top five; two runs)."""
    assert meld_cards({s * 13 + 9 for s in range(4)} | {12, 25}) == {s * 13 + 9 for s in range(4)}
    assert meld_cards(set(range(7, 13))) == set(range(8, 13))
    assert meld_cards({7, 8, 9, 20, 21, 22}) == {7, 8, 9, 20, 21, 22}
    assert not meld_cards({7, 8, 10, 20, 21, 23})
