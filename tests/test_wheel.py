"""What ``pip install euchre-events`` gives a user, tried as a new user would.

The sdist and the wheel are built with ``python -m build`` from a copy of the
checkout (its git files, so nothing stray gets in), checked with ``twine
check``, and the wheel is installed into a fresh virtual environment in a
temporary folder outside the checkout (no system site-packages; its
dependencies come from the package index like any ``pip install``, through
the usual pip cache).  There, from another folder, with no ``PYTHONPATH``:
the README's first job on a shipped sample, ``serve`` and ``tutorial`` far
enough to get the page over HTTP, and one shipped notebook run by nbclient.

One module fixture does the slow part once (about two minutes here, most of
it the install of the dependencies; see the timing printed with ``-s``).
"""
import json
import re
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT, RUNNER
from euchre_events import samples

pytestmark = pytest.mark.wheel

PY = sys.executable


def _run(cmd, timeout=600, **kw):
    proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=timeout, **kw)
    assert proc.returncode == 0, f"{cmd} exited {proc.returncode}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc


def _checkout_copy(dest: Path) -> Path:
    """The checkout's files (tracked, and new ones not ignored) copied to ``dest``."""
    try:
        listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                                capture_output=True, check=True).stdout.decode().split("\0")
    except (OSError, subprocess.CalledProcessError):
        if os.environ.get("CI"):
            raise
        pytest.skip("not a git checkout: the wheel is built from the checkout's git files")
    for name in filter(None, listed):
        src = ROOT / name
        if src.is_file():   # a tracked file deleted in the work tree is listed too
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    return dest


def _one(folder: Path, pattern: str) -> Path:
    found = sorted(folder.glob(pattern))
    assert len(found) == 1, (pattern, found)
    return found[0]


@pytest.fixture(scope="module")
def shipped():
    """Build the sdist and both wheels, check them, install the wheel in a fresh venv.
    Yields paths and a ``run(*argv)`` that runs a command of the venv from a folder outside the checkout."""
    timing = {}
    t0 = time.monotonic()
    tmp = Path(tempfile.mkdtemp(prefix="euchre-wheel-"))
    try:
        src = _checkout_copy(tmp / "src")
        # the sdist, and the wheel built from it (python -m build's default)
        _run([PY, "-m", "build", "--outdir", tmp / "dist", src])
        timing["build"] = time.monotonic() - t0
        # the wheel built straight from the checkout, to compare with: built while pip
        # installs (that waits on the network), from a second copy (build/ is written in place)
        direct_src = _checkout_copy(tmp / "src-direct")
        direct = subprocess.Popen([PY, "-m", "build", "--wheel", "--outdir", str(tmp / "direct"),
                                   str(direct_src)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True)

        venv = tmp / "venv"
        _run([PY, "-m", "venv", venv])   # no --system-site-packages: only what the wheel pulls in
        bin_ = venv / "bin"
        env = {k: v for k, v in os.environ.items()
               if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")}
        env["PATH"] = f"{bin_}{os.pathsep}{env.get('PATH', '')}"
        for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR"):
            (tmp / name.lower()).mkdir()
            env[name] = str(tmp / name.lower())
        env.pop("EUCHRE_EVENTS_DB", None)
        env.pop("EUCHRE_EVENTS_RECORD", None)
        wheel = _one(tmp / "dist", "*.whl")
        t1 = time.monotonic()
        # --no-compile: Python compiles what it imports; byte-compiling all of the
        # Jupyter stack and plotly up front costs more than the tests use
        _run([bin_ / "python", "-m", "pip", "install", "-q", "--no-compile", f"{wheel}[app]"],
             env=env, timeout=1200)
        timing["install"] = time.monotonic() - t1
        out, _ = direct.communicate(timeout=600)
        assert direct.returncode == 0, f"python -m build --wheel failed:\n{out[-3000:]}"
        work = tmp / "work"   # the user's folder: outside the checkout
        work.mkdir()

        def run(*argv, timeout=300, check=True, extra_env=None):
            cmd = [str(bin_ / argv[0])] + [str(a) for a in argv[1:]]
            proc = subprocess.run(cmd, capture_output=True, text=True, cwd=work, timeout=timeout,
                                  env=dict(env, **(extra_env or {})))
            if check:
                assert proc.returncode == 0, f"{argv} exited {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
            return proc

        yield {"tmp": tmp, "dist": tmp / "dist", "direct": tmp / "direct", "wheel": wheel,
               "venv": venv, "bin": bin_, "env": env, "work": work, "run": run, "timing": timing}
    finally:
        timing["total"] = time.monotonic() - t0
        print(f"\n[wheel] " + ", ".join(f"{k} {v:.0f} s" for k, v in timing.items()), file=sys.stderr)
        shutil.rmtree(tmp, ignore_errors=True)


def test_twine_check_passes_on_the_sdist_and_the_wheel(shipped):
    sdist = _one(shipped["dist"], "*.tar.gz")
    proc = _run([PY, "-m", "twine", "check", "--strict", sdist, shipped["wheel"]])
    assert proc.stdout.count("PASSED") == 2, proc.stdout


def test_the_sdist_builds_the_same_wheel_as_the_checkout(shipped):
    a = zipfile.ZipFile(shipped["wheel"])
    b = zipfile.ZipFile(_one(shipped["direct"], "*.whl"))
    assert sorted(a.namelist()) == sorted(b.namelist())
    differ = [n for n in a.namelist() if a.read(n) != b.read(n)]
    assert differ == []


def test_the_wheel_carries_the_notebooks_the_samples_and_the_rules(shipped):
    names = set(zipfile.ZipFile(shipped["wheel"]).namelist())
    notebooks = {p.name for p in (ROOT / "notebooks").glob("*.ipynb")}
    assert {n.rsplit("/", 1)[1] for n in names if n.startswith("euchre_events/data/notebooks/")} == notebooks
    assert {"review-a-game.ipynb", "audit-a-disputed-renege.ipynb"} <= notebooks
    assert sum(n.startswith("tutorial-") for n in notebooks) == 6
    assert {n[len("euchre_events/data/samples/"):] for n in names
            if n.startswith("euchre_events/data/samples/")} == set(samples.SAMPLES)
    assert "euchre_events/data/docs/rules.md" in names
    data = zipfile.ZipFile(shipped["wheel"])
    assert data.read("euchre_events/data/docs/rules.md") == (ROOT / "docs" / "rules.md").read_bytes()
    # nothing of the development side: no tests, no other fixtures
    assert not [n for n in names if n.startswith(("tests/", "fixtures/", "notebooks/", "benchmarks/"))]


def test_the_installed_cli_does_the_readme_job_on_a_shipped_sample(shipped):
    run = shipped["run"]
    where = run("python", "-c", "import euchre_events; print(euchre_events.__file__)").stdout.strip()
    assert where.startswith(str(shipped["venv"])), where    # the wheel's copy, not the checkout
    assert run("euchre-events", "--version").stdout.strip() == "0.1.0"
    written = run("euchre-events", "samples", "recs").stdout.split("\n")
    assert "recs/egn/VWEC Finals.egn" in written and "recs/egn/LICENSE" in written
    vwec = "recs/egn/VWEC Finals.egn"
    imported = run("euchre-events", "import", vwec).stdout
    assert "VWEC Finals" in imported and "deals=13" in imported
    assert "VWEC Finals" in run("euchre-events", "list").stdout
    audited = json.loads(run("euchre-events", "audit", "--json", vwec).stdout)["games"]
    # the same verdict as the checkout's fixture gives here
    from euchre_events.cli import app
    here = json.loads(RUNNER.invoke(app, ["audit", "--json", str(ROOT / "fixtures/egn/VWEC Finals.egn")]).stdout)
    assert audited == here["games"]
    for name in ("standard/club-night-1.euchre", "bid/bid-1.euchre"):
        assert run("euchre-events", "audit", f"recs/{name}").returncode == 0
    # the messages name the install this user has
    hint = run("python", "-c", "from euchre_events.samples import install_hint; print(install_hint())").stdout
    assert hint.strip() == "pip install 'euchre-events[app]'"
    copied = run("euchre-events", "tutorial", "buck", "--copy", "mine").stdout.split()
    assert copied == ["mine/tutorial-buck.ipynb", "mine/rules.md"]


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get_page(url, timeout=240):
    """The page at ``url`` once the server answers: (status, text)."""
    base = url.split("/voila/render/")[0]
    end = time.monotonic() + timeout
    while True:
        try:
            urllib.request.urlopen(base + "/voila/static/", timeout=5)
            break
        except urllib.error.HTTPError:
            break   # any answer: the server is up
        except OSError:
            if time.monotonic() > end:
                raise RuntimeError(f"no answer from {base} in {timeout} s")
            time.sleep(0.5)
    with urllib.request.urlopen(url, timeout=timeout) as r:   # Voila runs the notebook before it answers
        return r.status, r.read().decode("utf-8", "replace")


def test_the_installed_serve_and_tutorial_answer_over_http(shipped):
    bin_, env, work = shipped["bin"], shipped["env"], shipped["work"]
    ports = {"serve": _free_port(), "tutorial": _free_port()}
    cmds = {"serve": ["serve", "--port", ports["serve"], "--db", work / "served.sqlite"],
            "tutorial": ["tutorial", "two-handed", "--no-browser", "--port", ports["tutorial"]]}
    urls = {"serve": f"http://127.0.0.1:{ports['serve']}/voila/render/review-a-game.ipynb",
            "tutorial": f"http://127.0.0.1:{ports['tutorial']}/voila/render/tutorial-two-handed.ipynb"}
    procs, pages, logs = {}, {}, {}
    try:
        for name, args in cmds.items():
            logs[name] = open(work / f"{name}.log", "w")
            procs[name] = subprocess.Popen([str(bin_ / "euchre-events")] + [str(a) for a in args], cwd=work,
                                           env=env, stdout=logs[name], stderr=subprocess.STDOUT,
                                           start_new_session=True)

        def fetch(name):
            try:
                # the server prints the address to open, with its token (finding 6 of issue 26)
                end = time.monotonic() + 240
                while True:
                    m = re.search(r"(http://127\.0\.0\.1:\d+/voila/render/\S+\?token=\S+)",
                                  (work / f"{name}.log").read_text())
                    if m or time.monotonic() > end:
                        break
                    time.sleep(0.5)
                pages[name] = _get_page(m.group(1) if m else urls[name])
            except Exception as e:  # reported below with the server's log
                pages[name] = (None, repr(e))
        threads = [threading.Thread(target=fetch, args=(n,)) for n in cmds]   # two kernels at once
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        for name, p in procs.items():
            os.killpg(p.pid, signal.SIGTERM)
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
            logs[name].close()
    for name, (status, text) in pages.items():
        log = (work / f"{name}.log").read_text()
        assert status == 200, f"{name}: {text[:500]}\n{log[-3000:]}"
        assert "There was an error when executing" not in text, f"{name}:\n{log[-3000:]}"
    # the review notebook ran in the wheel, on the shipped record, and printed its summary
    assert "VWEC Finals: 13 deals" in pages["serve"][1]
    assert "Two-handed Euchre: a rules tutorial" in pages["tutorial"][1]
    assert (work / "served.sqlite").exists()


NBCLIENT = """
import sys, nbformat
from nbclient import NotebookClient
from euchre_events import samples
path = samples.notebook(sys.argv[1])
nb = nbformat.read(path, as_version=4)
NotebookClient(nb, timeout=240, kernel_name="python3",
               resources={"metadata": {"path": str(path.parent)}}).execute()
for cell in nb.cells:
    for out in cell.get("outputs", []):
        if out.get("output_type") == "error":
            sys.exit("error: " + out.get("ename", "") + ": " + out.get("evalue", ""))
        if out.get("name") == "stdout":
            print(out["text"], end="")
print("ran", path)
"""


def test_a_shipped_notebook_runs_with_nbclient(shipped):
    env_db = shipped["work"] / "nb.sqlite"
    out = shipped["run"]("python", "-c", NBCLIENT, "review-a-game", timeout=400,
                         extra_env={"EUCHRE_EVENTS_DB": str(env_db)}).stdout
    assert "VWEC Finals: 13 deals" in out
    assert f"ran {shipped['venv']}" in out    # the notebook inside the installed package
    assert env_db.exists()
