"""What a newcomer found on a clean clone (real records: the VWEC final of
fixtures/egn and /work/shared/records/egn)."""
import json
import re
from pathlib import Path

from typer.testing import CliRunner

from conftest import EGN_FIXTURES

VWEC = Path(EGN_FIXTURES) / "VWEC Finals.egn"


def _cli(*args):
    from euchre_events.cli import app
    return CliRunner().invoke(app, [str(a) for a in args])


def _same_kind(a, b) -> bool:
    return isinstance(a, tuple) == isinstance(b, tuple)


def test_the_evaluation_graph_does_not_move_where_nobody_lost_anything(tmp_path):
    """VWEC deal 1, events 4-8: the three passes, the dealer's order and its
    pick-up cost 0 and are worth the range +1 to +2 to North/South (the
    dealer's discard is not in the record).  Each graph draws one point for
    them (the range's midpoint from North/South's view), not the low end for
    one side and the high end for the other (the graph went 2, 1, 2, 1)."""
    from euchre_events.analysis.review import analyze
    from euchre_events.formats import read_records
    from euchre_events.ui.analysisreport import analysis_html
    from euchre_events.ui.analysistable import eval_points
    g = read_records(str(VWEC))[0].game
    a = analyze(g, deals=[1], face_up_only=True)
    da = a.deals[0]
    decs = da.decisions
    assert [d.position + 1 for d in decs[:5]] == [4, 5, 6, 7, 8]
    assert [d.played_face_up for d in decs[:5]] == [(-2.0, -1.0), (1.0, 2.0), (-2.0, -1.0), (1.0, 2.0), (1.0, 2.0)]
    xs, fu, _sv, _pos, _labs = eval_points(da, g.final.variant)
    assert fu[:5] == [1.5] * 5
    html = analysis_html([a])
    page = json.loads(re.search(r"var p=(\{.*?\});Plotly", html).group(1).replace("<\\/", "</"))
    assert page["data"][0]["x"] == xs and page["data"][0]["y"] == fu
    # the rule: after a decision that cost nothing, the line stays where it was
    for i in range(1, len(decs)):
        if decs[i].face_up_cost == 0 and _same_kind(decs[i].played_face_up, decs[i - 1].played_face_up):
            assert fu[i] == fu[i - 1], (xs[i], fu[i - 1], fu[i])
