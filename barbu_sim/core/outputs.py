"""The model and results files the studies, training and scripts write: checked before any work, written whole.

Every such file is checked before any work: a file that exists is refused unless the script's
``--force`` is given (or, where a script adds rows to its file, the merge flag it documents), so
that a long study never ends by overwriting a published result, nor a training run the
packaged model, by accident.  It is then written under a temporary name beside it and renamed
(:mod:`barbu_sim.core.files`): a full disk, a read-only folder or Ctrl-C leaves the old file
whole, never a cut one, and a failed write is one line (``Error: cannot write ...``, exit 1).
"""

from __future__ import annotations

import json
import shutil
import sys
from contextlib import contextmanager
from pathlib import Path

from . import files
from .files import OutputError

FORCE_HELP = "replace the output file if it exists (without it, an existing file is refused before any work)"


def add_force(ap, help: str = FORCE_HELP) -> None:
    """Give the argument parser ``ap`` the ``--force`` flag that lets a script replace its existing output."""
    ap.add_argument("--force", action="store_true", help=help)


def check_out(path, force: bool, flag: str = "--out", merge: str = "") -> Path:
    """``path``, a file the script is to write, checked before any work; raises ValueError (one line).

    It must be named, not a folder, not an existing file unless ``force`` (``merge``: the flag that
    adds to an existing file instead, named in the message), in a folder where files can be written.
    """
    if not str(path).strip():
        raise ValueError(f"{flag} is empty: name a file")
    target = Path(path)
    if target.is_dir():
        raise ValueError(f"{flag} {path} is a folder: name a file")
    if _there(target) and not force:
        how = f"give {merge} to add to it, --force to replace it" if merge else "give --force to replace it"
        link = " (a link)" if not target.exists() else ""  # one that points nowhere: the write would replace it
        raise ValueError(f"{flag} {path} exists{link}: {how}, or name another file")
    _check_folder(target.parent, f"the folder of {flag} {path}")
    return target


def check_folder_files(folder, names, force: bool, flag: str) -> Path:
    """The folder ``folder`` a script writes the files ``names`` into, checked before any work (ValueError):
    none of them may exist unless ``force``, and files must be writable there."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"{flag} {folder} is a file: name a folder")
    there = [name for name in names if _there(folder / name)]
    if there and not force:
        raise ValueError(f"{flag} {folder} holds {there[0]}" + (f" and {len(there) - 1} more of this script's files"
                         if len(there) > 1 else "") + ": give --force to replace them, or name another folder")
    _check_folder(folder, f"{flag} {folder}")
    return folder


def read_rows(path, keys, flag: str = "--out") -> dict:
    """The results file at ``path`` that a script's merge flag adds rows to: an object whose ``rows`` are objects
    with ``keys``; else a one-line ValueError (read before any work, so that a damaged file costs no study)."""
    try:
        data = files.read_json(path, f"{flag} {path}")
    except files.InputError as e:
        raise ValueError(f"{e}: give --force to replace it") from None
    rows = data.get("rows") if isinstance(data, dict) else None
    if not isinstance(rows, list) or not all(isinstance(r, dict) and all(k in r for k in keys) for r in rows):
        raise ValueError(f"{flag} {path} is not a results file of rows of {', '.join(keys)} to add to: give --force "
                         "to replace it, or name another file")
    return data


def refuse_existing(path, force: bool, flag: str = "--out", merge: str = "") -> Path:
    """:func:`check_out`, its refusal said as one ``Error:`` line on stderr (exit code 2)."""
    try:
        return check_out(path, force, flag, merge)
    except ValueError as e:
        fail(str(e))


def fail(message: str, code: int = 2):
    """Say ``message`` as one ``Error:`` line on stderr and exit with ``code`` (2: a usage error)."""
    print(f"Error: {message}", file=sys.stderr)
    raise SystemExit(code)


def _there(path: Path) -> bool:
    """Whether a file is at ``path``: a link that points nowhere is one (``Path.exists`` follows links and says
    no, yet the write would replace the link), as ``barbu-sim``'s own check of a file to write has it."""
    return path.exists() or path.is_symlink()


def _check_folder(folder: Path, what: str) -> None:
    try:
        files.ensure_writable(folder, what)
    except OutputError as e:
        raise ValueError(str(e)) from None


@contextmanager
def atomic(path, what: str = ""):
    """A temporary path to write ``path``'s new content to, renamed to ``path`` when the block ends; its folder
    is made if need be.  A failure to write is one ``Error:`` line (exit code 1) and leaves the old file whole."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with files.atomic_path(path, what) as tmp:
            yield tmp
    except OSError as e:  # the folder could not be made
        fail(str(OutputError(path, what, e)), 1)
    except OutputError as e:
        fail(str(e), 1)


def write_text(path, text: str, what: str = "") -> Path:
    """Write ``text`` to ``path`` atomically (see :func:`atomic`)."""
    with atomic(path, what) as tmp:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
    return Path(path)


def write_json(path, data, indent: int | None = 2, what: str = "") -> Path:
    """Write ``data`` as JSON (and a final newline) to ``path`` atomically (see :func:`atomic`)."""
    return write_text(path, json.dumps(data, indent=indent) + "\n", what)


def copy_file(source, path, what: str = "") -> Path:
    """Copy the file ``source`` to ``path`` atomically (see :func:`atomic`)."""
    with atomic(path, what) as tmp:
        shutil.copyfile(source, tmp)
    return Path(path)


def json_writer(data, indent: int | None = 2):
    """A writer of ``data`` as JSON for :func:`write_set`."""
    return lambda p: Path(p).write_text(json.dumps(data, indent=indent) + "\n", encoding="utf-8")


def text_writer(text: str):
    """A writer of ``text`` for :func:`write_set`."""
    return lambda p: Path(p).write_text(text, encoding="utf-8")


def write_set(writers: dict, what: str = "") -> list[Path]:
    """Write a set of files that belong together (the results of one study), all or none: ``writers`` maps each
    path to a function that writes its content to a given path (:func:`barbu_sim.core.files.replace_set`).
    Their folders are made if need be; a failure is one ``Error:`` line (exit code 1) and leaves the old set."""
    try:
        for path in writers:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        return files.replace_set({Path(p): w for p, w in writers.items()}, what)
    except OSError as e:  # a folder could not be made
        fail(str(OutputError(getattr(e, "filename", None) or next(iter(writers)), what, e)), 1)
    except OutputError as e:
        fail(str(e), 1)
