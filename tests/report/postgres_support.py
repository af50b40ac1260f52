"""A real PostgreSQL server for the club's tests, from Debian's postgresql package: initdb into a
temporary folder, pg_ctl start on a free loopback port, stopped at the end. PostgreSQL refuses to
run as root (CI runs as root), so there it runs as the `postgres` system user in a folder it owns."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path

import pytest


def _bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(Path(p).parts[4]))
    return Path(found[-1]).parent if found else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, bindir: Path, root: Path, user: str | None):
        self.bindir, self.root, self.user = bindir, root, user
        self.data, self.log = root / "data", root / "server.log"
        self.port = _free_port()

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        cmd = [str(self.bindir / args[0]), *args[1:]]
        if self.user:
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if check and r.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"{' '.join(cmd)}: {r.returncode}\n{r.stdout}\n{r.stderr}\n{log}")
        return r

    def init(self) -> None:
        # no fsync, no sync at initdb: a test server's data is thrown away with its folder
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "narrator", "--no-sync", "-E", "UTF8",
                  "--locale=C")

    def start(self) -> None:
        opts = (f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
                "-c synchronous_commit=off -c full_page_writes=off -c max_connections=40")
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", opts, "-w", "-t", "60", "start")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", "60", "stop", check=False)

    def restart(self) -> None:
        self.stop()
        self.start()

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://narrator@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A database of its own for one test: the others' games never mix in."""
        import psycopg

        name = "club_" + uuid.uuid4().hex[:12]
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


@pytest.fixture(scope="session")
def postgres():
    """One PostgreSQL server for the whole session (a few seconds to start)."""
    bindir = _bin()
    if bindir is None or shutil.which("runuser") is None and os.geteuid() == 0:
        why = "Debian's postgresql package is needed for the club's server tests"
        if os.environ.get("CI") == "true":
            pytest.fail(why + ": CI installs it from .ci/apt-packages.txt")
        pytest.skip(why)
    root = Path(tempfile.mkdtemp(prefix="narrator-pg-"))
    user = None
    if os.geteuid() == 0:
        user = "postgres"
        pw = pwd.getpwnam(user)
        os.chown(root, pw.pw_uid, pw.pw_gid)
        os.chmod(root, 0o700)
    server = Server(bindir, root, user)
    server.init()
    server.start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)
