"""Every notebook in notebooks/ runs top to bottom on a fresh kernel (nbclient).

The notebooks run with the notebooks/ folder as their working directory, as in
Jupyter and Voila; they find their records through ``euchre_events.samples.path``
(the checkout's ``fixtures/`` here, the shipped copies in a wheel).  The
archive they write goes to a temporary file (``EUCHRE_EVENTS_DB``).  Beyond
"no error", a few outputs are checked against values from the records, from
docs/cases.md and from rules.md, worked out by hand.
"""
import nbformat
import pytest
from conftest import FIXTURES, NOTEBOOKS
from nbclient import NotebookClient

ALL = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))


@pytest.fixture
def jupyter_env(tmp_path, monkeypatch):
    for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR"):
        d = tmp_path / name.lower()
        d.mkdir()
        monkeypatch.setenv(name, str(d))
    monkeypatch.setenv("EUCHRE_EVENTS_DB", str(tmp_path / "notebook.sqlite"))
    monkeypatch.delenv("EUCHRE_EVENTS_RECORD", raising=False)
    return tmp_path


def run(name, extra_code=None):
    """Execute a notebook (plus an optional extra cell in the same kernel);
    returns the notebook and the text printed by every cell."""
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    if extra_code:
        nb.cells.append(nbformat.v4.new_code_cell(extra_code))
    client = NotebookClient(nb, timeout=180, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOKS)}})
    client.execute()  # raises CellExecutionError on any error
    text = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            assert out.get("output_type") != "error", out
            if out.get("name") == "stdout":
                text.append(out["text"])
    return nb, "".join(text)


def test_the_expected_notebooks_exist():
    assert {"review-a-game.ipynb", "audit-a-disputed-renege.ipynb", "tutorial-standard.ipynb"} <= set(ALL)


@pytest.mark.parametrize("name", ALL)
def test_notebook_runs_top_to_bottom(name, jupyter_env):
    nb, _ = run(name)
    # saved without outputs: no hidden state travels with the file
    saved = nbformat.read(NOTEBOOKS / name, as_version=4)
    assert all(not c.get("outputs") for c in saved.cells if c.cell_type == "code")
    assert nb.cells


def test_review_reads_the_tournament_record(jupyter_env):
    _, text = run("review-a-game.ipynb", "print('viewer at', viewer.position, 'of', len(game.events))")
    # the VWEC finals record: 13 deals, four named players, 19 annotations
    assert "VWEC Finals: 13 deals" in text
    assert "North (WWMM), East (Llama), South (Euchrazy1), West (LeftyKnavey)" in text
    assert text.count("| deal ") == 19
    assert "Pretty ambitious next call" in text
    assert "viewer at 3 of" in text          # deal 1 just dealt (DealStarted, CardsDealt)
    assert (jupyter_env / "notebook.sqlite").exists()


def test_audit_reports_case_c3(jupyter_env):
    _, text = run("audit-a-disputed-renege.ipynb")
    # docs/cases.md C3: winners E, S, W, W, W; renege at T1 by E, evidence at T4, penalty 2 to N/S
    assert "trick winners: East, South, West, West, West" in text
    assert "renege in deal 1, trick 1 by East" in text
    assert "holding 10\u2663" in text
    assert "provable at:    {'event': 22, 'deal': 1, 'trick': 4} (from the table)" in text
    assert "established at: {'event': 12, 'deal': 1, 'trick': 2}" in text
    assert "penalty: hand ends; N/S score 2" in text
    assert "score as played: [0, 2] | official score: [2, 0]" in text
    assert "findings in the corrected line: []" in text
    # the claim and the ruling (rules.md 1.5, 2.7; case C1's kind of false claim)
    assert "nobody claims: official [0, 2]" in text
    assert "claim-rejected | trick 2 | rejected by the rules | no renege: seat 1 led trick 2" in text
    assert "official score with the claim: [2, 0]" in text
    assert "ruling: upheld by the tournament director" in text


CHECK_TUTORIAL = """
answers = {
    "q1": sorted(q1.answer), "q2": q2.answer, "q3": sorted(q3.answer), "q4": q4.answer,
    "q5": sorted(q5.answer), "q6": sorted(q6.answer), "q7": q7.answer, "q8": q8.answer,
}
print("ANSWERS", answers)
quiz6 = q6.quiz()
print("WRONG", quiz6.check({"9C"}), "WHY", quiz6.feedback.value)
print("RIGHT", quiz6.check({"JD"}), "FEEDBACK", quiz6.feedback.value)
"""


def test_tutorial_exercises_check_the_rules(jupyter_env):
    _, text = run("tutorial-standard.ipynb", CHECK_TUTORIAL)
    line = next(ln for ln in text.splitlines() if ln.startswith("ANSWERS"))
    answers = eval(line[len("ANSWERS "):])
    # rules.md 1.2: under hearts the trumps among J♦ J♥ A♦ 9♥ J♣ K♥ Q♦ are J♦ (left bower), J♥, 9♥, K♥
    assert answers["q1"] == ["9H", "JD", "JH", "KH"]
    assert answers["q2"] == 0                         # the dealer, North, picks up (2.2)
    assert answers["q3"] == ["C", "D", "S"]           # stuck dealer: no pass, not hearts (C4)
    assert answers["q4"] == 2                         # South leads when East sits out (C6)
    assert answers["q5"] == ["9C", "JD", "KS", "QS", "TC"]  # void in diamonds (C1 a)
    assert answers["q6"] == ["JD"]                    # must follow hearts with the left bower (C1 b)
    assert answers["q7"] == 3                         # West's left bower beats South's Q♥
    # makers N/S took 1 trick (North's K♥ in trick 4): euchred, E/W +2 (2.6)
    assert answers["q8"] == "East/West +2"
    assert "WRONG False WHY" in text and "RIGHT True" in text
    # the wrong pick is answered with why that pick is wrong, from the effective suit (rules.md 1.2)
    why = next(ln for ln in text.splitlines() if ln.startswith("WRONG"))
    # how many hearts West holds, not which (naming J♦ would be the answer, issue 22)
    assert "9\u2663 is a club, but West still holds a heart (look at every card" in why
    assert "J\u2666" not in why
    assert "Try again" in why and "The answer" not in why and "engine" not in why
    assert "Must follow hearts" in text


def test_club_archive_notebook_counts_each_event_once(jupyter_env):
    """notebooks/club-archive.ipynb: 3 shipped records (VWEC Finals, Epic
    Comeback, Six Points in Two Hands) and 24 club nights in the index, nothing left on
    a second catch-up, six charts and Cora's line."""
    nb, text = run("club-archive.ipynb")
    assert "27 games in the index" in text and "0 on a second catch-up" in text
    assert "Cora: " in text and "calls made by seat from the dealer" in text
    plots = [o for c in nb.cells for o in c.get("outputs", [])
             if "application/vnd.plotly.v1+json" in o.get("data", {})]
    assert len(plots) == 7


CUTTHROAT = FIXTURES / "cutthroat"


@pytest.mark.parametrize("record, official, players, deal1", [
    ("cutthroat-1.euchre", "official score: P1 0, P2 0, P3 10 | official winner: P3 (Ivy)",
     "P1 (Gus), P2 (Hal), P3 (Ivy)", r"deal  1: dealer P3 \(Ivy\) +trump S  maker P3 \(Ivy\) +-> P3 \+3 +score 0/0/3"),
    ("cutthroat-2.euchre", "official score: P1 8, P2 11, P3 4 | official winner: P2 (Kit)",
     "P1 (Jo), P2 (Kit), P3 (Lee)", r"deal  1: dealer P1 \(Jo\) +trump C  maker P2 \(Kit\) +-> P2 \+1 +score 0/1/0"),
], ids=["won-by-P3", "won-by-P2"])
def test_review_names_each_cutthroat_player(record, official, players, deal1, jupyter_env, monkeypatch):
    """Issue 26 finding 5: the review notebook names the sides as the variant seats them.
    In cutthroat each player is a side (rules.md 4), named by seat (P1 .. P3): cutthroat-1,
    won by P3, failed in cell [2] under the fixed names N/S and E/W; cutthroat-2, won by P2,
    showed "N/S 8 - E/W 11" and dropped P3's 4 points."""
    import re
    monkeypatch.setenv("EUCHRE_EVENTS_RECORD", str(CUTTHROAT / record))
    _, text = run("review-a-game.ipynb")
    assert official in text
    assert f"players: {players}" in text
    assert re.search(deal1, text), text
    assert "N/S" not in text and "E/W" not in text


def test_explore_notebook_counts_the_shipped_records(jupyter_env):
    """notebooks/explore-decisions.ipynb: four shipped standard records (three
    EGN games and club night 1) analysed face up; a second run skips them all;
    the round-one decisions split by trumps held add up to the explorer's total."""
    _, text = run("explore-decisions.ipynb", "print('TOTAL', explore(rm, variant='standard', round=1).decisions)")
    assert "4 games stored" in text
    assert "4 games analysed, 0 already done, 0 failed" in text
    assert "a second run: 0 analysed, 4 already done" in text
    assert "Situation: variant standard, eldest, round 1" in text
    total = int(text.split("TOTAL ")[1].split()[0])
    by_trumps = [int(ln.split("trumps:")[1].split("decisions")[0]) for ln in text.splitlines() if " trumps: " in ln]
    assert total > 0 and sum(by_trumps) == total
