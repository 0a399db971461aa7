"""``barbu-sim study domino-rank``: each deal from every rank, the declarer's scores paired per deal, kept block
by block."""

import json

import numpy as np
import pytest

from barbu_sim.barbu.api import play_batch
from barbu_sim.barbu.rules import DOMINO
from cli_checks import assert_clean_error, invoke


def test_the_check_pairs_each_deal_across_ranks_and_goes_on_from_its_blocks(tmp_path):
    work, out = tmp_path / "work", tmp_path / "check.json"
    argv = ["study", "domino-rank", "--ranks", "2,8,A", "--deals", "30", "--strategy", "heuristic", "--block", "12",
            "--seed", "5", "--work", work, "--out", out, "--no-progress"]
    result = invoke(*argv)
    assert result.exit_code == 0, result.output
    assert "(0 of 3 blocks on disk" in result.stdout and "| 8 |" in result.stdout
    assert len(list(work.glob("*.npy"))) == 3  # 12 + 12 + 6 deals
    rows = json.loads(out.read_text())["rows"]
    # the declarer's (North's) scores of the same deals, played directly: 2 = rank 0, 8 = rank 6, A = rank 12
    scores, _ = play_batch(5, 0, 30, [(DOMINO, 0, 0), (DOMINO, 6, 0), (DOMINO, 12, 0)], "heuristic")
    north = scores[:, :, 0].astype(np.float64)
    assert [r["rank"] for r in rows] == ["2", "8", "A"]
    assert rows[0]["mean"] == pytest.approx(north[:, 0].mean()) and rows[0]["difference"] is None
    assert rows[1]["difference"] == pytest.approx((north[:, 1] - north[:, 0]).mean())
    assert rows[2]["difference"] == pytest.approx((north[:, 2] - north[:, 0]).mean())
    assert rows[1]["difference_ci_low"] < rows[1]["difference"] < rows[1]["difference_ci_high"]
    data = json.loads(out.read_text())
    assert data["deals"] == 30 and data["strategy"] == "heuristic" and data["seed"] == 5
    assert data["command"] == "barbu-sim study domino-rank --ranks 2,8,A --deals 30 --strategy heuristic --seed 5"
    # an existing --out is refused before any play
    first = out.read_text()
    assert_clean_error(invoke(*argv), "exists", "--force")
    # a second run reads the blocks on disk and gives the same figures
    (work / sorted(p.name for p in work.glob("*.npy"))[1]).unlink()  # as if stopped before the second block
    again = invoke(*argv, "--force")
    assert again.exit_code == 0, again.output
    assert "(2 of 3 blocks on disk" in again.stdout
    assert out.read_text() == first  # --out: replaced with the same figures
    # another player or seed never reads these blocks: they would be given its name
    for other in (["--strategy", "random"], ["--seed", "6"]):
        changed = [*argv, "--force"]
        changed[changed.index(other[0]) + 1] = other[1]
        assert_clean_error(invoke(*changed), "were played by heuristic with seed 5", "another --work folder")
    assert out.read_text() == first


@pytest.mark.parametrize("args, message", [
    (["--ranks", "2"], "--ranks"), (["--ranks", "2,2"], "--ranks"), (["--ranks", "2,x"], "x"),
    (["--deals", "1"], "--deals"), (["--block", "0"], "--block"), (["--strategy", "nonesuch"], "nonesuch"),
])
def test_bad_input_is_one_line(args, message, tmp_path):
    result = invoke("study", "domino-rank", *args, "--work", tmp_path / "work", "--out", tmp_path / "o.json")
    assert_clean_error(result, message)
    assert not (tmp_path / "work").exists() and not (tmp_path / "o.json").exists()
