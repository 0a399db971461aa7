"""Report tables on paper: Markdown for reading, CSV and JSON for tools; the same for every game.

This module does not import numba.
"""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl


def plain(df: pl.DataFrame) -> pl.DataFrame:
    """Enums as strings (for CSV, JSON and printing); numbers are left as they are."""
    return df.with_columns(pl.col(pl.Enum, pl.Categorical).cast(pl.String))


def to_markdown(df: pl.DataFrame, decimals: int = 3) -> str:
    """A frame as a Markdown table, floats rounded to ``decimals``."""
    shown = plain(df).with_columns(pl.col(pl.Float64).round(decimals))
    with pl.Config(tbl_formatting="MARKDOWN", tbl_hide_column_data_types=True, tbl_hide_dataframe_shape=True,
                   tbl_rows=-1, tbl_cols=-1, tbl_width_chars=400, fmt_str_lengths=40):
        return str(shown)


def write_table(table: pl.DataFrame, out_dir: Path, name: str) -> list[Path]:
    """Write ``table`` as ``name.csv`` and ``name.json`` (a list of records) into ``out_dir``; return both paths."""
    csv, js = Path(out_dir) / f"{name}.csv", Path(out_dir) / f"{name}.json"
    plain(table).write_csv(csv)
    js.write_text(json.dumps(plain(table).to_dicts(), indent=1) + "\n")
    return [csv, js]
