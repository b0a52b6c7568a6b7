"""The layer contract (pyproject.toml, docs/architecture.md) holds: imports
point down the stack __main__ -> cli -> batch -> ui -> archive -> formats ->
projections -> rules -> events, and no package has an import circle.  A wrong arrow fails here."""
import subprocess
import sys
from pathlib import Path

from conftest import ROOT


def test_lint_imports_keeps_every_contract():
    exe = Path(sys.executable).with_name("lint-imports")
    proc = subprocess.run([str(exe), "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "2 kept, 0 broken" in proc.stdout


def test_the_rules_layer_imports_no_presentation_and_no_io():
    # the pure core: nothing under rules/ or events.py may import the
    # interfaces, the archive, or libraries that do I/O or drawing
    banned = ("euchre_events.ui", "euchre_events.archive", "euchre_events.cli",
              "ipywidgets", "plotly", "eventsourcing", "sqlite3", "IPython")
    for path in list((ROOT / "euchre_events" / "rules").rglob("*.py")) + [ROOT / "euchre_events" / "events.py"]:
        text = path.read_text()
        for name in banned:
            assert f"import {name}" not in text and f"from {name}" not in text, (path, name)
