"""The screenshot of a review page in docs/review.md: a demo run reviewed in headless Chromium.

    python scripts/review_screenshot.py                  # writes docs/review.png

Runs the offline demo run (recorded answers) into a temporary folder, serves it with
`python -m graph.review`, labels one sample with the keyboard and saves the page as a PNG.
"""

from __future__ import annotations

import argparse
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUTPUT = REPO / "docs" / "review.png"


def main() -> None:
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        raise SystemExit("needs Chromium (apt-get install chromium)")
    run_id = f"screenshot-{int(time.time())}"  # a new run, with no labels yet, in whichever state database
    with tempfile.TemporaryDirectory(prefix="triad-screenshot-") as runs:
        subprocess.run(
            [sys.executable, "-m", "graph.run", "--demo", "--count", "6", "--seed", "7", "--llm",
             "recorded:graph/demo/recorded_calls.jsonl", "--runs-dir", runs, "--run-id", run_id],
            cwd=REPO, check=True, capture_output=True,
        )  # fmt: skip
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        app = subprocess.Popen(
            [sys.executable, "-m", "graph.review", run_id, "--runs-dir", runs, "--port", str(port),
             "--reviewer", "screenshot"],
            cwd=REPO, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        try:
            assert app.stdout is not None
            app.stdout.readline()  # the URL: the app answers
            with sync_playwright() as driver:
                browser = driver.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
                page = browser.new_page(viewport={"width": 1000, "height": 640})
                page.goto(f"http://127.0.0.1:{port}/sample/1")
                for key in "123":
                    page.keyboard.press(key)
                    page.wait_for_selector("#status:text-is('saved')")
                OUTPUT.parent.mkdir(exist_ok=True)
                page.screenshot(path=str(OUTPUT))
                browser.close()
        finally:
            app.terminate()
            app.wait(timeout=30)
    print(f"wrote {OUTPUT}")


if __name__ == "__main__":
    main()
