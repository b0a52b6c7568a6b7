"""Voila as ``euchre-events serve`` runs it: locked to this machine and to
whoever holds the token, with a bounded number of kernels.

Run as ``python -m euchre_events.ui.voilaapp NOTEBOOK_DIR [voila options]``
(:func:`euchre_events.ui.serve.voila_command` builds that line) with the
token in the environment variable ``EUCHRE_EVENTS_SERVE_TOKEN``: it is read
and removed from the environment before Voila starts, so it is neither in the
process list (``ps`` shows every user the command line) nor in the kernels'
environment.  On top of Voila:

- every page and kernel request needs the token (``?token=...`` in the
  address the user opens, then the login cookie Jupyter sets from it; without
  it the page answers 403 or sends to the login form);
- only the Host names ``127.0.0.1``, ``localhost`` and ``::1`` are answered
  (403 otherwise), so a web page whose name a DNS-rebinding attack pointed at
  127.0.0.1 gets nothing; a cross-site Origin is refused on the kernel
  channels (jupyter_server's ``allow_remote_access=False``, which Voila turns
  on, and an empty ``allow_origin``);
- at most :attr:`CappedKernelManager.max_kernels` kernels run (each about
  117 MB): a page visit beyond that shuts down the kernel idle longest,
  preferring one whose page is closed;
- the kernel websocket sends each message at once (TCP_NODELAY): a viewer
  step's widget updates no longer wait 40 ms for the browser's delayed ACK.

This module imports Voila and jupyter_server (the ``app`` extra); nothing in
the package imports it: only the Voila process does.
"""
from __future__ import annotations

import asyncio
import os
import sys

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from traitlets import Integer

from euchre_events.ui.serve import TOKEN_ENV

__all__ = ["CappedKernelManager", "LOCAL_HOSTNAMES", "main"]

LOCAL_HOSTNAMES = ["localhost"]
"""Host names answered besides loopback addresses (127.0.0.1, ::1), which
jupyter_server accepts by themselves."""


class CappedKernelManager(AsyncMappingKernelManager):
    """Voila's kernel manager with a cap: starting a kernel when
    ``max_kernels`` run first shuts down the one idle longest, a kernel whose
    page is closed (no channel connected) before one still shown.  Kernel
    starts are serialised so two page visits cannot both pass the cap."""

    max_kernels = Integer(4, config=True,
                          help="Most kernels running at once (each page visit runs one; about 117 MB each).")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._cap_lock = asyncio.Lock()

    def _eviction_order(self) -> list:
        """Kernel ids, the first to shut down first: unconnected before
        connected, then by last activity (oldest first)."""
        def key(kernel_id):
            kernel = self._kernels.get(kernel_id)
            connected = self._kernel_connections.get(kernel_id, 0) > 0
            return (connected, getattr(kernel, "last_activity", None) is not None,
                    getattr(kernel, "last_activity", 0) or 0)
        return sorted(self.list_kernel_ids(), key=key)

    async def start_kernel(self, *args, **kwargs):
        """Start a kernel, shutting down the longest-idle ones first while
        ``max_kernels`` or more run; returns the new kernel's id."""
        async with self._cap_lock:
            cap = max(1, int(self.max_kernels))
            while len(self.list_kernel_ids()) >= cap:
                oldest = self._eviction_order()[0]
                self.log.warning("%d kernels running (the most allowed): shutting down kernel %s, "
                                 "idle longest, for a new page", len(self.list_kernel_ids()), oldest)
                await self.shutdown_kernel(oldest, now=True)
            return await super().start_kernel(*args, **kwargs)


def _kernel_websocket_nodelay() -> None:
    """Send each kernel message to the page at once (TCP_NODELAY on the kernel
    websocket).  Tornado leaves Nagle's algorithm on for websockets: after the
    kernel's small "busy" message, the widget updates of a click waited for
    the browser's delayed ACK, 40 ms in about half the steps of the viewer
    (benchmarks/bench_viewer.py; docs/architecture.md "serve.py")."""
    from jupyter_server.services.kernels.websocket import KernelWebsocketHandler
    if getattr(KernelWebsocketHandler, "_ee_nodelay", False):
        return
    opened = KernelWebsocketHandler.open

    async def open(self, *args, **kwargs):
        try:
            self.set_nodelay(True)
        except Exception:   # no stream (closed already): nothing to tune
            pass
        return await opened(self, *args, **kwargs)

    KernelWebsocketHandler.open = open
    KernelWebsocketHandler._ee_nodelay = True


def main(argv=None) -> None:
    """Start Voila with the token from ``EUCHRE_EVENTS_SERVE_TOKEN`` (taken
    out of the environment), the Host and Origin checks on, and
    ``argv`` (default ``sys.argv[1:]``) as Voila's own options.  Exits 2
    naming the variable when no token is given: this server never runs
    open."""
    token = os.environ.pop(TOKEN_ENV, "")
    if not token:
        sys.exit(f"no token: set {TOKEN_ENV} (euchre-events serve does); the app is never served without one")
    from voila.app import Voila
    _kernel_websocket_nodelay()
    Voila.launch_instance(
        argv=sys.argv[1:] if argv is None else argv, token=token,
        # applied over the settings Voila builds, which allow any Host
        tornado_settings={"allow_remote_access": False, "local_hostnames": list(LOCAL_HOSTNAMES),
                          "allow_origin": "", "allow_origin_pat": ""})


if __name__ == "__main__":
    main()
