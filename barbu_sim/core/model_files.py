"""Reading a learned player's model file, for both games: the faults of the file as one-line errors, and the id.

A model file is JSON; each game turns its contents into the array its kernels take
(``to_array``, which raises ValueError on a wrong shape or weight). The id is the first 12 hex
digits of that array's sha256, so it changes whenever a weight does.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Callable

import numpy as np


def read_model_file(path: str, what: str, to_array: Callable[[dict], np.ndarray]) -> tuple[np.ndarray, str]:
    """``(array, id)`` of the model file at ``path``; ``what`` names it in the errors ("the learned player's
    model PATH"). Any fault (unreadable, not UTF-8, not JSON, refused by ``to_array``) is a one-line
    ValueError that names the file."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise ValueError(f"cannot read {what}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise ValueError(f"{what} is not UTF-8 text: it is damaged; reinstall the package or retrain") from None
    except json.JSONDecodeError as e:
        raise ValueError(f"{what} is not valid JSON ({e.msg} at line {e.lineno}, column {e.colno}): it is truncated "
                         "or damaged; reinstall the package or retrain") from None
    try:
        model = to_array(data)
    except ValueError as e:
        raise ValueError(f"{what}: {e}") from None
    return model, hashlib.sha256(model.tobytes()).hexdigest()[:12]


def weights_array(entry: dict, key: str, shape: tuple, where: str) -> np.ndarray:
    """``entry[key]`` as a float32 array of ``shape``: numbers, all finite (also once in float32); else a
    one-line ValueError that begins with ``where`` and names the key."""
    wanted = f"a list of {shape[0]} numbers" if len(shape) == 1 else f"{shape[0]} rows of {shape[1]} numbers"
    try:
        a = np.asarray(entry[key], np.float64)
    except KeyError:
        raise ValueError(f"{where}: {key} must be {wanted}, and is missing") from None
    except (TypeError, ValueError):
        raise ValueError(f"{where}: {key} must be {wanted}, and is not a table of numbers") from None
    if a.shape != shape:
        got = "a number" if a.ndim == 0 else " by ".join(map(str, a.shape))
        raise ValueError(f"{where}: {key} must be {wanted}, not {got}")
    with np.errstate(over="ignore"):
        if not (np.isfinite(a).all() and np.isfinite(a.astype(np.float32)).all()):
            raise ValueError(f"{where}: {key} holds weights that are not finite numbers (NaN, infinity, or beyond "
                             "float32)")
    return a.astype(np.float32)
