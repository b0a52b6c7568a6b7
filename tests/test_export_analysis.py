"""``export --format html --with-analysis`` without a browser (issue 22): the
page without the flag is the plain export, byte for byte; the record's text
stays text in the analysis.  The browser test: tests/test_export_analysis_browser.py."""
from conftest import VWEC, cli


def _cli(*args):
    r = cli(*args)
    assert r.exit_code == 0, r.output
    return r


def test_without_the_flag_the_page_is_the_plain_export(tmp_path):
    """No analysis in the page without --with-analysis: the same bytes as
    :func:`~euchre_events.ui.htmlexport.export_page` of the game, and none of
    the analysis's markup, script or plotly."""
    from euchre_events.formats import read_records
    from euchre_events.ui.htmlexport import SCRIPT, export_page
    out = tmp_path / "plain.html"
    _cli("export", VWEC, "-f", "html", "-o", out)
    rec = read_records(str(VWEC))[0]
    page = out.read_text()
    assert page == export_page(rec.game, annotations=rec.annotations, variations=rec.variations)
    assert f"<script>{SCRIPT}</script>" in page
    for word in ("Plotly", "ee-analysis", '"analysis"', "drawAnalysis", "ee-eval"):
        assert word not in page


def test_with_analysis_escapes_the_record(tmp_path):
    """A player's name with markup stays text in the analysis's panel and graph."""
    from euchre_events.analysis.review import analyze
    from euchre_events.formats import read_records
    from euchre_events.ui.htmlexport import export_page
    hostile = "<img src=x onerror=alert(1)>&</script>"
    rec = read_records(str(VWEC))[0]
    from euchre_events.projections import Game
    ev0 = rec.events[0]
    players = list(ev0.players)
    players[3] = hostile
    import dataclasses
    g = Game([dataclasses.replace(ev0, players=tuple(players))] + list(rec.events[1:40]))
    page = export_page(g, analysis=analyze(g, deals=[1], face_up_only=True))
    assert hostile not in page and "<img src=x" not in page


def test_a_forced_play_costs_nothing_from_either_view():
    """Deal 1 of the VWEC final, trick 1: West leads A♦ and East holds one
    diamond, Q♦, so East's play is forced (rules.md 1.3, follow suit).  The seat
    view samples no forced decision, yet its cost is known: 0 from any view, not
    "not known yet" (a static page would show "…" for ever)."""
    from euchre_events.analysis.review import analyze
    from euchre_events.formats import read_records
    from euchre_events.ui.analysistable import option_costs
    g = read_records(str(VWEC))[0].game
    a = analyze(g, deals=[1], samples=4, seed=1)
    dec = next(d for d in a.deals[0].decisions if d.kind == "play" and d.played_text == "QD")
    assert dec.forced and [o.text for o in dec.options] == ["QD"]
    assert option_costs(dec, dec) == {"QD": (0.0, 0.0, dec.label or "")}


def test_a_stored_game_exports_with_its_analysis(tmp_path):
    """``export <stored id> --with-analysis`` (html, egn; and --face-up-only):
    the stored game's analysis is computed once, kept in the archive's cache
    and written (issue: a NameError there).  The Custom Scenario's one deal:
    North passes at event 7 where ordering up was worth 2 points more face up
    (``!?`` with the seat view, which found the pass best; ``?`` face up only).
    The page's data counts positions from 0: event 7 is position 6."""
    from conftest import EGN_FIXTURES, cli
    db = tmp_path / "a.db"
    r = cli("import", EGN_FIXTURES / "Custom Scenario.egn", "--db", db)
    assert r.exit_code == 0, r.output
    gid = r.stdout.split()[0]
    page = tmp_path / "page.html"
    r = cli("export", gid, "--db", db, "--format", "html", "--with-analysis", "--samples", "4", "-o", page)
    assert r.exit_code == 0 and "Traceback" not in r.output, r.output
    html = page.read_text(encoding="utf-8")
    assert '"labels":{"4":"?!","6":"!?"}' in html and "Plotly" in html
    from euchre_events.archive import Archive
    from euchre_events.archive.readmodels import ReadModels
    assert ReadModels(Archive(str(db))).analysed_games() == 1
    # the EGN export of the same analysis takes it from the cache: the same marks, as notes
    egn = tmp_path / "a.egn"
    r = cli("export", gid, "--db", db, "--format", "egn", "--with-analysis", "--samples", "4", "-o", egn)
    assert r.exit_code == 0, r.output
    text = egn.read_text(encoding="utf-8")
    assert "[!?] euchre-events analysis: played pass; face up order was 2.00 points better" in text
    assert text.count("euchre-events analysis") == 2
    assert ReadModels(Archive(str(db))).analysed_games() == 1
    r = cli("export", gid, "--db", db, "--format", "html", "--with-analysis", "--face-up-only", "-o", page)
    assert r.exit_code == 0, r.output
    assert '"labels":{"6":"?"}' in page.read_text(encoding="utf-8")


def _page_strings(html: str) -> str:
    """Every string of an export page's data (``<script id="ee-data">``), decoded, one a line."""
    import json
    import re
    data = json.loads(re.search(r'<script id="ee-data" type="application/json">(.*?)</script>', html, re.S).group(1))
    out = []

    def walk(x):
        if isinstance(x, str):
            out.append(x)
        elif isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(data)
    return "\n".join(out)


def test_a_face_up_only_page_has_no_seat_view_column(tmp_path):
    """``export FILE --format html --with-analysis --face-up-only``: the options
    panel says face up only, with no seat-view column of "…" (there is no seat
    view to wait for); the cards' badges carry one line.  The Custom Scenario's
    North passes at event 7 (position 6): order was worth 2 points more face up.
    The viewer widget's panel while its seat view is computing keeps the column."""
    import re
    from conftest import EGN_FIXTURES
    from euchre_events.analysis.review import analyze
    from euchre_events.formats import read_records
    from euchre_events.ui.analysistable import options_table
    page = tmp_path / "fu.html"
    _cli("export", EGN_FIXTURES / "Custom Scenario.egn", "-f", "html", "--with-analysis", "--face-up-only",
         "-o", page)
    strings = _page_strings(page.read_text(encoding="utf-8"))
    assert "North</b> to decide: costs in points, face up only (every hand seen)</div>" in strings
    assert "seat view" not in strings and "'s view" not in strings and "\u2026" not in strings
    assert 'class="ee-cost-sv"' not in strings and 'title="cost in points, face up"' in strings
    g = read_records(str(EGN_FIXTURES / "Custom Scenario.egn"))[0].game
    dec = next(d for d in analyze(g, face_up_only=True).decisions() if d.position == 6)
    assert dec.label == "?" and dec.played_text == "pass"
    table = options_table(dec, None, 4)
    assert "seat view" not in table and "\u2026" not in table and "face up only" in table
    assert dict(re.findall(r'data-option="([^"]+)" data-face-up="([^"]*)"', table)) == {
        "pass": "2.0", "order": "0.0", "order alone": "3.0"}
    # the widget while its seat view is on its way: the column of "…" stays
    computing = options_table(dec, None, 4, computing=True)
    assert "from North's view (computing\u2026)" in computing
    assert '<th class="ee-num-cell">seat view</th>' in computing
    assert computing.count("\u2026") == 1 + 3      # "computing…" and the column's three options


def test_export_with_analysis_shows_a_progress_bar_on_a_terminal(tmp_path):
    """``export FILE --format html --with-analysis`` on a terminal: stderr (a
    pseudo-terminal here) shows analyze's tqdm bar while the analysis runs
    (Six Points in Two Hands: 44 decisions, the unknown ones too); the page is written as without it."""
    import os
    import pty
    import subprocess
    import sys
    from conftest import ROOT, SIX
    import fcntl
    import struct
    import termios
    master, slave = pty.openpty()
    # a terminal 100 columns wide (a new pseudo-terminal is 0 wide: tqdm would draw nothing)
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    page = tmp_path / "six.html"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.Popen([sys.executable, "-m", "euchre_events", "export", str(SIX), "-f", "html",
                          "--with-analysis", "--face-up-only", "-o", str(page)],
                         stdout=subprocess.PIPE, stderr=slave, env=env)
    os.close(slave)
    err = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:          # the command closed the terminal: it has ended
            break
        if not chunk:
            break
        err += chunk
    out, _ = p.communicate(timeout=120)
    os.close(master)
    text = err.decode("utf-8", "replace")
    assert p.returncode == 0, text
    assert "analysing Six Points in Two Hands:   0%|" in text and "| 0/44 [" in text
    assert page.exists() and out.decode().strip() == str(page)
