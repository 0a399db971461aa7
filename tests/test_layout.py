"""The package's shape: layers import only downwards, the analytics stay free of numba, modules stay small."""

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "barbu_sim"
# Higher layers may import lower ones, never the reverse.
LAYERS = {"core": 0, "barbu": 1, "barbu.game": 2, "clabber": 1, "cli": 3}
WINGS = ("barbu", "clabber")  # a wing imports the core, never another wing


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path, source: str | None = None) -> set[str]:
    """Absolute names of the barbu_sim modules ``path`` imports (relative imports resolved).

    ``source``: the file's text, if not read from ``path``.
    """
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    names = set()
    for node in ast.walk(ast.parse(source if source is not None else path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            names.add(module)
            names.update(f"{module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    return {n for n in names if n.startswith("barbu_sim.")}


def layer(module: str) -> int | None:
    rest = module.removeprefix("barbu_sim.")
    best = None
    for prefix, rank in LAYERS.items():
        if rest == prefix or rest.startswith(prefix + "."):
            best = rank if best is None else max(best, rank)
    return best


def test_no_module_imports_a_higher_layer():
    offences = []
    for path in PACKAGE.rglob("*.py"):
        own = layer(module_name(path))
        if own is None:
            continue
        for target in imported_modules(path):
            other = layer(target)
            if other is not None and other > own:
                offences.append(f"{module_name(path)} imports {target}")
    assert not offences, offences


def test_no_wing_imports_another():
    offences = []
    for wing in WINGS:
        for path in (PACKAGE / wing).rglob("*.py"):
            for target in imported_modules(path):
                other = target.removeprefix("barbu_sim.").split(".")[0]
                if other in WINGS and other != wing:
                    offences.append(f"{module_name(path)} imports {target}")
    assert not offences, offences


def test_the_layer_check_sees_an_upward_import():
    # The check itself must be able to fail: a core module importing the Barbu wing.
    probe = PACKAGE / "core" / "probe.py"  # never written: its text is given
    assert "barbu_sim.barbu.rules" in imported_modules(probe, "from ..barbu import rules\n")
    assert layer("barbu_sim.barbu.rules") > layer(module_name(probe))


def test_importing_the_analytics_does_not_import_numba():
    code = ("import sys\n"
            "import barbu_sim.barbu.analysis, barbu_sim.barbu.report, barbu_sim.barbu.plots, barbu_sim.barbu.schema\n"
            "import barbu_sim.core.runs, barbu_sim.core.rundir, barbu_sim.core.stats, barbu_sim.barbu.game.records\n"
            "import barbu_sim.clabber.analysis, barbu_sim.clabber.report, barbu_sim.clabber.plots\n"
            "print('numba' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_modules_stay_small():
    sizes = {module_name(p): len(p.read_text().splitlines()) for p in PACKAGE.rglob("*.py")}
    assert not {m: n for m, n in sizes.items() if n > 420}, sizes
