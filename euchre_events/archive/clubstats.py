"""Club statistics counted from the read models
(:mod:`euchre_events.archive.readmodels`), for ``euchre-events stats`` and
``notebooks/club-archive.ipynb``.

What is counted (every count over the games kept by the filters):

* per player: ``games``, ``wins`` (the official winner, rules.md 1.6),
  ``deals`` (every deal recorded in their games, thrown-in and abandoned
  ones included), ``played`` (deals played out, with tricks, that they did
  not sit out: a Buck drop-out or a lone player's partner plays no card), ``calls``
  (deals they made trump or won the bid), ``made`` and ``euchred`` of those
  (a call is made when the maker's side took the tricks it needed: 3, or
  the bid), ``alone`` (``attempts``, ``made``, ``march``: all the tricks,
  ``euchred``), ``lone_defences`` (``attempts``, ``euchred``: the makers
  were euchred), ``tricks`` and ``tricks_per_deal`` (over played deals),
  ``reneges`` (renege findings of theirs the official score penalizes,
  corrected ones not counted);

  each by the official result (rules.md 1.5, 1.6, 2.7: the official winner;
  a call whose hand a penalized renege ended is made when a defender
  reneged, euchred when the maker's side did), and the same figures on the
  cards as played under ``as_played`` (``wins``, ``made``, ``euchred``,
  ``alone``, ``lone_defences``, ``reneges``: every renege the cards show);
* ``by_seat``: calls and made by the caller's place from the dealer
  (``1`` = left of the dealer ... ``0`` = the dealer);
* ``by_up_card``: deals whose up-card was ordered up, and made, by the
  up-card's rank (``J``, ``A``, ``K``, ``Q``, ``T``, ``9``...);
* ``by_call``: calls and made by how trump was made (``ordered up``,
  ``named``, ``bid``, ``turned``); these three tables give ``made`` by the
  official result and ``made_as_played`` beside;
* ``notes``: players shown under one name without an id linking them (they
  may be one person or several).

With ``player``, the seat, up-card and call tables count only that player's
calls.  Pure: no I/O beyond the rows given.

**Who is a player** (:func:`seat_players`).  A record's platform ids are how
the statistics know a person across games (EGN player objects,
``{"name", "playerIds": [{"id", "source"}]}``, kept in the game's source, and
an EMN match's master players; ``spec/player-tracking.md``): two seats that
share one id (``source:id``) are one player, whatever names they show; one
name with two different ids is two players, shown as ``Name [source:id]``.
A seat with no id is known by its name.  A placeholder name (a seat's
word, ``P1``, ``Player 2``, ``?``, empty: :func:`~euchre_events.rules.seats.is_placeholder_name`)
with no id is no player: such seats are counted as ``unnamed_seats`` only
(their calls still count in the seat, up-card and call tables).
"""
from __future__ import annotations

from typing import Optional

from euchre_events.rules.seats import is_placeholder_name

__all__ = ["club_stats", "seat_label", "seat_players", "player_ids", "source_of", "stats_text"]


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
            "tricks": 0, "tricks_per_deal": None, "reneges": 0,
            # the same figures on the cards as played (no renege penalty, no claim, no ruling)
            "as_played": {"wins": 0, "made": 0, "euchred": 0,
                          "alone": {"made": 0, "march": 0, "euchred": 0},
                          "lone_defences": {"euchred": 0}, "reneges": 0}}


def _side(variant: str, seat: int) -> int:
    from euchre_events.rules.registry import variant_class
    try:
        return seat % 2 if variant_class(variant).partnerships else seat
    except ValueError:
        return seat


def _ids_of(obj) -> list:
    """``["source:id", ...]`` of a player object's ``playerIds`` (anything
    else, or an entry without an id, gives none: records are messy)."""
    if not isinstance(obj, dict) or not isinstance(obj.get("playerIds"), list):
        return []
    out = []
    for pid in obj["playerIds"]:
        if isinstance(pid, dict) and isinstance(pid.get("id"), (str, int)) and str(pid["id"]).strip():
            out.append(f"{str(pid.get('source') or '').strip()}:{str(pid['id']).strip()}")
    return out


def player_ids(game: dict, seat: int) -> list:
    """The platform ids of the player at ``seat`` of a game-index row
    (``ReadModels.games()``): from the EGN player object of that seat in the
    row's ``source["players"]``, and from the EMN match's master player in
    ``source["match"]["players"]``; ``"source:id"`` strings, sorted, each
    once.  ``[]`` when the record gives none."""
    src = game.get("source") if isinstance(game.get("source"), dict) else {}
    found = []
    for holder in (src.get("players"), (src.get("match") or {}).get("players")
                   if isinstance(src.get("match"), dict) else None):
        if isinstance(holder, list) and 0 <= seat < len(holder):
            found += _ids_of(holder[seat])
    return sorted(set(found))


def seat_players(games: list) -> tuple:
    """Who sat where, over the game-index rows ``games`` (rows with an
    ``error`` are left out): ``(seats, players)`` where ``seats`` maps each
    game id to a list, per seat, of a player label or None (a placeholder
    name without an id), and ``players`` maps each label to ``{"names":
    [display names, most used first], "ids": ["source:id", ...],
    "same_name": [labels of the other players shown under the same name]}``.

    Seats sharing an id are one player (ids are joined across games: a
    seat with ids ``a`` and ``b`` makes ``a`` and ``b`` one player); a
    seat without ids is the player of that name within one variant and one
    source (:func:`source_of`): a name alone does not say that the "Max" of
    a Bid game online is the "Max" of a standard game at the club.  The
    label is the name most used; when two players would have the same
    label, each with ids gets its first id added, ``"Ann [euchre-site:ann-1]"``
    (a placeholder name with ids always does), and each known by name its
    variant, ``"Max (bid)"``, or, in one variant, its source,
    ``"Max (standard, egn)"``."""
    parent: dict = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    rows = [g for g in games if not g.get("error")]
    raw = {}
    for g in rows:
        seats = []
        for seat, name in enumerate(g.get("players") or []):
            ids = player_ids(g, seat)
            for other in ids[1:]:
                parent[find(other)] = find(ids[0])
            seats.append((name if isinstance(name, str) else "", ids))
        raw[g["game_id"]] = (seats, g.get("variant") or "", source_of(g))
    keys: dict = {}
    names: dict = {}
    for gid, (seats, variant, source) in raw.items():
        out = []
        for name, ids in seats:
            if ids:
                key = ("ids", find(ids[0]))
            elif is_placeholder_name(name):
                out.append(None)
                continue
            else:   # a name alone says who within one variant and one source only
                key = ("name", name, variant, source)
            out.append(key)
            info = names.setdefault(key, {"names": {}, "ids": set()})
            info["names"][name] = info["names"].get(name, 0) + 1
            info["ids"].update(ids)
        keys[gid] = out
    label: dict = {}
    taken: dict = {}
    for key, info in names.items():
        ordered = sorted(info["names"], key=lambda n: -info["names"][n])   # stable: first seen wins a tie
        info["names"] = ordered
        info["ids"] = sorted(info["ids"])
        label[key] = ordered[0]
        taken.setdefault(ordered[0], []).append(key)
    for shown, ks in taken.items():
        by_name = [k for k in ks if k[0] == "name"]
        variants = {k[2] for k in by_name}
        for key in ks:
            if key[0] == "ids" and (len(ks) > 1 or is_placeholder_name(shown)):
                label[key] = f"{shown or 'unnamed'} [{names[key]['ids'][0]}]"
            elif key[0] == "name" and len(by_name) > 1:
                # the same name in two variants or sources: two players, each said where from
                same_variant = sum(1 for k in by_name if k[2] == key[2]) > 1
                where = ", ".join(x for x in ((key[2] if len(variants) > 1 or not same_variant else ""),
                                              (key[3] or "no source") if same_variant else "") if x)
                label[key] = f"{shown} ({where})"
    seen: set = set()
    for key in names:            # a name that reads like another's label: numbered, never merged
        base, k = label[key], 1
        while label[key] in seen:
            k += 1
            label[key] = f"{base} #{k}"
        seen.add(label[key])
    seats = {gid: [label[k] if k is not None else None for k in ks] for gid, ks in keys.items()}
    # "same_name": the other players shown under this one's name (maybe one person: no id links them)
    players = {label[k]: {"names": info["names"], "ids": info["ids"],
                          "same_name": sorted(label[o] for o in taken[info["names"][0]] if o != k)}
               for k, info in names.items()}
    return seats, players


def source_of(game: dict) -> str:
    """Where a game-index row's record came from, as far as telling players
    apart by name goes: the record's ``site`` (a platform, a club), else its
    format (``egn``), else ``""``."""
    src = game.get("source") if isinstance(game.get("source"), dict) else {}
    return str(src.get("site") or src.get("format") or "")


def _won(winner, side: int) -> bool:
    if isinstance(winner, list):
        return side in winner
    return winner == side


def club_stats(games: list, deals: list, findings: list, player: Optional[str] = None,
               variant: Optional[str] = None) -> dict:
    """The statistics of the module docstring from the read-model rows
    (``ReadModels.games()``, ``.deals()``, ``.findings()``).  ``player``:
    only players whose label, one of their names or one of their ids
    contains this (any case); ``variant``: only games of this variant (its
    name).  Returns ``{"games", "damaged", "unnamed_seats", "players":
    {label: {..., "names", "ids"}}, "by_seat", "by_up_card", "by_call",
    "filters"}``: players as :func:`seat_players` knows them (placeholder
    names without an id are no player: ``unnamed_seats`` counts those seats,
    one per game)."""
    seats_of, known = seat_players(games)
    want = player.lower() if player else None

    def mine(label: Optional[str]) -> bool:
        if label is None:
            return False
        if want is None:
            return True
        info = known[label]
        return any(want in t.lower() for t in [label] + info["names"] + info["ids"])

    ok = {}
    damaged = 0
    for g in games:
        if g.get("error"):
            damaged += 1
            continue
        if variant and g["variant"] != variant:
            continue
        if want and not any(mine(p) for p in seats_of[g["game_id"]]):
            continue
        ok[g["game_id"]] = g
    players: dict = {}
    unnamed = 0
    for g in ok.values():
        for seat, who in enumerate(seats_of[g["game_id"]]):
            if who is None:
                unnamed += 1
            if not mine(who):
                continue
            p = players.setdefault(who, dict(_blank_player(), **known[who]))
            p["games"] += 1
            p["wins"] += _won(g["winner"], _side(g["variant"], seat))
            p["as_played"]["wins"] += _won(g.get("as_played_winner"), _side(g["variant"], seat))
    by_seat: dict = {}
    by_up: dict = {}
    by_call: dict = {}
    for d in deals:
        g = ok.get(d["game_id"])
        if g is None:
            continue
        names = seats_of[g["game_id"]]
        played = bool(d["tricks"]) and not d["note"]
        out = set(d.get("sat_out") or ())
        for seat, name in enumerate(names):
            if not mine(name):
                continue
            p = players[name]
            p["deals"] += 1
            if played and seat not in out:   # a seat that sat out (Buck drop-out, a loner's partner) played no card
                p["played"] += 1
                p["tricks"] += d["tricks"][seat] if seat < len(d["tricks"]) else 0
        m = d["maker"]
        if m is None or not played or d["made"] is None:
            continue
        # the official result decides (a renege that ended the hand: rules.md 1.5, 2.7); as played beside
        played_made = bool(d["made"])
        made = played_made if d.get("made_official") is None else bool(d["made_official"])
        if d["lone_defender"] is not None and mine(names[d["lone_defender"]]):
            lp = players[names[d["lone_defender"]]]
            lp["lone_defences"]["attempts"] += 1
            lp["lone_defences"]["euchred"] += not made
            lp["as_played"]["lone_defences"]["euchred"] += not played_made
        if want is not None and not mine(names[m]):
            continue
        if names[m] is not None:     # an unnamed seat's call counts in the tables below only
            p = players[names[m]]
            p["calls"] += 1
            p["made"] += made
            p["euchred"] += not made
            ap = p["as_played"]
            ap["made"] += played_made
            ap["euchred"] += not played_made
            if d["alone"] is not None and d["alone"] == m:
                a = p["alone"]
                march = played_made and sum(d["tricks"]) == d["maker_tricks"]
                a["attempts"] += 1
                a["made"] += made
                a["euchred"] += not made
                a["march"] += made and march
                ap["alone"]["made"] += played_made
                ap["alone"]["euchred"] += not played_made
                ap["alone"]["march"] += march
        n_seats = len(names)
        if d["maker_rel"] is not None:
            row = by_seat.setdefault(seat_label(d["maker_rel"], n_seats), {"calls": 0, "made": 0, "made_as_played": 0})
            row["calls"] += 1
            row["made"] += made
            row["made_as_played"] += played_made
        if d["call"] == "ordered up" and d["up_card"]:
            row = by_up.setdefault(d["up_card"][:-1], {"calls": 0, "made": 0, "made_as_played": 0})
            row["calls"] += 1
            row["made"] += made
            row["made_as_played"] += played_made
        row = by_call.setdefault(d["call"] or "-", {"calls": 0, "made": 0, "made_as_played": 0})
        row["calls"] += 1
        row["made"] += made
        row["made_as_played"] += played_made
    for f in findings:
        g = ok.get(f["game_id"])
        if g is None or f["kind"] != "renege" or f["seat"] is None:
            continue
        name = seats_of[g["game_id"]][f["seat"]] if f["seat"] < len(seats_of[g["game_id"]]) else None
        if mine(name):   # officially: the reneges the official score penalizes
            players[name]["reneges"] += bool(f.get("penalized"))
            players[name]["as_played"]["reneges"] += 1
    for p in players.values():
        p["tricks_per_deal"] = round(p["tricks"] / p["played"], 3) if p["played"] else None
    order = ["1 (left of dealer)", "2", "3", "dealer"]
    ranks = ["J", "A", "K", "Q", "T", "9", "8", "7"]
    groups = sorted({tuple(sorted([name] + p["same_name"], key=str.lower))
                     for name, p in players.items() if p["same_name"]})
    notes = [" and ".join(grp) + " share a name and no player id links them: one person or several"
             for grp in groups]
    return {"games": len(ok), "damaged": damaged, "unnamed_seats": unnamed, "notes": notes,
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

    out = [f"games: {s['games']}" + (f"  (damaged, not counted: {s['damaged']})" if s["damaged"] else "")
           + "  (figures by the official result; as played in brackets where it differs)"]
    if s.get("unnamed_seats"):
        out.append(f"unnamed seats (a placeholder name such as North or P1, no player id; "
                   f"counted under no player): {s['unnamed_seats']}")
    for name, p in s["players"].items():
        a, ld = p["alone"], p["lone_defences"]
        tpd = "-" if p["tricks_per_deal"] is None else f"{p['tricks_per_deal']:.2f}"
        # a control character in a name (a newline) must not break the one line per player
        shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(name))
        ap = p.get("as_played") or {}

        def also(value, *path):
            """`` (as played 2)`` after an official figure that differs from the one as played."""
            x = ap
            for k in path:
                x = x.get(k, {}) if isinstance(x, dict) else {}
            return f" (as played {x})" if isinstance(x, int) and x != value else ""
        out.append(f"{shown}: games {p['games']}, won {p['wins']}{also(p['wins'], 'wins')}; "
                   f"deals {p['deals']} (played {p['played']}); "
                   f"calls {p['calls']}, made {p['made']}{also(p['made'], 'made')}, "
                   f"euchred {p['euchred']}{also(p['euchred'], 'euchred')}; "
                   f"alone {a['attempts']} (made {a['made']}{also(a['made'], 'alone', 'made')}, "
                   f"march {a['march']}, euchred {a['euchred']}{also(a['euchred'], 'alone', 'euchred')}); "
                   f"lone defences {ld['attempts']} (euchred the makers {ld['euchred']}"
                   f"{also(ld['euchred'], 'lone_defences', 'euchred')}); "
                   f"tricks per deal {tpd}; reneges {p['reneges']}{also(p['reneges'], 'reneges')}")
    for title, key in (("calls made by seat from the dealer", "by_seat"),
                       ("ordered-up calls made by up-card", "by_up_card"), ("calls made by kind", "by_call")):
        if s[key]:
            out.append(f"{title}: " + ", ".join(
                f"{k} {pct(v['made'], v['calls'])}" + (f" (as played {v['made_as_played']})"
                                                       if v.get("made_as_played", v["made"]) != v["made"] else "")
                for k, v in s[key].items()))
    for note in s.get("notes") or ():
        out.append("note: " + note)
    return "\n".join(out)
