"""Club statistics counted from the read models
(:mod:`euchre_events.archive.readmodels`), for ``euchre-events stats`` and
``notebooks/club-archive.ipynb``.

What is counted (every count over the games kept by the filters):

* per player: ``games``, ``wins`` (the official winner, rules.md 1.6),
  ``deals`` (every deal recorded in their games, thrown-in and abandoned
  ones included), ``played`` (deals played out, with tricks), ``calls``
  (deals they made trump or won the bid), ``made`` and ``euchred`` of those
  (a call is made when the maker's side took the tricks it needed: 3, or
  the bid), ``alone`` (``attempts``, ``made``, ``march``: all the tricks,
  ``euchred``), ``lone_defences`` (``attempts``, ``euchred``: the makers
  were euchred), ``tricks`` and ``tricks_per_deal`` (over played deals),
  ``reneges`` (renege findings of theirs, corrected ones not counted);
* ``by_seat``: calls and made by the caller's place from the dealer
  (``1`` = left of the dealer ... ``0`` = the dealer);
* ``by_up_card``: deals whose up-card was ordered up, and made, by the
  up-card's rank (``J``, ``A``, ``K``, ``Q``, ``T``, ``9``...);
* ``by_call``: calls and made by how trump was made (``ordered up``,
  ``named``, ``bid``, ``turned``).

With ``player``, the seat, up-card and call tables count only that player's
calls.  Pure: no I/O beyond the rows given.
"""
from __future__ import annotations

from typing import Optional

__all__ = ["club_stats", "seat_label"]


def seat_label(rel: int, n_seats: int = 4) -> str:
    """The caller's place from the dealer in words: ``"1 (left of dealer)"``,
    ``"2"``, ``"3"``, ``"dealer"`` (``rel`` 0 is the dealer)."""
    if rel == 0:
        return "dealer"
    return "1 (left of dealer)" if rel == 1 else str(rel)


def _blank_player() -> dict:
    return {"games": 0, "wins": 0, "deals": 0, "played": 0, "calls": 0, "made": 0, "euchred": 0,
            "alone": {"attempts": 0, "made": 0, "march": 0, "euchred": 0},
            "lone_defences": {"attempts": 0, "euchred": 0},
            "tricks": 0, "tricks_per_deal": None, "reneges": 0}


def _side(variant: str, seat: int) -> int:
    from euchre_events.rules.registry import variant_class
    try:
        return seat % 2 if variant_class(variant).partnerships else seat
    except ValueError:
        return seat


def _won(winner, side: int) -> bool:
    if isinstance(winner, list):
        return side in winner
    return winner == side


def club_stats(games: list, deals: list, findings: list, player: Optional[str] = None,
               variant: Optional[str] = None) -> dict:
    """The statistics of the module docstring from the read-model rows
    (``ReadModels.games()``, ``.deals()``, ``.findings()``).  ``player``:
    only players whose name contains this (any case); ``variant``: only
    games of this variant (its name).  Returns ``{"games", "damaged",
    "players": {name: {...}}, "by_seat", "by_up_card", "by_call",
    "filters"}``."""
    want = player.lower() if player else None
    ok = {}
    damaged = 0
    for g in games:
        if g.get("error"):
            damaged += 1
            continue
        if variant and g["variant"] != variant:
            continue
        if want and not any(want in str(p).lower() for p in g["players"]):
            continue
        ok[g["game_id"]] = g
    players: dict = {}

    def mine(name: str) -> bool:
        return want is None or want in name.lower()

    for g in ok.values():
        for seat, name in enumerate(g["players"]):
            if not mine(name):
                continue
            p = players.setdefault(name, _blank_player())
            p["games"] += 1
            p["wins"] += _won(g["winner"], _side(g["variant"], seat))
    by_seat: dict = {}
    by_up: dict = {}
    by_call: dict = {}
    for d in deals:
        g = ok.get(d["game_id"])
        if g is None:
            continue
        names = g["players"]
        played = bool(d["tricks"]) and not d["note"]
        for seat, name in enumerate(names):
            if not mine(name):
                continue
            p = players[name]
            p["deals"] += 1
            if played:
                p["played"] += 1
                p["tricks"] += d["tricks"][seat] if seat < len(d["tricks"]) else 0
        m = d["maker"]
        if m is None or not played or d["made"] is None:
            continue
        made = bool(d["made"])
        if d["lone_defender"] is not None and mine(names[d["lone_defender"]]):
            ld = players[names[d["lone_defender"]]]["lone_defences"]
            ld["attempts"] += 1
            ld["euchred"] += not made
        if not mine(names[m]):
            continue
        p = players[names[m]]
        p["calls"] += 1
        p["made"] += made
        p["euchred"] += not made
        if d["alone"] is not None and d["alone"] == m:
            a = p["alone"]
            a["attempts"] += 1
            a["made"] += made
            a["euchred"] += not made
            a["march"] += made and sum(d["tricks"]) == d["maker_tricks"]
        n_seats = len(names)
        if d["maker_rel"] is not None:
            row = by_seat.setdefault(seat_label(d["maker_rel"], n_seats), {"calls": 0, "made": 0})
            row["calls"] += 1
            row["made"] += made
        if d["call"] == "ordered up" and d["up_card"]:
            row = by_up.setdefault(d["up_card"][:-1], {"calls": 0, "made": 0})
            row["calls"] += 1
            row["made"] += made
        row = by_call.setdefault(d["call"] or "-", {"calls": 0, "made": 0})
        row["calls"] += 1
        row["made"] += made
    for f in findings:
        g = ok.get(f["game_id"])
        if g is None or f["kind"] != "renege" or f["seat"] is None:
            continue
        name = g["players"][f["seat"]]
        if mine(name):
            players[name]["reneges"] += 1
    for p in players.values():
        p["tricks_per_deal"] = round(p["tricks"] / p["played"], 3) if p["played"] else None
    order = ["1 (left of dealer)", "2", "3", "dealer"]
    ranks = ["J", "A", "K", "Q", "T", "9", "8", "7"]
    return {"games": len(ok), "damaged": damaged,
            "players": dict(sorted(players.items(), key=lambda kv: kv[0].lower())),
            "by_seat": dict(sorted(by_seat.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else 9)),
            "by_up_card": dict(sorted(by_up.items(), key=lambda kv: ranks.index(kv[0]) if kv[0] in ranks else 99)),
            "by_call": dict(sorted(by_call.items())),
            "filters": {"player": player, "variant": variant}}


def stats_text(s: dict) -> str:
    """``club_stats`` as lines a person reads (one line per player, then the
    seat, up-card and call tables with success rates)."""
    def pct(made, calls):
        return f"{made}/{calls} ({100 * made / calls:.0f}%)" if calls else "-"

    out = [f"games: {s['games']}" + (f"  (damaged, not counted: {s['damaged']})" if s["damaged"] else "")]
    for name, p in s["players"].items():
        a, ld = p["alone"], p["lone_defences"]
        tpd = "-" if p["tricks_per_deal"] is None else f"{p['tricks_per_deal']:.2f}"
        # a control character in a name (a newline) must not break the one line per player
        shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(name))
        out.append(f"{shown}: games {p['games']}, won {p['wins']}; deals {p['deals']} (played {p['played']}); "
                   f"calls {p['calls']}, made {p['made']}, euchred {p['euchred']}; "
                   f"alone {a['attempts']} (made {a['made']}, march {a['march']}, euchred {a['euchred']}); "
                   f"lone defences {ld['attempts']} (euchred the makers {ld['euchred']}); "
                   f"tricks per deal {tpd}; reneges {p['reneges']}")
    for title, key in (("calls made by seat from the dealer", "by_seat"),
                       ("ordered-up calls made by up-card", "by_up_card"), ("calls made by kind", "by_call")):
        if s[key]:
            out.append(f"{title}: " + ", ".join(f"{k} {pct(v['made'], v['calls'])}" for k, v in s[key].items()))
    return "\n".join(out)
