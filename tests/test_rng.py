"""The random streams: one table of keys (core/rng.STREAMS), distinct, and every module's keys taken from it."""

import ast
from pathlib import Path

import barbu_sim
from barbu_sim.core import rng

PACKAGE = Path(barbu_sim.__file__).resolve().parent


def test_every_stream_has_its_own_key_but_the_one_shared_across_games():
    by_key: dict[int, list[str]] = {}
    for name, key in rng.STREAMS.items():
        assert 0 < key < 2**64
        by_key.setdefault(key, []).append(name)
    shared = {tuple(sorted(names)) for names in by_key.values() if len(names) > 1}
    assert shared == {tuple(sorted(pair)) for pair in rng.CROSS_GAME}
    for a, b in rng.CROSS_GAME:  # allowed only between the two games, never inside one
        assert a.startswith("STREAM_CLABBER_") != b.startswith("STREAM_CLABBER_")
    assert len(rng.STREAMS) == 16


def test_no_module_defines_a_stream_key_of_its_own():
    """A key is defined once, in core/rng.py; every other module imports it."""
    for path in PACKAGE.rglob("*.py"):
        if path.name == "rng.py" and path.parent.name == "core":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Assign):
                names = [t.id for t in node.targets if isinstance(t, ast.Name)]
                assert not any(n.startswith("STREAM_") for n in names), f"{path}: {names}"


def test_the_module_names_are_the_table_s_keys():
    for name, key in rng.STREAMS.items():
        assert int(getattr(rng, name)) == key
    from barbu_sim.barbu.review import review
    from barbu_sim.barbu.training import training_data as learned_data
    from barbu_sim.barbu.players.mc import values as mc_values
    from barbu_sim.clabber.players import mc as mc_play
    from barbu_sim.clabber.review import mc as clabber_review  # the layouts of a round's decisions
    assert int(review.STREAM_REVIEW) == rng.STREAMS["STREAM_REVIEW"]
    assert int(clabber_review.STREAM_REVIEW) == rng.STREAMS["STREAM_CLABBER_REVIEW"] \
        != rng.STREAMS["STREAM_CLABBER_BID"]
    assert int(mc_values.STREAM_MC) != int(mc_play.STREAM_MC)
    assert int(learned_data.STREAM_LEARN) == rng.STREAMS["STREAM_LEARN"]
