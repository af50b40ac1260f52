"""What every browser test shares: Debian's Chromium driven by Playwright, never a downloaded
browser, and a clear failure (not a silent skip) in CI when either is missing."""

from __future__ import annotations

import contextlib
import os
import shutil

import pytest

CHROMIUM = os.environ.get("NARRATOR_CHROMIUM", "/usr/bin/chromium")
# without the background-networking flags Chromium keeps dialling out of a closed network
FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]
PHONE = {"width": 390, "height": 844}

try:
    from playwright.async_api import async_playwright, expect
except ImportError:  # pragma: no cover - depends on the machine
    async_playwright = expect = None


def need_browser() -> None:
    if async_playwright is None or not shutil.which(CHROMIUM):
        why = "Playwright (pip) and Debian's chromium are needed for the browser tests"
        if os.environ.get("CI") == "true":
            pytest.fail(why + ": CI must install them (.ci/apt-packages.txt, .ci/requirements-ci.txt)")
        pytest.skip(why)


@contextlib.asynccontextmanager
async def launched():
    """Debian's Chromium, headless, closed again whatever the test did."""
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        try:
            yield browser
        finally:
            await browser.close()
