"""Serve the notebooks as web pages with Voila, on this machine only.

``euchre-events serve`` calls :func:`serve`: Voila runs the review notebook
(or another one) in a fresh kernel for each visitor and shows only its
outputs, so the replay viewer works in a browser without any code in sight.
Voila listens on 127.0.0.1 only.  The archive file and the record to review
reach the notebook through ``EUCHRE_EVENTS_DB`` and ``EUCHRE_EVENTS_RECORD``.
"""
from __future__ import annotations

import os
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

from euchre_events import samples

__all__ = ["serve", "voila_command", "default_notebook", "notebook_dir", "page_url"]

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


CULL_IDLE_SECONDS = 300
"""A kernel idle this long (seconds) is shut down: Voila keeps a kernel per page
visit after its tab closes (its shutdown request is refused for want of an
``_xsrf`` token, shared/notes-jupyter.md), so without culling a club laptop
serving an evening would fill up with kernels."""

CULL_INTERVAL_SECONDS = 60
"""How often (seconds) idle kernels are looked for."""


def voila_command(notebook: Optional[str] = None, port: int = 8866,
                  cull_idle: int = CULL_IDLE_SECONDS, cull_interval: int = CULL_INTERVAL_SECONDS) -> list:
    """The Voila command line that serves ``notebook``'s folder on 127.0.0.1:``port``,
    culling kernels idle for ``cull_idle`` seconds (checked every
    ``cull_interval`` seconds; ``cull_idle=0`` turns culling off).  A kernel
    with its page still connected is culled too once idle that long: the
    page then needs a reload."""
    nb = _notebook_path(notebook)
    folder = str(nb.parent)
    cmd = [sys.executable, "-m", "voila", folder, "--no-browser", f"--port={int(port)}",
           "--Voila.ip=127.0.0.1", f"--Voila.root_dir={folder}"]
    if cull_idle and int(cull_idle) > 0:
        cmd += [f"--MappingKernelManager.cull_idle_timeout={int(cull_idle)}",
                f"--MappingKernelManager.cull_interval={max(1, int(cull_interval))}",
                "--MappingKernelManager.cull_connected=True"]
    return cmd


def page_url(notebook: Optional[str] = None, port: int = 8866) -> str:
    """The address of the served notebook: ``http://127.0.0.1:PORT/voila/render/NAME``."""
    return f"http://127.0.0.1:{int(port)}/voila/render/{_notebook_path(notebook).name}"


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
          cull_idle: int = CULL_IDLE_SECONDS, cull_interval: int = CULL_INTERVAL_SECONDS):
    """Start Voila on ``notebook`` (default: the review notebook) at 127.0.0.1:``port``.

    ``db``: the SQLite archive the notebook uses (``EUCHRE_EVENTS_DB``);
    ``record``: a record file for the review notebook (``EUCHRE_EVENTS_RECORD``);
    ``env``: extra environment variables for Voila and its kernels;
    ``quiet``: no messages; ``log``: a file that receives Voila's output;
    ``open_browser``: open the page in the default web browser once Voila answers;
    ``cull_idle``, ``cull_interval``: idle-kernel culling in seconds (see
    :func:`voila_command`).  A ``record`` that does not exist raises
    ``FileNotFoundError`` before Voila starts.
    With ``block=True`` (the CLI) runs until Ctrl-C and returns Voila's exit
    status; with ``block=False`` returns the running ``subprocess.Popen``
    (its own process group: stop it with ``os.killpg(p.pid, signal.SIGTERM)``).
    Raises ``FileNotFoundError`` for a missing notebook.
    """
    if record and not os.path.exists(record):
        raise FileNotFoundError(f"no record file at {record}")
    cmd = voila_command(notebook, port, cull_idle, cull_interval)
    run_env = dict(os.environ)
    run_env.update(env or {})
    if db:
        run_env["EUCHRE_EVENTS_DB"] = os.path.abspath(db)
    if record:
        run_env["EUCHRE_EVENTS_RECORD"] = os.path.abspath(record)
    if not quiet:
        print(f"serving {page_url(notebook, port)}  (Ctrl-C to stop)", file=sys.stderr)
    out = log if log is not None else (subprocess.DEVNULL if quiet else None)
    proc = subprocess.Popen(cmd, env=run_env, start_new_session=True, stdout=out,
                            stderr=subprocess.STDOUT if log is not None else out)
    if open_browser:
        threading.Thread(target=_open_when_ready, args=(page_url(notebook, port), proc, quiet),
                         daemon=True).start()
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
