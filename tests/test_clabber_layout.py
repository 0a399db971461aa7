"""The Clabber wing's shape: it imports the core and never the Barbu wing, its analytics load no
numba, and its modules stay small."""

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "barbu_sim"
WING = PACKAGE / "clabber"


def absolute_imports(path: Path) -> set[str]:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    package = parts if parts[-1] == "__init__" else parts[:-1]
    package = [p for p in package if p != "__init__"]
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            names.add(".".join(base + ([node.module] if node.module else [])))
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    return names


def test_the_wing_imports_only_the_core_and_itself():
    for path in WING.rglob("*.py"):
        for name in absolute_imports(path):
            if name.startswith("barbu_sim"):
                assert name.startswith(("barbu_sim.core", "barbu_sim.clabber")), (str(path.relative_to(WING)), name)


def test_the_command_module_imports_no_other_wing():
    names = absolute_imports(PACKAGE / "cli" / "clabber.py")
    assert not [n for n in names if n.startswith("barbu_sim.barbu")]


def test_importing_the_analytics_does_not_import_numba():
    code = ("import sys\n"
            "import barbu_sim.clabber.analytics.analysis, barbu_sim.clabber.analytics.report, "
            "barbu_sim.clabber.analytics.plots\n"
            "import barbu_sim.clabber.analytics.schema, barbu_sim.clabber.rules, barbu_sim.clabber.formats.round_text\n"
            "print('numba' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_modules_stay_small():
    sizes = {str(p.relative_to(PACKAGE)): len(p.read_text().splitlines())
             for p in [*WING.rglob("*.py"), PACKAGE / "cli" / "clabber.py"]}
    assert not {m: n for m, n in sizes.items() if n > 400}, sizes
