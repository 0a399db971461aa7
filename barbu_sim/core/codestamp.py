"""Code stamps: a short digest of the package code a module depends on.

A compiled kernel, a cached value table or a run's player is only as current as the
code behind it, and that code is more than one file: a kernel in one module inlines
helpers from the modules it imports, and numba bakes their module-level constants
into the machine code.  :func:`code_stamp` digests a module together with every
module of this package it imports, directly or through another one (read from the
``import`` statements, without importing anything), so that a change anywhere in
that closure changes the stamp.

The digest is over the files' bytes: any edit, a comment's included, moves the stamp.
That is stricter than needed and never wrong.  This module does not import numba:
manifests and cache keys use it too.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import re
import sys
from functools import lru_cache
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent.parent  # .../barbu_sim
PACKAGE = PACKAGE_DIR.name

__all__ = ["PACKAGE_DIR", "code_stamp", "dependency_files", "in_package", "module_file", "plugin_stamp",
           "player_stamp", "source_stamp", "user_module_files"]


def in_package(path) -> bool:
    """True when ``path`` is a source file of this package."""
    try:
        return Path(path).resolve().is_relative_to(PACKAGE_DIR)
    except (OSError, ValueError):
        return False


@lru_cache(maxsize=None)
def module_file(dotted: str) -> Path | None:
    """The source file of package module ``dotted`` (``barbu_sim.barbu.rules``), or None if there is none."""
    parts = dotted.split(".")
    if parts[0] != PACKAGE:
        return None
    base = PACKAGE_DIR.joinpath(*parts[1:])
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _dotted(path: Path) -> str:
    """The dotted module name of a package file."""
    rel = path.resolve().relative_to(PACKAGE_DIR.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _with_parents(dotted: str) -> list[str]:
    """``a.b.c`` and the packages importing it runs first: ``a``, ``a.b``."""
    parts = dotted.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)]


_IMPORT = re.compile(r"^[ \t]*import[ \t]+([\w., \t]+)", re.M)
_FROM = re.compile(r"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]+)", re.M)


@lru_cache(maxsize=None)
def _parsed(path: Path, mtime_ns: int, size: int) -> tuple[frozenset, str]:
    """The package modules ``path`` imports, and the digest of its bytes (keyed on the file's stat).

    Imports are read from the text (an ``import`` line inside a string counts too: that only
    widens the closure, which is safe).
    """
    data = path.read_bytes()
    text = data.decode("utf-8", errors="replace")
    here = _dotted(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    names: set[str] = set()
    for match in _IMPORT.finditer(text):
        names.update(part.split()[0] for part in match.group(1).split(",") if part.split())
    for match in _FROM.finditer(text):
        module = match.group(1)
        level = len(module) - len(module.lstrip("."))
        if level:
            base = package.split(".")
            base = base[:len(base) - level + 1]
            module = ".".join(base + ([module.lstrip(".")] if module.lstrip(".") else []))
        names.add(module)
        imported = match.group(2).strip("() \t\n")
        names.update(f"{module}.{part.split()[0]}" for part in imported.split(",") if part.split())
    files = set()
    for name in names:
        for dotted in _with_parents(name):
            found = module_file(dotted)
            if found is not None and found != path:
                files.add(found)
    return frozenset(files), hashlib.sha256(data).hexdigest()


def _read(path: Path) -> tuple[frozenset, str]:
    st = path.stat()
    return _parsed(path, st.st_mtime_ns, st.st_size)


def dependency_files(path) -> list[Path]:
    """``path`` and every package file it imports, directly or through other package files, sorted."""
    start = Path(path).resolve()
    seen: set[Path] = set()
    todo = [start]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        todo.extend(_read(current)[0] - seen)
    return sorted(seen)


def code_stamp(path) -> str:
    """A 16-hex-digit digest of the code of ``path`` (a file, or a dotted package module) and of every
    package module it depends on (:func:`dependency_files`).

    Equal stamps mean the same files, byte for byte.
    """
    if isinstance(path, str) and not path.endswith(".py"):
        found = module_file(path)
        if found is None:
            raise ValueError(f"{path} is not a module of {PACKAGE}")
        path = found
    digest = hashlib.sha256()
    for file in dependency_files(path):
        digest.update(f"{file.relative_to(PACKAGE_DIR).as_posix()}\0{_read(file)[1]}\0".encode())
    return digest.hexdigest()[:16]


def plugin_stamp(spec: str) -> str:
    """A digest of the code behind a plugin strategy (``path.py:func`` or ``module:func``), so that editing
    it changes cache keys and the players a run records.

    The plugin's file and every user module it imports, directly or through another
    user module (:func:`user_module_files`): editing a helper the plugin imports
    rebuilds the table too.
    """
    where = spec.strip().rpartition(":")[0]
    try:
        origin = where if where.endswith(".py") else importlib.util.find_spec(where).origin
        return source_stamp(origin, full=True)
    except (AttributeError, ImportError, OSError, TypeError, ValueError, SyntaxError):
        return "unreadable"  # resolve_strategy reports the real problem when the table is built


def source_stamp(path, *, full: bool = False) -> str:
    """The code stamp of a source file: :func:`code_stamp` for a file of this package, else a digest of the
    file and the user modules it imports (:func:`user_module_files`); ``full``: all 64 hex digits."""
    if in_package(path):
        return code_stamp(Path(path))
    digest = hashlib.sha256()
    for file in user_module_files(Path(path)):
        digest.update(str(file).encode() + b"\0" + file.read_bytes() + b"\0")
    return digest.hexdigest() if full else digest.hexdigest()[:16]


def _library_dirs() -> list[Path]:
    """Where installed code lives (the standard library, site-packages, this package): not user modules."""
    import sysconfig
    dirs = {Path(sys.prefix), Path(sys.base_prefix), PACKAGE_DIR}
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        try:
            dirs.add(Path(sysconfig.get_paths()[key]))
        except KeyError:
            pass
    return [d.resolve() for d in dirs]


def _find_module(dotted: str, search: list[str]) -> Path | None:
    """The file of module ``dotted`` on ``search`` without importing (or running) anything."""
    from importlib.machinery import PathFinder
    path, origin = search, None
    for part in dotted.split("."):
        spec = PathFinder.find_spec(part, path)
        if spec is None or not spec.origin or spec.origin in ("built-in", "frozen"):
            return None
        origin = spec.origin
        path = list(spec.submodule_search_locations or [])
        if not path:
            break
    return Path(origin) if origin and origin.endswith(".py") else None


def user_module_files(plugin: Path) -> list[Path]:
    """``plugin`` and the user modules it imports, transitively, found by reading the ``import`` lines.

    A user module is one whose file is not in the standard library, site-packages or
    barbu-sim.  Imports made at run time (``importlib``, ``__import__``) are not seen.
    """
    import ast
    library = _library_dirs()
    seen: list[Path] = []
    todo = [plugin.resolve()]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.append(path)
        search = [str(path.parent), *sys.path]
        for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            else:
                continue
            for name in names:
                found = _find_module(name, search)
                if found is not None:
                    found = found.resolve()
                    if not any(found.is_relative_to(d) for d in library):
                        todo.append(found)
    return [seen[0], *sorted(seen[1:])]


def player_stamp(spec, strategy, *, user_id: int, player_file=None) -> str:
    """The 16-hex-digit code stamp of one seat's player, as a run's manifest records it.

    ``strategy``: ``spec`` resolved by its game's registry; ``user_id``: that registry's id of
    plugins (a plugin given by name is stamped with its files, :func:`plugin_stamp`);
    ``player_file``: the module of a player whose strategy function is only a placeholder (the
    Monte-Carlo players); otherwise the module that defines the strategy function.
    """
    if isinstance(spec, str) and strategy.builtin_id == user_id:
        return plugin_stamp(spec)[:16]
    if player_file is None:
        func = getattr(strategy.func, "py_func", strategy.func)
        player_file = inspect.getsourcefile(func)
    return source_stamp(player_file)
