"""Reading a learned player's model file, for both games: the faults of the file as one-line errors, and the id.

A model file is JSON; each game turns its contents into the array its kernels take
(``to_array``, which raises ValueError on a wrong shape or weight). The id is the first 12 hex
digits of that array's sha256, so it changes whenever a weight does.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from pathlib import Path
from typing import Callable

import numpy as np

# What to do about a damaged model file: a packaged model (inside this package) comes back with the package; a
# user's own file (a training command's --out, the models train compare reads) is no fault of the package's, and
# is said as such.
REINSTALL = "reinstall the package"
NOT_A_MODEL = "it is damaged, or not a model file"
PACKAGE_DIR = Path(__file__).resolve().parent.parent  # .../barbu_sim: the packaged models are under it


def packaged(path) -> bool:
    """Whether the model file at ``path`` is one of the package's own (under its folder, links followed)."""
    try:
        return Path(path).resolve().is_relative_to(PACKAGE_DIR)
    except (OSError, ValueError, RuntimeError):  # a link loop, an odd name: not a file the package holds
        return False


def read_model_file(path: str, what: str, to_array: Callable[[dict], np.ndarray]) -> tuple[np.ndarray, str]:
    """``(array, id)`` of the model file at ``path``; ``what`` names it in the errors ("the learned player's
    model PATH"). Any fault (unreadable, not UTF-8, not JSON, refused by ``to_array``) is a one-line
    ValueError that names the file."""
    # core.files is looked up here, not imported by name: the players' kernels import this module, and numba's code
    # stamps (core/codestamp.py) follow import statements, so a change to the file writers would compile them again.
    files = importlib.import_module(".files", __package__)
    ours = packaged(path)
    try:
        # a BOM is allowed; a pipe or a device is not (opening a FIFO would wait for a writer)
        data = files.parse_json(files.read_capped(path, files.MAX_JSON_BYTES, what, regular=True), what)
    except files.InputError as e:  # unreadable (said as such), too large, not UTF-8, not JSON, nested too deeply
        message = str(e)
        if message.startswith("cannot read"):
            raise ValueError(message) from None
        raise ValueError(f"{message}; {REINSTALL}" if ours else _not_a_model(message)) from None
    except ValueError:  # Python's own limit on the digits of an integer (4,300) is no fault of JSON's
        message = f"{what} holds a number too long to read: it is damaged"
        raise ValueError(f"{message}; {REINSTALL}" if ours else _not_a_model(message)) from None
    try:
        model = to_array(data)
    except (ValueError, TypeError, OverflowError) as e:  # whatever the contents, the error names the file
        raise ValueError(f"{what}: {e}") from None
    return model, hashlib.sha256(model.tobytes()).hexdigest()[:12]


def _not_a_model(message: str) -> str:
    """``message``, about a user's model file that cannot be read as JSON, ending in what that says of the file:
    damaged, or some other file than a model (said once, where the message says "it is damaged" already)."""
    for said, instead in ((": it is truncated or damaged", ": it is truncated, damaged, or not a model file"),
                          (": it is damaged", f": {NOT_A_MODEL}")):
        if message.endswith(said):
            return message.removesuffix(said) + instead
    return f"{message}; {NOT_A_MODEL}"


def check_hidden(value, units: int, most: int, where: str) -> None:
    """A model file's hidden-layer size (``where`` names its key): a whole number of units the kernels take, 0 (the
    linear part alone) to ``most``, and the ``units`` that W1's rows hold; else a one-line ValueError naming it."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
        shown = json.dumps(value) if isinstance(value, (bool, int, float, type(None))) else \
            {str: "a string", list: "a list", dict: "an object"}.get(type(value), type(value).__name__)
        raise ValueError(f"{where} must be a whole number of hidden units, 0 to {most}, not {shown[:40]}")
    if value != units:
        raise ValueError(f"{where} is {value}, but W1 holds {units} rows, one per hidden unit: the file is damaged")


def weights_array(entry: dict, key: str, shape: tuple, where: str) -> np.ndarray:
    """``entry[key]`` as a float32 array of ``shape``: numbers, all finite (also once in float32); else a
    one-line ValueError that begins with ``where`` and names the key."""
    wanted = f"a list of {shape[0]} numbers" if len(shape) == 1 else f"{shape[0]} rows of {shape[1]} numbers"
    if key not in entry:
        raise ValueError(f"{where}: {key} must be {wanted}, and is missing")
    # numpy would take "0.5" and true for numbers: a weight must be a JSON number, nothing that converts to one
    odd = _not_a_number(entry[key])
    if odd is not None:
        raise ValueError(f"{where}: {key} must be {wanted}, and holds {odd}, which is not a number")
    try:
        a = np.asarray(entry[key], np.float64)
    except (TypeError, ValueError):  # rows of unequal lengths
        raise ValueError(f"{where}: {key} must be {wanted}, and is not a table of numbers") from None
    except OverflowError:  # an integer beyond any float
        raise ValueError(f"{where}: {key} holds weights that are not finite numbers (beyond float32)") from None
    if a.shape != shape:
        got = "a number" if a.ndim == 0 else " by ".join(map(str, a.shape))
        raise ValueError(f"{where}: {key} must be {wanted}, not {got}")
    with np.errstate(over="ignore"):
        if not (np.isfinite(a).all() and np.isfinite(a.astype(np.float32)).all()):
            raise ValueError(f"{where}: {key} holds weights that are not finite numbers (NaN, infinity, or beyond "
                             "float32)")
    return a.astype(np.float32)


def _not_a_number(value) -> str | None:
    """What the first entry of ``value`` (a number, or lists of them) that is not a JSON number is, said as JSON
    shows it (a string, true, null, an object); None when every entry is a number."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, bool):  # a bool is an int to Python, not a number to JSON
            return "true" if v else "false"
        elif not isinstance(v, (int, float)):
            return {str: "a string", type(None): "null", dict: "an object"}.get(type(v), type(v).__name__) + \
                (f" ({v[:20]!r})" if isinstance(v, str) else "")
    return None
