"""Compiled kernels and cached artefacts follow the code they depend on.

numba keys its disk cache on a kernel's own file; :mod:`barbu_sim.core.jit` stamps each
cache index with the code of the kernel's module and every package module it imports
(:mod:`barbu_sim.core.codestamp`).  These tests change a helper without touching its
caller and expect the new behaviour, never the cached old one.  The same check on the
real engine (a rule helper, the endgame work space, a value table) is
``scripts/update_check.py``, which CI runs after the suite.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path


import barbu_sim
from barbu_sim.core import codestamp

PACKAGE = Path(barbu_sim.__file__).resolve().parent


def _copy_core(tmp_path: Path) -> Path:
    """A scratch ``barbu_sim`` holding the real ``core`` and two small kernel modules of its own."""
    root = tmp_path / "src"
    pkg = root / "barbu_sim"
    shutil.copytree(PACKAGE / "core", pkg / "core", ignore=shutil.ignore_patterns("__pycache__"))
    (pkg / "__init__.py").write_text('__version__ = "0"\n')
    (pkg / "helper.py").write_text(textwrap.dedent("""
        from .core.jit import njit

        POINTS = 1

        @njit(cache=True)
        def points(x):
            return x * POINTS
    """))
    (pkg / "kernel.py").write_text(textwrap.dedent("""
        from .core.jit import njit
        from .helper import points

        @njit(cache=True)
        def total(n):
            s = 0
            for i in range(n):
                s += points(i)
            return s
    """))
    return root


def _total(root: Path) -> int:
    code = "from barbu_sim.kernel import total; print(total(10))"
    env = {**os.environ, "PYTHONPATH": str(root)}
    env.pop("NUMBA_CACHE_DIR", None)
    out = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return int(out.stdout)


def test_a_helper_changed_without_touching_its_caller_is_compiled_again(tmp_path):
    root = _copy_core(tmp_path)
    assert _total(root) == 45
    assert list((root / "barbu_sim" / "__pycache__").glob("kernel.total-*.nbi")), "the kernel was cached on disk"
    helper = root / "barbu_sim" / "helper.py"
    helper.write_text(helper.read_text().replace("POINTS = 1", "POINTS = 2"))
    assert _total(root) == 90  # numba alone would read the kernel back with POINTS = 1 inlined: 45


def test_an_unchanged_kernel_is_read_back_from_the_cache(tmp_path):
    root = _copy_core(tmp_path)
    assert _total(root) == 45
    index = next((root / "barbu_sim" / "__pycache__").glob("kernel.total-*.nbi"))
    before = index.stat().st_mtime_ns
    assert _total(root) == 45
    assert index.stat().st_mtime_ns == before  # loaded, not compiled and saved again


def test_the_stamp_covers_imported_package_modules_only():
    files = codestamp.dependency_files(PACKAGE / "barbu" / "engine" / "play_loops.py")
    names = {f.relative_to(PACKAGE).as_posix() for f in files}
    assert {"barbu/engine/play_loops.py", "barbu/rules/play_rules.py", "barbu/players/endgame.py",
            "barbu/rules/config.py", "core/bits.py"} <= names
    assert not any(n.startswith("cli/") for n in names)  # the kernels do not import the CLI
    assert "barbu/analytics/analysis.py" not in names


def test_a_stamp_moves_with_any_dependency_and_only_with_its_dependencies(tmp_path):
    copy = tmp_path / "barbu_sim"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "*.json"))
    # code_stamp reads the package it lives in: run it from the copy
    code = ("import sys; from barbu_sim.core.codestamp import code_stamp; "
            "print(code_stamp('barbu_sim/barbu/engine/play_loops.py'), "
            "code_stamp('barbu_sim/barbu/players/heuristic.py'))")

    def stamps():
        out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path,
                             env={**os.environ, "PYTHONPATH": str(tmp_path)},
                             capture_output=True, text=True, check=True)
        return out.stdout.split()

    kernels, heuristic = stamps()
    (copy / "barbu" / "players" / "endgame.py").write_text((copy / "barbu" / "players" / "endgame.py").read_text()
                                              .replace("TT_BITS = 12", "TT_BITS = 10"))
    kernels2, heuristic2 = stamps()
    assert kernels2 != kernels  # the play loops reach the endgame search through the mc player
    assert heuristic2 == heuristic  # heuristic does not import the endgame search
    (copy / "cli" / "app.py").write_text((copy / "cli" / "app.py").read_text() + "\n# a comment\n")
    assert stamps() == [kernels2, heuristic2]


def _package_modules():
    for info in pkgutil.walk_packages([str(PACKAGE)], "barbu_sim."):
        if not info.name.endswith("__main__"):
            yield info.name


def test_every_cached_kernel_of_the_package_uses_the_dependency_stamp():
    from numba.core.registry import CPUDispatcher

    from barbu_sim.core.compiling import LazyKernel
    from barbu_sim.core.jit import LOCATORS

    checked, wrong = 0, []
    for name in _package_modules():
        module = importlib.import_module(name)
        for attr, value in vars(module).items():
            dispatcher = value.dispatcher if isinstance(value, LazyKernel) else value
            if not isinstance(dispatcher, CPUDispatcher) or getattr(dispatcher, "__module__", None) != name:
                continue
            cache = dispatcher._cache
            if type(cache).__name__ == "NullCache":
                continue  # not cached on disk
            checked += 1
            if type(cache._impl.locator) not in LOCATORS:
                wrong.append(f"{name}.{attr}")
    assert checked > 100
    assert not wrong, f"cached with numba's own stamp (import njit from barbu_sim.core.jit): {wrong}"


def test_the_value_table_key_follows_the_code(monkeypatch):
    from barbu_sim.barbu.game import evaluation

    before = evaluation.value_table_path("heuristic", cache_dir="/x")
    monkeypatch.setattr(evaluation, "engine_stamp", lambda: "0" * 16)
    assert evaluation.value_table_path("heuristic", cache_dir="/x") != before
