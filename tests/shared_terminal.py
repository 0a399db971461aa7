"""Reading a command's pseudo-terminal (the table tests drive ``barbu-sim table`` through ``pty.fork``)."""

import os
import select


def read_ready(fd, wait: float):
    """What the terminal ``fd`` shows within ``wait`` seconds: its bytes (empty when nothing came), or None when
    it cannot be read (the command has closed it)."""
    ready, _, _ = select.select([fd], [], [], wait)
    if not ready:
        return b""
    try:
        return os.read(fd, 4096)
    except OSError:
        return None
