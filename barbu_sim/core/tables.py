"""Report tables on paper: Markdown for reading, CSV and JSON for tools; the same for every game.

This module does not import numba.
"""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl


SMALL_N = "n too small"  # what a report shows for the spread of fewer than two values
SPREAD_COLUMNS = ("std", "se", "ci_low", "ci_high")


def plain(df: pl.DataFrame) -> pl.DataFrame:
    """Enums as strings (for CSV, JSON and printing); numbers are left as they are."""
    return df.with_columns(pl.col(pl.Enum, pl.Categorical).cast(pl.String))


def _small_n(df: pl.DataFrame) -> list[str]:
    """The spread columns of ``df`` (std, se, 95% CI) when some row has fewer than two values (``n`` < 2),
    where no spread can be estimated; else []."""
    cols = [c for c in SPREAD_COLUMNS if c in df.columns]
    if "n" not in df.columns or not cols or df.is_empty() or df["n"].min() >= 2:
        return []
    return cols


def without_small_n(df: pl.DataFrame) -> pl.DataFrame:
    """Rows of fewer than two values with no std, se or CI (null), not a zero-width interval."""
    cols = _small_n(df)
    small = pl.col("n") < 2
    return df.with_columns(pl.when(small).then(None).otherwise(pl.col(c)).alias(c) for c in cols) if cols else df


def shown_small_n(df: pl.DataFrame, decimals: int) -> pl.DataFrame:
    """For reading: :data:`SMALL_N` in the std, se and CI of a row of fewer than two values (the other
    rows' values rounded to ``decimals``); a frame without such rows is returned as it is."""
    cols = _small_n(df)
    small = pl.col("n") < 2
    return df.with_columns(pl.when(small).then(pl.lit(SMALL_N)).otherwise(pl.col(c).round(decimals).cast(pl.String))
                           .alias(c) for c in cols) if cols else df


NO_VALUE = "—"  # what a table shows for reading where a cell does not apply (the trump suit of a no-trumps contract)


def shown_nulls(df: pl.DataFrame) -> pl.DataFrame:
    """For reading: :data:`NO_VALUE` in every empty cell (``null`` is the data's word, not a reader's);
    the CSV and JSON keep their nulls for tools."""
    cols = [c for c in df.columns if df[c].null_count()]
    return df.with_columns(pl.col(c).cast(pl.String).fill_null(NO_VALUE) for c in cols) if cols else df


def to_markdown(df: pl.DataFrame, decimals: int = 3) -> str:
    """A frame as a Markdown table, floats rounded to ``decimals``; a row of one value says
    :data:`SMALL_N` where its spread would be, and a cell that does not apply :data:`NO_VALUE`."""
    shown = shown_nulls(shown_small_n(plain(df).with_columns(pl.col(pl.Float64).round(decimals)), decimals))
    with pl.Config(tbl_formatting="MARKDOWN", tbl_hide_column_data_types=True, tbl_hide_dataframe_shape=True,
                   tbl_rows=-1, tbl_cols=-1, tbl_width_chars=400, fmt_str_lengths=40):
        return str(shown)


def terminal_table(df: pl.DataFrame) -> str:
    """A frame as the terminal shows a report's table (every row and column, no types); a cell that
    does not apply shows :data:`NO_VALUE`, as in Markdown."""
    with pl.Config(tbl_hide_column_data_types=True, tbl_hide_dataframe_shape=True, tbl_rows=-1, tbl_cols=-1,
                   tbl_width_chars=200):
        return str(shown_nulls(plain(df)))


def table_writers(table: pl.DataFrame, out_dir: Path, name: str) -> dict:
    """``name.csv`` and ``name.json`` (a list of records) in ``out_dir``, each with the function that writes
    it to a given path (for :func:`barbu_sim.core.files.replace_set`).  A row of fewer than two values
    has no std, se or CI (null)."""
    shown = without_small_n(plain(table))
    text = json.dumps(shown.to_dicts(), indent=1) + "\n"
    return {Path(out_dir) / f"{name}.csv": lambda p: shown.write_csv(p),
            Path(out_dir) / f"{name}.json": lambda p: p.write_text(text, encoding="utf-8")}


def write_table(table: pl.DataFrame, out_dir: Path, name: str) -> list[Path]:
    """Write ``table`` as ``name.csv`` and ``name.json`` (a list of records) into ``out_dir``, atomically as a
    pair; return both paths."""
    from .files import replace_set
    return replace_set(table_writers(table, out_dir, name), what=f"the {name} table")


def report_head(title: str, facts: str, note: str | None, *paragraphs: str) -> list[str]:
    """The top lines of a run's ``report.md``: the title, a line of the run's facts, the note of a
    run not yet complete (in bold), then each paragraph."""
    head = [f"# {title}", "", facts, ""]
    if note:
        head += [f"**{note}**", ""]
    for paragraph in paragraphs:
        head += [paragraph, ""]
    return head


def write_report_set(out_dir: Path, head: list[str], tables: dict[str, pl.DataFrame], titles: dict[str, str],
                     *, not_in_markdown: tuple[str, ...] = ()) -> list[Path]:
    """A run's report: each table as CSV and JSON, and ``report.md`` (the ``head`` lines, then each
    table under its title but those ``not_in_markdown``), all in ``out_dir`` and replaced as a set:
    every file, or (if a write fails) none.  Returns the paths.  A folder that cannot be written (a
    read-only run) is an :class:`~barbu_sim.core.files.OutputError` naming it, before any file."""
    from .files import OutputError, ensure_writable, replace_set
    out_dir = Path(out_dir)
    ensure_writable(out_dir, "the run's report")
    try:
        out_dir.mkdir(exist_ok=True)
    except OSError as e:
        raise OutputError(out_dir, "the run's report", e) from None
    writers, md = {}, list(head)
    for name, table in tables.items():
        writers.update(table_writers(table, out_dir, name))
        if name not in not_in_markdown:
            md += [f"## {titles[name]}", "", to_markdown(table), ""]
    text = "\n".join(md)
    writers[out_dir / "report.md"] = lambda p: p.write_text(text, encoding="utf-8")
    return replace_set(writers, what="the run's report")

