"""The decision explorer (issue 25): the archive's auction decisions by the
situation they were taken in, read from read-model tables with indexes,
never by re-reading games (docs/analysis.md "The decision explorer").

A **situation** is what a teacher can describe without a record in hand:
the variant, the deciding seat relative to the dealer (0 the dealer, 1
eldest, the seat on the dealer's left, and so on round the table), the
auction round (1: the up-card's, 2: naming a suit; 0 in the bidding
variants), the up-card's rank and suit, what the seat holds of the up-card's
suit as trump (rules.md 1.1-1.2: its bowers, its trump count with the left
bower, its aces of other suits) and the score before the deal (its own side
first, then the best other party).

Two tables, filled in the same transaction as the analysis cache row
(:meth:`ReadModels.cache_analysis`'s ``extra``), so a game's decisions are
there exactly when its analysis is, and replaced with it:

* ``ee_ex_decisions``: one row per call decision of an analysed game: the
  situation's columns, the action played, the deal points the deciding side
  scored (net, as :func:`~euchre_events.analysis.solver.value_for` counts
  them), the analysis's values, costs and label;
* ``ee_ex_options``: one row per legal option of those decisions with its
  face-up and seat-view value, so the explorer says what each option was
  worth in that situation, played or not;
* ``ee_ex_games``: one row per analysed game and parameters (which analyses
  the explorer can choose from).

Rows are keyed by the game, the analysis parameters (``pkey``: version and
parameters, without the events' count, so a game appended to replaces its
rows) and the decision's event position: writing a game again overwrites
the same keys (idempotent, as a re-run task of a cluster needs).
"""
from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from typing import Optional

from euchre_events.archive.readmodels import RULES_VERSION

__all__ = ["ensure_tables", "decision_rows", "write_decisions", "explore", "Exploration", "ActionRow",
           "params_key", "SEAT_WORDS", "seat_rel_of"]

TABLES = {
    "ee_ex_games": "game_id TEXT, pkey TEXT, variant TEXT, decisions INTEGER, version TEXT, "
                   "PRIMARY KEY (game_id, pkey)",
    "ee_ex_decisions": ("game_id TEXT, pkey TEXT, position INTEGER, variant TEXT, deal INTEGER, seat INTEGER, "
                        "n_seats INTEGER, seat_rel INTEGER, round INTEGER, up_rank TEXT, up_suit TEXT, "
                        "right_bower INTEGER, left_bower INTEGER, bowers INTEGER, trumps INTEGER, "
                        "off_aces INTEGER, hand TEXT, score_us INTEGER, score_them INTEGER, played TEXT, "
                        "points DOUBLE PRECISION, face_up DOUBLE PRECISION, seat_view DOUBLE PRECISION, face_up_cost DOUBLE PRECISION, seat_view_cost DOUBLE PRECISION, "
                        "win_chance_lost DOUBLE PRECISION, label TEXT, forced INTEGER, version TEXT, "
                        "PRIMARY KEY (game_id, pkey, position)"),
    "ee_ex_options": ("game_id TEXT, pkey TEXT, position INTEGER, action TEXT, face_up DOUBLE PRECISION, seat_view DOUBLE PRECISION, "
                      "best INTEGER, PRIMARY KEY (game_id, pkey, position, action)"),
}
"""The explorer's tables (the same SQL on SQLite and PostgreSQL)."""

INDEXES = [
    # the teacher's filters, most selective first after the analysis and the variant
    ("ee_ex_decisions_situation", "ee_ex_decisions",
     "pkey, variant, up_suit, up_rank, seat_rel, round, trumps, bowers, off_aces"),
    ("ee_ex_decisions_seat", "ee_ex_decisions", "pkey, variant, seat_rel, round, trumps"),
    ("ee_ex_games_pkey", "ee_ex_games", "pkey"),
]

_COLS = {t: [c.split()[0] for c in cols.split(", PRIMARY KEY")[0].split(", ")] for t, cols in TABLES.items()}

SEAT_WORDS = {0: "dealer", 1: "eldest", 2: "dealer's partner", 3: "right of the dealer"}
"""Seats relative to the dealer, as a four-handed table says them (``seat_rel``:
0 the dealer, then clockwise from the dealer's left, rules.md 2.1)."""


def seat_word(rel: int, n_seats: int) -> str:
    """``"eldest"`` for ``rel`` 1; with two or three seats the last seat before
    the dealer is "right of the dealer", never a partner."""
    if n_seats == 4 or rel in (0, 1):
        return SEAT_WORDS.get(rel, f"seat {rel}")
    if rel == n_seats - 1:
        return "right of the dealer"
    return f"{rel} left of the dealer"


def seat_rel_of(text: str) -> int:
    """The ``seat_rel`` a teacher names: ``dealer``, ``eldest``, ``partner``,
    ``right`` (four seats: 3) or a number 0..5.  Raises ValueError for
    another word."""
    t = str(text).strip().lower()
    words = {"dealer": 0, "eldest": 1, "left": 1, "partner": 2, "dealer's partner": 2, "right": 3}
    if t in words:
        return words[t]
    if t.isdigit() and int(t) < 6:
        return int(t)
    raise ValueError(f"{text!r} is not a seat relative to the dealer (dealer, eldest, partner, right, or 0..5)")


def params_key(version: int, params: dict) -> str:
    """The analysis an explorer row comes from: the analysis version and its
    parameters (``review.analysis_params``), canonical JSON."""
    return json.dumps({"analysis": version, "params": params}, sort_keys=True)


# ------------------------------------------------------------------ rows
def _hand_features(hand, suit: Optional[str]) -> dict:
    """What ``hand`` holds of ``suit`` as trump (rules.md 1.1-1.2): right and
    left bower, trump count (bowers in), aces of the other suits; its cards
    the record does not know (``??``) count as none of them."""
    from euchre_events.rules.cards import base, effective_suit, is_unknown, left_bower, rank_of, right_bower
    known = [base(c) for c in hand if not is_unknown(c)]
    if suit is None:
        return {"right_bower": None, "left_bower": None, "bowers": None, "trumps": None,
                "off_aces": sum(1 for c in known if rank_of(c) == "A")}
    rb, lb = right_bower(suit), left_bower(suit)
    right = sum(1 for c in known if c == rb)
    left = sum(1 for c in known if c == lb)
    return {"right_bower": int(right > 0), "left_bower": int(left > 0), "bowers": right + left,
            "trumps": sum(1 for c in known if effective_suit(c, suit) == suit),
            "off_aces": sum(1 for c in known if rank_of(c) == "A" and effective_suit(c, suit) != suit)}


def _round_of(d) -> int:
    texts = [o.text for o in d.options]
    if any(t.startswith("order") for t in texts):
        return 1
    if any(t.startswith("name") for t in texts):
        return 2
    return 0


def _num(v) -> Optional[float]:
    """A value for a REAL column: a number; a range over unknown cards (a
    pair) has none."""
    return None if v is None or isinstance(v, (tuple, list)) else float(v)


def decision_rows(game, analysis, pkey: str) -> dict:
    """The explorer's rows of one analysed game (pure):
    ``{"game": {...}, "decisions": [{...}], "options": [{...}]}``, column
    names as in :data:`TABLES`.  ``game``: the :class:`~euchre_events.projections.Game`
    analysed; ``analysis``: its :class:`~euchre_events.analysis.review.GameAnalysis`.
    Only call decisions (the auction) are rows; ``points`` is the deal's
    points as played from the deciding seat's side (net with two parties,
    its own with more: :func:`~euchre_events.analysis.solver.value_for`)."""
    from euchre_events.analysis.solver import value_for
    from euchre_events.rules.cards import rank_of, suit_of
    gid = str(analysis.game_id)
    v = game.final.variant
    n = v.n_seats
    dealt: dict = {}
    deal_no = None
    for e in game.events:
        if e.kind == "DealStarted":
            deal_no = e.deal
            dealt[deal_no] = {"dealer": e.dealer}
        elif e.kind == "CardsDealt" and deal_no in dealt:
            dealt[deal_no].update(hands=e.hands, up_card=e.up_card)
    reports = {r.deal: r for r in game.deal_reports()}
    order = sorted(reports)
    before: dict = {}
    last = None
    for k in order:
        before[k] = tuple(last.score_as_played) if last is not None else None
        last = reports[k]
    decisions, options = [], []
    for d in analysis.decisions():
        if d.kind != "call" or d.deal not in dealt:
            continue
        info = dealt[d.deal]
        hands = info.get("hands") or ()
        up = info.get("up_card")
        up_suit = suit_of(up) if up else None
        feats = _hand_features(hands[d.seat] if d.seat < len(hands) else (), up_suit)
        party = v.side_of(d.seat)
        rep = reports.get(d.deal)
        pts = None
        score_us = score_them = None
        if rep is not None:
            pts = float(value_for(v, rep.points_as_played, party)) if rep.points_as_played else None
            sc = before.get(d.deal)
            parties = len(rep.score_as_played)
            sc = sc if sc is not None else (0,) * parties
            score_us = int(sc[party])
            others = [int(s) for i, s in enumerate(sc) if i != party]
            score_them = max(others) if others else None
        best_fu = d.best_face_up()
        decisions.append({
            "game_id": gid, "pkey": pkey, "position": d.position, "variant": analysis.variant, "deal": d.deal,
            "seat": d.seat, "n_seats": n, "seat_rel": (d.seat - info["dealer"]) % n, "round": _round_of(d),
            "up_rank": rank_of(up) if up else None, "up_suit": up_suit, **feats,
            "hand": " ".join(hands[d.seat]) if d.seat < len(hands) else None,
            "score_us": score_us, "score_them": score_them, "played": d.played_text, "points": pts,
            "face_up": _num(d.played_face_up), "seat_view": _num(d.played_seat_view),
            "face_up_cost": _num(d.face_up_cost), "seat_view_cost": _num(d.seat_view_cost),
            "win_chance_lost": _num(d.win_chance_lost), "label": d.label, "forced": int(bool(d.forced)),
            "version": RULES_VERSION})
        for o in d.options:
            best = (best_fu is not None and _num(o.face_up) is not None
                    and _num(o.face_up) == _num(best_fu.face_up))
            options.append({"game_id": gid, "pkey": pkey, "position": d.position, "action": o.text,
                            "face_up": _num(o.face_up), "seat_view": _num(o.seat_view),
                            "best": int(best) if best_fu is not None else None})
    return {"game": {"game_id": gid, "pkey": pkey, "variant": analysis.variant, "decisions": len(decisions),
                     "version": RULES_VERSION},
            "decisions": decisions, "options": options}


# ------------------------------------------------------------------ tables
def ensure_tables(view) -> None:
    """Create the explorer's tables and indexes in the read models' store
    (``view``: the :class:`~euchre_events.archive.readmodels.ReadModels`'s
    view) if they are missing."""
    if getattr(view, "_ee_explorer_ready", False):
        return
    with view._tx() as c:
        for name, cols in TABLES.items():
            c.execute(f"CREATE TABLE IF NOT EXISTS {view._t(name)} ({cols})")
        for iname, table, cols in INDEXES:
            c.execute(f"CREATE INDEX IF NOT EXISTS {iname} ON {view._t(table)} ({cols})")
    view._ee_explorer_ready = True


def whole_game(params: dict) -> bool:
    """True when an analysis of these parameters (``corpus.analysis_params``)
    values every decision of the game as played: no ``deals`` chosen, no
    ``seat``, no alternative ``line``.  Only such an analysis counts in the
    explorer: a ``--deal 2`` analysis would otherwise stand for the whole
    game, and a query answered from it would drop the other deals unseen."""
    return not params.get("deals") and params.get("seat") is None and params.get("line") is None


def write_decisions(view, cursor, rows: dict) -> None:
    """Replace one game's explorer rows (:func:`decision_rows`) for its
    ``pkey`` with ``rows``, on ``cursor``, inside the caller's transaction
    (the analysis cache row's).  Nothing is written for an analysis of part
    of the game (:func:`whole_game`): the cache keeps it, the explorer not."""
    g = rows["game"]
    if not whole_game(json.loads(g["pkey"]).get("params") or {}):
        return
    key = (g["game_id"], g["pkey"])
    for table in ("ee_ex_options", "ee_ex_decisions", "ee_ex_games"):
        cursor.execute(view._q(f"DELETE FROM {view._t(table)} WHERE game_id = ? AND pkey = ?"), key)
    for table, items in (("ee_ex_games", [g]), ("ee_ex_decisions", rows["decisions"]),
                         ("ee_ex_options", rows["options"])):
        if not items:
            continue
        cols = _COLS[table]
        cursor.executemany(view._q(f"INSERT INTO {view._t(table)} ({', '.join(cols)}) "
                                   f"VALUES ({', '.join('?' * len(cols))})"),
                           [tuple(r.get(c) for c in cols) for r in items])


# ------------------------------------------------------------------ queries
@dataclass(frozen=True)
class ActionRow:
    """One action in a situation: ``played`` times taken (``share`` of the
    decisions, 0..1), the mean deal points its side then scored
    (``points``), and what the analysis says of it over every decision where
    it was legal (``legal``): mean face-up value, mean seat-view value (None
    without a seat view), ``best_share`` the share of those decisions where
    it was (one of) the best face up; over the decisions where it was played:
    the mean face-up cost and the labels given."""

    action: str
    played: int
    share: float
    points: Optional[float]
    legal: int
    face_up: Optional[float]
    seat_view: Optional[float]
    best_share: Optional[float]
    face_up_cost: Optional[float]
    labels: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        r = lambda x, nd=3: None if x is None else round(float(x), nd)  # noqa: E731
        return {"action": self.action, "played": self.played, "share": r(self.share), "points": r(self.points),
                "legal": self.legal, "face_up": r(self.face_up), "seat_view": r(self.seat_view),
                "best_share": r(self.best_share), "face_up_cost": r(self.face_up_cost),
                "labels": dict(self.labels)}


@dataclass(frozen=True)
class Exploration:
    """The explorer's answer: the ``filters`` asked, the analysis used
    (``pkey``), how many ``decisions`` (from how many ``games``) are in that
    situation, one :class:`ActionRow` per action (most played first), and a
    few ``examples`` (``{"game_id", "position", "played"}``: ``show GAME
    --after POSITION`` is the table)."""

    filters: dict
    pkey: Optional[str]
    decisions: int
    games: int
    actions: tuple
    examples: tuple = ()

    def to_json(self) -> dict:
        return {"filters": dict(self.filters), "analysis": json.loads(self.pkey) if self.pkey else None,
                "decisions": self.decisions, "games": self.games,
                "actions": [a.to_json() for a in self.actions], "examples": [dict(e) for e in self.examples]}

    def text(self) -> str:
        """A teacher's table, one line per action."""
        f = describe_filters(self.filters)
        lines = [f"Situation: {f}", f"{self.decisions} decision{'' if self.decisions == 1 else 's'} in {self.games} game{'' if self.games == 1 else 's'}"
                 + ("" if self.pkey else " (no analysed game: run euchre-events analyze --all)")]
        if self.actions:
            lines.append(f"{'action':<16}{'played':>8}{'share':>8}{'scored':>9}{'face up':>9}"
                         f"{'seat view':>11}{'best':>7}{'cost':>7}  labels")
            for a in self.actions:
                labels = " ".join(f"{k}{v}" for k, v in sorted(a.labels.items()))
                lines.append(f"{a.action:<16}{a.played:>8}{a.share:>8.0%}{_f(a.points):>9}{_f(a.face_up):>9}"
                             f"{_f(a.seat_view):>11}{_pc(a.best_share):>7}{_f(a.face_up_cost):>7}  {labels}")
            lines.append("scored: the deal's points for the deciding side when played (net); face up, seat "
                         "view: the analysis's mean value where legal; best: share where it was best face up; "
                         "cost: mean face-up cost where played")
        for e in self.examples:
            lines.append(f"  e.g. show {e['game_id']} --after {e['position']}   ({e['played']})")
        return "\n".join(lines)

    def html(self) -> str:
        """The same table as one self-contained HTML fragment (text escaped)."""
        e = html.escape
        head = "".join(f"<th>{h}</th>" for h in ("action", "played", "share", "scored", "face up", "seat view",
                                                   "best", "cost", "labels"))
        rows = "".join(
            "<tr>" + "".join(f"<td>{e(str(x))}</td>" for x in (
                a.action, a.played, f"{a.share:.0%}", _f(a.points), _f(a.face_up), _f(a.seat_view),
                _pc(a.best_share), _f(a.face_up_cost),
                " ".join(f"{k}{v}" for k, v in sorted(a.labels.items())))) + "</tr>"
            for a in self.actions)
        return (f"<div class='ee-explorer'><p><b>{e(describe_filters(self.filters))}</b>: {self.decisions} "
                f"decision{'' if self.decisions == 1 else 's'} in {self.games} game{'' if self.games == 1 else 's'}</p><table><tr>{head}</tr>{rows}</table></div>")

    def _repr_html_(self) -> str:
        return self.html()


def _f(x) -> str:
    return "-" if x is None else f"{x:+.2f}"


def _pc(x) -> str:
    return "-" if x is None else f"{x:.0%}"


FILTERS = ("variant", "seat_rel", "round", "up_rank", "up_suit", "bowers", "right_bower", "left_bower",
           "trumps", "off_aces", "score_us", "score_them")
"""The situation's columns a query may fix (each an equality)."""


def describe_filters(filters: dict) -> str:
    parts = []
    for k in FILTERS:
        if filters.get(k) is None:
            continue
        v = filters[k]
        if k == "seat_rel":
            parts.append(seat_word(int(v), 4))
        elif k in ("right_bower", "left_bower"):
            parts.append(("with the " if v else "without the ") + k.replace("_", " "))
        else:
            parts.append(f"{k.replace('_', ' ')} {v}")
    return ", ".join(parts) or "every call decision"


def explore(rm, *, pkey: Optional[str] = None, limit_examples: int = 3, **filters) -> Exploration:
    """The decisions of the archive whose read models are ``rm``
    (:class:`~euchre_events.archive.readmodels.ReadModels`) in the situation
    ``filters`` (keywords of :data:`FILTERS`, each an equality: ``variant=
    "standard", seat_rel=1, round=1, up_rank="J", up_suit="H", bowers=1,
    trumps=3, off_aces=1, score_us=8, score_them=9``; None or absent: any).
    ``pkey``: which analysis (:func:`params_key`); by default the one with
    the most analysed games.  Three indexed queries, no game read.
    Raises ValueError for an unknown filter."""
    bad = [k for k in filters if k not in FILTERS]
    if bad:
        raise ValueError(f"unknown filter {bad[0]!r}; the filters are: {', '.join(FILTERS)}")
    filters = {k: v for k, v in filters.items() if v is not None}
    view = rm.view
    ensure_tables(view)
    if pkey is None:
        rows = _select(view, "SELECT pkey, COUNT(*) AS n FROM {ee_ex_games} WHERE version = ? "
                           "GROUP BY pkey ORDER BY n DESC, pkey", (RULES_VERSION,))
        # rows of a part of a game written by an earlier release are passed over (whole_game)
        pkey = next((r["pkey"] for r in rows if whole_game(json.loads(r["pkey"]).get("params") or {})), None)
    if pkey is None:
        return Exploration(filters, None, 0, 0, ())
    where = ["d.pkey = ?", "d.version = ?"]
    args: list = [pkey, RULES_VERSION]
    for k in FILTERS:
        if k in filters:
            where.append(f"d.{k} = ?")
            args.append(filters[k])
    w = " AND ".join(where)
    played = _select(view, "SELECT d.played AS action, COUNT(*) AS n, AVG(d.points) AS points, "
                     "AVG(d.face_up_cost) AS cost FROM {ee_ex_decisions} d WHERE " + w + " GROUP BY d.played", args)
    total = _select(view, "SELECT COUNT(*) AS n, COUNT(DISTINCT d.game_id) AS games FROM {ee_ex_decisions} d "
                    "WHERE " + w, args)[0]
    labels = _select(view, "SELECT d.played AS action, d.label AS label, COUNT(*) AS n FROM {ee_ex_decisions} d "
                     "WHERE " + w + " AND d.label IS NOT NULL GROUP BY d.played, d.label", args)
    opts = _select(view, "SELECT o.action AS action, COUNT(*) AS n, AVG(o.face_up) AS face_up, "
                   "AVG(o.seat_view) AS seat_view, AVG(o.best) AS best FROM {ee_ex_decisions} d "
                   "JOIN {ee_ex_options} o ON o.game_id = d.game_id AND o.pkey = d.pkey AND o.position = d.position "
                   "WHERE " + w + " GROUP BY o.action", args)
    examples = _select(view, "SELECT d.game_id AS game_id, d.position AS position, d.played AS played "
                       "FROM {ee_ex_decisions} d WHERE " + w + " ORDER BY d.game_id, d.position LIMIT "
                       + str(int(limit_examples)), args)
    n = int(total["n"] or 0)
    by = {r["action"]: r for r in played}
    lab: dict = {}
    for r in labels:
        lab.setdefault(r["action"], {})[r["label"]] = int(r["n"])
    opt = {r["action"]: r for r in opts}
    out = []
    for action in set(by) | set(opt):
        p, o = by.get(action, {}), opt.get(action, {})
        k = int(p.get("n") or 0)
        out.append(ActionRow(action, k, k / n if n else 0.0, _fl(p.get("points")), int(o.get("n") or 0),
                             _fl(o.get("face_up")), _fl(o.get("seat_view")), _fl(o.get("best")),
                             _fl(p.get("cost")), lab.get(action, {})))
    out.sort(key=lambda a: (-a.played, -a.legal, a.action))
    return Exploration(filters, pkey, n, int(total["games"] or 0), tuple(out),
                       tuple({"game_id": e["game_id"], "position": int(e["position"]), "played": e["played"]}
                             for e in examples))


def _fl(x) -> Optional[float]:
    return None if x is None else float(x)


def _select(view, sql: str, args) -> list:
    for name in TABLES:
        sql = sql.replace(f"{{{name}}}", view._t(name))
    return view.select(sql, args)
