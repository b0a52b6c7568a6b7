"""The served review app (``euchre-events serve``) as a web server, issue 26
findings 5 and 6, with the real Voila server and plain HTTP (no browser).

Finding 6: the server answers only with its token and a local Host name (DNS
rebinding), refuses a cross-site Origin on the kernel channels, and runs at
most ``max_kernels`` kernels.  Finding 5 (the notebook alone:
test_notebooks.py) seen through the server: the cutthroat fixtures (each
player alone, rules.md 4) read ``P1 .. P3``, not ``N/S``/``E/W``
(cutthroat-1 is won by P3, which broke cell [2]; cutthroat-2 by P2, whose
page dropped P3's score).
"""
import html
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

import pytest

pytest.importorskip("voila")

from conftest import ROOT
from euchre_events.ui.serve import serve  # noqa: E402

CUT1 = ROOT / "fixtures" / "cutthroat" / "cutthroat-1.euchre"   # Gus, Hal, Ivy: 0, 0, 10, won by P3
CUT2 = ROOT / "fixtures" / "cutthroat" / "cutthroat-2.euchre"   # Jo, Kit, Lee: 8, 11, 4, won by P2
EE = Path(sys.executable).parent / "euchre-events"
PAGE = "/voila/render/review-a-game.ipynb"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def jupyter_env(tmp):
    env = dict(os.environ)
    for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR"):
        d = tmp / name.lower()
        d.mkdir(exist_ok=True)
        env[name] = str(d)
    return env


def get(port, path, host=None, headers=None, timeout=180):
    """(status, headers (an http.client.HTTPMessage), body) of a GET to 127.0.0.1:port
    with the given Host header."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.putrequest("GET", path, skip_host=True)
        conn.putheader("Host", host or f"127.0.0.1:{port}")
        for k, v in (headers or {}).items():
            conn.putheader(k, v)
        conn.endheaders()
        r = conn.getresponse()
        return r.status, r.msg, r.read().decode("utf-8", "replace")
    finally:
        conn.close()


def wait_up(port, timeout=90):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            get(port, "/voila/static/", timeout=2)
            return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"no answer on port {port} in {timeout} s")


def stop(proc):
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def kernel_pids(server_pid):
    """The kernels the server runs: processes running ipykernel whose parent is
    the Voila process (the child of ``euchre-events serve``, or the server
    itself when started by :func:`serve`)."""
    found = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            cmd = (d / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, ValueError, IndexError):
            continue
        if ppid == server_pid and "ipykernel" in cmd:
            found.append(int(d.name))
    return found


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """``euchre-events serve --record cutthroat-1`` on a free port (the CLI, in its own
    process group); yields the port, the token read from the address it prints, and the log."""
    tmp = tmp_path_factory.mktemp("served")
    port = free_port()
    log_path = tmp / "serve.log"
    log = open(log_path, "w")
    proc = subprocess.Popen([str(EE), "serve", "--port", str(port), "--db", str(tmp / "a.sqlite"),
                             "--record", str(CUT1)], env=jupyter_env(tmp), stdout=log,
                            stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_up(port)
        m = re.search(r"serving (http://127\.0\.0\.1:\d+/voila/render/review-a-game\.ipynb\?token=(\S+))",
                      log_path.read_text())
        assert m, log_path.read_text()
        yield {"port": port, "token": urllib.parse.unquote(m.group(2)), "url": m.group(1), "log": log_path}
    finally:
        stop(proc)
        log.close()


def test_the_printed_address_carries_a_random_token(served, tmp_path):
    """The token is long and random (not in the command line: ``ps`` would show it)."""
    assert len(served["token"]) >= 32
    assert served["url"].endswith("?token=" + urllib.parse.quote(served["token"], safe=""))
    cmdlines = [p.read_bytes() for p in Path("/proc").glob("[0-9]*/cmdline") if p.exists()]
    assert not any(served["token"].encode() in c for c in cmdlines)


def test_no_token_no_page(served):
    """Without the token the page sends to the login form (302) and the kernel API refuses (403):
    no kernel starts, nothing of the archive is reachable."""
    port = served["port"]
    status, headers, _ = get(port, PAGE)
    assert status == 302 and headers["Location"].startswith("/login"), (status, headers)
    status, _, _ = get(port, PAGE + "?token=" + "x" * 43)
    assert status == 302
    status, _, _ = get(port, "/api/kernels/00000000-0000-0000-0000-000000000000")
    assert status == 403


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1.nip.io:{port}",
                                  "192.168.1.7:{port}"])
def test_a_host_name_not_of_this_machine_is_refused_even_with_the_token(served, host):
    """DNS rebinding: a page whose name now resolves to 127.0.0.1 sends its own name as Host."""
    port = served["port"]
    status, _, body = get(port, f"{PAGE}?token={served['token']}", host=host.format(port=port))
    assert status == 403, (status, body[:300])
    status, _, _ = get(port, f"/?token={served['token']}", host=host.format(port=port))
    assert status == 403


def test_token_and_local_host_show_the_cutthroat_game_by_its_players(served):
    """With the token and Host 127.0.0.1 or localhost: 200, and the review notebook runs to
    the end on cutthroat-1 (won by P3, Ivy, 10 points to 0 and 0): each player alone by seat
    (rules.md 4), no 'N/S', no cell error, and the viewer is there."""
    port, token = served["port"], served["token"]
    status, _, body = get(port, f"{PAGE}?token={token}")
    assert status == 200
    assert "There was an error when executing cell" not in body and "Traceback" not in body
    assert "official score: P1 0, P2 0, P3 10 | official winner: P3 (Ivy)" in body
    assert "as played:      P1 0, P2 0, P3 10" in body
    assert "N/S" not in body and "E/W" not in body
    assert "players: P1 (Gus), P2 (Hal), P3 (Ivy)" in body
    # the deal-by-deal lines: deal 1 dealt by Ivy, who made spades and scored 3 (0/0/3)
    assert re.search(r"deal  1: dealer P3 \(Ivy\) +trump S  maker P3 \(Ivy\) +-> P3 \+3 +score 0/0/3", html.unescape(body))
    assert '"kernelId"' in body           # the viewer's kernel: the widgets are live
    status, _, _ = get(port, f"{PAGE}?token={token}", host=f"localhost:{port}")
    assert status == 200


def test_the_kernel_channels_refuse_a_cross_site_origin(served):
    """A page of another site (Origin) cannot open the kernel's channels, even with the
    login cookie the browser would send; the same origin can (101 Switching Protocols)."""
    port, token = served["port"], served["token"]
    status, headers, body = get(port, f"{PAGE}?token={token}")
    kernel = re.search(r'"kernelId": *"([0-9a-f-]+)"', body).group(1)
    cookie = "; ".join(c.split(";")[0] for c in headers.get_all("Set-Cookie"))
    ws = {"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
          "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Cookie": cookie}

    def upgrade(origin):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            conn.putrequest("GET", f"/api/kernels/{kernel}/channels", skip_host=True)
            conn.putheader("Host", f"127.0.0.1:{port}")
            for k, v in {**ws, "Origin": origin}.items():
                conn.putheader(k, v)
            conn.endheaders()
            return conn.getresponse().status
        finally:
            conn.close()
    assert upgrade("http://evil.example") == 403
    assert upgrade(f"http://127.0.0.1:{port}") == 101


def test_kernels_are_capped_and_a_p2_win_keeps_p3s_score(tmp_path):
    """``serve(max_kernels=2)`` on cutthroat-2 (won by P2, Kit: 8, 11, 4): five page visits
    never run more than 2 kernels (each visit starts one; the oldest goes), and the page
    shows all three scores, P3's included."""
    port = free_port()
    log = open(tmp_path / "voila.log", "w")
    env = {k: v for k, v in jupyter_env(tmp_path).items() if k.startswith("JUPYTER_")}
    proc = serve(port=port, db=str(tmp_path / "b.sqlite"), record=str(CUT2), env=env, block=False,
                 quiet=True, log=log, max_kernels=2)
    try:
        wait_up(port)
        path = urllib.parse.urlsplit(proc.url)
        most = 0
        for _ in range(5):
            status, _, body = get(port, f"{path.path}?{path.query}")
            assert status == 200
            assert "official score: P1 8, P2 11, P3 4 | official winner: P2 (Kit)" in body
            most = max(most, len(kernel_pids(proc.pid)))
        assert most == 2, most
        assert len(kernel_pids(proc.pid)) <= 2
    finally:
        stop(proc)
        log.close()


def test_serve_refuses_to_start_without_a_token(tmp_path):
    """The Voila process itself never runs open: started without the token it exits, naming why."""
    from euchre_events.ui.serve import voila_command
    env = {k: v for k, v in jupyter_env(tmp_path).items() if k != "EUCHRE_EVENTS_SERVE_TOKEN"}
    r = subprocess.run(voila_command(None, free_port()), env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode != 0
    assert "no token" in r.stderr and "EUCHRE_EVENTS_SERVE_TOKEN" in r.stderr


# ---------------------------------------------------------------- serve's settings and a missing record (from the viewer's issue 10 tests)


def test_serve_culls_idle_kernels_and_refuses_a_missing_record(tmp_path):
    import pytest
    from euchre_events.ui.serve import serve, voila_command
    cmd = voila_command()
    # issue 26: a closed page's kernel goes after 60 s idle; an open page's stays (the cap bounds them)
    assert "--MappingKernelManager.cull_idle_timeout=60" in cmd
    assert "--MappingKernelManager.cull_interval=15" in cmd
    assert "--MappingKernelManager.cull_connected=False" in cmd
    assert "--CappedKernelManager.max_kernels=4" in cmd
    assert not any("cull" in a for a in voila_command(cull_idle=0))
    with pytest.raises(FileNotFoundError):
        serve(record=str(tmp_path / "missing.egn"), block=False, quiet=True)
