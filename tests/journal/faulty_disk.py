"""Run the `narrator` command on a disk that fails: `python tests/journal/faulty_disk.py ERRNO AFTER -- play …`
(AFTER = `open`: the journal cannot even be opened).

The journal's first AFTER line writes succeed; the next one writes half its bytes (a disk that
fills up mid-line does that) and every write after it fails with ERRNO (ENOSPC, EROFS, EIO), as
the kernel reports them to `os.write` and `os.fsync`. Only files named *.jsonl fail: the
terminal and everything else work on.
"""

from __future__ import annotations

import errno
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def refuse_open(code: int) -> None:
    """A journal that cannot even be opened (a folder this user may not write in, as root never
    sees it): every open of a *.jsonl file that would write or create it fails with `code`."""
    real_open = os.open

    def opened(path, flags, *args, **kwargs):
        if str(path).endswith(".jsonl") and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            raise OSError(code, os.strerror(code), str(path))
        return real_open(path, flags, *args, **kwargs)

    os.open = opened


def install(code: int, after: int) -> None:
    real_write, real_fsync = os.write, os.fsync
    state = {"lines": 0, "broken": False}

    def journal_fd(fd: int) -> bool:
        try:
            return os.readlink(f"/proc/self/fd/{fd}").endswith(".jsonl")
        except OSError:
            return False

    def write(fd, data):
        if not journal_fd(fd):
            return real_write(fd, data)
        if state["broken"]:
            raise OSError(code, os.strerror(code))
        if state["lines"] >= after:
            state["broken"] = True
            half = max(1, len(data) // 2)
            return real_write(fd, bytes(data[:half]))  # a short write: the next one fails
        state["lines"] += 1
        return real_write(fd, data)

    def fsync(fd):
        if state["broken"] and journal_fd(fd):
            raise OSError(code, os.strerror(code))
        return real_fsync(fd)

    os.write, os.fsync = write, fsync


if __name__ == "__main__":
    code = getattr(errno, sys.argv[1])
    assert sys.argv[3] == "--"
    if sys.argv[2] == "open":
        refuse_open(code)
    else:
        install(code, int(sys.argv[2]))
    from narrator.cli import main

    sys.exit(main(sys.argv[4:]))
