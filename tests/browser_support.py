"""What the browser tests share (tests/test_browser.py, tests/test_export_browser.py):
Debian's Chromium (never a downloaded browser), its flags, and a Playwright
browser for a module.  Importing this skips the importing test module when
Chromium or the playwright package is missing outside CI (scripts/setup-dev.sh installs it); in CI a
missing Chromium is an error."""
import os

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]

if not os.path.exists(CHROMIUM):  # pragma: no cover - scripts/setup-dev.sh installs it
    if os.environ.get("CI"):
        raise RuntimeError("Debian's chromium is not installed: run scripts/setup-dev.sh")
    pytest.skip("Debian's chromium is not installed (scripts/setup-dev.sh installs it)",
                allow_module_level=True)

os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
try:
    from playwright.sync_api import sync_playwright  # noqa: E402
except ImportError:  # pragma: no cover - an optional test dependency
    if os.environ.get("CI"):
        raise
    pytest.skip("playwright is not installed (pip install playwright; the browser is Debian's "
                "chromium)", allow_module_level=True)


@pytest.fixture(scope="module")
def browser():
    """A headless Debian Chromium through Playwright, for one test module."""
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
