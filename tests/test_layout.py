"""The package's shape: layers import only downwards, rooms inside each wing too, the analytics and the
rooms' faces stay free of numba, modules stay small."""

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "barbu_sim"
# Higher layers may import lower ones, never the reverse.
LAYERS = {"core": 0, "barbu": 1, "clabber": 1, "cli": 3}
WINGS = ("barbu", "clabber")  # a wing imports the core, never another wing
# Inside a wing, a room imports only rooms of a lower rank (and itself): never up, never sideways.
# The state array holds the rules array, so the state sits just above the rules.
ROOMS = {"rules": 0, "state": 1, "players": 2, "analytics": 2, "engine": 3, "api": 4, "position": 4,
         "formats": 5, "runs": 5, "review": 6, "game": 6, "table": 7, "studies": 7, "training": 8}
NUMBA_FREE = [f"barbu_sim.{wing}.{room}" for wing in WINGS for room in ("analytics", "rules")] + [
    f"barbu_sim.{wing}.analytics.{m}" for wing in WINGS for m in ("schema", "analysis", "report", "plots")] + [
    "barbu_sim.barbu.analytics.compare_plots", "barbu_sim.barbu.rules.config", "barbu_sim.barbu.rules.choices",
    "barbu_sim.barbu.rules.text", "barbu_sim.barbu.game.verify_games", "barbu_sim.clabber.rules.config",
    "barbu_sim.clabber.formats.round_text", "barbu_sim.core.runs", "barbu_sim.core.rundir", "barbu_sim.core.stats"]


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


def room(module: str) -> tuple[str, str] | None:
    """(wing, room) of a module of a wing; None for the wing's own face and outside the wings."""
    parts = module.split(".")
    if len(parts) < 3 or parts[0] != "barbu_sim" or parts[1] not in WINGS:
        return None
    return parts[1], parts[2]


def upward_imports(path: Path, source: str | None = None) -> list[str]:
    """The imports of ``path`` that reach a room of its wing of the same or a higher rank (not its own room)."""
    own = room(module_name(path))
    if own is None:
        return []
    offences = []
    for target in imported_modules(path, source):
        other = room(target)
        if other is None or other[0] != own[0] or other[1] == own[1]:
            continue
        if other[1] not in ROOMS or ROOMS[other[1]] >= ROOMS[own[1]]:
            offences.append(f"{module_name(path)} ({own[1]}) imports {target} ({other[1]})")
    return offences


def wing_files():
    for wing in WINGS:
        for path in sorted((PACKAGE / wing).rglob("*.py")):
            yield wing, path


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
    for wing, path in wing_files():
        for target in imported_modules(path):
            other = target.removeprefix("barbu_sim.").split(".")[0]
            if other in WINGS and other != wing:
                offences.append(f"{module_name(path)} imports {target}")
    assert not offences, offences


def test_every_module_of_a_wing_is_in_a_room():
    modules = [module_name(p) for _, p in wing_files()]
    strays = [m for m in modules if room(m) is not None and room(m)[1] not in ROOMS]
    assert not strays, f"modules outside the rooms {sorted(ROOMS)}: {strays}"


def test_rooms_import_only_the_rooms_below():
    offences = [o for _, path in wing_files() for o in upward_imports(path)]
    assert not offences, offences


def test_the_layer_checks_see_an_upward_import():
    # The checks themselves must be able to fail: a core module importing the Barbu wing...
    probe = PACKAGE / "core" / "probe.py"  # never written: its text is given
    assert "barbu_sim.barbu.players" in imported_modules(probe, "from ..barbu import players\n")
    assert layer("barbu_sim.barbu.players") > layer(module_name(probe))
    # ...a player importing the engine, an analytics module the players, the engine the api, the rules state
    cases = {("barbu", "players", "probe.py"): "from ..engine.play_loops import PASS\n",
             ("barbu", "analytics", "probe.py"): "from ..players import registry\n",
             ("clabber", "engine", "probe.py"): "from ..api import play_rounds\n",
             ("clabber", "rules", "probe.py"): "from ..state import STATE_SIZE\n",
             ("barbu", "formats", "probe.py"): "from ..runs import run\n",
             ("barbu", "review", "probe.py"): "from ..table import session\n",
             ("barbu", "players", "mc", "probe.py"): "from ...analytics.schema import REL_SEATS\n"}
    for parts, source in cases.items():
        assert upward_imports(PACKAGE.joinpath(*parts), source), (parts, source)
    assert not upward_imports(PACKAGE / "barbu" / "game" / "probe.py", "from ..position import Position\n")


def test_every_room_has_a_face_that_says_what_it_may_import():
    for wing in WINGS:
        for face in (PACKAGE / wing).glob("*/__init__.py"):
            doc = ast.get_docstring(ast.parse(face.read_text())) or ""
            assert "import" in doc, f"{face}: the face's docstring says what lives here and what it may import"


def test_faces_import_only_their_own_room():
    for wing in WINGS:
        for face in [PACKAGE / wing / "__init__.py", *(PACKAGE / wing).rglob("*/__init__.py")]:
            for node in ast.walk(ast.parse(face.read_text())):
                if isinstance(node, ast.Import) or (isinstance(node, ast.ImportFrom) and node.level != 1):
                    raise AssertionError(f"{face}: a face hands on names of its own room only")


def _imports_numba(modules) -> bool:
    code = "import sys\n" + "".join(f"import {m}\n" for m in modules) + "print('numba' in sys.modules)\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return out.stdout.strip() == "True"


def test_importing_the_analytics_does_not_import_numba():
    assert not _imports_numba(NUMBA_FREE)


def test_no_face_imports_numba():
    faces = [module_name(p) for wing in WINGS for p in [PACKAGE / wing / "__init__.py",
                                                         *(PACKAGE / wing).rglob("*/__init__.py")]]
    assert len(faces) > 12
    assert not _imports_numba(faces)


MAX_MODULE_LINES = 600  # a module is cut by concept; this only catches one that has grown into two


def test_modules_stay_small():
    sizes = {module_name(p): len(p.read_text().splitlines()) for p in PACKAGE.rglob("*.py")}
    assert len(sizes) > 100
    assert not {m: n for m, n in sizes.items() if n > MAX_MODULE_LINES}, sizes
