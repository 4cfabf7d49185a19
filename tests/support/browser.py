"""A page as Chromium renders it: its DOM after its scripts ran, and what its console said."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest


def rendered(page: Path, profile: Path) -> tuple[str, list[str]]:
    """The page's DOM as headless Chromium leaves it, and the console's lines (messages and uncaught errors); the
    test is skipped where Chromium is missing, except in CI, which installs it."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        assert not os.environ.get("CI"), "CI must have Chromium: .ci/run installs it"
        pytest.skip("needs Chromium (apt-get install chromium)")
    shown = subprocess.run(
        [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            f"--user-data-dir={profile}",
            "--enable-logging=stderr",
            "--v=0",
            "--virtual-time-budget=2000",
            "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert shown.returncode == 0, shown.stderr[-2000:]
    console = [line for line in shown.stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]
    return shown.stdout, console
