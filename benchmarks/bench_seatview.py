"""Seat-view speed: one decision's seat view, as the viewer will ask it
(run by hand, not a test; issue 21 goal: at most 300 ms for 200 samples).

    PYTHONPATH=$PWD .venv/bin/python benchmarks/bench_seatview.py [--samples 200] [--repeat 5]

For two decisions of ``fixtures/egn/VWEC Finals.egn`` (standard Euchre) --
an auction decision (deal 7, the first call, round 1) and a mid-play one
(deal 7, the lead of trick 3) -- prints, in milliseconds, the median over
``--repeat`` runs of:

* **sample**: dealing the unseen cards ``--samples`` ways and folding each
  imagined deal to the position (:func:`euchre_events.analysis.sampling.imagined_deals`);
* **seat view**: the whole :func:`~euchre_events.analysis.sampling.seat_view`
  (sampling plus a face-up solve of every imagined deal with the solver's
  default method), and the share of it the sampling takes.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from euchre_events.analysis.sampling import imagined_deals, seat_view  # noqa: E402
from euchre_events.formats import read_records  # noqa: E402
from euchre_events.projections import Game  # noqa: E402

RECORD = ROOT / "fixtures" / "egn" / "VWEC Finals.egn"


def decisions_of_vwec(game: Game) -> dict:
    """``{"auction": position, "mid-play": position}`` in deal 7."""
    start = dict(game.deal_positions())[7]
    auction = start + 2          # after DealStarted and CardsDealt: the first call
    trick3 = game.trick_positions(7)[2]
    return {"auction": auction, "mid-play": trick3}


def _median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3


def bench_one_decision(samples: int = 200, repeat: int = 5) -> dict:
    """Print and return ``{name: (sample ms, seat view ms or None)}`` for the
    two decisions (seat view None, with the reason, if the solver cannot be
    imported)."""
    game = Game(read_records(str(RECORD))[0].events).prepare_jumps()
    out = {}
    for name, pos in decisions_of_vwec(game).items():
        t = game.table_at(pos)
        s_ms = _median_ms(lambda: imagined_deals(game, pos, samples=samples, seed=0), repeat)
        try:
            v_ms = _median_ms(lambda: seat_view(game, pos, samples=samples, seed=0), repeat)
        except ImportError as e:   # the solver not there yet
            print(f"{name:9} position {pos} (seat {t.turn}, {t.phase}): sample {s_ms:7.1f} ms; "
                  f"seat view unavailable ({e})")
            out[name] = (s_ms, None)
            continue
        print(f"{name:9} position {pos} (seat {t.turn}, {t.phase}): sample {s_ms:7.1f} ms, "
              f"seat view {v_ms:8.1f} ms ({samples} samples; sampling {100 * s_ms / v_ms:.0f}%)")
        out[name] = (s_ms, v_ms)
    return out


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--samples", type=int, default=200)
    p.add_argument("--repeat", type=int, default=5)
    a = p.parse_args(argv)
    bench_one_decision(a.samples, a.repeat)


if __name__ == "__main__":
    main()
