"""User plugins named ``path/to/file.py:name`` or ``package.module:name``: the one parser and loader.

Play strategies and contract-choice policies are both given this way; each caller
checks that the object it gets is of the right kind.  Every failure is a one-line
``ValueError`` naming the spec.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
from pathlib import Path


def is_plugin_spec(spec: str) -> bool:
    """True when ``spec`` has the ``where:name`` shape of a plugin."""
    where, _, name = spec.strip().rpartition(":")
    return bool(where) and bool(name)


def _load_module_from_path(path: Path, what: str):
    if not path.is_file():
        raise ValueError(f"{what} file {path} does not exist")
    digest = hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:12]
    name = f"barbu_user_{path.stem}_{digest}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ValueError(f"cannot load {what} file {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as e:  # the user's file failed: say so in one line
        del sys.modules[name]
        raise ValueError(f"{what} file {path} failed to load: {type(e).__name__}: {e}") from None
    return module


def load_plugin(spec: str, what: str):
    """The object named by ``spec`` (``file.py:name`` or ``module:name``); ``what`` names it in errors."""
    where, _, name = spec.strip().rpartition(":")
    if not where or not name:
        raise ValueError(f"{what} {spec!r} must be path/to/file.py:function or module:function")
    if where.endswith(".py"):
        module = _load_module_from_path(Path(where), what)
    else:
        try:
            module = importlib.import_module(where)
        except Exception as e:  # ImportError, or an error raised while the module runs
            raise ValueError(f"cannot import {what} module {where!r}: {type(e).__name__}: {e}") from None
    obj = getattr(module, name, None)
    if obj is None:
        raise ValueError(f"{what} {spec!r}: {where} has no function {name!r}")
    return obj
