"""The terminal belongs to the table: what a device on the network sends (a browser trying
https:// first, bytes that are not UTF-8, garbage for a hello, a page of another origin) prints
nothing there — it goes to the log file beside the journal. And `kill` (SIGTERM) or a closed
terminal (SIGHUP) stop the game as Ctrl-C does: the resume line, the exit hooks, the journal whole."""

from __future__ import annotations

import base64
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from narrator.journal import read

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Narrator:
    """`narrator play` with its phones' server; what it prints, collected as it comes."""

    def __init__(self, tmp: Path):
        self.port = free_port()
        cfg = tmp / "club.toml"
        cfg.write_text('variant = "classic"\nlanguage = "en"\n[companion]\nenabled = true\nhost = "127.0.0.1"\n'
                       f'port = {self.port}\n[input]\nengine = "none"\n')
        self.journal = tmp / "game.jsonl"
        env = {**os.environ, "HOME": str(tmp), "TMPDIR": str(tmp), "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}
        self.proc = subprocess.Popen([sys.executable, "-m", "narrator.cli", "play", "--config", str(cfg), "--journal",
                                      str(self.journal), "--voice", "text"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT, env=env)
        self.out: list[str] = []
        threading.Thread(target=lambda: self.out.extend(self.proc.stdout), daemon=True).start()

    @property
    def text(self) -> str:
        return "".join(self.out)

    def wait_for(self, text: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.text:
            assert time.monotonic() < deadline and self.proc.poll() is None, self.text[-3000:]
            time.sleep(0.05)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)


def raw_websocket(port: int, payload: bytes, opcode: int = 0x1) -> None:
    """One WebSocket frame of any bytes from the server's own origin (the page's protocol, by hand)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"
                   f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                   "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        assert b" 101 " in s.recv(4096).split(b"\r\n", 1)[0]
        mask = os.urandom(4)
        s.sendall(struct.pack("!BB", 0x80 | opcode, 0x80 | len(payload)) + mask
                  + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
        time.sleep(0.2)


def garbage(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + os.urandom(64))  # a browser trying https:// first
        time.sleep(0.1)
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: \x00\xff\r\n\r\n")
        time.sleep(0.1)
    raw_websocket(port, b"\xff\xfe\xfd not UTF-8")          # invalid UTF-8 before any hello
    raw_websocket(port, b"not json")                          # garbage for a hello
    raw_websocket(port, b'{"t":"host","pin":"000000"}')       # a wrong PIN
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:  # a page of another origin
        s.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port + 1}\r\n"
                   "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: AAAAAAAAAAAAAAAAAAAAAA==\r\n"
                   "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        assert b" 403 " in s.recv(4096).split(b"\r\n", 1)[0]


@pytest.mark.e2e
@pytest.mark.parametrize("stop", ["SIGTERM", "SIGHUP"])
def test_client_garbage_prints_nothing_and_a_signal_stops_the_game_as_ctrl_c_does(tmp_path, stop):
    n = Narrator(tmp_path)
    try:
        n.wait_for("Host screen on this machine")
        secrets = json.loads(Path(str(n.journal) + ".companion").read_text())
        cards = Path(secrets["seats_page"])
        assert cards.exists()
        time.sleep(0.5)
        before = n.text
        if stop == "SIGTERM":  # once: the garbage does not depend on the signal
            for _ in range(3):
                garbage(n.port)
            time.sleep(1.0)
            assert n.text == before, f"the terminal showed what the network sent:\n{n.text[len(before):]}"
            log = Path(str(n.journal) + ".log").read_text()
            assert "Invalid HTTP request received." in log and "foreign origin" in log
            assert log.count("Invalid HTTP request received.") == 1, "one line per cause and address a minute"
            assert "Traceback" not in log
        n.proc.send_signal(getattr(signal, stop))
        n.proc.wait(timeout=20)
        time.sleep(0.2)
        said = n.text[len(before):]
        assert "interrupted; continue with: narrator resume" in said, said
        assert "Traceback" not in said
        assert n.proc.returncode == 130
        assert not cards.exists(), "the exit hooks ran: the printable cards with their links are gone"
        assert read(n.journal).events, "the journal reads whole"
    finally:
        n.kill()
