"""scripts/mutation_check.py stays in step with the code: every mutation's text is found once, its tests exist,
and a mutation whose text is gone stops the check before it runs anything.  The script is run, not imported:
``--list`` prints its mutations."""

import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "mutation_check.py"
AREAS = ("play", "scores", "settle", "settled", "doubling", "plugins", "stats", "analysis", "clabber-analysis",
         "clabber-score", "melds", "review", "sheet", "features", "playlog", "rundir", "runs")


def check(script: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True, timeout=300)


def test_every_mutation_applies_and_names_existing_tests():
    done = check(SCRIPT, "--list")
    assert done.returncode == 0, done.stderr
    listed = json.loads(done.stdout)
    ids = [m["id"] for m in listed["mutations"]]
    assert len(ids) == len(set(ids)) and len(ids) >= 95
    assert {i.split("/")[0] for i in ids} == set(AREAS)
    for m in listed["mutations"]:
        text = (ROOT / m["file"]).read_text()
        assert text.count(m["original"]) == 1, f"{m['id']}: its original text is in {m['file']} " \
                                               f"{text.count(m['original'])} times"
        assert m["original"] != m["replacement"]
        files = [w.split("::")[0] for w in shlex.split(m["tests"]) if w.startswith("tests/")]
        assert files and all((ROOT / f).exists() for f in files), (m["id"], m["tests"])
    assert set(listed["equivalent"]) <= set(ids)


def test_a_mutation_whose_text_is_gone_stops_the_check(tmp_path):
    # a copy of the project holding the script and one mutated file whose line has changed since
    mutations = json.loads(check(SCRIPT, "--list").stdout)["mutations"]
    first = next(m for m in mutations if m["id"].startswith("stats/")
                 and sum(m["id"] in other["id"] for other in mutations) == 1)  # -k picks it alone
    script = tmp_path / "scripts" / "mutation_check.py"
    script.parent.mkdir()
    shutil.copy(SCRIPT, script)
    target = tmp_path / first["file"]
    target.parent.mkdir(parents=True)
    target.write_text((ROOT / first["file"]).read_text().replace(first["original"], "text the code now holds"))
    done = check(script, "-k", first["id"], "--out", str(tmp_path / "out.json"))
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert f"{first['id']}: its original text occurs 0 times" in done.stderr
    assert "baseline" not in done.stdout and not (tmp_path / "out.json").exists()  # nothing ran, nothing written
