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
