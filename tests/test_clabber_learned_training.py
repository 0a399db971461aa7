"""Clabber's learned player's training and measuring scripts with tiny sizes: the data is a pure function of
its settings (the same bytes made twice), the fit is reproducible from the seed, a data folder made with
other settings is refused in one line, and the ladder gives learned's share of mc's gain."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"
sys.path.insert(0, str(SCRIPTS))

import train_clabber_player  # noqa: E402

from barbu_sim.clabber.played.training_data import generate_chunk  # noqa: E402
from barbu_sim.clabber.players.features import F, N_FEATURES  # noqa: E402
from barbu_sim.clabber.players.learned import load_model  # noqa: E402


def test_training_data_rows():
    part = generate_chunk(5, 0, 6, 4)
    rows = len(part["y"])
    assert part["x"].shape == (rows, N_FEATURES) and rows > 6 * 10
    # each decision's rows: one per legal card, exactly one of them the heuristic's card
    _, first, counts = np.unique(part["decision"], return_index=True, return_counts=True)
    assert (counts >= 2).all() and (counts <= 6).all()
    heur = np.add.reduceat(part["x"][:, F["heuristic"]], first)
    assert (heur == 1).all()
    again = generate_chunk(5, 3, 3, 4)  # a round's rows do not depend on the chunk it is made in
    tail = part["decision"] >= 3 * 32
    assert np.array_equal(again["x"], part["x"][tail]) and np.array_equal(again["y"], part["y"][tail])


def test_train_reproducible_and_refusals(tmp_path, capsys):
    data = tmp_path / "data"
    common = ["--rounds", "40", "--chunk", "20", "--samples", "4", "--epochs", "1", "--hidden", "4", "--data",
              str(data)]
    train_clabber_player.main([*common, "--out", str(tmp_path / "a.json")])
    train_clabber_player.main([*common, "--fit-only", "--out", str(tmp_path / "b.json")])
    a, b = (json.loads((tmp_path / f"{n}.json").read_text()) for n in "ab")
    assert a["weights"] == b["weights"] and a["training"]["rounds"] == 40
    assert a["training"]["command"].startswith("python scripts/train_clabber_player.py --seed 2031 --rounds 40")
    assert [r["role"] for r in a["training"]["held_out"]] == ["makers", "defenders", "all"]
    assert load_model(str(tmp_path / "a.json"))[0][0] == 4  # four hidden units, read back by the player
    other = tmp_path / "data2"
    train_clabber_player.main([*common[:-1], str(other), "--out", str(tmp_path / "c.json")])
    for p in sorted(data.glob("chunk-*.npz")):
        assert p.read_bytes() == (other / p.name).read_bytes()
    with pytest.raises(SystemExit, match="was made with --samples 4, not --samples 8"):
        train_clabber_player.main([*common[:4], "--samples", "8", "--data", str(data), "--out",
                                   str(tmp_path / "d.json")])
    with pytest.raises(SystemExit, match="--rounds must be at least 1"):
        train_clabber_player.main(["--rounds", "0", "--data", str(data)])


def test_ladder_learned_against_mc_tiny(tmp_path):
    out = tmp_path / "ladder.json"
    subprocess.run([sys.executable, str(SCRIPTS / "clabber_ladder.py"), "--players", "learned,mc", "--rounds", "40",
                    "--samples", "2", "--threads", "1", "--out", str(out)], check=True, capture_output=True, text=True)
    data = json.loads(out.read_text())
    assert len(data["rows"]) == 8 and {r["player"] for r in data["rows"]} == {"learned", "mc:samples=2"}
    shares = data["learned_share_of_mc_gain"]
    assert len(shares) == 4 and all(s["ci_low"] <= s["share"] <= s["ci_high"] for s in shares)
    bad = subprocess.run([sys.executable, str(SCRIPTS / "clabber_ladder.py"), "--players", "lowest"],
                         capture_output=True, text=True)
    assert bad.returncode != 0 and bad.stderr.strip().count("\n") == 0 and "--players" in bad.stderr
