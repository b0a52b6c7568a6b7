"""Click-to-updated-table time of the replay viewer, in Chromium through Voila.

Serves the review app (euchre_events.ui.serve) on a real record (default:
the VWEC finals, fixtures/egn/), opens it in Debian's Chromium (Playwright,
never ``playwright install``), then clicks "next" STEPS times.  Each step is
timed inside the page, from the click to the moment the whole table and the
event list show the new position (a MutationObserver watching the viewer), so
Playwright's own round trips are not counted.

Each analysis mode (``--analysis off on``: the app's switch; "on" computes in
the background while stepping) gets its own server and page.  ``--code DIR``
(repeatable) serves the app from another checkout of the package (a built
copy of main, say) in the same run, as the anchor to compare with; the
default is this checkout.  The first clicks wait for the notebook to finish
running (its kernel takes no click before), up to 120 s; a timed click that
shows nothing within 10 s counts as lost (warm-up clicks too) and is reported,
never a traceback; the next click steps on from where the viewer is.
Prints the medians (goal: under 40 ms, issue 22) and the kB the page
received a step (websocket frames from the click of the first timed step to
0.3 s after the last: less noisy than the times), and writes
benchmarks/out/bench_viewer.json.

    python benchmarks/bench_viewer.py [--steps 11] [--analysis off on] [--code DIR ...] [--repeat N] [--record PATH]
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")

from playwright.sync_api import sync_playwright  # noqa: E402

from euchre_events.ui.serve import serve  # noqa: E402

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]

STEP_JS = """async ([expectedCurrent, timeoutMs]) => {
  const root = document.querySelector('.ee-viewer');
  const table = document.querySelector('.ee-table');
  const button = document.querySelector('button.ee-next');
  return await new Promise((resolve, reject) => {
    let first = null;
    const t0 = performance.now();
    const done = () => {
      const cur = document.querySelector('.ee-events .ee-current');
      return cur && Number(cur.dataset.pos) === expectedCurrent;
    };
    const obs = new MutationObserver(muts => {
      if (first === null && muts.some(m => table.contains(m.target))) first = performance.now() - t0;
      if (done()) { obs.disconnect(); resolve({first: first, all: performance.now() - t0}); }
    });
    obs.observe(root, {subtree: true, childList: true, characterData: true, attributes: true});
    setTimeout(() => { obs.disconnect(); resolve({lost: true}); }, timeoutMs);
    button.click();
  });
}"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(url: str, timeout: float = 90) -> None:
    end = time.time() + timeout
    while time.time() < end:
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"no answer from {url}")


def run_one(code: Path, analysis: str, record: str, steps: int, warmup: int = 3) -> dict:
    """Serve the app from ``code`` with the analysis switch ``analysis``, time
    ``steps`` clicks on next (after ``warmup`` untimed ones); the result dict."""
    tmp = Path(tempfile.mkdtemp(prefix="bench-viewer-"))
    env = {"EUCHRE_EVENTS_ANALYSIS": analysis, "PYTHONPATH": str(code)}
    for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR"):
        (tmp / name.lower()).mkdir()
        env[name] = str(tmp / name.lower())
    port = free_port()
    log = open(tmp / "voila.log", "w")
    # Voila runs as "python -m", which puts its working folder first on sys.path: a
    # neutral one, so that the package served is the one of ``code``
    os.chdir(tmp)
    proc = serve(notebook=str(code / "notebooks" / "review-a-game.ipynb"), port=port,
                 db=str(tmp / "bench.sqlite"), record=record, env=env, block=False, quiet=True, log=log)
    result = {"code": str(code), "analysis": analysis}
    try:
        wait_http(f"http://127.0.0.1:{port}/voila/static/")
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            ctx = browser.new_context(viewport={"width": 1400, "height": 1100})
            ctx.route("**/*", lambda r: r.continue_() if r.request.url.startswith("http://127.0.0.1")
                      else r.abort())
            page = ctx.new_page()
            errors = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            # what the kernel sends a step (websocket frames received; counted outside the page)
            received = [0]
            page.on("websocket", lambda ws: ws.on(
                "framereceived", lambda p: received.__setitem__(0, received[0] + len(p))))
            t0 = time.time()
            page.goto(proc.url, timeout=120000)
            page.locator("button.ee-next").wait_for(timeout=120000)
            page.locator(".ee-events .ee-current").wait_for(timeout=60000)
            load = time.time() - t0
            # steady stepping, not the page still setting up: the score chart drawn (plotly's
            # 5 MB script), then a quiet second (the first clicks otherwise ran 2-3x slower)
            try:
                page.locator(".js-plotly-plot").first.wait_for(state="attached", timeout=30000)
            except Exception:   # no chart (or not drawn yet): time from here all the same
                pass
            time.sleep(1.0)
            first, full, lost, b0 = [], [], 0, 0
            # the viewer opens at deal 1 just dealt, not at event 1: step on from where it is
            start = int(page.locator(".ee-events .ee-current").get_attribute("data-pos"))
            for i in range(steps + warmup):
                # the untimed clicks wait for the rest of the notebook to run (the kernel
                # answers a click only then: under load that took more than 10 s)
                if i == warmup:
                    b0 = received[0]
                r = page.evaluate(STEP_JS, [start + i + 1, 120000 if i == 0 else 10000])
                if r.get("lost"):
                    if i == 0:
                        raise RuntimeError("the viewer did not step within 120 s of the first click")
                    lost += 1
                    # where the viewer really is, to step on from there
                    start = int(page.locator(".ee-events .ee-current").get_attribute("data-pos")) - i - 1
                    continue
                if i >= warmup:
                    full.append(r["all"])
                    if r["first"] is not None:
                        first.append(r["first"])
            # the last step's messages after its table (the graph, say): a pause that lets them in
            page.wait_for_timeout(300)
            kb = (received[0] - b0) / 1000 / steps
            browser.close()
        result.update({
            "steps": len(full), "lost_clicks": lost, "page_load_s": round(load, 2),
            "median_ms": round(statistics.median(full), 1) if full else None,
            "mean_ms": round(statistics.mean(full), 1) if full else None,
            "p90_ms": round(sorted(full)[max(0, int(0.9 * len(full)) - 1)], 1) if full else None,
            "max_ms": round(max(full), 1) if full else None,
            "kb_received_per_step": round(kb, 1),
            "median_first_table_change_ms": round(statistics.median(first), 1) if first else None,
            "all_ms": [round(x, 1) for x in full], "page_errors": errors,
        })
    except Exception as e:   # said in a line, with the server's log kept
        result["error"] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''} (log: {tmp / 'voila.log'})"
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=11, help="clicks on next to time (at least 11)")
    ap.add_argument("--record", default=str(ROOT / "fixtures" / "egn" / "VWEC Finals Annotated.egn"))
    ap.add_argument("--analysis", nargs="+", default=["off", "on"], choices=["off", "on", "face-up"],
                    help="the viewer's analysis switch, one run each (on: computed in the background)")
    ap.add_argument("--code", nargs="+", default=[str(ROOT)],
                    help="checkouts of the package to serve the app from, one run each (default: this one)")
    ap.add_argument("--repeat", type=int, default=1,
                    help="rounds of all the runs, interleaved (a shared machine's load moves the numbers)")
    args = ap.parse_args()
    steps = max(11, args.steps)   # the brief: a median of 11 clicks at least
    runs = []
    for analysis, code in [(a, c) for _ in range(max(1, args.repeat)) for a in args.analysis for c in args.code]:
        if True:
            r = run_one(Path(code).resolve(), analysis, str(Path(args.record).resolve()), steps)
            runs.append(r)
            if "error" in r:
                print(f"{code} analysis {analysis}: {r['error']}", flush=True)
            else:
                print(f"{code} analysis {analysis}: median click -> updated table {r['median_ms']} ms "
                      f"over {r['steps']} clicks (p90 {r['p90_ms']}, max {r['max_ms']}, "
                      f"lost {r['lost_clicks']}; {r['kb_received_per_step']} kB a step from the kernel; "
                      f"goal under 40 ms: {'met' if r['median_ms'] < 40 else 'NOT met'})",
                      flush=True)
    out = ROOT / "benchmarks" / "out"
    out.mkdir(exist_ok=True)
    (out / "bench_viewer.json").write_text(json.dumps({"record": Path(args.record).name, "runs": runs}, indent=2))
    bad = [r for r in runs if "error" in r or r.get("page_errors") or r.get("lost_clicks")]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
