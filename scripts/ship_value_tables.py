"""Build the value tables the package ships (``barbu_sim/barbu/game/value_tables/``) for this code.

``advise``, ``game`` and ``compare-orders`` decide by a value table, built on first use and cached
(``barbu_sim.barbu.game.evaluation.value_table``).  The tables of their default play (learned for
``advise``, heuristic for the others; default rules and sizes) ship with the package, so that a
newcomer's first ``advise`` reads its table instead of building it.  Each file is named by its cache
key, which holds the code stamp: after a change to the players, the engine or the rules the shipped
tables are this code's no more and are not read, and ``tests/test_shipped_tables.py`` fails until
this script has built them again (about half a minute on 2 cores)::

    python scripts/ship_value_tables.py            # build them, replacing the old ones
    python scripts/ship_value_tables.py --check    # exit 1 unless they are this code's

The files are gzipped with no time stamp: the same code writes the same bytes.
"""

from __future__ import annotations

import argparse
import gzip
import sys
import tempfile
import time

from barbu_sim.barbu.game.evaluation import SHIPPED_TABLES, shipped_tables, value_table, value_table_path


def stale() -> list[str]:
    """What is wrong with the shipped tables, one line each (empty when they are this code's)."""
    want = shipped_tables()
    problems = [f"no table of {s} for this code ({p.name})" for s, p in want.items() if not p.exists()]
    extra = sorted(set(SHIPPED_TABLES.glob("*.gz")) - set(want.values()))
    problems += [f"{p.name} is no table of this code" for p in extra]
    return problems


def build() -> None:
    """Build each default table in an empty cache and ship it gzipped; remove the old ones."""
    SHIPPED_TABLES.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as cache:
        for strategy, shipped in shipped_tables().items():
            start = time.perf_counter()
            value_table(strategy, cache_dir=cache)
            text = value_table_path(strategy, cache_dir=cache).read_bytes()
            shipped.write_bytes(gzip.compress(text, mtime=0))
            print(f"{strategy}: {shipped.name} ({len(text) >> 10} KiB, {shipped.stat().st_size >> 10} KiB gzipped) "
                  f"in {time.perf_counter() - start:.0f} s")
    for old in set(SHIPPED_TABLES.glob("*.gz")) - set(shipped_tables().values()):
        old.unlink()
        print(f"removed {old.name}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="build nothing: exit 1 unless the shipped tables "
                                                             "are this code's")
    args = parser.parse_args(argv)
    if args.check:
        problems = stale()
        for line in problems:
            print(line, file=sys.stderr)
        if problems:
            print("run python scripts/ship_value_tables.py", file=sys.stderr)
        return 1 if problems else 0
    build()
    return 0


if __name__ == "__main__":
    sys.exit(main())
