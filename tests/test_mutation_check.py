"""scripts/mutation_check.py stays in step with the code: every mutation's text is found once, its tests exist,
and a mutation whose text is gone stops the check before it runs anything."""

import importlib.util
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
AREAS = ("play", "scores", "settle", "settled", "doubling", "plugins", "stats", "analysis", "clabber-analysis",
         "clabber-score", "melds", "review", "sheet", "features", "playlog", "rundir", "runs")


def load():
    spec = importlib.util.spec_from_file_location("mutation_check", ROOT / "scripts" / "mutation_check.py")
    mc = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mc)
    return mc


def test_every_mutation_applies_and_names_existing_tests():
    mc = load()
    ids = [m[0] for m in mc.MUTATIONS]
    assert len(ids) == len(set(ids)) and len(ids) >= 95
    assert {i.split("/")[0] for i in ids} == set(AREAS)
    for mid, path, original, replacement, tests in mc.MUTATIONS:
        text = (ROOT / path).read_text()
        assert text.count(original) == 1, f"{mid}: its original text is in {path} {text.count(original)} times"
        assert original != replacement
        files = [w.split("::")[0] for w in shlex.split(tests) if w.startswith("tests/")]
        assert files and all((ROOT / f).exists() for f in files), (mid, tests)
    assert set(mc.EQUIVALENT) <= set(ids)


def test_a_mutation_whose_text_is_gone_stops_the_check(monkeypatch):
    mc = load()
    monkeypatch.setattr(mc, "MUTATIONS", [("stats/gone", mc.STATS, "text the code no longer holds", "x", mc.T_STATS)])
    with pytest.raises(SystemExit, match="stats/gone: its original text occurs 0 times"):
        mc.main(["-k", "stats/gone"])
