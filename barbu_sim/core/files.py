"""Writing output files atomically: a temporary name in the same directory, then a rename.

Every file a command writes goes through here.  A reader (or a later run) sees either
the old file or the new one, never a half-written one; a write that fails (a full disk,
a read-only folder) leaves the old file in place, removes its temporary file, and raises
:class:`OutputError`, whose message names the path and what was being written.  A set
of files that belong together (:func:`replace_set`) is written in full under
temporary names before any of them replaces its old version.

Temporary names are unique per process and call (``.NAME.PID-RANDOM.tmp.EXT``), so two
processes writing the same file (two ``advise`` filling one cache) never interleave.

This module does not import numba.
"""

from __future__ import annotations

import errno
import json
import os
import re
import secrets
from contextlib import contextmanager
from pathlib import Path
from typing import Callable


class OutputError(Exception):
    """A file could not be written (an environment failure: exit code 1, not a usage error)."""

    def __init__(self, path, what: str, error: BaseException):
        self.path, self.what, self.error = Path(path), what, error
        reason = getattr(error, "strerror", None) or _os_reason(str(error))
        super().__init__(f"cannot write {path}" + (f" ({what})" if what else "") + f": {reason}")


def _os_reason(text: str) -> str:
    """The reason alone in the text of a writer's error that wraps an OS error, as polars writes it
    (``Read-only file system (os error 30): DIR/.NAME.PID-RANDOM.tmp.csv``): neither the temporary
    file's name (the message names the file being written) nor the error's number."""
    first = text.strip().splitlines()[0] if text.strip() else text
    match = re.match(r"(.+?)\s*\(os error \d+\)", first)
    return match.group(1) if match else first


def temporary_path(path) -> Path:
    """A fresh temporary name beside ``path``, keeping its extension (``np.save`` and ``savefig`` read it)."""
    path = Path(path)
    return path.with_name(f".{path.stem}.{os.getpid()}-{secrets.token_hex(4)}.tmp{path.suffix}")


@contextmanager
def atomic_path(path, what: str = ""):
    """Yield a temporary path to write ``path``'s new content to; on success rename it to ``path``.

    Any failure removes the temporary file and leaves ``path`` as it was; an ``OSError``
    (or an error of a writer that wraps one, like polars') becomes :class:`OutputError`.
    """
    path = Path(path)
    tmp = None
    try:
        tmp = temporary_path(path)
        yield tmp
        os.replace(tmp, path)
    except BaseException as e:
        if tmp is not None:
            _discard(tmp)
        if isinstance(e, OSError) or _wraps_os_error(e):
            raise OutputError(path, what, e) from None
        raise


def _wraps_os_error(e: BaseException) -> bool:
    """polars reports a failed write as a ``ComputeError`` whose text holds the OS error."""
    return type(e).__name__ == "ComputeError" and ("os error" in str(e) or "No space" in str(e))


def _discard(tmp: Path) -> None:
    try:
        tmp.unlink(missing_ok=True)
    except OSError:
        pass


def write_text(path, text: str, what: str = "") -> Path:
    """Write ``text`` to ``path`` atomically."""
    with atomic_path(path, what) as tmp:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
    return Path(path)


def write_bytes(path, data: bytes, what: str = "") -> Path:
    """Write ``data`` to ``path`` atomically."""
    with atomic_path(path, what) as tmp:
        with open(tmp, "wb") as f:
            f.write(data)
    return Path(path)


def write_json(path, data, what: str = "", indent: int | None = 2) -> Path:
    """Write ``data`` as JSON (and a final newline) to ``path`` atomically."""
    return write_text(path, json.dumps(data, indent=indent) + "\n", what)


def replace_set(writers: dict[Path, Callable[[Path], object]], what: str = "") -> list[Path]:
    """Write a set of files that belong together: all or none.

    ``writers`` maps each path to a function that writes its content to a given path.
    Every file is first written to a temporary name; only when all are written are they
    renamed over the old ones (renames in one directory do not fail for want of space).
    If any write fails, every temporary file is removed and the old set stays whole.
    """
    done: list[tuple[Path, Path]] = []
    try:
        for path, write in writers.items():
            path = Path(path)
            try:
                tmp = temporary_path(path)
                done.append((tmp, path))
                write(tmp)
            except BaseException as e:
                if isinstance(e, OSError) or _wraps_os_error(e):
                    raise OutputError(path, what, e) from None
                raise
        for tmp, path in done:
            os.replace(tmp, path)
    except BaseException:
        for tmp, _ in done:
            _discard(tmp)
        raise
    return [path for _, path in done]


def ensure_writable(directory, what: str = "output") -> Path:
    """Check, before any work, that files can be written in ``directory`` (made later if need be).

    An existing directory gets a probe file, written and removed (also when its write fails); for
    one still to be made, its nearest existing parent must be a writable folder.  Raises :class:`OutputError` naming
    the directory (a read-only filesystem, no permission...), and ValueError where a file stands in its path.
    """
    directory = Path(directory)
    try:
        if directory.is_dir():
            probe = temporary_path(directory / "probe")
            try:
                with open(probe, "wb") as f:
                    f.write(b"0")
            finally:  # a write that fails (a full disk) has made the file already: never leave it behind
                _discard(probe)
        else:
            parent = directory  # the nearest part of the path that exists (the directory itself, if a file)
            while not parent.exists() and parent != parent.parent:
                parent = parent.parent
            if not parent.is_dir():  # a file where a folder should be: the user's mistake, not the machine's
                raise ValueError(f"cannot make {directory}" + (f" ({what})" if what else "")
                                 + f": {parent} is a file, not a folder")
            if not os.access(parent, os.W_OK | os.X_OK):
                err = errno.EROFS if _read_only(parent) else errno.EACCES
                raise OSError(err, os.strerror(err), str(parent))
    except OSError as e:
        raise OutputError(directory, what, e) from None
    return directory


def _read_only(path: Path) -> bool:
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def describe_os_error(e: OSError) -> str:
    """An OS error as one line that names its file when it has one."""
    reason = e.strerror or str(e)
    if e.filename is not None:
        return f"{e.filename}: {reason}"
    return reason



# Reading: every JSON or text file a command reads goes through these, so that a hostile or
# damaged file (nested a million deep, a device that never ends, gigabytes) is a one-line error.

MAX_JSON_BYTES = 64 << 20  # a model file is about 40 KB, a manifest a few KB: 64 MiB is far past any real one


class InputError(ValueError):
    """A file given to a command cannot be read as what it should be; the message names it."""


def read_capped(path, limit: int, what: str = "", regular: bool = False) -> bytes:
    """The bytes of ``path``, refusing (:class:`InputError`) a file longer than ``limit`` bytes.

    Reads at most ``limit + 1`` bytes, so a device that never ends (``/dev/zero``) or a huge file
    costs no more than the cap in time and memory.  ``-`` reads standard input.  An OS error
    (missing, a folder, no permission) is an :class:`InputError` naming the path too.  With
    ``regular``, anything but a regular file (after links) is refused before it is opened: opening a
    FIFO waits for a writer, where not even Ctrl-C reaches the command.
    """
    import stat
    name = what or str(path)
    try:
        if str(path) == "-":
            import sys
            data = sys.stdin.buffer.read(limit + 1)
        else:
            if regular and not stat.S_ISREG(os.stat(path).st_mode):
                raise InputError(f"{name} is not a regular file (a pipe, a device or a socket): name a file")
            with open(path, "rb") as f:
                data = f.read(limit + 1)
    except OSError as e:
        raise InputError(f"cannot read {name}: {e.strerror or e}") from None
    if len(data) > limit:
        raise InputError(f"{name} is larger than {_size(limit)}: not a file this command reads")
    return data


def parse_json(text: str | bytes, what: str):
    """``text`` parsed as JSON, or an :class:`InputError` naming ``what``: invalid JSON, nesting too deep
    for Python's parser (a ``RecursionError`` otherwise), not UTF-8.  A UTF-8 byte-order mark is allowed."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise InputError(f"{what} is not UTF-8 text: it is damaged") from None
    elif text.startswith("\ufeff"):
        text = text[1:]
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"{what} is not valid JSON ({e.msg} at line {e.lineno}, column {e.colno}): it is "
                         "truncated or damaged") from None
    except RecursionError:
        raise InputError(f"{what} is not a file this command reads: its JSON is nested too deeply") from None
    except ValueError as e:  # an integer past Python's digit limit (sys.set_int_max_str_digits)
        raise InputError(f"{what} holds a number too long to read ({str(e).split(';')[0]})") from None


def read_json(path, what: str = "", limit: int = MAX_JSON_BYTES):
    """The JSON file at ``path`` (at most ``limit`` bytes), or a one-line :class:`InputError` naming it."""
    return parse_json(read_capped(path, limit, what or str(path), regular=True), what or str(path))


def _size(n: int) -> str:
    return f"{n >> 20} MiB" if n >= 1 << 20 else f"{n >> 10} KiB" if n >= 1 << 10 else f"{n} bytes"
