"""What a seat could know (euchre_events.projections.seat) and every seat view
drawn from it: ``show --seat`` (the real CLI), the viewer's HTML, the HTML
export's embedded seat views.  For each private exchange of the family the
other seats do not see the cards; the owner and the all-hands view do.
Values come from the records (fixtures and games built with the engine).
"""
import dataclasses
import json
import re
from pathlib import Path

import pytest

from conftest import FIXTURES as FIX, RUNNER as runner
from builders import Recorder
from euchre_events.cli import app
from euchre_events.events import (ANNOTATION_MARKS, CardPlayed, CardsDealt, DealStarted, GameStarted,
                                  Passed, TrumpNamed)
from euchre_events.formats import read_records
from euchre_events.formats.text import write_text
from euchre_events.projections import Game
from euchre_events.projections.seat import (event_visible, knowledge, knowledge_of_state, private_to,
                                            visible_from)
from euchre_events.rules import cards as C
from euchre_events.rules.seats import SEAT_WORDS_4, parse_seat, seat_letter, seat_word
from euchre_events.rules.simulate import random_game
from euchre_events.ui.describe import describe_event, seat_name
from euchre_events.ui.htmlexport import export_data, export_html
from euchre_events.ui.render import seat_label, state_html
from euchre_events.ui.widgets import MARKS, GameViewer

N, E, S, W = 0, 1, 2, 3


def load(rel: str) -> Game:
    return Game(read_records(str(FIX / rel))[0].events)


def show(path, k: int, seat=None) -> str:
    """``euchre-events show PATH --after K [--seat S]`` through the real CLI."""
    args = ["show", str(path), "--after", str(k)] + ([] if seat is None else ["--seat", str(seat)])
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    return res.stdout


def without_readout(text: str) -> str:
    """The CLI's table without the readout lines (which list unseen cards by design)."""
    return "\n".join(line for line in text.splitlines()
                     if not line.startswith(("Cards out", "Master cards")))


def table_only(html: str) -> str:
    """A drawing without the seat readout (``ee-knowledge`` lists the unseen cards)."""
    return html.split('<div class="ee-knowledge">')[0]


def data_cards(html: str) -> set:
    return set(re.findall(r'data-card="([^"]+)"', html))


def event_row(events_html: str, i: int) -> str:
    m = re.search(rf'<div class="[^"]*" data-pos="{i}"[^>]*>(.*?)</div>', events_html)
    assert m, f"event {i} is not in the list"
    return m.group(1)


_exports: dict = {}


def exported(game: Game) -> dict:
    """``export_data(game)``, once per game of this module (the cases share games)."""
    if id(game) not in _exports:
        _exports[id(game)] = (game, export_data(game))
    return _exports[id(game)][1]


def export_view(data: dict, view: str, k: int) -> tuple:
    """(table parts joined, readout) of an export view after ``k`` events."""
    row = data["views"][view][k - 1]
    table = "".join(data["strings"][i] for i in row[:len(data["parts"])])
    extra = row[len(data["parts"])]
    return table, "" if extra is None else "".join(data["strings"][i] for i in extra)


def export_event(data: dict, view: str, i: int, pos: int) -> str:
    e = data["view_events"][view][i]
    if isinstance(e, int):
        return data["texts"][e]
    seen, full, start = e
    return data["texts"][full] if start is not None and max(pos, i + 1) >= start else data["texts"][seen]


# ------------------------------------------------------------------ the private exchanges

@dataclasses.dataclass
class Private:
    """A private exchange found in a record: after ``position`` events the
    ``secret`` cards are known only to ``owners`` (and the all-hands view);
    ``event`` is the private event's index (None for cards that no event
    shows, such as a kitty)."""

    name: str
    game: Game
    path: Path
    position: int
    owners: frozenset
    secret: frozenset
    event: object = None


def _first(game: Game, kind: str, start: int = 0) -> int:
    return next(i for i, e in enumerate(game.events) if i >= start and e.kind == kind)


def _two_handed_known_stock(tmp_path_factory) -> Path:
    """A real two-handed game from the engine's simulator, whose 13 undealt cards are known."""
    events = random_game("two-handed", seed=11, deals=1)
    path = tmp_path_factory.mktemp("two") / "undealt.euchre"
    path.write_text(write_text(events, [], []), encoding="utf-8")
    return path


def private_cases(tmp_path_factory) -> list:
    cases = []
    # A: the dealer's discard (rules.md 2.2) and the kitty nobody sees (2.1)
    p = FIX / "standard/deals/c3-renege-audit.euchre"
    g = load("standard/deals/c3-renege-audit.euchre")
    i = _first(g, "Discarded")
    dealt = g.events[_first(g, "CardsDealt")]
    cases.append(Private("standard dealer's discard", g, p, i + 1, frozenset({g.events[i].seat}),
                         frozenset({g.events[i].card}), i))
    cases.append(Private("standard kitty", g, p, i + 1, frozenset(), frozenset(dealt.kitty)))
    # B: the dealer's exchange in two-handed Euchre (3.2) and the 13 undealt cards (3.1)
    p = FIX / "two-handed/parlour-1.euchre"
    g = load("two-handed/parlour-1.euchre")
    i = _first(g, "Discarded")
    cases.append(Private("two-handed discard", g, p, i + 1, frozenset({g.events[i].seat}),
                         frozenset({g.events[i].card}), i))
    p = _two_handed_known_stock(tmp_path_factory)
    g = Game(read_records(str(p))[0].events)
    dealt = g.events[_first(g, "CardsDealt")]
    assert len(dealt.kitty) == 13 and C.UNKNOWN not in dealt.kitty
    cases.append(Private("two-handed undealt cards", g, p, _first(g, "CardsDealt") + 1, frozenset(),
                         frozenset(dealt.kitty)))
    # C: cutthroat: the dummy before it is taken (nobody), then the maker's dummy discards (4.3)
    p = FIX / "cutthroat/cutthroat-1.euchre"
    g = load("cutthroat/cutthroat-1.euchre")
    taken = _first(g, "DummyTaken")
    dealt = g.events[_first(g, "CardsDealt")]
    cases.append(Private("cutthroat dummy", g, p, taken, frozenset(), frozenset(dealt.dummy)))
    k = taken + 1
    while g.events[k].kind == "Discarded":
        k += 1
    dummy_discards = frozenset(e.card for e in g.events[taken + 1:k])
    assert len(dummy_discards) == 5
    cases.append(Private("cutthroat dummy discards", g, p, k, frozenset({g.events[taken].seat}),
                         dummy_discards, taken + 1))
    # D: the ghost hand, taken blind (5.2): only the swapper sees it, and its dead hand
    p = FIX / "ghost-hand/deals/ghost-swap-blind-then-bid.euchre"
    g = load("ghost-hand/deals/ghost-swap-blind-then-bid.euchre")
    i = _first(g, "HandSwappedWithGhost")
    dealt = g.events[_first(g, "CardsDealt")]
    swapper = g.events[i].seat
    cases.append(Private("ghost hand", g, p, i + 1, frozenset({swapper}), frozenset(dealt.ghost), i))
    cases.append(Private("ghost swapper's dead hand", g, p, i + 1, frozenset({swapper}),
                         frozenset(dealt.hands[swapper])))
    # E: Buck: the dealer's exchange (6.1)
    p = FIX / "buck/buck-1.euchre"
    g = load("buck/buck-1.euchre")
    i = _first(g, "Discarded")
    cases.append(Private("buck dealer's discard", g, p, i + 1, frozenset({g.events[i].seat}),
                         frozenset({g.events[i].card}), i))
    # F: Bid Euchre: partner's best, both cards face down (7.3); the joker dealer's discard (7.8)
    p = FIX / "bid/deals/partners-best-failed.euchre"
    g = load("bid/deals/partners-best-failed.euchre")
    i = _first(g, "CardPassed")
    passes = [e for e in g.events[i:i + 2] if e.kind == "CardPassed"]
    assert len(passes) == 2
    cases.append(Private("bid partner's best", g, p, i + 2, frozenset({passes[0].seat, passes[0].to_seat}),
                         frozenset(e.card for e in passes), i))
    p = FIX / "bid/bid-joker.euchre"
    g = load("bid/bid-joker.euchre")
    i = _first(g, "Discarded")
    cases.append(Private("bid joker dealer's discard", g, p, i + 1, frozenset({g.events[i].seat}),
                         frozenset({g.events[i].card}), i))
    for c in cases:   # a secret must not be public for another reason (the up-card, a played card)
        st = c.game.state_at(c.position)
        played = {card for _, plays, _ in st.tricks for _, card in plays} | {card for _, card in st.trick}
        assert c.secret and not (c.secret & (played | {st.up_card})), c.name
    return cases


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    return {c.name: c for c in private_cases(tmp_path_factory)}


CASE_NAMES = ["standard dealer's discard", "standard kitty", "two-handed discard", "two-handed undealt cards",
              "cutthroat dummy", "cutthroat dummy discards", "ghost hand", "ghost swapper's dead hand",
              "buck dealer's discard", "bid partner's best", "bid joker dealer's discard"]


@pytest.mark.parametrize("name", CASE_NAMES)
def test_show_seat_hides_private_cards_from_other_seats(cases, name):
    c = cases[name]
    n = len(c.game.players)
    secret = {C.pretty(x) for x in c.secret}
    for seat in range(n):
        out = without_readout(show(c.path, c.position, seat))
        shown = {x for x in secret if x in out}
        if seat in c.owners:
            assert shown == secret, (seat, out)
        else:
            assert not shown, (seat, out)
    # the all-hands view shows them all
    everyone = show(c.path, c.position)
    assert all(x in everyone for x in secret), everyone
    # the projection agrees: the owners have seen the cards, the others have not
    for seat in range(n):
        k = knowledge(c.game, c.position, seat)
        assert (c.secret <= k.seen) == (seat in c.owners)
        if seat not in c.owners:
            assert c.secret <= set(k.unseen)


@pytest.mark.parametrize("name", CASE_NAMES)
def test_viewer_seat_view_hides_private_cards(cases, name):
    c = cases[name]
    n = len(c.game.players)
    v = GameViewer(c.game, position=c.position, chart=False)
    assert c.secret <= data_cards(v.table_html)           # all hands: face up
    for seat in range(n):
        v.set_seat(seat)
        cards = data_cards(table_only(v.table_html))
        if seat in c.owners:
            assert c.secret <= cards, seat
        else:
            assert not (c.secret & cards), (seat, c.secret & cards)
            # what this seat has not seen is listed, as not seen, in the readout
            out = set(" ".join(re.findall(r'data-cards="([^"]*)"', v.knowledge_html)).split())
            assert c.secret <= out
        if c.event is not None:
            row = event_row(v.events_html, c.event)
            assert any(C.pretty(x) in row for x in c.secret) == (
                seat in c.owners and c.game.events[c.event].kind in ("Discarded", "CardPassed")), row


@pytest.mark.parametrize("name", CASE_NAMES)
def test_html_export_seat_views_hide_private_cards(cases, name):
    c = cases[name]
    n = len(c.game.players)
    data = exported(c.game)
    table, readout = export_view(data, "all", c.position)
    assert c.secret <= data_cards(table) and readout == ""
    for seat in range(n):
        table, readout = export_view(data, str(seat), c.position)
        assert 'class="ee-voids"' in readout and 'class="ee-cards-out"' in readout
        if seat in c.owners:
            assert c.secret <= data_cards(table), seat
        else:
            assert not (c.secret & data_cards(table)), (seat, c.secret & data_cards(table))
        if c.event is not None:
            text = export_event(data, str(seat), c.event, c.position)
            full = c.game.events[c.event].kind in ("Discarded", "CardPassed")
            assert any(C.pretty(x) in text for x in c.secret) == (seat in c.owners and full), text


def test_private_event_texts_for_each_seat(cases):
    c = cases["standard dealer's discard"]
    ev = c.game.events[c.event]
    players = c.game.players
    assert describe_event(ev, players) == f"{seat_name(ev.seat, players)} discards {C.pretty(ev.card)}"
    assert describe_event(ev, players, seat=ev.seat) == describe_event(ev, players)
    for s in range(4):
        if s != ev.seat:
            assert describe_event(ev, players, seat=s) == f"{seat_name(ev.seat, players)} discards a card face down"
    c = cases["bid partner's best"]
    ev = c.game.events[c.event]
    players = c.game.players
    giver, to = seat_name(ev.seat, players), seat_name(ev.to_seat, players)
    assert describe_event(ev, players, seat=E) == f"{giver} passes a card to {to}"
    assert describe_event(ev, players, seat=ev.seat) == f"{giver} passes {C.pretty(ev.card)} to {to}"
    c = cases["ghost hand"]
    ev = c.game.events[c.event]
    other = (ev.seat + 1) % 3
    assert describe_event(ev, c.game.players, seat=other) == f"{seat_name(ev.seat, c.game.players, 3)} swaps for the ghost hand"
    # the CLI's last-event line, from the owner and from another seat
    c = cases["standard dealer's discard"]
    ev = c.game.events[c.event]
    mine = show(c.path, c.event + 1, ev.seat)
    theirs = show(c.path, c.event + 1, (ev.seat + 1) % 4)
    assert f"discards {C.pretty(ev.card)}" in mine.splitlines()[1]
    assert "discards a card face down" in theirs.splitlines()[1]


def test_partners_best_receiver_reads_the_card_once_the_exchange_is_done(cases):
    """The choices are blind (rules.md 7.3): the receiver of the first pass
    does not see it until both cards have been passed."""
    c = cases["bid partner's best"]
    g, i = c.game, c.event
    first = g.events[i]
    assert private_to(first) == {first.seat, first.to_seat}
    assert visible_from(g, i, first.seat) == i + 1
    assert visible_from(g, i, first.to_seat) == i + 2          # after the second pass
    assert not event_visible(g, i, first.to_seat, at=i + 1)
    assert event_visible(g, i, first.to_seat, at=i + 2)
    outsider = next(s for s in range(4) if s not in c.owners)
    assert visible_from(g, i, outsider) is None and not event_visible(g, i, outsider)
    mid = knowledge(g, i + 1, first.to_seat)
    assert mid.passes == ((first.seat, first.to_seat, None),) and first.card not in mid.seen
    done = knowledge(g, i + 2, first.to_seat)
    assert first.card in done.seen and first.card in done.hand
    # the giver knows where its card went: in the receiver's hand, face up in the giver's view
    second = g.events[i + 1]
    assert knowledge(g, i + 2, first.to_seat).known_held == {second.to_seat: (second.card,)}
    v = GameViewer(g, position=i + 2, chart=False, seat=first.to_seat)
    assert second.card in data_cards(v.hand_w[second.to_seat].value)
    # the viewer's list and the export follow the same timing
    v.goto(i + 1)
    assert C.pretty(first.card) not in event_row(v.events_html, i)
    v.goto(i + 2)
    assert C.pretty(first.card) in event_row(v.events_html, i)
    data = exported(g)
    assert C.pretty(first.card) not in export_event(data, str(first.to_seat), i, i + 1)
    assert C.pretty(first.card) in export_event(data, str(first.to_seat), i, i + 2)


def test_exported_page_embeds_only_what_each_seat_saw(cases, tmp_path):
    c = cases["cutthroat dummy discards"]
    path = tmp_path / "cutthroat.html"
    export_html(c.game, str(path))
    page = path.read_text(encoding="utf-8")
    blob = re.search(r'<script id="ee-data" type="application/json">(.*?)</script>', page, re.S).group(1)
    data = json.loads(blob.replace("<\\/", "</"))
    maker = next(iter(c.owners))
    for seat in range(3):
        table, readout = export_view(data, str(seat), c.position)
        assert bool(c.secret & data_cards(table)) == (seat == maker)
        [discards] = re.findall(r'class="ee-discard ee-small">(.*?)</div>', table)   # one row: the maker's
        assert len(re.findall(r'data-card="([^"]+)"', discards)) == 6   # the dealer's exchange and 5 of the dummy
        assert discards.count('data-card="hidden"') == (0 if seat == maker else 6)
    assert '<div class="ee-knowledge"></div>' in page           # filled per view by the script


def test_up_card_picked_up_is_known_then_only_maybe():
    """The dealer takes the up-card in view of all; after the face-down discard
    the others know it only if the dealer may not discard it (rules.md 2.2)."""
    g = load("standard/deals/c3-renege-audit.euchre")
    up = g.events[_first(g, "CardsDealt")].up_card
    pick, disc = _first(g, "UpCardPickedUp"), _first(g, "Discarded")
    dealer = g.events[pick].seat
    before = knowledge(g, pick + 1, N)
    assert before.known_held == {dealer: (up,)} and before.may_hold == {}
    after = knowledge(g, disc + 1, N)
    assert after.known_held == {} and after.may_hold == {dealer: (up,)}
    hand = state_html(g.state_at(disc + 1), seat=N, knowledge=after)
    assert re.search(rf'class="ee-card ee-maybe[^"]*" data-card="{up}"', hand)
    strict = Game([dataclasses.replace(g.events[0], options={"dealer_may_discard_upcard": False})]
                  + g.events[1:])
    assert knowledge(strict, disc + 1, N).known_held == {dealer: (up,)}


# ------------------------------------------------------------------ voids and master cards

def left_bower_game() -> Game:
    """Hearts trump (named by North in round 2, the clubs jack turned down).
    Trick 1: North leads A\u2665, East follows with the left bower J\u2666 (a
    heart here: rules.md 1.2), South has no heart (9\u2660), West 9\u2665.
    Trick 2: East leads 9\u2666, South has none (A\u2663), West K\u2666,
    North none (9\u2663)."""
    r = Recorder(GameStarted("standard", {}, ("Ann", "Bob", "Cy", "Di"), first_dealer=W))
    r.add(DealStarted(1, W),
          CardsDealt((("AH", "KH", "QS", "9C", "TC"), ("JD", "9D", "AS", "KS", "QC"),
                      ("9S", "TS", "JS", "AC", "KC"), ("TH", "9H", "QH", "AD", "KD")),
                     "JC", ("JH", "QD", "TD")),
          Passed(N), Passed(E), Passed(S), Passed(W), TrumpNamed(N, "H"))
    r.add(CardPlayed(N, "AH"), CardPlayed(E, "JD"), CardPlayed(S, "9S"), CardPlayed(W, "9H"))
    r.add(CardPlayed(E, "9D"), CardPlayed(S, "AC"), CardPlayed(W, "KD"), CardPlayed(N, "9C"))
    return r.game()


def test_voids_use_the_effective_suit_left_bower_follows_trump():
    g = left_bower_game()
    after1 = knowledge(g, 12, W)                       # trick 1 complete
    assert g.state_at(12).tricks[0][2] == E            # the left bower beats the ace
    assert after1.voids_of(E) == ()                    # J\u2666 followed hearts: East is void in nothing
    assert [(v.suit, v.trick, v.card) for v in after1.voids_of(S)] == [("H", 1, "9S")]
    after2 = knowledge(g, 16, W)
    assert [v.suit for v in after2.voids_of(S)] == ["D", "H"]
    assert [(v.suit, v.card) for v in after2.voids_of(N)] == [("D", "9C")]
    assert after2.voids_of(E) == ()                    # not void in diamonds: East led them
    assert not any(v.only_appears or v.known_false for v in after2.voids)
    # a seat's own voids are not listed: it knows its own hand
    assert knowledge(g, 16, S).voids_of(S) == ()


def test_master_and_cards_out_from_the_seats_knowledge():
    g = left_bower_game()
    start = knowledge(g, 8, N)                         # North has named hearts, nothing played
    hearts = [c for c in C.deck() if C.effective_suit(c, "H") == "H"]
    # not seen by North: every heart (left bower included) but its own A\u2665 K\u2665
    assert start.cards_out["H"] == ("JH", "JD", "QH", "TH", "9H")
    assert set(start.cards_out["H"]) == set(hearts) - {"AH", "KH"}
    assert "JD" not in start.cards_out["D"]            # the left bower is a heart here
    # the turned-down J\u2663 is seen and out of play: not out, not master of anything
    assert "JC" not in start.cards_out["C"] and "JC" in start.gone
    assert start.master == {"H": "JH", "C": "AC", "D": "AD", "S": "AS"}
    end = knowledge(g, 16, N)                          # after trick 2
    assert end.master["C"] == "KC"                     # A\u2663 played in trick 2
    assert end.master["D"] == "AD" and end.master["H"] == "JH"
    assert end.cards_out["H"] == ("JH", "QH", "TH")    # J\u2666 and 9\u2665 were played
    # West holds the A\u2666 and knows it is the master (its own)
    west = knowledge(g, 16, W)
    assert west.master["D"] == "AD" and "AD" in west.hand
    v = GameViewer(g, position=16, chart=False, seat=W)
    assert re.search(r'class="ee-master-suit [^"]*ee-mine" data-suit="D" data-card="AD"', v.knowledge_html)
    # the CLI readout says the same
    out = show_game(g, 16, "W")
    assert "Master cards: \u2665 J\u2665, \u2663 K\u2663, \u2666 A\u2666 (yours), \u2660 A\u2660" in out
    assert "Voids shown: North (Ann) diamonds (trick 2); South (Cy) diamonds (trick 2); South (Cy) hearts (trick 1)" in out


_tmp_games: dict = {}


def show_game(g: Game, k: int, seat, tmp=None) -> str:
    """``show`` on a game written to a record file (the text notation)."""
    import tempfile
    path = _tmp_games.get(id(g))
    if path is None:
        path = Path(tempfile.mkdtemp(prefix="ee-seat-")) / "game.euchre"
        path.write_text(write_text(g.events, [], []), encoding="utf-8")
        _tmp_games[id(g)] = path
    return show(path, k, seat)


def test_a_renege_makes_the_shown_void_false():
    """Case C3: East plays 9\u2665 on a club lead holding 10\u2663 (rules.md 1.5).
    East only appears void in clubs; North can know it once East shows 10\u2663."""
    g = load("standard/deals/c3-renege-audit.euchre")
    [finding] = g.audit()
    renege, proof = finding.position, finding.proven["position"]
    assert finding.seat == E and finding.led_suit == "C"
    at_renege = knowledge(g, renege + 1, N)
    [void] = [v for v in at_renege.voids_of(E) if v.suit == "C"]
    assert void.only_appears and void.renege_position == renege and not void.known_false
    assert renege not in at_renege.reneges_known
    # the offender knows at once
    assert renege in knowledge(g, renege + 1, E).reneges_known
    before = knowledge(g, proof, N)
    assert not before.voids_of(E)[0].known_false
    after = knowledge(g, proof + 1, N)
    [void] = [v for v in after.voids_of(E) if v.suit == "C"]
    assert void.known_false and renege in after.reneges_known
    # drawn: the readout strikes the void out only once North can know; the renege mark too
    v = GameViewer(g, position=proof, chart=False, seat=N)
    assert 'class="ee-void" data-suit="C"' in v.knowledge_html and "ee-void-false" not in v.knowledge_html
    drawn = table_only(v.table_html).split("</style>", 1)[1]
    assert not re.search(r'class="ee-card[^"]*ee-renege', drawn)
    assert "ee-renege-note" not in drawn and "ee-renege-badge" not in drawn
    assert "(renege)" not in v.events_html
    v.goto(proof + 1)
    assert 'class="ee-void ee-void-false" data-suit="C"' in v.knowledge_html
    assert 'class="ee-renege-note"' in v.table_html
    # the event list marks it for North from the proof on; the offender sees the mark at once
    assert exported(g)["view_reneges"][str(N)] == {str(renege): proof + 1}
    assert "(renege)" in event_row(GameViewer(g, position=renege + 2, chart=False, seat=E).events_html, renege)
    assert "(renege)" not in event_row(GameViewer(g, position=renege + 2, chart=False, seat=N).events_html, renege)
    out = show(FIX / "standard/deals/c3-renege-audit.euchre", proof + 1, "N")
    assert "East (Bob) clubs (trick 1) - false: a renege" in out


def test_readout_in_every_view_and_escaped_names():
    r = Recorder(GameStarted("standard", {}, ("<b>Ann</b>", "Bob", "Cy", "Di"), first_dealer=W))
    r.add(DealStarted(1, W),
          CardsDealt((("AH", "KH", "QS", "9C", "TC"), ("JD", "9D", "AS", "KS", "QC"),
                      ("9S", "TS", "JS", "AC", "KC"), ("TH", "9H", "QH", "AD", "KD")),
                     "JC", ("JH", "QD", "TD")))
    g = r.game()
    html = state_html(g.state_at(3), seat=N, knowledge=knowledge(g, 3, N))
    assert "&lt;b&gt;Ann&lt;/b&gt;" in html and "<b>Ann</b>" not in html
    for cls in ("ee-knowledge", "ee-voids", "ee-cards-out", "ee-master"):
        assert f'class="{cls}"' in html
    assert 'class="ee-knowledge"' not in state_html(g.state_at(3))      # all hands: no readout


def test_knowledge_needs_a_real_seat():
    g = left_bower_game()
    with pytest.raises(ValueError):
        knowledge(g, 5, 4)
    with pytest.raises(ValueError):
        knowledge_of_state(g.state_at(5), None)
    with pytest.raises(IndexError):
        knowledge(g, len(g.events) + 1, 0)
    # before the first deal a seat knows nothing
    k = knowledge(g, 1, 0)
    assert k.deal == 0 and not k.seen and not k.cards_out


# ------------------------------------------------------------------ the shared tables

def test_one_seat_name_table():
    assert SEAT_WORDS_4 == ("North", "East", "South", "West")
    for s in range(4):
        assert seat_label(s, 4) == seat_word(s, 4) == seat_name(s)
        assert seat_label(s, 4, short=True) == seat_letter(s, 4)
    assert seat_label(1, 3) == seat_word(1, 3) == seat_name(1, n_seats=3) == "P2"
    players = ("Ann", "Bob", "Cy", "Di")
    assert [parse_seat(t, players) for t in ("0", "E", "south", "West", "p2", "Di")] == [0, 1, 2, 3, 1, 3]
    assert parse_seat("p3", ("A", "B", "C")) == 2
    with pytest.raises(ValueError):
        parse_seat("north", ("A", "B", "C"))        # no compass seats in a three-seat game
    with pytest.raises(ValueError):
        parse_seat("Q", players)
    # any part of a name that names one player, as list --player takes it (a newcomer
    # typed --seat Brownsbacke for "Brownsbacke (Gary)"); two players: say which
    vwec = ("Llama", "Brownsbacke (Gary)", "LeftyKnavey", "Chach")
    assert [parse_seat(t, vwec) for t in ("brownsbacke", "lefty", "CHACH")] == [1, 2, 3]
    with pytest.raises(ValueError, match="could be 'Llama' or 'LeftyKnavey'"):
        parse_seat("l", vwec)
    # the CLI takes the same names
    p = FIX / "standard/deals/c3-renege-audit.euchre"
    assert show(p, 8, "west") == show(p, 8, "3") == show(p, 8, "Di")
    bad = runner.invoke(app, ["show", str(p), "--seat", "Q"])
    assert bad.exit_code == 1 and "unknown seat" in bad.output


def test_one_annotation_mark_list():
    assert MARKS == ("",) + ANNOTATION_MARKS
    assert set(ANNOTATION_MARKS) == {"!", "?", "!!", "??", "!?", "?!"}
    v = GameViewer(left_bower_game(), chart=False)
    assert [o[1] for o in v.note_mark.options][1:] == list(ANNOTATION_MARKS)
    with pytest.raises(ValueError):
        v.add_note("x", "?!?")


def test_a_card_taken_back_is_known_to_be_in_the_hand():
    """Case C3 corrected (rules.md 1.5): East trumps the club lead with 9\u2665,
    then takes it back and plays 10\u2663.  The table saw 9\u2665: every seat
    knows East holds it until it is played; East has shown no void."""
    from euchre_events.events import Discarded, OrderedUp, PlayCorrected, UpCardPickedUp
    r = Recorder(GameStarted("standard", {}, ("Ann", "Bob", "Cy", "Di"), first_dealer=W))
    r.add(DealStarted(1, W),
          CardsDealt((("KC", "AS", "QD", "9S", "TD"), ("TC", "9H", "AD", "KD", "JS"),
                      ("AC", "QC", "KS", "TS", "QH"), ("JH", "AH", "KH", "9C", "9D")), "TH", ("JC", "JD", "QS")),
          Passed(N), Passed(E), OrderedUp(S), UpCardPickedUp(W), Discarded(W, "9D"))
    r.play("KC 9H")
    r.add(PlayCorrected(E, "9H", "TC"))
    g = r.game()
    k = len(g.events)
    north = knowledge(g, k, N)
    assert north.known_held[E] == ("9H",) and "9H" in north.seen
    assert north.voids_of(E) == ()                     # 10\u2663 followed clubs after all
    v = GameViewer(g, position=k, chart=False, seat=N)
    assert data_cards(v.hand_w[E].value) == {"9H", "hidden"}
    r.play("AC 9C")                                    # trick 1 gathered: S won
    r.play("KS TH AS JS")                              # W trumps; E still holds 9\u2665
    assert knowledge(r.game(), len(r.events), N).known_held[E] == ("9H",)
    r.play("JH 9S 9H")                                 # East plays it: known no more
    assert E not in knowledge(r.game(), len(r.events), N).known_held
