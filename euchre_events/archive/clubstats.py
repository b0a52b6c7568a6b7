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

from collections.abc import Mapping
from typing import Optional

from euchre_events.rules.seats import is_placeholder_name

__all__ = ["club_stats", "club_counts", "stats_of", "stats_text", "stats_text_of", "stats_json_of",
           "seat_label", "seat_players", "player_ids", "source_of", "seat_side", "has_won"]


def seat_label(rel: int, n_seats: int = 4) -> str:
    """The caller's place from the dealer in words: ``"1 (left of dealer)"``,
    ``"2"``, ``"3"``, ``"dealer"`` (``rel`` 0 is the dealer)."""
    if rel == 0:
        return "dealer"
    return "1 (left of dealer)" if rel == 1 else str(rel)


# one player's counts while counting (a list, not nested dicts: 200,000 players of
# 100,000 games fit in tens of MB); _expand turns one into what club_stats shows.
# The first 15 by the official result (rules.md 1.5, 1.6, 2.7), then the same
# figures on the cards as played (no renege penalty, no claim, no ruling)
(_GAMES, _WINS, _DEALS, _PLAYED, _CALLS, _MADE, _EUCHRED, _A_ATT, _A_MADE, _A_MARCH, _A_EUCH,
 _LD_ATT, _LD_EUCH, _TRICKS, _RENEGES,
 _AP_WINS, _AP_MADE, _AP_EUCHRED, _AP_A_MADE, _AP_A_MARCH, _AP_A_EUCH, _AP_LD_EUCH, _AP_RENEGES) = range(23)
_N_COUNTS = 23


def _expand(c: list, info: dict) -> dict:
    """One player's entry of :func:`club_stats` from its counts ``c`` and
    ``info`` (``{"names", "ids"}``, ``"same_name"`` when there are some)."""
    return {"games": c[_GAMES], "wins": c[_WINS], "deals": c[_DEALS], "played": c[_PLAYED],
            "calls": c[_CALLS], "made": c[_MADE], "euchred": c[_EUCHRED],
            "alone": {"attempts": c[_A_ATT], "made": c[_A_MADE], "march": c[_A_MARCH], "euchred": c[_A_EUCH]},
            "lone_defences": {"attempts": c[_LD_ATT], "euchred": c[_LD_EUCH]},
            "tricks": c[_TRICKS],
            "tricks_per_deal": round(c[_TRICKS] / c[_PLAYED], 3) if c[_PLAYED] else None,
            "reneges": c[_RENEGES],
            "as_played": {"wins": c[_AP_WINS], "made": c[_AP_MADE], "euchred": c[_AP_EUCHRED],
                          "alone": {"made": c[_AP_A_MADE], "march": c[_AP_A_MARCH], "euchred": c[_AP_A_EUCH]},
                          "lone_defences": {"euchred": c[_AP_LD_EUCH]}, "reneges": c[_AP_RENEGES]},
            "names": info["names"], "ids": info["ids"], "same_name": list(info.get("same_name") or ())}


_SIDE_CACHE: dict = {}


def seat_side(variant: str, seat: int) -> int:
    """The side (score index) ``seat`` plays for in a game of ``variant``:
    from the variant's own :meth:`~euchre_events.rules.variant.Variant.sides`
    (rules/seats.py ``side_groups``), looked up once per variant; the seat
    itself for a variant not known here or a seat it does not have."""
    sides = _SIDE_CACHE.get(variant)
    if sides is None:
        from euchre_events.rules.registry import make_variant
        try:
            groups = make_variant(variant).sides()
        except ValueError:
            return seat
        sides = _SIDE_CACHE[variant] = {s: i for i, g in enumerate(groups) for s in g}
    return sides.get(seat, seat)


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
    ``"Max (standard, egn)"``.  (``"same_name"`` is given only where there
    are some: 170,000 players of 100,000 games, issue 26.)"""
    # kept small: a seat without ids is keyed by (name, variant, source), a seat
    # with ids by ("ids", root id); each key made once
    parent: dict = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    rows = [g for g in games if not g.get("error")]
    with_ids: dict = {}     # (game id, seat) -> ids, only for the seats that have some
    for g in rows:
        src = g.get("source")
        if not src or not isinstance(src, dict):
            continue
        for seat in range(len(g.get("players") or [])):
            ids = player_ids(g, seat)
            if ids:
                for other in ids[1:]:
                    parent[find(other)] = find(ids[0])
                with_ids[(g["game_id"], seat)] = ids
    # key -> itself (a name's key: the one tuple all its seats share) or
    # {"names": {name: seats}, "ids": set()} (an id's key), in the order first seen
    info: dict = {}
    seats: dict = {}
    placeholder: dict = {}
    for g in rows:
        gid = g["game_id"]
        where = None
        out = []
        for seat, name in enumerate(g.get("players") or []):
            if not isinstance(name, str):
                name = ""
            ids = with_ids.get((gid, seat)) if with_ids else None
            if ids:
                key = ("ids", find(ids[0]))
                i = info.get(key)
                if i is None:
                    i = info[key] = {"names": {}, "ids": set()}
                i["names"][name] = i["names"].get(name, 0) + 1
                i["ids"].update(ids)
            else:
                p = placeholder.get(name)
                if p is None:
                    p = placeholder[name] = is_placeholder_name(name)
                if p:
                    out.append(None)
                    continue
                if where is None:
                    where = (g.get("variant") or "", source_of(g))
                # a name alone says who within one variant and one source only
                key = (name, *where)
                key = info.setdefault(key, key)
            out.append(key)
        seats[gid] = out
    label: dict = {}
    taken: dict = {}        # shown label -> the key given it, or a list of the keys when several are
    for key, i in info.items():
        if len(key) == 3:
            label[key] = key[0]
        else:
            ordered = sorted(i["names"], key=lambda n: -i["names"][n])   # stable: first seen wins a tie
            i["names"] = ordered
            i["ids"] = sorted(i["ids"])
            label[key] = ordered[0]
        t = taken.get(label[key])
        if t is None:
            taken[label[key]] = key
        elif type(t) is list:
            t.append(key)
        else:
            taken[label[key]] = [t, key]
    for shown, ks in taken.items():
        if type(ks) is not list:
            if len(ks) == 2 and is_placeholder_name(shown):
                label[ks] = f"{shown or 'unnamed'} [{info[ks]['ids'][0]}]"
            continue
        by_name = [k for k in ks if len(k) == 3]
        variants = {k[1] for k in by_name}
        for key in ks:
            if len(key) == 2:
                label[key] = f"{shown or 'unnamed'} [{info[key]['ids'][0]}]"
            elif len(by_name) > 1:
                # the same name in two variants or sources: two players, each said where from
                same_variant = sum(1 for k in by_name if k[1] == key[1]) > 1
                where = ", ".join(x for x in ((key[1] if len(variants) > 1 or not same_variant else ""),
                                              (key[2] or "no source") if same_variant else "") if x)
                label[key] = f"{shown} ({where})"
    seen: set = set()
    for key in info:            # a name that reads like another's label: numbered, never merged
        base, k = label[key], 1
        while label[key] in seen:
            k += 1
            label[key] = f"{base} #{k}"
        seen.add(label[key])
    for ks in seats.values():
        for j, k in enumerate(ks):
            if k is not None:
                ks[j] = label[k]
    players: dict = {}
    for k, i in info.items():
        entry = {"names": [k[0]], "ids": []} if len(k) == 3 else {"names": i["names"], "ids": i["ids"]}
        others = taken[k[0] if len(k) == 3 else i["names"][0]]
        if type(others) is list:
            # the other players shown under this one's name (maybe one person: no id links them)
            entry["same_name"] = sorted(label[o] for o in others if o != k)
        players[label[k]] = entry
    return seats, players


def source_of(game: dict) -> str:
    """Where a game-index row's record came from, as far as telling players
    apart by name goes: the record's ``site`` (a platform, a club), else its
    format (``egn``), else ``""``."""
    src = game.get("source") if isinstance(game.get("source"), dict) else {}
    return str(src.get("site") or src.get("format") or "")


def has_won(winner, side: int) -> bool:
    """Whether ``side`` is (among) a game-index row's ``winner`` (a side, a
    list of sides for a shared win or a tie, or None)."""
    if isinstance(winner, list):
        return side in winner
    return winner == side


def club_stats(games: list, deals, findings, player: Optional[str] = None,
               variant: Optional[str] = None) -> dict:
    """The statistics of the module docstring from the read-model rows
    (``ReadModels.games()``, ``.deals()``, ``.findings()``; ``deals`` and
    ``findings`` are read once, in order: iterators such as
    ``ReadModels.iter_deals()`` do).  ``player``:
    only players whose label, one of their names or one of their ids
    contains this (any case); ``variant``: only games of this variant (its
    name).  Returns ``{"games", "damaged", "unnamed_seats", "players":
    {label: {..., "names", "ids"}}, "by_seat", "by_up_card", "by_call",
    "filters"}``: players as :func:`seat_players` knows them (placeholder
    names without an id are no player: ``unnamed_seats`` counts those seats,
    one per game)."""
    return stats_of(club_counts(games, deals, findings, player=player, variant=variant))


def stats_of(counts: dict, only=None) -> dict:
    """The :func:`club_stats` dict from :func:`club_counts`; ``only``: the
    labels of the players to give (all when None), e.g. those a page shows."""
    known, players = counts["known"], counts["players"]
    labels = players if only is None else [n for n in only if n in players]
    out = {k: v for k, v in counts.items() if k not in ("known", "seats")}
    out["players"] = {n: _expand(players[n], known[n]) for n in sorted(labels, key=str.lower)}
    return out


class _Players(Mapping):
    """The players of :func:`club_counts` as :func:`club_stats` shows them,
    each made when asked (by label, any case order): ``stats`` of 170,000
    players writes one line at a time instead of holding every entry."""

    def __init__(self, counts: dict):
        self._c, self._known = counts["players"], counts["known"]
        self._order = None

    def __getitem__(self, label):
        return _expand(self._c[label], self._known[label])

    def __iter__(self):
        if self._order is None:
            self._order = sorted(self._c, key=str.lower)
        return iter(self._order)

    def __len__(self):
        return len(self._c)


def stats_text_of(counts: dict) -> str:
    """:func:`stats_text` of :func:`stats_of` ``(counts)``, each player's
    entry made as its line is written."""
    s = stats_of(counts, only=())
    s["players"] = _Players(counts)
    return stats_text(s)


def stats_json_of(counts: dict) -> str:
    """``json.dumps(stats_of(counts), ensure_ascii=False, indent=1)``, the
    same text, each player's entry made and written in turn (the JSON of
    170,000 players' entries at once took 1.1 GB)."""
    import json
    s = stats_of(counts, only=())
    # a stand-in for the players that no other key or value of the skeleton holds
    # (the notes and filters hold names)
    skeleton = json.dumps(s, ensure_ascii=False, indent=1)
    word = "\x00players\x00"
    while json.dumps(word)[1:-1] in skeleton:
        word += "#"
    mark = json.dumps(word)[1:-1]
    s["players"] = word
    text = json.dumps(s, ensure_ascii=False, indent=1)
    players = _Players(counts)
    if not len(players):
        return text.replace(f'"{mark}"', "{}", 1)
    parts = [f"  {json.dumps(n, ensure_ascii=False)}: "
             + json.dumps(players[n], ensure_ascii=False, indent=1).replace("\n", "\n  ") for n in players]
    return text.replace(f'"{mark}"', "{\n" + ",\n".join(parts) + "\n }", 1)


def club_counts(games: list, deals, findings, player: Optional[str] = None,
                variant: Optional[str] = None, seats: Optional[tuple] = None) -> dict:
    """What :func:`club_stats` counts, each player's counts kept as a list
    of 23 numbers (``players``: ``{label: [games, wins, deals, played,
    calls, made, euchred, alone attempts, alone made, alone march, alone
    euchred, lone defences, lone defences euchred, tricks, reneges]`` by the
    official result, then as played ``[wins, made, euchred, alone made,
    alone march, alone euchred, lone defences euchred, reneges]}``), with
    ``known`` and ``seats`` (:func:`seat_players` of ``games``, or ``seats``
    when given): memory grows with the players, a few dozen bytes each, and
    ``deals`` and ``findings`` are read once, one row at a time."""
    seats_of, known = seats if seats is not None else seat_players(games)
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
            p = players.get(who)
            if p is None:
                p = players[who] = [0] * _N_COUNTS
            side = seat_side(g["variant"], seat)
            p[_GAMES] += 1
            p[_WINS] += has_won(g["winner"], side)
            p[_AP_WINS] += has_won(g.get("as_played_winner"), side)
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
            p[_DEALS] += 1
            if played and seat not in out:   # a seat that sat out (Buck drop-out, a loner's partner) played no card
                p[_PLAYED] += 1
                p[_TRICKS] += d["tricks"][seat] if seat < len(d["tricks"]) else 0
        m = d["maker"]
        if m is None or not played or d["made"] is None:
            continue
        # the official result decides (a renege that ended the hand: rules.md 1.5, 2.7); as played beside
        played_made = bool(d["made"])
        made = played_made if d.get("made_official") is None else bool(d["made_official"])
        if d["lone_defender"] is not None and mine(names[d["lone_defender"]]):
            ld = players[names[d["lone_defender"]]]
            ld[_LD_ATT] += 1
            ld[_LD_EUCH] += not made
            ld[_AP_LD_EUCH] += not played_made
        if want is not None and not mine(names[m]):
            continue
        if names[m] is not None:     # an unnamed seat's call counts in the tables below only
            p = players[names[m]]
            p[_CALLS] += 1
            p[_MADE] += made
            p[_EUCHRED] += not made
            p[_AP_MADE] += played_made
            p[_AP_EUCHRED] += not played_made
            if d["alone"] is not None and d["alone"] == m:
                march = played_made and sum(d["tricks"]) == d["maker_tricks"]
                p[_A_ATT] += 1
                p[_A_MADE] += made
                p[_A_EUCH] += not made
                p[_A_MARCH] += made and march
                p[_AP_A_MADE] += played_made
                p[_AP_A_EUCH] += not played_made
                p[_AP_A_MARCH] += march
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
            players[name][_RENEGES] += bool(f.get("penalized"))
            players[name][_AP_RENEGES] += 1
    order = ["1 (left of dealer)", "2", "3", "dealer"]
    ranks = ["J", "A", "K", "Q", "T", "9", "8", "7"]
    # players shown under one name with no id linking them, each group once
    groups = sorted({tuple(sorted([name] + known[name]["same_name"], key=str.lower))
                     for name in players if known[name].get("same_name")})
    notes = [" and ".join(grp) + " share a name and no player id links them: one person or several"
             for grp in groups]
    return {"games": len(ok), "damaged": damaged, "unnamed_seats": unnamed, "notes": notes,
            "players": players,
            "by_seat": dict(sorted(by_seat.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else 9)),
            "by_up_card": dict(sorted(by_up.items(), key=lambda kv: ranks.index(kv[0]) if kv[0] in ranks else 99)),
            "by_call": dict(sorted(by_call.items())),
            "filters": {"player": player, "variant": variant},
            "known": known, "seats": (seats_of, known)}


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
