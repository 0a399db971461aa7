"""scripts/mutation_check.py stays in step with the code: every mutation's text is found once, its tests exist."""

import importlib.util
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_mutation_applies_and_names_existing_tests():
    spec = importlib.util.spec_from_file_location("mutation_check", ROOT / "scripts" / "mutation_check.py")
    mc = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mc)
    ids = [m[0] for m in mc.MUTATIONS]
    assert len(ids) == len(set(ids)) and len(ids) >= 40
    for mid, path, original, replacement, tests in mc.MUTATIONS:
        text = (ROOT / path).read_text()
        assert text.count(original) == 1, f"{mid}: its original text is in {path} {text.count(original)} times"
        assert original != replacement
        files = [w.split("::")[0] for w in shlex.split(tests) if w.startswith("tests/")]
        assert files and all((ROOT / f).exists() for f in files), (mid, tests)
    assert set(mc.EQUIVALENT) <= set(ids)
