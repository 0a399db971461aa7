"""The declared layouts: their offsets are today's numbers (a move is deliberate), their fields tile
each array, the module constants name every field, and the strategy ids pack and unpack."""

import itertools
import json

import numpy as np
import pytest
from numba import njit

from barbu_sim.barbu import state as barbu_state
from barbu_sim.barbu.players import features, full_state, learned
from barbu_sim.barbu.rules import config as barbu_rules
from barbu_sim.barbu.players.ids import BASIC, HEURISTIC, LEARNED, LOWEST, MC, RANDOM, USER, is_mc
from barbu_sim.barbu.players.mc import layouts as mc_layouts
from barbu_sim.barbu.players.mc import player as mc_player
from barbu_sim.barbu.players.mc.params import MC_ID, ROLLOUTS, mc_id, parse_mc
from barbu_sim.barbu.players.registry import resolve_strategy
from barbu_sim.clabber import state as clabber_state
from barbu_sim.clabber.players import mc as clabber_mc
from barbu_sim.clabber.players.registry import resolve_strategy as clabber_resolve
from barbu_sim.clabber.rules import config as clabber_rules
from barbu_sim.core.fields import ArrayFields, BitFields

# Today's numbers, written out once here (and nowhere in the package).
BARBU_STATE = {"S_CONTRACT": 0, "S_PARAM": 1, "S_SEAT": 2, "S_DECLARER": 3, "S_LEADER": 4, "S_TRICK": 5,
               "S_N_IN_TRICK": 6, "S_TRICK_CARDS": 7, "S_PLAYED": 11, "S_WON": 12, "S_TRICKS_WON": 16,
               "S_DOMINO_LOW": 20, "S_DOMINO_HIGH": 24, "S_CARDS_LEFT": 28, "S_VOIDS": 32, "S_WIN_CARD": 36,
               "S_WIN_SEAT": 37, "S_NOT_HELD": 38, "S_RULES": 42, "STATE_SIZE": 66}
CLABBER_STATE = {"S_SEAT": 0, "S_DEALER": 1, "S_TRUMP": 2, "S_MAKER": 3, "S_LEADER": 4, "S_TRICK": 5,
                 "S_N_IN_TRICK": 6, "S_TRICK_CARDS": 7, "S_PLAYED": 11, "S_WIN_CARD": 12, "S_WIN_SEAT": 13,
                 "S_TOP_TRUMP": 14, "S_TRICK_POINTS": 15, "S_TEAM_POINTS": 16, "S_TURNED": 18, "S_BID_ROUND": 19,
                 "S_RULES": 20, "STATE_SIZE": 25, "S_SNAP_LEGAL": 25, "S_SNAP_HAND": 26, "S_SNAP_RNG": 27,
                 "STATE_ARRAY_SIZE": 28}
MC_WORK = {"W_LAYOUT": 0, "W_HANDS": 4, "W_ALLOWED": 8, "W_CAP": 12, "W_SCORES": 16, "W_RULES": 20, "W_RNG": 44,
           "W_STATE": 45, "W_LEARNED": 111, "W_CARD_SCORES": 185, "W_SUMS": 237, "W_SQUARES": 289, "W_VALUES": 341,
           "W_COUNTS": 393, "W_WEIGHTS": 445, "W_TT": 497, "W_HIST": 8690, "W_HIST_CARD": 12122, "W_CROSS": 12174,
           "W_LAYOUT_SUMS": 12343, "MC_WORK_SIZE": 12345}
CLABBER_MC_WORK = {"K_ROOT": 0, "K_NOT_HELD": 1, "K_PLAYED_BY": 5, "K_SHOWN": 9, "W_LAYOUT": 13, "W_DEALT": 17,
                   "W_ALLOWED": 21, "W_CAP": 25, "W_HANDS": 29, "W_RNG": 33, "W_STATE": 34, "W_SUMS": 62,
                   "W_SQUARES": 114, "MC_WORK_SIZE": 166}
EXPLAIN = {"EX_SEAT": 0, "EX_CARD": 1, "EX_PLAYED": 2, "EX_MEAN": 3, "EX_SE": 55, "EX_LAYOUTS": 107,
           "EXPLAIN_WIDTH": 159}
MODEL_ROW = {"W_LINEAR": 1, "W_INPUT": 43, "W_BIAS": 1387, "W_OUTPUT": 1419, "MODEL_WIDTH": 1451}
FULL_STATE = {"LEARNED_AT": 12411, "FULL_STATE_SIZE": 12485}
BARBU_RULES = {"R_BARBU_HEART_LEAD": 0, "R_BARBU_FORCED_DISCARD": 1, "R_TRUMPS_VOID": 2, "R_TRUMPS_OVERTRUMP": 3,
               "R_DOMINO_PAYOUT": 4, "R_NO_HEARTS_LEAD": 8, "R_DOMINO_ACE": 9, "R_DOMINO_START": 10,
               "R_NO_TRICKS_TRICK": 11, "R_NO_QUEENS_QUEEN": 12, "R_NO_LAST_TWO_12": 13, "R_NO_LAST_TWO_13": 14,
               "R_NO_HEARTS_HEART": 15, "R_NO_HEARTS_HIGH": 16, "R_NO_HEARTS_HIGH_FROM": 17, "R_NO_HEARTS_ACE": 18,
               "R_BARBU_KING": 19, "R_TRUMPS_TRICK": 20, "R_BEST_TOTAL": 21, "RULES_ARRAY_SIZE": 24}
CLABBER_RULES = {"R_PARTNER_EXCUSE": 0, "R_MISPLAY": 1, "R_MELD_FOURS": 2, "R_MELD_RANKING": 3, "R_MELD_SHOW": 4,
                 "RULES_ARRAY_SIZE": 5}
# An mc id's fields: (lowest bit, bits).
MC_BITS = {"kind": (0, 4), "rollout": (4, 4), "samples": (8, 24), "endgame": (32, 4), "tail": (36, 4),
           "halving": (40, 1), "infer": (41, 7), "early": (48, 7), "policy": (55, 2)}


@pytest.mark.parametrize("module, numbers", [
    (barbu_state, BARBU_STATE), (clabber_state, CLABBER_STATE), (mc_layouts, MC_WORK),
    (clabber_mc, CLABBER_MC_WORK), (mc_player, EXPLAIN), (learned, MODEL_ROW), (full_state, FULL_STATE),
    (barbu_rules, BARBU_RULES), (clabber_rules, CLABBER_RULES),
])
def test_derived_offsets_are_todays_numbers(module, numbers):
    assert {name: getattr(module, name) for name in numbers} == numbers


def test_the_learned_players_slots_are_in_the_models_order():
    """The model was trained on the features in this order: its file names them."""
    names = json.loads(learned.MODEL_PATH.read_text())["feature_names"]
    assert features.TRICK_FEATURES == tuple(names["tricks"])
    assert features.DOMINO_FEATURES == tuple(names["domino"])
    assert features.N_FEATURES == 42 and (features.T_HEURISTIC, features.T_TRUMP_OTHERS_OUT) == (0, 41)
    assert (features.D_HEURISTIC, features.D_NEXT_PASSED) == (0, 12)
    assert learned.LEARNED_WORK.size == features.N_FEATURES + learned.MAX_HIDDEN


def _tiles(layout: ArrayFields, size: int) -> None:
    """The fields start at 0, each where the one before ends, and end at ``size``: no gap, no overlap."""
    at = 0
    for name, offset, width in layout:
        assert offset == at, f"{name} starts at {offset}, not {at}"
        at += width
    assert at == layout.size == size


def _constants_name_the_fields(module, layout: ArrayFields, prefixes: dict[str, str], more=None) -> None:
    """Each field has its constant (``prefix + NAME``, by the fields' prefix) holding its offset, and no
    constant of those prefixes is left over (but those of ``more``, another layout's)."""
    expected = dict(more or {})
    for name, offset, _ in layout:
        prefix = next(p for first, p in prefixes.items() if first == "*" or name in first.split())
        expected[prefix + name.upper()] = offset
    found = {n: getattr(module, n) for n in dir(module) if n.startswith(tuple(set(prefixes.values())))
             and isinstance(getattr(module, n), int) and not n.endswith("_SIZE")}
    assert found == expected


SNAPSHOT = {f"S_{name.upper()}": offset for name, offset, _ in clabber_state.STATE_ARRAY if name != "fields"}


@pytest.mark.parametrize("module, layout, size, prefixes", [
    (barbu_state, barbu_state.STATE, barbu_state.STATE_SIZE, {"*": "S_"}),
    (clabber_state, clabber_state.STATE, clabber_state.STATE_SIZE, {"*": "S_"}),  # (and SNAPSHOT)
    (mc_layouts, mc_layouts.MC_WORK, mc_layouts.MC_WORK_SIZE, {"*": "W_"}),
    (clabber_mc, clabber_mc.MC_WORK, clabber_mc.MC_WORK_SIZE, {"root not_held played_by shown": "K_", "*": "W_"}),
    (mc_player, mc_player.EXPLAIN, mc_player.EXPLAIN_WIDTH, {"*": "EX_"}),
    (features, features.TRICK_FIELDS, len(features.TRICK_FEATURES), {"*": "T_"}),
    (features, features.DOMINO_FIELDS, len(features.DOMINO_FEATURES), {"*": "D_"}),
    (clabber_rules, clabber_rules.RULES, clabber_rules.RULES_ARRAY_SIZE, {"*": "R_"}),
])
def test_the_fields_tile_the_array_and_the_constants_name_them(module, layout, size, prefixes):
    _tiles(layout, size)
    _constants_name_the_fields(module, layout, prefixes, SNAPSHOT if module is clabber_state else None)


def test_the_barbu_rules_array_tiles_and_its_constants_name_every_field_a_kernel_reads():
    _tiles(barbu_rules.RULES, barbu_rules.RULES_ARRAY_SIZE)
    read = barbu_rules.RULES.fields[:-1]  # the last field, "unused", keeps the array at 24 entries
    assert barbu_rules.RULES.fields[-1][0] == "unused"
    assert {f"R_{name.upper()}": barbu_rules.RULES.offset(name) for name, _ in read} == {
        n: getattr(barbu_rules, n) for n in dir(barbu_rules) if n.startswith("R_")}


def test_the_full_state_array_tiles():
    _tiles(full_state.FULL_STATE, full_state.FULL_STATE_SIZE)
    _tiles(clabber_state.STATE_ARRAY, clabber_state.STATE_ARRAY_SIZE)
    _tiles(learned.MODEL_ROW, learned.MODEL_WIDTH)
    # the rules are the state's last field: the engine clears the fields before them between deals
    assert barbu_state.STATE.fields[-1][0] == "rules" and clabber_state.STATE.fields[-1][0] == "rules"


def test_the_mc_id_fields_are_todays_bits():
    assert {name: (MC_ID.shift(name), MC_ID.bits(name)) for name, _ in MC_ID.fields} == MC_BITS
    assert mc_id() == 219902325571605  # pimc:samples=64 as the kernels have received it
    assert parse_mc("rollout=heuristic").sid == resolve_strategy("mc1").builtin_id == 155039729467413  # mc1
    assert parse_mc("").sid == resolve_strategy("mc").builtin_id == 155039729467493  # mc: learned rollouts
    assert clabber_mc.mc_id() == 12291 and clabber_mc.mc_id(100_000) == 25600003


def test_mc_ids_pack_and_unpack():
    for samples, rollout, endgame, tail, halving, infer, early, policy in itertools.product(
            (1, 64, 100_000), ROLLOUTS.values(), (0, 5), (0, 2), (False, True), (1, 70, 100), (0, 127), (0, 3)):
        sid = mc_id(samples, rollout, endgame, tail, halving, infer, early, policy)
        assert MC_ID.unpack(sid) == {"kind": MC, "rollout": rollout, "samples": samples, "endgame": endgame,
                                     "tail": tail, "halving": int(halving), "infer": infer, "early": early,
                                     "policy": policy}
        assert is_mc(sid) and MC_ID.pack(**MC_ID.unpack(sid)) == sid
    for samples in (1, 48, 100_000):
        sid = clabber_mc.mc_id(samples)
        assert clabber_mc.MC_ID.unpack(sid) == {"kind": clabber_mc.MC_PLAY, "spare": 0, "samples": samples}
        assert clabber_mc.is_mc(sid)
    with pytest.raises(ValueError, match="does not fit"):
        mc_id(samples=1 << 24)


def test_is_mc_is_one_answer_in_python_and_in_the_kernels():
    ids = np.array([RANDOM, HEURISTIC, LOWEST, USER, BASIC, LEARNED, mc_id(), parse_mc("").sid], np.int64)
    expected = [False] * 6 + [True, True]
    assert list(is_mc(ids)) == expected
    assert [bool(is_mc(int(i))) for i in ids] == expected
    assert [bool(is_mc(resolve_strategy(s).builtin_id)) for s in ("heuristic", "learned", "mc", "pimc")] == \
        [False, False, True, True]
    assert [bool(clabber_mc.is_mc(clabber_resolve(s).builtin_id)) for s in ("random", "heuristic", "mc")] == \
        [False, False, True]

    @njit
    def in_kernel(ids):
        return np.array([is_mc(ids[i]) for i in range(len(ids))])

    assert list(in_kernel(ids)) == expected


def test_array_fields():
    layout = ArrayFields([("a", 1), ("b", 4), ("c", 2)])
    assert [(layout.offset(n), layout.size_of(n), layout.end(n)) for n in "abc"] == [(0, 1, 1), (1, 4, 5), (5, 2, 7)]
    assert layout.size == 7 and layout.slice("b") == slice(1, 5) and "c" in layout
    for bad in ([("a", 1), ("a", 2)], [("a", 0)], [("a", 2.0)]):
        with pytest.raises(ValueError):
            ArrayFields(bad)


def test_bit_fields():
    bits = BitFields([("kind", 4), ("flag", 1), ("count", 10)])
    assert (bits.shift("count"), bits.mask("count"), bits.width) == (5, 1023, 15)
    packed = bits.pack(kind=5, flag=1, count=1000)
    assert packed == 5 | 1 << 4 | 1000 << 5 and bits.unpack(packed) == {"kind": 5, "flag": 1, "count": 1000}
    assert bits.get(packed, "count") == 1000 and bits.pack() == 0
    for wrong in ({"kind": 16}, {"count": -1}, {"nope": 1}):
        with pytest.raises(ValueError):
            bits.pack(**wrong)
    with pytest.raises(ValueError):
        BitFields([("a", 40), ("b", 30)])
