"""Browser tests: real Chromium (Debian's /usr/bin/chromium) driving a real `viva serve`.

Marked ``e2e``. Outside CI they skip with a reason when Chromium or Playwright is missing;
with ``CI=true`` they fail instead, so CI cannot pass without running them. Screenshots of
every page go to ``test-artifacts/screenshots/`` (git-ignored) for people to look at.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("VIVA_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
IN_CI = os.environ.get("CI", "").lower() == "true"
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"


def _unavailable(reason: str) -> None:
    if IN_CI:
        pytest.fail(f"CI=true but {reason}", pytrace=False)
    pytest.skip(reason)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`viva serve` in accounts mode on a fresh SQLite file and a free loopback port."""
    data = tmp_path_factory.mktemp("e2e-data")
    port = _free_port()
    env = {
        **os.environ,
        "VIVA_DATA_DIR": str(data),
        "VIVA_DATABASE_URL": f"sqlite:///{data / 'e2e.sqlite3'}",
        "VIVA_WHISPER_MODEL": "tiny.en",  # the packaged model: spoken answers never download
        "VIVA_SIGNUPS_PER_HOUR": "1000",  # every browser test signs up from 127.0.0.1
    }
    command = [
        str(Path(sys.executable).parent / "viva"),
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--multi-user",
    ]
    log = (data / "server.log").open("w")
    process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(url + "/api/v1/topics", timeout=2):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(
                        "viva serve did not start:\n" + (data / "server.log").read_text(), pytrace=False
                    )
                time.sleep(0.3)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)
        log.close()


@pytest.fixture(scope="package")
def playwright() -> Iterator[Any]:
    """Playwright for this package only: its sync API keeps an event loop running in the
    main thread until it stops, which would break ``asyncio.run`` in later tests; and only
    one may run at a time, so every browser here is launched from this one."""
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        _unavailable(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("Playwright is not installed (pip install -e '.[dev]')")
    with sync_playwright() as driver:
        yield driver


def launch(playwright: Any, extra_args: tuple[str, ...] = ()) -> Any:
    """Debian's Chromium with :data:`ARGS` and any ``extra_args``."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=[*ARGS, *extra_args])


@pytest.fixture(scope="package")
def browser(playwright: Any) -> Iterator[Any]:
    chromium = launch(playwright)
    yield chromium
    chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.problems = problems
    yield page
    context.close()


def shoot(page: Any, name: str, full_page: bool = True) -> None:
    """Save a screenshot. ``caret="initial"`` because Playwright otherwise injects an inline
    style to hide the caret, which our CSP (rightly) reports; a whole page is taken by growing
    the viewport for the same reason."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    if full_page:
        height = page.evaluate("document.documentElement.scrollHeight")
        page.set_viewport_size({"width": size["width"], "height": min(int(height), 6000)})
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), caret="initial")
    if full_page:
        page.set_viewport_size(size)
