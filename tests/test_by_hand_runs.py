"""Run verification worked out by hand: a run of 10 items in chunks of 4 (4 + 4 + 2), written with a
plain Python ``play_chunk`` (no engine), then damaged in ways the manifest must notice
(``core/runs.py``, ``core/rundir.py``)."""

import polars as pl
import pytest

from barbu_sim.core.rundir import chunk_problem, part_index, part_path, parts_on_disk, read_manifest, verify_chunks
from barbu_sim.core.runs import fill_chunks, start_run


def play_chunk(lo, n):
    return pl.DataFrame({"item": list(range(lo, lo + n))})


def make_run(run_dir):
    # one configuration: a record per deal (the rows a chunk holds follow from the manifest's configs)
    manifest = start_run(run_dir, 1, {"config": {"deals": 10}, "configs": [{}]}, unit="deals")
    return fill_chunks(run_dir, manifest, 10, 4, play_chunk, unit="deals", progress=False)


def items(run_dir, k):
    return pl.read_parquet(part_path(run_dir, k))["item"].to_list()


def test_a_chunk_file_name_reads_back_as_its_chunk(tmp_path):
    for k in (0, 7, 999_999, 1_234_567):
        assert part_index(part_path(tmp_path, k)) == k
    for name in ("part-1.parquet", "part-000001.parquet.tmp", "part-00000x.parquet", "report.md"):
        assert part_index(tmp_path / name) is None
    make_run(tmp_path)
    (tmp_path / "records" / "part-x.parquet").write_bytes(b"")
    assert parts_on_disk(tmp_path) == {k: part_path(tmp_path, k) for k in range(3)}


def test_ten_items_in_chunks_of_four(tmp_path):
    summary = make_run(tmp_path)
    manifest = read_manifest(tmp_path, "deals")
    assert (manifest["deals_done"], manifest["chunks_done"], manifest["complete"]) == (10, 3, True)
    assert {k: v["rows"] for k, v in manifest["chunks"].items()} == {"000000": 4, "000001": 4, "000002": 2}
    assert items(tmp_path, 2) == [8, 9] and summary.played == 10
    assert verify_chunks(tmp_path, manifest) == []


def flip_a_byte(path):
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))


def test_a_chunk_damaged_at_its_own_size_is_found_and_replayed(tmp_path):
    make_run(tmp_path)
    flip_a_byte(part_path(tmp_path, 1))  # same size: only the checksum can tell
    manifest = read_manifest(tmp_path, "deals")
    problem = chunk_problem(tmp_path, 1, manifest["chunks"]["000001"])
    assert problem == "part-000001.parquet is damaged (its checksum differs from the manifest's)"
    assert verify_chunks(tmp_path, manifest) == [problem]
    summary = fill_chunks(tmp_path, manifest, 10, 4, play_chunk, unit="deals", progress=False)
    assert summary.played == 4 and items(tmp_path, 1) == [4, 5, 6, 7]
    assert verify_chunks(tmp_path, read_manifest(tmp_path, "deals")) == []


def test_a_chunk_the_manifest_does_not_list_is_named(tmp_path):
    make_run(tmp_path)
    play_chunk(20, 1).write_parquet(part_path(tmp_path, 5))
    assert verify_chunks(tmp_path, read_manifest(tmp_path, "deals")) == \
        ["part-000005.parquet is not recorded in the manifest"]


@pytest.mark.parametrize("k", [0, 2])
def test_a_missing_chunk_is_named(tmp_path, k):
    make_run(tmp_path)
    part_path(tmp_path, k).unlink()
    assert verify_chunks(tmp_path, read_manifest(tmp_path, "deals")) == [f"part-{k:06d}.parquet is missing"]
