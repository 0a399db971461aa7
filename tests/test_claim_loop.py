"""The batch kernels' claim loops (see barbu_sim.core.atomic) stay copies of one loop, and the threads
that run them claim every chunk once.

numba cannot cache a kernel that is handed its chunk function, so each batch kernel writes the
loop out; the first tests read the kernels' source (no numba) and compare them.
"""

import ast
from pathlib import Path

import pytest

import barbu_sim

PACKAGE = Path(barbu_sim.__file__).parent

# (module, kernel, the function that plays a chunk) of every kernel that claims chunks.
KERNELS = [
    ("barbu/engine/deal_kernels.py", "play_batch_kernel", "_play_range"),
    ("clabber/engine/game_kernels.py", "games_batch_kernel", "_games_chunk"),
    ("clabber/engine/round_kernels.py", "rounds_batch_kernel", "_rounds_chunk"),
]

# The loop, up to the chunk's call, as ast.unparse writes it.
CLAIM_LOOP = [
    "n_chunks = (n + chunk - 1) // chunk",
    "while True:",
    "k = claim(next_chunk)",
    "if k >= n_chunks:",
    "break",
    "lo = k * chunk",
]


def _kernel(path: str, name: str) -> ast.FunctionDef:
    tree = ast.parse((PACKAGE / path).read_text(encoding="utf-8"))
    return next(node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and node.name == name)


def _lines(statements) -> list[str]:
    """Each statement's first line, nested blocks flattened, formatting and comments normalised away."""
    out = []
    for stmt in statements:
        out.append(ast.unparse(stmt).splitlines()[0])
        for field in ("body", "orelse"):
            out += _lines(getattr(stmt, field, []) if isinstance(stmt, (ast.For, ast.While, ast.If)) else [])
    return out


@pytest.mark.parametrize("path, name, play_chunk", KERNELS)
def test_claim_loop_is_the_one_loop(path, name, play_chunk):
    body = _kernel(path, name).body
    if isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    while isinstance(body[0], ast.Assign) and "n_chunks" not in ast.unparse(body[0]):
        body = body[1:]  # the thread's scratch arrays, made once for every chunk it plays
    lines = _lines(body)
    assert lines[:len(CLAIM_LOOP)] == CLAIM_LOOP
    rest = lines[len(CLAIM_LOOP):]
    # Then exactly one call of the chunk function, on items lo .. min(n, lo + chunk) - 1.
    if rest[0] == "hi = min(n, lo + chunk)":
        rest, bounds = rest[1:], "lo, hi"
    else:
        bounds = "lo, min(n, lo + chunk)"
    assert len(rest) == 1 and rest[0].startswith(f"{play_chunk}(")
    assert bounds in rest[0]


def test_every_claiming_kernel_is_checked():
    """A new module that claims chunks has its kernel in KERNELS."""
    claiming = {str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py")
                if "core.atomic import claim" in p.read_text(encoding="utf-8")}
    assert claiming == {path for path, _, _ in KERNELS}


def test_threads_claim_every_chunk_once_and_report_an_error():
    """on_threads runs the kernel on every thread asked for, with one counter: each chunk is played once, by
    whichever thread claims it; an exception in a thread reaches the caller after all have returned."""
    import numpy as np
    from numba import njit

    from barbu_sim.core.atomic import claim, on_threads

    @njit(nogil=True)
    def count_chunks(next_chunk, n_chunks, played):
        while True:
            k = claim(next_chunk)
            if k >= n_chunks:
                break
            played[k] += 1

    n_chunks = 5000
    played = np.zeros(n_chunks, np.int64)
    on_threads(count_chunks, 3)(n_chunks, played)
    assert played.tolist() == [1] * n_chunks  # every chunk once: none lost, none played twice
    on_threads(count_chunks, 1)(0, played)  # no chunk: returns at once
    assert played.sum() == n_chunks

    calls = []

    def failing(next_chunk, name):
        calls.append(next_chunk)
        if len(calls) == 2:
            raise RuntimeError(name)

    with pytest.raises(RuntimeError, match="broken"):
        on_threads(failing, 3)("broken")
    assert len(calls) == 3 and all(c is calls[0] for c in calls)  # three threads, one shared counter
