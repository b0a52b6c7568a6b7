"""``analyze FILE... --workers N`` over the games of record files: N forked
processes take a few contiguous runs of games each, and the report is the
same bytes as with ``--workers 1`` (the games in the same order, the same
errors named the same way, in json, text and html).  The records are real:
the MotE week 5 match (``fixtures/egn/match``, 6 games, 73 deals), the same
match with one card of its third game changed so that the game cannot be
read, and the parlour game of two hands."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import EGN_FIXTURES, FIXTURES, ROOT, RUNNER as runner
from euchre_events.cli import app
from euchre_events.review import _spans

MATCH = str(EGN_FIXTURES / "match" / "MotE W5 Match.emn")
PARLOUR = str(FIXTURES / "two-handed" / "parlour-2.euchre")


def _analyze(tmp_path, name: str, *args) -> tuple:
    """``(exit code, stdout, stderr, the -o file's bytes)`` of ``python -m
    euchre_events analyze ARGS -o FILE`` (the command as a person runs it),
    in one process unless ``ARGS`` give ``--workers`` (the default may take
    the cores: :func:`~euchre_events.review.analysis_workers`)."""
    out = tmp_path / name
    one = () if "--workers" in args else ("--workers", "1")
    p = subprocess.run([sys.executable, "-m", "euchre_events", "analyze", *args, *one, "-o", str(out)],
                       capture_output=True, cwd=ROOT)
    return p.returncode, p.stdout.replace(str(out).encode(), b"OUT"), p.stderr, \
        out.read_bytes() if out.exists() else None


@pytest.fixture(scope="module")
def broken_match(tmp_path_factory):
    """The MotE match with its third game's first trick broken: West plays
    the J♥ North led (it is not in West's hand)."""
    with open(MATCH, encoding="utf-8") as f:
        doc = json.load(f)
    trick = doc["games"][2]["gameData"]["deals"][0]["phases"][1]["tricks"][0]
    assert trick == ["Jh", "Ah", "9h", "Th"]
    trick[2] = "Jh"
    path = tmp_path_factory.mktemp("broken") / "broken.emn"
    path.write_text(json.dumps(doc, indent=1), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("fmt", ["json", "text", "html"])
def test_the_games_of_a_match_in_two_processes_are_the_same_bytes(tmp_path, fmt):
    one = _analyze(tmp_path, f"one.{fmt}", MATCH, "--face-up-only", "--format", fmt)
    two = _analyze(tmp_path, f"two.{fmt}", MATCH, "--face-up-only", "--format", fmt, "--workers", "2")
    assert one[0] == 0 and one[3], one[2]
    assert two == one
    if fmt == "json":
        games = json.loads(one[3])["games"]
        assert [g["title"] for g in games] == [f"MotE W5 G{i}" for i in range(1, 7)]
        assert sum(len(g["deals"]) for g in games) == 73


@pytest.mark.parametrize("fmt", ["json", "text", "html"])
def test_a_game_that_cannot_be_read_is_named_as_with_one_process(tmp_path, broken_match, fmt):
    args = (broken_match, PARLOUR, "--face-up-only", "--format", fmt)
    one = _analyze(tmp_path, f"one.{fmt}", *args)
    two = _analyze(tmp_path, f"two.{fmt}", *args, "--workers", "2")
    three = _analyze(tmp_path, f"three.{fmt}", *args, "--workers", "3")
    assert one[0] == 1 and one[3]
    assert two == one and three == one
    assert one[2].decode().splitlines() == [
        f"error: {broken_match}, deal 1, game event 11 (CardPlayed): game 3: West (WWMM) cannot play JH: it is "
        "not in that hand (it was dealt elsewhere or already played) (EGN dealNumber 0)"]
    if fmt == "json":
        doc = json.loads(one[3])
        assert [g["title"] for g in doc["games"]] == [
            "MotE W5 G1", "MotE W5 G2", "MotE W5 G4", "MotE W5 G5", "MotE W5 G6", "Parlour game 2 (stick the dealer)"]
        assert [e["file"] for e in doc["errors"]] == [broken_match]


def test_games_without_the_deal_asked_are_named_in_order(tmp_path, broken_match):
    """``--deal 12``: the games of ten and eleven deals (1, 3 and 5) are
    named, in the order of the files, the game that cannot be read before
    them in its file; by both doors (typer's too)."""
    args = (MATCH, broken_match, "--face-up-only", "--deal", "12", "--format", "json")
    one = _analyze(tmp_path, "one.json", *args)
    two = _analyze(tmp_path, "two.json", *args, "--workers", "2")
    assert one[0] == 1 and two == one
    doc = json.loads(one[3])
    assert [(g["title"], [d["deal"] for d in g["deals"]]) for g in doc["games"]] == [
        (f"MotE W5 G{i}", [12]) for i in (2, 4, 6, 2, 4, 6)]
    assert [e["file"] for e in doc["errors"]] == [MATCH] * 3 + [broken_match] * 3
    assert [e["error"] for e in doc["errors"][:3]] == [f"{MATCH}, game {n}: deal 12 is not in the game (deals {deals})"
                                                       for n, deals in ((1, "1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11"),
                                                                        (3, "1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11"),
                                                                        (5, "1, 2, 3, 4, 5, 6, 7, 8, 9, 10"))]
    assert "game 3: West (WWMM) cannot play JH" in doc["errors"][3]["error"]
    typer = runner.invoke(app, ["analyze", *args, "--workers", "2"])
    assert typer.exit_code == 1 and json.loads(typer.stdout) == doc


def test_runs_of_games_are_contiguous_and_of_about_equal_deals():
    assert _spans([1] * 100, 8) == [(0, 13), (13, 25), (25, 38), (38, 50), (50, 63), (63, 75), (75, 88),
                                    (88, 100)]
    assert _spans([13, 1, 1, 1, 13, 2], 2) == [(0, 4), (4, 6)]
    assert _spans([5, 7], 8) == [(0, 1), (1, 2)]
    assert _spans([3], 4) == [(0, 1)]


def test_many_one_deal_records_of_two_variants_are_the_same_bytes(tmp_path):
    """The 21 one-deal records of ``fixtures/standard/deals`` and
    ``fixtures/two-handed/deals``, a file each: small games, the first one
    analysed before the workers are forked."""
    files = sorted(str(p) for folder in ("standard", "two-handed")
                   for p in (FIXTURES / folder / "deals").glob("*.euchre"))
    assert len(files) == 21
    one = _analyze(tmp_path, "one.json", *files, "--face-up-only", "--format", "json")
    two = _analyze(tmp_path, "two.json", *files, "--face-up-only", "--format", "json", "--workers", "2")
    assert one[0] == 0 and two == one
    games = json.loads(one[3])["games"]
    assert [g["file"] for g in games] == files
    assert [g["variant"] for g in games] == ["standard"] * 11 + ["two-handed"] * 10


def test_a_seat_some_games_lack_names_those_games_and_analyses_the_others(tmp_path):
    """``--seat Llama`` over the VWEC final (Llama sits East) and a two-handed
    game (P1, P2): the two-handed game is named with the reason, the final is
    analysed for Llama's seat only, exit 1; the same bytes with two workers
    (a newcomer's finding: the whole run was refused)."""
    vwec = str(EGN_FIXTURES / "VWEC Finals.egn")
    args = (vwec, PARLOUR, "--face-up-only", "--deal", "1", "--seat", "Llama", "--format", "json")
    one = _analyze(tmp_path, "one.json", *args)
    two = _analyze(tmp_path, "two.json", *args, "--workers", "2")
    assert one[0] == 1 and two == one
    doc = json.loads(one[3])
    assert [g["title"] for g in doc["games"]] == ["VWEC Finals"]
    assert {d["seat"] for g in doc["games"] for deal in g["deals"] for d in deal["decisions"]} == {1}
    assert [e["file"] for e in doc["errors"]] == [PARLOUR]
    assert doc["errors"][0]["error"].startswith(f"{PARLOUR}: --seat Llama: ")
    assert f"error: {PARLOUR}: --seat Llama: " in (one[2].decode() if isinstance(one[2], bytes) else one[2])


# --- JSON Lines files, read by the workers themselves (each a run of the lines) ---

def _jsonl_lines(n: int, seed: int) -> list:
    """``n`` one-deal games made by the engine as OpenSpiel lines
    (:func:`~euchre_events.formats.openspiel.simulated_openspiel_games`)."""
    from euchre_events.formats.openspiel import simulated_openspiel_games
    return [json.dumps(g, separators=(",", ":")) for g in simulated_openspiel_games(n, seed, {}, tricks=False)]


@pytest.fixture(scope="module")
def messy_jsonl(tmp_path_factory):
    """30 OpenSpiel games, a blank line first, and among them: a history
    that puts a card in the auction (line 6), a line with a NUL byte (line
    14), stated returns the cards do not give (a warning, line 20), a line
    that is no JSON (line 25) and a blank line (line 28)."""
    lines = _jsonl_lines(30, 7)
    bad = json.loads(lines[4])
    bad["history"] = bad["history"][:22] + [7]
    lines[4] = json.dumps(bad)
    lines[12] = lines[12][:40] + "\x00" + lines[12][41:]
    warned = json.loads(lines[18])
    warned["returns"] = [5.0, -5.0, 5.0, -5.0]
    lines[18] = json.dumps(warned)
    lines[23] = "{oops"
    lines.insert(26, "   ")
    path = tmp_path_factory.mktemp("jsonl") / "messy.jsonl"
    path.write_text("\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def odd_jsonl(tmp_path_factory):
    """JSON Lines files the reader refuses or finds empty, and one whose
    only good game is among bad lines (it is then named by the file alone)."""
    d = tmp_path_factory.mktemp("odd")
    game = _jsonl_lines(1, 3)[0]
    files = {"pretty.jsonl": json.dumps(json.loads(game), indent=1) + "\n",
             "empty.jsonl": "",
             "blank.jsonl": "\n  \n\n",
             "nul.jsonl": "\n\x00" + game + "\n" + game + "\n",
             "lonely.jsonl": '{"history": [0, 1]}\n' + game + "\n[1]\n"}
    for name, text in files.items():
        (d / name).write_text(text, encoding="utf-8")
    return {name: str(d / name) for name in files}


def test_the_runs_of_a_jsonl_file_give_what_reading_it_gives(messy_jsonl, odd_jsonl):
    """The head and the runs of :func:`openspiel_spans`, each read by
    :func:`read_openspiel_span` (up to a run where the file is refused),
    are the items of :func:`iter_openspiel_file`, in order, whatever the
    number of runs."""
    from euchre_events.formats.openspiel import iter_openspiel_file, openspiel_spans, read_openspiel_span

    def items(xs):
        return [str(x) if isinstance(x, Exception) else (x.source, x.events, x.warnings) for x in xs]

    for path in [messy_jsonl, *odd_jsonl.values()]:
        whole = items(iter_openspiel_file(path))
        for parts in (1, 2, 3, 5, 8, 40):
            spans = openspiel_spans(path, parts)
            assert spans[0][3] and not any(first for *_, first in spans[1:])
            assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))
            got = []
            for span in spans:
                xs, refused = read_openspiel_span(path, *span)
                got.extend(xs)
                if refused:
                    break
            assert items(got) == whole, (path, parts)
    # the head (a blank line and the first game), then runs shorter and shorter
    runs = openspiel_spans(messy_jsonl, 8)
    assert [lineno for _, _, lineno, _ in runs][:2] == [1, 3] and len(runs) > 5
    sizes = [stop - start for start, stop, _, _ in runs[1:]]
    assert sizes[0] > 2 * sizes[-2]


@pytest.mark.parametrize("fmt", ["json", "text", "html"])
def test_a_jsonl_file_the_workers_read_is_the_same_bytes(tmp_path, messy_jsonl, fmt):
    """The messy file's errors (by their lines), its warning, its 27 games:
    the same bytes and exit code with two and three workers as with one."""
    one = _analyze(tmp_path, f"one.{fmt}", messy_jsonl, "--face-up-only", "--format", fmt)
    two = _analyze(tmp_path, f"two.{fmt}", messy_jsonl, "--face-up-only", "--format", fmt, "--workers", "2")
    three = _analyze(tmp_path, f"three.{fmt}", messy_jsonl, "--face-up-only", "--format", fmt, "--workers", "3")
    assert one[0] == 1 and one[3]
    assert two == one and three == one
    err = one[2].decode().splitlines()
    said = [f"error: {messy_jsonl}, line {n}" for n in (6, 14, 25)] + [f"warning: {messy_jsonl}, line 20: "]
    assert len(err) == len(said) and all(x.startswith(w) for x, w in zip(err, said)), err
    if fmt == "json":
        doc = json.loads(one[3])
        assert len(doc["games"]) == 27 and {g["file"] for g in doc["games"]} == {messy_jsonl}
        assert [e["error"] for e in doc["errors"]] == [x[len("error: "):] for x in err[:3]]


def test_files_the_workers_read_name_what_is_wrong_in_order(tmp_path, messy_jsonl, odd_jsonl):
    """Refused, empty and lonely JSON Lines files among others (a record
    file of the text notation, the messy file), and ``--deal 2``, which no
    game has: every game is named where it stands, in the order of the
    files, the same with two workers; nothing analysed, no report."""
    deal = str(FIXTURES / "standard" / "deals" / sorted(os.listdir(FIXTURES / "standard" / "deals"))[0])
    files = [odd_jsonl["pretty.jsonl"], messy_jsonl, odd_jsonl["empty.jsonl"], odd_jsonl["blank.jsonl"],
             deal, odd_jsonl["nul.jsonl"], odd_jsonl["lonely.jsonl"]]
    for extra in ((), ("--deal", "2")):
        args = (*files, "--face-up-only", "--format", "json", *extra)
        one = _analyze(tmp_path, f"one{len(extra)}.json", *args)
        two = _analyze(tmp_path, f"two{len(extra)}.json", *args, "--workers", "2")
        assert one[0] == 1 and two == one
        err = one[2].decode().splitlines()
        assert err[0].startswith(f"error: {odd_jsonl['pretty.jsonl']}, line 1, column 1: not JSON Lines")
        assert f"error: {odd_jsonl['empty.jsonl']}: the file is empty: it holds no game" in err
        assert f"error: {odd_jsonl['blank.jsonl']}: the file is empty: it holds no game" in err
        assert any(x.startswith(f"error: {odd_jsonl['nul.jsonl']}: not a text record: it holds a NUL byte") for x in err)
        if extra:
            assert one[3] is None       # nothing analysed: no report
            assert f"error: {messy_jsonl}, line 2: deal 2 is not in the game (deals 1)" in err
            assert f"error: {odd_jsonl['lonely.jsonl']}: deal 2 is not in the game (deals 1)" in err
            assert f"error: {deal}: deal 2 is not in the game (deals 1)" in err
        else:
            doc = json.loads(one[3])
            assert [g["file"] for g in doc["games"]] == [messy_jsonl] * 27 + [deal, odd_jsonl["lonely.jsonl"]]


def test_ctrl_c_stops_the_workers_that_read_a_jsonl_file(tmp_path):
    """A person's Ctrl-C (SIGINT to the process group) while two workers
    (the command's process and the one it forks) analyse 400 games: exit
    130 without a traceback, and no worker is left.  The games are valued
    from the seats' view too (``--samples 20``, some 0.1 s a game): the
    run lasts long after the signal, however fast the face-up analysis gets
    (400 games face up took under half a second, and the command sometimes
    ended before the signal came)."""
    import signal
    import time
    path = tmp_path / "many.jsonl"
    path.write_text("\n".join(_jsonl_lines(400, 11)) + "\n", encoding="utf-8")
    p = subprocess.Popen([sys.executable, "-m", "euchre_events", "analyze", str(path), "--samples", "20",
                          "--format", "json", "-o", str(tmp_path / "out.json"), "--workers", "2"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, start_new_session=True)

    def children() -> set:
        kids = set()
        for d in os.listdir("/proc"):
            if d.isdigit():
                try:
                    with open(f"/proc/{d}/stat") as f:
                        stat = f.read()
                except OSError:
                    continue
                if int(stat.rsplit(")", 1)[1].split()[1]) == p.pid:
                    kids.add(int(d))
        return kids

    kids: set = set()
    deadline = time.monotonic() + 60
    while len(kids) < 1 and time.monotonic() < deadline and p.poll() is None:
        time.sleep(0.05)
        kids = children()
    assert len(kids) == 1, "the forked worker never started"
    time.sleep(0.3)
    os.killpg(p.pid, signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 130, err
    assert b"Traceback" not in err and err == b""
    for pid in kids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    assert not (tmp_path / "out.json").exists()


def test_the_report_of_games_written_apart_is_the_report_of_the_games():
    """``json_report_of_parts`` of each game's ``json_game_part`` (as the
    workers write them) is ``json_report`` of the games, with and without
    errors, one of them with a lone surrogate (then the standard library
    writes the text, not msgspec); ``analysis_text_of_parts`` likewise."""
    from euchre_events.analysis.review import analyze, json_game_part, json_report, json_report_of_parts
    from euchre_events.formats import read_records
    from euchre_events.ui.analysisreport import analysis_text, analysis_text_of_parts, analysis_text_part
    games = [analyze(r.game, deals=[1, 2], face_up_only=True, file=MATCH) for r in read_records(MATCH)[:3]]
    for errors in ([], [{"file": MATCH, "error": "é"}], [{"file": "x\ud800", "error": "y"}]):
        for k in (0, 1, 3):
            whole = json_report(games[:k], errors)
            assert json_report_of_parts([json_game_part(a) for a in games[:k]], errors) == whole
            assert isinstance(whole, str) == ("\ud800" in errors[0]["file"] if errors else False)
    for every in (False, True):
        assert analysis_text_of_parts([analysis_text_part(a, every) for a in games]) == analysis_text(games, every)


def test_on_a_terminal_the_workers_read_their_own_games_and_a_bar_counts_them(tmp_path):
    """With stderr a terminal (a person at the keyboard), ``--workers 2`` of a
    JSON Lines file takes the same path as in a pipe (the workers read their
    own runs of games; it read every game first before, for a bar of
    decisions): a bar of the file's bytes is drawn on the terminal, and the
    report is the same bytes as without a terminal and with one process."""
    import pty
    src = tmp_path / "games.jsonl"
    lines = [json.dumps({"history": h}) for h in _random_histories(100)]
    src.write_text("\n".join(lines) + "\n")
    plain = _analyze(tmp_path, "plain.json", str(src), "--face-up-only", "--format", "json", "--workers", "1")
    assert plain[0] == 0
    out = tmp_path / "tty.json"
    pid, fd = pty.fork()
    if pid == 0:    # the child: stdin, stdout and stderr on the terminal
        import fcntl
        import struct
        import termios
        # a terminal of 24 x 100 (a new one is 0 x 0, where tqdm draws nothing)
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
        os.chdir(str(ROOT))
        os.execv(sys.executable, [sys.executable, "-m", "euchre_events", "analyze", str(src), "--face-up-only",
                                  "--format", "json", "--workers", "2", "-o", str(out)])
    seen = b""
    while True:
        try:
            chunk = os.read(fd, 1 << 16)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, seen
    assert out.read_bytes() == plain[3]
    assert b"analysing" in seen and b"B/s" in seen, seen


def _random_histories(n: int) -> list:
    """``n`` OpenSpiel action histories of one-deal standard games (seeded
    random legal games of our engine, written as OpenSpiel numbers)."""
    from euchre_events.formats.openspiel import random_openspiel_games
    return [g["history"] for g in random_openspiel_games(n, seed=5)]


def _cores() -> int:
    return min(len(os.sched_getaffinity(0)), 4)


def test_the_default_takes_the_cores_for_a_job_big_enough(monkeypatch, capsys):
    """Without ``--workers``: the match file (112 KB, 73 deals) face up and
    any seat view go over the cores (at most 4), one small game face up
    stays in one process; ``--workers`` and ``$EUCHRE_EVENTS_WORKERS`` win."""
    from euchre_events.review import ANALYZE_PARALLEL_BYTES, analysis_workers
    vwec = str(EGN_FIXTURES / "VWEC Finals.egn")
    assert os.path.getsize(MATCH) >= ANALYZE_PARALLEL_BYTES > os.path.getsize(vwec)
    monkeypatch.delenv("EUCHRE_EVENTS_WORKERS", raising=False)
    kw = dict(stored=0, all_games=False)
    assert analysis_workers(None, [MATCH], face_up_only=True, **kw) == _cores()
    assert analysis_workers(None, [vwec], face_up_only=True, **kw) == 1
    assert analysis_workers(None, [vwec, PARLOUR], face_up_only=True, **kw) == 1
    assert analysis_workers(None, [vwec], face_up_only=False, **kw) == _cores()
    assert analysis_workers(None, [], face_up_only=True, stored=0, all_games=True) == _cores()
    assert analysis_workers(None, [], face_up_only=True, stored=2, all_games=False) == _cores()
    assert analysis_workers(None, [], face_up_only=True, stored=1, all_games=False) == 1
    assert analysis_workers(1, [MATCH], face_up_only=False, **kw) == 1
    assert analysis_workers(3, [vwec], face_up_only=True, **kw) == 3
    assert analysis_workers(64, [vwec], face_up_only=True, **kw) == 64     # the option's bound, not audit's 32
    assert capsys.readouterr().err == ""
    monkeypatch.setenv("EUCHRE_EVENTS_WORKERS", "1")
    assert analysis_workers(None, [MATCH], face_up_only=False, **kw) == 1
    assert analysis_workers(2, [MATCH], face_up_only=False, **kw) == 2
    monkeypatch.setenv("EUCHRE_EVENTS_WORKERS", "0")
    assert analysis_workers(None, [MATCH], face_up_only=True, **kw) == _cores()
    assert analysis_workers(None, [vwec], face_up_only=True, **kw) == 1
    assert capsys.readouterr().err == ("warning: EUCHRE_EVENTS_WORKERS='0' is not a number of processes: "
                                       "the default is used\n") * 2
    monkeypatch.setenv("EUCHRE_EVENTS_WORKERS", "100")
    assert analysis_workers(None, [vwec], face_up_only=True, **kw) == 64
    assert capsys.readouterr().err == "warning: EUCHRE_EVENTS_WORKERS=100: at most 64 processes are started\n"


def test_the_default_of_the_match_is_the_report_of_one_process(tmp_path):
    """``analyze MATCH --face-up-only`` as a person types it (no
    ``--workers``: the cores, by the file's size) writes the bytes one
    process writes, and says nothing more."""
    out = tmp_path / "default.json"
    env = {k: v for k, v in os.environ.items() if k != "EUCHRE_EVENTS_WORKERS"}
    p = subprocess.run([sys.executable, "-m", "euchre_events", "analyze", MATCH, "--face-up-only", "--format",
                        "json", "-o", str(out)], capture_output=True, cwd=ROOT, env=env)
    one = _analyze(tmp_path, "one.json", MATCH, "--face-up-only", "--format", "json")
    assert (p.returncode, p.stderr, out.read_bytes()) == (0, b"", one[3]) and one[0] == 0
    assert sum(len(g["deals"]) for g in json.loads(one[3])["games"]) == 73
