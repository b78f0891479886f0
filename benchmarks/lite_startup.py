#!/usr/bin/env python
"""How long a student waits when opening a lesson of the JupyterLite site, phase by phase.

    python benchmarks/lite_startup.py                 # median of 5 first and 5 cached visits
    python benchmarks/lite_startup.py --runs 1        # one of each (a smoke run)
    python benchmarks/lite_startup.py --label after   # name the column (before/after a change)

It serves build/lite (`make lite`) from 127.0.0.1 with a plain static file server, opens
lesson 1 (English) in Debian's headless Chromium (/usr/bin/chromium, driven by Playwright as
tests/browser does) and takes every time from the browser's own clocks:

* the page (performance.now(), from navigation start): the notebook's cells on screen; the
  kernel connected and idle (what JupyterLab's status bar calls "Idle", the moment the
  start-up notice of lite/startup-status.js goes away); the first code cell of the lesson sent
  to the kernel and its reply back (the cell's imports load NumPy, Matplotlib, ipywidgets and
  the course from the site);
* the kernel's Web Worker (its Performance API, read from inside Pyodide with `js.performance`
  once the first cell is done, and put on the page's clock with the two timeOrigins): when the
  worker started, when the Pyodide runtime (pyodide.asm.wasm, python_stdlib.zip) had arrived,
  when each package wheel was fetched.

A *first visit* is a new browser context (an empty profile: no HTTP cache, no JupyterLite
storage); the *cached visit* opens the same lesson again in that context. Each of the --runs
rounds makes both; the table gives the median of each phase, and the Markdown file
(benchmarks/results/lite_startup.md, or --output) adds every run and the machine's load
average before and after (the machine is shared: read the figures with it).
"""

from __future__ import annotations

import argparse
import datetime
import functools
import http.server
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
LESSON = "lessons/en/01-gradients.ipynb"

# Polls the app from the first script on: the page's own clock for the notebook shown and the
# kernel ready (the same test as the browser tests' run_all_cells and the start-up notice).
PROBE = """
window.__liteBench = {};
(function poll() {
  const b = window.__liteBench, app = window.jupyterapp;
  const w = app && app.shell && app.shell.currentWidget;
  if (b.shown === undefined && document.querySelector('.jp-NotebookPanel .jp-Notebook .jp-Cell')) b.shown = performance.now();
  const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
  if (b.ready === undefined && k && k.connectionStatus === 'connected' && k.status === 'idle') b.ready = performance.now();
  if (b.ready === undefined || b.shown === undefined) setTimeout(poll, 20);
})();
"""

RUN_FIRST_CELL = """async (code) => {
  const w = window.jupyterapp.shell.currentWidget, k = w.sessionContext.session.kernel;
  const b = window.__liteBench;
  b.cellStart = performance.now();
  const reply = await k.requestExecute({code, store_history: false}).done;
  b.cellDone = performance.now();
  return reply.content.status;
}"""

# Run in the kernel after the first cell: the worker's resource timings on the page's clock.
WORKER_TIMINGS = """
import js as __js, json as __json
__entries = [{"name": str(e.name).rsplit("/", 1)[-1], "start": e.startTime, "end": e.responseEnd,
              } for e in __js.performance.getEntriesByType("resource")]
print(__json.dumps({"origin": __js.performance.timeOrigin, "now": __js.performance.now(), "entries": __entries}))
del __js, __json, __entries
"""

PHASES = [  # key, label
    ("worker", "kernel worker started"),
    ("runtime", "Pyodide runtime fetched (wasm + stdlib)"),
    ("kernel_pkgs", "kernel's packages fetched (IPython...)"),
    ("shown", "notebook shown"),
    ("ready", "kernel ready (notice gone)"),
    ("cell_pkgs", "first cell's packages fetched (NumPy, Matplotlib...)"),
    ("cell_done", "first cell done"),
    ("cell_run", "  first cell alone (sent -> reply)"),
]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
                      ".whl": "application/octet-stream"}

    def log_message(self, *args) -> None:
        pass


def first_code_cell(site: Path, lesson: str) -> str:
    nb = json.loads((site / "files" / lesson).read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            return "".join(cell["source"])
    raise SystemExit(f"{lesson} has no code cell")


def visit(context, url: str, code: str, timeout_ms: int) -> dict:
    page = context.new_page()
    try:
        page.goto(url, wait_until="commit")
        page.wait_for_function("() => window.__liteBench && window.__liteBench.ready !== undefined"
                               " && window.__liteBench.shown !== undefined", timeout=timeout_ms, polling=100)
        status = page.evaluate(RUN_FIRST_CELL, code)
        if status != "ok":
            raise RuntimeError(f"the lesson's first cell failed in the kernel: {status}")
        out = page.evaluate("""async (code) => {
            const k = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
            let text = '';
            const f = k.requestExecute({code, silent: false, store_history: false});
            f.onIOPub = msg => { if (msg.header.msg_type === 'stream') text += msg.content.text; };
            await f.done;
            return {text, origin: performance.timeOrigin};
        }""", WORKER_TIMINGS)
        bench = page.evaluate("() => window.__liteBench")
    finally:
        page.close()
    worker = json.loads(out["text"].strip().splitlines()[-1])
    shift = worker["origin"] - out["origin"]          # worker clock -> page clock
    entries = [dict(e, start=e["start"] + shift, end=e["end"] + shift) for e in worker["entries"]]
    wheels = [e for e in entries if e["name"].endswith((".whl", ".tar", ".zip")) and e["name"] != "python_stdlib.zip"]
    runtime = [e["end"] for e in entries if e["name"] in ("pyodide.asm.wasm", "python_stdlib.zip")]
    before = [e["end"] for e in wheels if e["end"] <= bench["ready"]]
    after = [e["end"] for e in wheels if e["start"] >= bench["ready"]]
    return {
        "worker": shift,
        "runtime": max(runtime) if runtime else float("nan"),
        "kernel_pkgs": max(before) if before else float("nan"),
        "shown": bench["shown"],
        "ready": bench["ready"],
        "cell_pkgs": max(after) if after else float("nan"),
        "cell_done": bench["cellDone"],
        "cell_run": bench["cellDone"] - bench["cellStart"],
        "wheels": sorted(((e["name"], round(e["start"]), round(e["end"])) for e in wheels), key=lambda t: t[1]),
    }


def fmt(key: str, value: float) -> str:
    if value != value:  # nan
        return "-"
    return f"{value / 1000:.1f} s"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="rounds of (first visit, cached visit); default 5")
    parser.add_argument("--site", type=Path, default=REPO / "build" / "lite")
    parser.add_argument("--lesson", default=LESSON, help=f"notebook path in the site (default {LESSON})")
    parser.add_argument("--label", default="", help="a name for this measurement (e.g. before, after): its table is appended to --output "
                        "instead of replacing it, so a before/after pair made in one sitting sits together")
    parser.add_argument("--output", type=Path, default=REPO / "benchmarks" / "results" / "lite_startup.md")
    parser.add_argument("--timeout", type=float, default=300, help="seconds to wait for a kernel (default 300)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if not (args.site / "index.html").exists():
        print(f"{args.site} is missing: build it with `make lite`", file=sys.stderr)
        return 1
    if not CHROMIUM.exists():
        print(f"{CHROMIUM} is missing: install Debian's chromium (`make system-packages`)", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    code = first_code_cell(args.site, args.lesson)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=args.site))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/lab/index.html?path={args.lesson}"
    load_before = os.getloadavg()
    started = time.monotonic()
    runs: dict[str, list[dict]] = {"first": [], "cached": []}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
            version = browser.version
            for n in range(args.runs):
                context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="en-US")
                context.add_init_script(PROBE)
                try:
                    for kind in ("first", "cached"):
                        t0 = time.monotonic()
                        r = visit(context, url, code, int(args.timeout * 1000))
                        runs[kind].append(r)
                        print(f"run {n + 1}/{args.runs} {kind:6s}: shown {fmt('shown', r['shown'])}, ready "
                              f"{fmt('ready', r['ready'])}, first cell {fmt('cell_done', r['cell_done'])} "
                              f"({time.monotonic() - t0:.0f} s wall, load {os.getloadavg()[0]:.1f})", flush=True)
                finally:
                    context.close()
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    load_after = os.getloadavg()

    med = {kind: {k: statistics.median(r[k] for r in rs) for k, _ in PHASES} for kind, rs in runs.items()}
    label = f" ({args.label})" if args.label else ""
    head = f"| phase{label} | first visit | cached visit |"
    rows = [head, "| --- | ---: | ---: |"]
    rows += [f"| {text} | {fmt(k, med['first'][k])} | {fmt(k, med['cached'][k])} |" for k, text in PHASES]
    cores = os.cpu_count()
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    load = (f"load average (1, 5, 15 min) {', '.join(f'{x:.1f}' for x in load_before)} before, "
            f"{', '.join(f'{x:.1f}' for x in load_after)} after; {cores} cores")
    print()
    print("\n".join(rows))
    print(f"\nmedian of {args.runs}; times from navigation start; {load}; Chromium {version}")

    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True,
                                text=True).stdout.strip()
    except OSError:
        commit = "?"
    lines = [f"## lite start-up{label}: {when}, commit {commit}", "",
             f"`python benchmarks/lite_startup.py --runs {args.runs}` on {args.lesson}; Chromium {version}; "
             f"{load}; {time.monotonic() - started:.0f} s in all.", "", *rows, "",
             "Every run (seconds from navigation start: shown / ready / first cell done):", ""]
    for kind, rs in runs.items():
        lines.append(f"- {kind}: " + "; ".join(f"{r['shown'] / 1000:.1f} / {r['ready'] / 1000:.1f} / "
                                             f"{r['cell_done'] / 1000:.1f}" for r in rs))
    last = runs["first"][-1]
    lines += ["", "Wheels fetched by the kernel in the last first visit (name, start, end in ms):", ""]
    lines += [f"- {name}: {a}-{b}" for name, a, b in last["wheels"]]
    args.output.parent.mkdir(parents=True, exist_ok=True)
    previous = args.output.read_text(encoding="utf-8") if args.output.exists() and args.label else ""
    args.output.write_text((previous + "\n" if previous else "") + "\n".join(lines) + "\n", encoding="utf-8")
    print(f"written to {args.output.relative_to(REPO) if args.output.is_relative_to(REPO) else args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
