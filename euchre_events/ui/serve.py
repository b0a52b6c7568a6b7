"""Serve the notebooks as web pages with Voila, on this machine only.

``euchre-events serve`` calls :func:`serve`: Voila runs the review notebook
(or another one) in a fresh kernel for each visitor and shows only its
outputs, so the replay viewer works in a browser without any code in sight.
Voila listens on 127.0.0.1 only, through :mod:`euchre_events.ui.voilaapp`:
every request needs a random token (printed in the address to open, as
Jupyter does), only the Host names 127.0.0.1 and localhost are answered (a web
page that DNS rebinding pointed at 127.0.0.1 gets 403), and at most
``max_kernels`` kernels run.  The archive file and the record to review
reach the notebook through ``EUCHRE_EVENTS_DB`` and ``EUCHRE_EVENTS_RECORD``.
"""
from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import webbrowser
from pathlib import Path
from typing import Optional
from urllib.parse import quote

from euchre_events import samples

__all__ = ["serve", "voila_command", "default_notebook", "notebook_dir", "page_url", "free_port", "TEMPLATE"]

DEFAULT_NOTEBOOK = "review-a-game.ipynb"


def notebook_dir() -> Path:
    """The folder of the shipped notebooks: inside the installed package
    (``euchre_events/data/notebooks``, a wheel) or the checkout's
    ``notebooks/`` (an editable install); see :mod:`euchre_events.samples`.
    Raises ``FileNotFoundError`` if the package has neither."""
    return samples.notebooks_dir()


def default_notebook() -> Path:
    """The review notebook (``review-a-game.ipynb`` of :func:`notebook_dir`)."""
    return notebook_dir() / DEFAULT_NOTEBOOK


def _notebook_path(notebook: Optional[str]) -> Path:
    path = Path(notebook) if notebook else default_notebook()
    if notebook and not path.is_absolute() and not path.exists() and len(path.parts) == 1:
        # a bare name such as "tutorial-standard.ipynb" (or "tutorial-standard")
        path = notebook_dir() / (path.name if path.suffix else f"{path.name}.ipynb")
    if not path.exists():
        raise FileNotFoundError(f"no notebook at {path}; the shipped notebooks are "
                                f"{', '.join(samples.notebook_names())} (or give --notebook PATH)")
    if path.suffix != ".ipynb":
        raise ValueError(f"{path} is not a notebook (.ipynb)")
    return path.resolve()


CULL_IDLE_SECONDS = 60
"""A kernel whose page is closed (no channel connected) and idle this long
(seconds) is shut down: Voila keeps a kernel per page visit after its tab
closes (its shutdown request is refused for want of an ``_xsrf`` token,
shared/notes-jupyter.md), about 117 MB each.  A kernel whose page is still
open is kept however long the reviewer reads (the cap below bounds them)."""

CULL_INTERVAL_SECONDS = 15
"""How often (seconds) idle kernels are looked for."""

MAX_KERNELS = 4
"""Most kernels running at once (about 117 MB each): a page visit beyond that
shuts down the kernel idle longest, one whose page is closed first
(:class:`euchre_events.ui.voilaapp.CappedKernelManager`)."""

TOKEN_ENV = "EUCHRE_EVENTS_SERVE_TOKEN"
"""How the token reaches the Voila process (never its command line, which
every user of the machine can read); :mod:`euchre_events.ui.voilaapp` takes
it out of its environment before any kernel starts."""


TEMPLATE = "euchre-lab"
"""The Voila page template ``serve`` uses: Voila's ``lab`` template without
the two style sheets it asks a CDN for (Font Awesome; the app draws no icon),
shipped in ``euchre_events/ui/voila/templates`` so that no request leaves the
machine (README: the app needs no network)."""


def template_root() -> Path:
    """The folder put first on ``JUPYTER_PATH`` for Voila: it holds
    ``voila/templates/euchre-lab`` (:data:`TEMPLATE`)."""
    return Path(__file__).resolve().parent


def free_port(port: int, tries: int = 50) -> int:
    """The first port from ``port`` (up to ``port + tries - 1``) that nothing
    listens on at 127.0.0.1, so that the address printed is the one Voila
    really takes (Voila itself would move on to another port silently).
    Raises ``OSError`` naming the range when every one is busy."""
    import socket
    for p in range(int(port), int(port) + max(1, int(tries))):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind(("127.0.0.1", p))
            except OSError:
                continue
            return p
    raise OSError(f"ports {port}..{int(port) + tries - 1} on 127.0.0.1 are all busy: give another --port")


def voila_command(notebook: Optional[str] = None, port: int = 8866,
                  cull_idle: int = CULL_IDLE_SECONDS, cull_interval: int = CULL_INTERVAL_SECONDS,
                  max_kernels: int = MAX_KERNELS) -> list:
    """The command line that serves ``notebook``'s folder with Voila on
    127.0.0.1:``port`` (through :mod:`euchre_events.ui.voilaapp`, which wants
    the token in ``EUCHRE_EVENTS_SERVE_TOKEN``), culling kernels whose page
    is closed once idle ``cull_idle`` seconds (checked every
    ``cull_interval`` seconds; ``cull_idle=0`` turns culling off), with at
    most ``max_kernels`` kernels (at least 1)."""
    nb = _notebook_path(notebook)
    folder = str(nb.parent)
    cmd = [sys.executable, "-m", "euchre_events.ui.voilaapp", folder, "--no-browser", f"--port={int(port)}",
           "--Voila.ip=127.0.0.1", f"--Voila.root_dir={folder}", "--Voila.port_retries=0",
           f"--VoilaConfiguration.template={TEMPLATE}",
           "--VoilaConfiguration.multi_kernel_manager_class=euchre_events.ui.voilaapp.CappedKernelManager",
           f"--CappedKernelManager.max_kernels={max(1, int(max_kernels))}"]
    if cull_idle and int(cull_idle) > 0:
        cmd += [f"--MappingKernelManager.cull_idle_timeout={int(cull_idle)}",
                f"--MappingKernelManager.cull_interval={max(1, int(cull_interval))}",
                "--MappingKernelManager.cull_connected=False"]
    return cmd


def page_url(notebook: Optional[str] = None, port: int = 8866, token: Optional[str] = None) -> str:
    """The address of the served notebook: ``http://127.0.0.1:PORT/voila/render/NAME``,
    with ``?token=TOKEN`` when a token is given (the address the user opens)."""
    url = f"http://127.0.0.1:{int(port)}/voila/render/{_notebook_path(notebook).name}"
    return f"{url}?token={quote(token, safe='')}" if token else url


def _open_when_ready(url: str, proc, quiet: bool, timeout: float = 120) -> None:
    # Voila opens its own tree page, not the notebook: wait for the server, then open the page
    end = time.monotonic() + timeout
    while time.monotonic() < end and proc.poll() is None:
        try:
            urllib.request.urlopen(url.split("/voila/render/")[0] + "/voila/static/", timeout=2)
            break
        except urllib.error.HTTPError:
            break   # any answer: the server is up
        except OSError:
            time.sleep(0.3)
    else:
        return
    if not webbrowser.open(url) and not quiet:
        print(f"no web browser found here: open {url} yourself", file=sys.stderr)


def serve(notebook: Optional[str] = None, port: int = 8866, db: Optional[str] = None,
          record: Optional[str] = None, block: bool = True, env: Optional[dict] = None,
          quiet: bool = False, log=None, open_browser: bool = False,
          cull_idle: int = CULL_IDLE_SECONDS, cull_interval: int = CULL_INTERVAL_SECONDS,
          max_kernels: int = MAX_KERNELS, token: Optional[str] = None):
    """Start Voila on ``notebook`` (default: the review notebook) at 127.0.0.1:``port``,
    answering only requests with ``token`` (default: a new random one) and a
    local Host name.

    ``db``: the SQLite archive the notebook uses (``EUCHRE_EVENTS_DB``);
    ``record``: a record file for the review notebook (``EUCHRE_EVENTS_RECORD``);
    ``env``: extra environment variables for Voila and its kernels;
    ``quiet``: no messages; ``log``: a file that receives Voila's output;
    ``open_browser``: open the page in the default web browser once Voila answers;
    ``cull_idle``, ``cull_interval``, ``max_kernels``: kernel culling in
    seconds and the kernel cap (see :func:`voila_command`).  The address
    with the token is printed (unless ``quiet``) and opened.  A ``record`` that does not exist raises
    ``FileNotFoundError`` before Voila starts.
    With ``block=True`` (the CLI) runs until Ctrl-C and returns Voila's exit
    status; with ``block=False`` returns the running ``subprocess.Popen``
    (its own process group: stop it with ``os.killpg(p.pid, signal.SIGTERM)``)
    with two more attributes: ``token`` and ``url`` (the page's address with
    the token).
    The port is the first free one from ``port`` (:func:`free_port`): the
    address printed and ``proc.port`` are the ones Voila listens on.
    Raises ``FileNotFoundError`` for a missing notebook, ``OSError`` when
    no port near ``port`` is free.
    """
    if record and not os.path.exists(record):
        raise FileNotFoundError(f"no record file at {record}")
    # the port Voila will really listen on, found before the address is printed
    # (Voila's own retry moved to another port while ours printed the first)
    port = free_port(port)
    cmd = voila_command(notebook, port, cull_idle, cull_interval, max_kernels)
    token = token or secrets.token_urlsafe(32)
    url = page_url(notebook, port, token)
    run_env = dict(os.environ)
    run_env.update(env or {})
    run_env[TOKEN_ENV] = token
    # our page template first (no CDN style sheets): Voila looks for templates on JUPYTER_PATH
    run_env["JUPYTER_PATH"] = os.pathsep.join(
        [str(template_root())] + [p for p in run_env.get("JUPYTER_PATH", "").split(os.pathsep) if p])
    if db:
        run_env["EUCHRE_EVENTS_DB"] = os.path.abspath(db)
    if record:
        run_env["EUCHRE_EVENTS_RECORD"] = os.path.abspath(record)
    if not quiet:
        print(f"serving {url}  (open this address: the token in it lets you in; Ctrl-C to stop)",
              file=sys.stderr)
    out = log if log is not None else (subprocess.DEVNULL if quiet else None)
    proc = subprocess.Popen(cmd, env=run_env, start_new_session=True, stdout=out,
                            stderr=subprocess.STDOUT if log is not None else out)
    if open_browser:
        threading.Thread(target=_open_when_ready, args=(url, proc, quiet),
                         daemon=True).start()
    proc.token, proc.url, proc.port = token, url, port
    if not block:
        return proc

    def _stop(signum, frame):  # SIGTERM (e.g. `timeout`, a service manager): stop Voila too
        raise KeyboardInterrupt
    previous = signal.signal(signal.SIGTERM, _stop)
    try:
        return proc.wait()
    except KeyboardInterrupt:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            return proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            return proc.wait()
    finally:
        signal.signal(signal.SIGTERM, previous)
