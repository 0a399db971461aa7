"""Clabber's learned player's training (``barbu-sim clabber train``) with tiny sizes: the data is a pure function
of its settings (the same bytes made twice), the fit is reproducible from the seed, and a data folder made with
other settings is refused in one line.  (The ladder of learned and mc: tests/test_clabber_studies.py.)"""

import json

import numpy as np

from barbu_sim.clabber.players.features import F, N_FEATURES
from barbu_sim.clabber.players.learned import load_model
from barbu_sim.clabber.training.training_data import generate_chunk
from cli_checks import assert_clean_error, invoke


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


def test_train_reproducible_and_refusals(tmp_path):
    data = tmp_path / "data"
    common = ["clabber", "train", "--rounds", "40", "--chunk", "20", "--samples", "4", "--epochs", "1", "--hidden",
              "4", "--no-progress", "--data", data]
    for args in ([*common, "--out", tmp_path / "a.json"], [*common, "--fit-only", "--out", tmp_path / "b.json"]):
        done = invoke(*args)
        assert done.exit_code == 0, done.output
    assert "| makers |" in done.output and "model written to" in done.output
    a, b = (json.loads((tmp_path / f"{n}.json").read_text()) for n in "ab")
    assert a["weights"] == b["weights"] and a["training"]["rounds"] == 40
    assert a["training"]["command"].startswith("barbu-sim clabber train --seed 2031 --rounds 40")
    assert [r["role"] for r in a["training"]["held_out"]] == ["makers", "defenders", "all"]
    assert load_model(str(tmp_path / "a.json"))[0][0] == 4  # four hidden units, read back by the player
    other = tmp_path / "data2"
    assert invoke(*common[:-1], other, "--out", tmp_path / "c.json").exit_code == 0
    for p in sorted(data.glob("chunk-*.npz")):
        assert p.read_bytes() == (other / p.name).read_bytes()
    assert_clean_error(invoke(*common[:6], "--samples", "8", "--data", data, "--out", tmp_path / "d.json"),
                       "was made with --samples 4, not --samples 8")
    assert_clean_error(invoke("clabber", "train", "--rounds", "0", "--data", data, "--out", tmp_path / "e.json"),
                       "--rounds must be at least 1")
    assert_clean_error(invoke("clabber", "train", "--hidden", "65", "--data", data, "--out", tmp_path / "e.json"),
                       "--hidden must be 0..64")
    assert not (tmp_path / "d.json").exists() and not (tmp_path / "e.json").exists()

