"""The Domino rank check: each deal from every rank, the declarer's scores paired per deal, kept block by block."""

import json
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import domino_rank_check  # noqa: E402
from barbu_sim.barbu.api import play_batch  # noqa: E402
from barbu_sim.barbu.rules import DOMINO  # noqa: E402


def test_the_check_pairs_each_deal_across_ranks_and_goes_on_from_its_blocks(tmp_path, capsys):
    work, out = tmp_path / "work", tmp_path / "check.json"
    argv = ["--ranks", "2,8,A", "--deals", "30", "--strategy", "heuristic", "--block", "12", "--seed", "5",
            "--work", str(work), "--out", str(out)]
    rows = domino_rank_check.main(argv)
    assert len(list(work.glob("*.npy"))) == 3  # 12 + 12 + 6 deals
    # the declarer's (North's) scores of the same deals, played directly: 2 = rank 0, 8 = rank 6, A = rank 12
    scores, _ = play_batch(5, 0, 30, [(DOMINO, 0, 0), (DOMINO, 6, 0), (DOMINO, 12, 0)], "heuristic")
    north = scores[:, :, 0].astype(np.float64)
    assert [r["rank"] for r in rows] == ["2", "8", "A"]
    assert rows[0]["mean"] == pytest.approx(north[:, 0].mean()) and rows[0]["difference"] is None
    assert rows[1]["difference"] == pytest.approx((north[:, 1] - north[:, 0]).mean())
    assert rows[2]["difference"] == pytest.approx((north[:, 2] - north[:, 0]).mean())
    assert rows[1]["difference_ci_low"] < rows[1]["difference"] < rows[1]["difference_ci_high"]
    data = json.loads(out.read_text())
    assert data["deals"] == 30 and data["strategy"] == "heuristic" and data["rows"] == rows
    # a second run reads the blocks on disk and gives the same figures
    first = out.read_text()
    (work / sorted(p.name for p in work.glob("*.npy"))[1]).unlink()  # as if stopped before the second block
    assert domino_rank_check.main([*argv, "--force"]) == rows  # --out: replaced with the same figures
    assert {**json.loads(out.read_text()), "command": ""} == {**json.loads(first), "command": ""}
    assert "| 8 |" in capsys.readouterr().out


@pytest.mark.parametrize("ranks", ["2", "2,2", "2,x"])
def test_bad_ranks_are_one_line_errors(ranks, tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        domino_rank_check.main(["--ranks", ranks, "--work", str(tmp_path), "--out", str(tmp_path / "o.json")])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("Error: ") and len(err.splitlines()) == 1
