"""The projections package gives its names on demand (issue 21 "Speed":
an analysis does not load the seat views), and each is what it always was,
whatever was imported first.  Each case runs in a fresh interpreter: the
order of imports is what is tested."""
from __future__ import annotations

import subprocess
import sys

from conftest import ROOT

CASES = {
    # the submodule first: the package's ``audit`` must stay the function (it was
    # the module once the names came on demand, and audit(game) failed)
    "submodule first": "import euchre_events.projections.audit\n"
                       "from euchre_events.projections import audit\n"
                       "assert callable(audit) and audit.__module__ == 'euchre_events.projections.audit', audit",
    "function first": "from euchre_events.projections import audit\n"
                      "import euchre_events.projections.audit as m\n"
                      "assert callable(audit)\n"
                      "from euchre_events.projections.audit import audit as f\nassert f is audit",
    "listed by dir": "import euchre_events.projections as p, euchre_events.archive as a\n"
                     "assert {'Game', 'knowledge', 'audit'} <= set(dir(p)) and 'Archive' in dir(a)\n"
                     "import sys\nassert 'euchre_events.projections.seat' not in sys.modules",
    "every name": "import euchre_events.projections as p\n"
                  "for n in p.__all__:\n"
                  "    assert getattr(p, n).__name__ == n, n\n"
                  "from euchre_events.projections import Game, knowledge, TableState, snapshot, SeatKnowledge\n"
                  "import sys\nassert 'euchre_events.projections.seat' in sys.modules",
    "no seat view for a fold": "import sys\nfrom euchre_events.projections import Game\n"
                               "from euchre_events.formats import read_records\n"
                               "g = Game(read_records('fixtures/standard/club-night-1.euchre')[0].events)\n"
                               "assert g.final_score and 'euchre_events.projections.seat' not in sys.modules",
}


def test_projection_names_are_the_same_whatever_is_imported_first():
    for name, code in CASES.items():
        r = subprocess.run([sys.executable, "-c", code], cwd=str(ROOT), capture_output=True, text=True,
                           env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
        assert r.returncode == 0, (name, r.stderr[-2000:])
