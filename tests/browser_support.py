"""What the browser tests share (tests/test_browser*.py, tests/test_export_browser.py,
tests/test_pages_browser.py): Debian's Chromium (never a downloaded browser), its flags, a
Playwright browser for a module, requests kept local (``local_only``), and the served app
(``start_voila``/``stop_voila``, ``free_port``, ``wait_http``).  Importing this skips the importing test module when
Chromium or the playwright package is missing outside CI (scripts/setup-dev.sh installs it); in CI a
missing Chromium is an error."""
import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request

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


def free_port():
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(url, timeout=90):
    """Wait until ``url`` answers at all (any HTTP status); RuntimeError after ``timeout`` s."""
    end = time.time() + timeout
    while time.time() < end:
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except urllib.error.HTTPError:
            return  # any answer will do
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"no answer from {url} in {timeout} s")


def local_only(context):
    """Abort every request of a Playwright context to a host other than 127.0.0.1 (files pass)."""
    context.route("**/*", lambda route: route.continue_()
                  if route.request.url.startswith(("http://127.0.0.1", "file://")) else route.abort())


def start_voila(tmp, record=None, **cull):
    """``serve`` on the review notebook's folder at a free port, with Jupyter's folders and
    the archive under ``tmp``; returns (process, url with the token, db path, open log)."""
    from euchre_events.ui.serve import serve
    env = {}
    for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR"):
        d = tmp / name.lower()
        d.mkdir(exist_ok=True)
        env[name] = str(d)
    db = str(tmp / "archive.sqlite")
    port = free_port()
    log = open(tmp / "voila.log", "w")
    proc = serve(port=port, db=db, record=str(record) if record else None, env=env, block=False,
                 quiet=True, log=log, **cull)
    wait_http(f"http://127.0.0.1:{port}/voila/static/")
    return proc, proc.url, db, log   # the address with the token


def stop_voila(proc, log):
    """Stop the server ``start_voila`` (or ``serve``) started, its kernels with it, and close the log."""
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    log.close()
