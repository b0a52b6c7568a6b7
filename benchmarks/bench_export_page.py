"""The HTML replay page with and without the analysis (issue 22, ``export
--format html --with-analysis``): the whole command's time (median of
``--repeat`` runs, the plain export the anchor measured in the same run), the
page's size, and in Chromium the click on "next" to the table redrawn (median
of 11, from deal 1), each page against the plain page's.

    python benchmarks/bench_export_page.py [--record FILE] [--samples 20] [--repeat 3]

Prints numbers; not a test.  Needs Debian's chromium and playwright for the
click times (skipped with a line otherwise).
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLICK_JS = """() => new Promise(res => { const t0 = performance.now();
  document.querySelector('.ee-next').click();
  requestAnimationFrame(() => setTimeout(() => res(performance.now() - t0), 0)); })"""


def whole(args, repeat):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    ts = []
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "euchre_events", *args], check=True, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        ts.append(time.perf_counter() - t)
    return statistics.median(ts)


def clicks(pages):
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        from playwright.sync_api import sync_playwright
        from browser_support import CHROMIUM, CHROMIUM_ARGS
    except BaseException as e:   # noqa: BLE001 (browser_support skips with pytest's exception)
        print(f"click times skipped: {e}")
        return {}
    out = {}
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for name, path in pages.items():
            ctx = b.new_context(viewport={"width": 1400, "height": 1000})
            page = ctx.new_page()
            page.goto(Path(path).as_uri() + "#deal=1&event=8")
            page.wait_for_function("() => document.querySelector('.ee-table').dataset.position")
            page.wait_for_timeout(500)
            out[name] = statistics.median(page.evaluate(CLICK_JS) for _ in range(11))
            ctx.close()
        b.close()
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--record", default=str(ROOT / "fixtures" / "egn" / "VWEC Finals.egn"))
    ap.add_argument("--samples", default="20")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        plain, rich = os.path.join(d, "plain.html"), os.path.join(d, "analysis.html")
        t_plain = whole(["export", a.record, "-f", "html", "-o", plain], a.repeat)
        t_rich = whole(["export", a.record, "-f", "html", "--with-analysis", "--samples", a.samples, "-o", rich],
                       a.repeat)
        print(f"export -f html (anchor)                    {t_plain:6.2f} s  {os.path.getsize(plain) / 1e6:5.2f} MB")
        print(f"export -f html --with-analysis --samples {a.samples:<3} {t_rich:6.2f} s  "
              f"{os.path.getsize(rich) / 1e6:5.2f} MB  ({t_rich / t_plain:.1f}x)")
        c = clicks({"plain": plain, "analysis": rich})
        if c:
            print(f"click to table, median of 11: plain {c['plain']:.1f} ms, with analysis {c['analysis']:.1f} ms "
                  f"({c['analysis'] / c['plain']:.2f}x)")


if __name__ == "__main__":
    main()
