"""`scripts/screens.py` renders the companion's documented screens by playing a whole classic game
on ten phones and the host screen. It plays the rules as they are: when classic's host began calling
each candidate in turn (seed 004 §4.4) it stopped at the first vote, waiting for a button the phones
no longer had — unnoticed, as no test ran it. This one does, for one language."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from chromium import need_browser

ROOT = Path(__file__).resolve().parents[2]


def test_the_documented_screens_are_rendered_from_a_whole_game(tmp_path):
    need_browser()
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "screens.py"), "--out", str(tmp_path), "--lang", "en"],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    made = sorted(p.name for p in tmp_path.glob("*.png"))
    documented = sorted(p.name for p in (ROOT / "docs" / "screens").glob("en-*.png"))
    assert made == documented, "every documented screen, and only those, comes out of the game"
