"""A training data folder's chunk files, as both games' training find them again (core.data_chunks)."""

import pytest

from barbu_sim.core.data_chunks import chunk_path, planned_chunks, present_chunks


def _make(folder, chunks):
    for lo, n in chunks:
        chunk_path(folder, lo, n).write_bytes(b"")


def test_the_chunks_of_a_run_tile_it_with_a_shorter_last_one():
    assert planned_chunks(23, 10) == [(0, 10), (10, 10), (20, 3)]
    assert planned_chunks(20, 10) == [(0, 10), (10, 10)]
    assert chunk_path("data", 20, 3).name == "chunk-00000020-3.npz"


def test_a_fit_on_every_chunk_made_takes_the_longest_run_from_the_first_item(tmp_path):
    _make(tmp_path, [(0, 10), (10, 10), (20, 3), (40, 10)])  # 23 items in a row; the chunk at 40 is cut off
    paths, total = present_chunks(tmp_path, 10, None, "deals")
    assert total == 23 and [p.name for p in paths] == ["chunk-00000000-10.npz", "chunk-00000010-10.npz",
                                                       "chunk-00000020-3.npz"]


def test_a_fit_on_a_number_of_items_needs_every_chunk_of_them(tmp_path):
    _make(tmp_path, [(0, 10), (20, 10)])
    paths, total = present_chunks(tmp_path, 10, 10, "rounds")
    assert total == 10 and len(paths) == 1
    with pytest.raises(ValueError, match=r"lacks 1 of the 3 chunks of 30 rounds \(the first: chunk-00000010-10.npz\)"):
        present_chunks(tmp_path, 10, 30, "rounds")


def test_an_empty_folder_is_said_in_one_line(tmp_path):
    with pytest.raises(ValueError, match="no data chunks in .*: run without --fit-only first"):
        present_chunks(tmp_path, 10, None, "deals")


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"seed": 1, "samples": 2}', "\xff", '{"seed": true, '
                                  '"samples": 2, "chunk": 3}'])
def test_a_record_that_cannot_say_how_the_data_was_made_is_one_line(tmp_path, text):
    from barbu_sim.core.data_chunks import read_record
    (tmp_path / "config.json").write_bytes(text.encode("latin-1"))
    with pytest.raises(ValueError) as e:
        read_record(tmp_path, ("seed", "samples", "chunk"))
    assert "\n" not in str(e.value) and "config.json" in str(e.value) and "--data" in str(e.value)


def test_chunks_without_a_record_are_refused_and_an_empty_folder_has_none(tmp_path):
    from barbu_sim.core.data_chunks import read_record
    assert read_record(tmp_path / "new", ("seed",)) is None
    _make(tmp_path, [(0, 10)])
    with pytest.raises(ValueError, match="holds data chunks but no config.json"):
        read_record(tmp_path, ("seed",))
