"""What the package ships, seen from the checkout (an editable install):
``euchre_events.samples`` (the notebooks, the sample records, the rules
reference), and the commands ``samples``, ``tutorial`` and ``--version``.
tests/test_wheel.py tries the same in a real wheel."""
import ast
import http.server
import importlib.metadata
import importlib.util
import json
import shlex
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from conftest import ROOT, RUNNER as runner
from euchre_events import samples
from euchre_events.cli import app
from euchre_events.formats import read_records
from euchre_events.rules.registry import VARIANT_CLASSES
from euchre_events.ui import serve as serve_mod

PY = sys.executable


def test_in_the_checkout_samples_are_the_fixtures():
    assert samples.checkout_root() == ROOT
    assert samples.notebooks_dir() == ROOT / "notebooks"
    assert samples.path("egn/VWEC Finals.egn") == ROOT / "fixtures" / "egn" / "VWEC Finals.egn"
    assert samples.rules_reference() == ROOT / "docs" / "rules.md"
    assert samples.notebook("tutorial-bid") == samples.notebook("tutorial-bid.ipynb") == ROOT / "notebooks/tutorial-bid.ipynb"
    assert samples.install_hint() == f"pip install -e '.[app]' (run in {ROOT})"


def test_only_the_shipped_samples_are_found():
    # a notebook must not come to need a record that the wheel lacks
    with pytest.raises(samples.DataMissing, match="is not a sample record.*VWEC Finals.egn"):
        samples.path("egn/match/MotE W5 G1.egn")
    with pytest.raises(samples.DataMissing, match="no notebook 'nope.ipynb'.*review-a-game.ipynb"):
        samples.notebook("nope")
    with pytest.raises(samples.DataMissing, match="no notebook"):
        samples.notebook("../README.md")


def test_the_samples_are_real_records_one_game_per_variant():
    variants = set()
    for name in samples.SAMPLES:
        p = samples.path(name)
        if p.suffix in (".egn", ".euchre"):
            recs = read_records(str(p))
            assert recs and recs[0].events, name
            variants.add(recs[0].events[0].variant)
    assert variants == {c.name for c in VARIANT_CLASSES}
    assert "egn/LICENSE" in samples.SAMPLES and "Apache License" in samples.path("egn/LICENSE").read_text()


def test_shipped_files_cover_every_notebook_and_refuse_a_missing_sample(tmp_path):
    files = samples.shipped_files(ROOT)
    assert {Path(k).name for k in files if k.startswith("data/notebooks/")} == \
        {p.name for p in (ROOT / "notebooks").glob("*.ipynb")}
    assert files["data/docs/rules.md"] == ROOT / "docs" / "rules.md"
    assert all(src.is_file() for src in files.values())
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "notebooks" / "x.ipynb").write_text("{}")
    with pytest.raises(samples.DataMissing, match="VWEC Finals.egn"):
        samples.shipped_files(tmp_path)


def test_no_shipped_copy_is_kept_in_git():
    tracked = subprocess.run(["git", "ls-files", "euchre_events/data"], cwd=ROOT,
                             capture_output=True, text=True).stdout
    assert tracked == ""
    assert not (ROOT / "euchre_events" / "data").exists()


def test_samples_module_needs_only_the_standard_library():
    # setup.py loads it by file path at build time, before anything is installed
    tree = ast.parse((ROOT / "euchre_events" / "samples.py").read_text())
    names = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert names - {"__future__"} <= set(sys.stdlib_module_names), names


def test_no_notebook_reaches_outside_its_folder():
    # "../fixtures/..." works in a checkout only; records come through samples.path
    for nb in (ROOT / "notebooks").glob("*.ipynb"):
        for cell in json.loads(nb.read_text())["cells"]:
            if cell["cell_type"] == "code":
                strings = [n.value for n in ast.walk(ast.parse("".join(cell["source"])))
                           if isinstance(n, ast.Constant) and isinstance(n.value, str)]
                assert not [t for t in strings if "../" in t or "fixtures/" in t], (nb.name, strings)


def test_version_option_and_command_give_the_metadata_version():
    want = importlib.metadata.version("euchre_events")
    for argv in (["--version"], ["version"]):
        res = runner.invoke(app, argv)
        assert res.exit_code == 0 and res.stdout.strip() == want


def test_samples_command_writes_the_records_and_keeps_edits(tmp_path):
    dest = tmp_path / "recs"
    res = runner.invoke(app, ["samples", str(dest)])
    assert res.exit_code == 0, res.output
    assert sorted(res.stdout.split("\n")[:-1]) == sorted(str(dest / n) for n in samples.SAMPLES)
    assert (dest / "egn" / "VWEC Finals.egn").read_bytes() == samples.path("egn/VWEC Finals.egn").read_bytes()
    assert "euchre-events import" in res.stderr
    assert runner.invoke(app, ["samples", str(dest)]).exit_code == 0      # same files again: fine
    (dest / "bid" / "bid-1.euchre").write_text("my notes")
    res = runner.invoke(app, ["samples", str(dest)])
    assert res.exit_code == 1 and "bid-1.euchre" in res.stderr and "--force" in res.stderr
    assert (dest / "bid" / "bid-1.euchre").read_text() == "my notes"
    assert runner.invoke(app, ["samples", str(dest), "--force"]).exit_code == 0
    assert (dest / "bid" / "bid-1.euchre").read_text() != "my notes"
    (tmp_path / "file").write_text("x")
    res = runner.invoke(app, ["samples", str(tmp_path / "file")])
    assert res.exit_code == 1 and "not a folder" in res.stderr and "Traceback" not in res.output


def test_tutorial_copy_writes_an_editable_notebook_and_the_rules(tmp_path):
    res = runner.invoke(app, ["tutorial", "ghost", "--copy", str(tmp_path / "class")])  # an alias
    assert res.exit_code == 0, res.output
    nb = tmp_path / "class" / "tutorial-ghost-hand.ipynb"
    assert res.stdout.split() == [str(nb), str(tmp_path / "class" / "rules.md")]
    assert nb.read_bytes() == (ROOT / "notebooks" / "tutorial-ghost-hand.ipynb").read_bytes()
    assert "jupyter lab" in res.stderr and "jupyterlab" in res.stderr
    nb.write_text("edited")
    res = runner.invoke(app, ["tutorial", "ghost-hand", "--copy", str(tmp_path / "class")])
    assert res.exit_code == 1 and "tutorial-ghost-hand.ipynb" in res.stderr and nb.read_text() == "edited"
    assert runner.invoke(app, ["tutorial", "ghost-hand", "--copy", str(tmp_path / "class"), "--force"]).exit_code == 0


def test_tutorial_of_an_unknown_variant_names_the_tutorials():
    res = runner.invoke(app, ["tutorial", "pinochle"])
    assert res.exit_code == 1
    assert "no tutorial for 'pinochle'" in res.stderr and "two-handed" in res.stderr
    assert "Traceback" not in res.output


def test_tutorial_serves_the_notebook_and_opens_the_browser(monkeypatch):
    calls = []
    monkeypatch.setattr(serve_mod, "serve", lambda **kw: calls.append(kw) or 0)
    assert runner.invoke(app, ["tutorial"]).exit_code == 0
    assert runner.invoke(app, ["tutorial", "bid", "--port", "9000", "--no-browser"]).exit_code == 0
    assert calls == [{"notebook": "tutorial-standard.ipynb", "port": 8866, "open_browser": True},
                     {"notebook": "tutorial-bid.ipynb", "port": 9000, "open_browser": False}]
    assert serve_mod.page_url("tutorial-bid.ipynb", 9000) == "http://127.0.0.1:9000/voila/render/tutorial-bid.ipynb"
    assert serve_mod.page_url("tutorial-bid", 9000) == "http://127.0.0.1:9000/voila/render/tutorial-bid.ipynb"


def test_without_voila_the_message_names_the_install(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "voila" else real(name, *a))
    for argv in (["serve"], ["tutorial", "buck"]):
        res = runner.invoke(app, argv)
        assert res.exit_code == 1
        assert f"needs Voila, in the app extra: pip install -e '.[app]' (run in {ROOT})" in res.stderr


def test_serve_of_a_missing_notebook_is_one_line():
    res = runner.invoke(app, ["serve", "--notebook", "no-such.ipynb"])
    assert res.exit_code == 1 and "Traceback" not in res.output
    assert "no-such.ipynb" in res.stderr and "review-a-game.ipynb" in res.stderr


def test_open_when_ready_waits_for_the_server_then_opens_the_page(monkeypatch):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *a):
            pass
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    opened = []
    monkeypatch.setattr(serve_mod.webbrowser, "open", lambda url: opened.append(url) or True)

    class Running:
        def poll(self):
            return None
    url = f"http://127.0.0.1:{port}/voila/render/tutorial-standard.ipynb"
    waiter = threading.Thread(target=serve_mod._open_when_ready, args=(url, Running(), True, 20))
    waiter.start()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        waiter.join(30)
    finally:
        server.shutdown()
        server.server_close()
    assert opened == [url]


def test_open_when_ready_gives_up_when_voila_stops(monkeypatch):
    opened = []
    monkeypatch.setattr(serve_mod.webbrowser, "open", lambda url: opened.append(url) or True)

    class Stopped:
        def poll(self):
            return 1
    serve_mod._open_when_ready("http://127.0.0.1:9/voila/render/x.ipynb", Stopped(), True, 5)
    assert opened == []


def test_readme_tells_a_user_to_pip_install_before_the_checkout():
    text = (ROOT / "README.md").read_text()
    assert "## Install" in text and "pip install 'euchre-events[app]'" in text
    assert text.index("## Install") < text.index("## Try it on a real tournament game (checkout)")
    assert (ROOT / "CHANGELOG.md").read_text().startswith("# Changelog")


# ---------------------------------------------------------------- the README's install line from anywhere (issue 27, a newcomer's first minutes)


def _install_block() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Install"):text.index("## Try it on a real tournament game")]
    return section[section.index("```bash"):section.index("```", section.index("```bash") + 3)]


def test_readme_install_line_from_a_clone_works_from_another_folder(tmp_path):
    """The README's "today, from a clone" line names the clone by its path
    ($HOME/euchre-events in the text; this checkout here), so pip takes it
    from the folder where the user then runs the commands.  Before, the line
    was ``pip install '.[app]'``: "Directory '.[app]' is not installable"
    there.  pip is asked for a dry run (nothing installed, no index)."""
    lines = [ln.split("#")[0].strip() for ln in _install_block().splitlines() if ln.startswith("pip install")]
    local = [ln for ln in lines if "euchre-events[app]" in ln and not ln.startswith("pip install 'euchre-events")]
    assert len(local) == 1, lines
    [arg] = [a for a in shlex.split(local[0].replace("$HOME/euchre-events", str(ROOT)))[2:]]
    assert arg == f"{ROOT}[app]"
    proc = subprocess.run([PY, "-m", "pip", "install", "--dry-run", "--no-deps", "--no-build-isolation",
                           "--no-index", arg], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Would install euchre_events" in proc.stdout
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "in a folder of your choice, not the clone" in text
