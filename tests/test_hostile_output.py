"""Text from records is shown escaped in every CLI output (control
characters cannot fake a line or reach the terminal), and one file a reader
cannot read does not stop a batch of imports."""


from conftest import ROOT, RUNNER
from euchre_events.cli import app
from euchre_events.ui.describe import printable, seat_name

CLUB = (ROOT / "fixtures" / "standard" / "club-night-1.euchre").read_text()


def test_printable_escapes_control_characters_only():
    assert printable("Evil\nline\x1b[2J\t\u2028") == "Evil\\nline\\x1b[2J\\t\\u2028"
    assert printable("Llama \u2663 \u00e9") == "Llama \u2663 \u00e9"
    once = printable("a\nb\x07")
    assert printable(once) == once  # idempotent
    assert seat_name(0, ["Ann\x1b[31m", "B", "C", "D"]) == "North (Ann\\x1b[31m)"


def test_list_and_show_keep_one_line_per_game_and_no_escape_sequences(tmp_path):
    rec = tmp_path / "title.euchre"
    rec.write_text(CLUB.replace('[Title "Club night, table 1"]',
                                '[Title "Evil\\nfake-id  fake game line\\u001b[2J"]')
                   .replace('[East "Bob"]', '[East "Bob\\u001b]0;owned\\u0007"]'))
    db = str(tmp_path / "a.sqlite")
    r = RUNNER.invoke(app, ["import", str(rec), "--db", db])
    assert r.exit_code == 0, r.output
    listing = RUNNER.invoke(app, ["list", "--db", db]).output
    assert listing.count("\n") == 1 and "\x1b" not in listing
    assert "Evil\\nfake-id  fake game line\\x1b[2J" in listing
    gid = listing.split()[0]
    shown = RUNNER.invoke(app, ["show", gid, "--db", db, "--deal", "1", "--after", "3"]).output
    assert "\x1b" not in shown and "\x07" not in shown
    assert "East (Bob\\x1b]0;owned\\x07)" in shown


def test_a_file_that_crashes_its_reader_does_not_stop_the_batch(tmp_path):
    # a mistyped option value: the text reader's own check is not reached,
    # the comparison inside raises TypeError; the files after it still import
    good1, bad, good2 = tmp_path / "a.euchre", tmp_path / "b.euchre", tmp_path / "c.euchre"
    good1.write_text(CLUB)
    bad.write_text(CLUB.replace('[Dealer "W"]', '[Dealer "W"]\n[Option.target_score "[1,2]"]'))
    # another game: a title alone would not make one (a game is its events), another player does
    good2.write_text(CLUB.replace('[Title "Club night, table 1"]', '[Title "Club night, copy"]')
                     .replace('[West "Dan"]', '[West "Dana"]'))
    db = str(tmp_path / "a.sqlite")
    r = RUNNER.invoke(app, ["import", str(good1), str(bad), str(good2), "--db", db])
    assert r.exit_code == 1
    assert "Traceback" not in r.output
    assert f"error: {bad}" in r.output
    listing = RUNNER.invoke(app, ["list", "--db", db]).output
    assert "Club night, table 1" in listing and "Club night, copy" in listing
