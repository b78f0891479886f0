#!/usr/bin/env python
"""How long a student waits when opening a lesson of the JupyterLite site, phase by phase.

    python benchmarks/lite_startup.py                 # median of 5 first and 5 cached visits
    python benchmarks/lite_startup.py --runs 1        # one of each (a smoke run)
    python benchmarks/lite_startup.py --vs build/lite-before --write   # two builds side by side,
                               # interleaved; the figures of build/lite become the ones the site states
    python benchmarks/lite_startup.py --vs build/lite-before --breakdown   # and the first cell piece by piece
    python benchmarks/lite_startup.py --runs 0 --run-all   # Run All of every lesson in the browser kernel

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
rounds makes both; the table gives the median of each phase, and the bytes a first visit fetched
(the page's and the kernel worker's resources, bodies as sent) until the first cell was done.

--write keeps them, with every run and the machine's load average before, during and after (the
machine is shared: read the figures with it): benchmarks/results/lite_startup.md (or --output),
and benchmarks/results/lite_startup.json, the one source of the site's figures: lite/build.py
reads it for the landing page and the start-up notice ("about N seconds", "about M MB"), and the
block between the FIGURES markers of docs/jupyterlite.md is written from it (figures_block);
tests/lite/test_site_figures.py holds the three to it.
"""

from __future__ import annotations

import argparse
import ast
import datetime
import functools
import http.server
import json
import os
import re
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
performance.setResourceTimingBufferSize(5000);
(function poll() {
  const b = window.__liteBench, app = window.jupyterapp;
  const w = app && app.shell && app.shell.currentWidget;
  if (b.shown === undefined && document.querySelector('.jp-NotebookPanel .jp-Notebook .jp-Cell')) b.shown = performance.now();
  const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
  if (b.ready === undefined && k && k.connectionStatus === 'connected' && k.status === 'idle') {
    b.ready = performance.now();
    performance.mark('bench:ready');
  }
  if (b.ready === undefined || b.shown === undefined) setTimeout(poll, 20);
})();
"""

RUN_FIRST_CELL = """async (code) => {
  const w = window.jupyterapp.shell.currentWidget, k = w.sessionContext.session.kernel;
  const b = window.__liteBench;
  b.cellStart = performance.now();
  performance.mark('bench:cell-start');
  b.cellStderr = '';
  const f = k.requestExecute({code, store_history: false});
  f.onIOPub = msg => { if (msg.header.msg_type === 'stream' && msg.content.name === 'stderr') b.cellStderr += msg.content.text; };
  const reply = await f.done;
  b.cellDone = performance.now();
  performance.mark('bench:cell-done');
  return reply.content.status;
}"""

# One step of the phase breakdown: its time from the page (sent -> reply) and what it wrote on
# stderr (Matplotlib's "building the font cache" would show there).
RUN_STEP = """async (code) => {
  const k = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  let stderr = '';
  const t0 = performance.now();
  const f = k.requestExecute({code, store_history: false});
  f.onIOPub = msg => { if (msg.header.msg_type === 'stream' && msg.content.name === 'stderr') stderr += msg.content.text; };
  const reply = await f.done;
  return {status: reply.content.status, ms: performance.now() - t0, stderr};
}"""

# Run in the kernel after the first cell: the worker's resource timings on the page's clock.
WORKER_TIMINGS = """
import js as __js, json as __json
__entries = [{"name": str(e.name).rsplit("/", 1)[-1], "start": e.startTime, "end": e.responseEnd,
              "bytes": e.encodedBodySize} for e in __js.performance.getEntriesByType("resource")]
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


# Chromium's trace of a visit (--cpu): each thread's top-level tasks with the CPU time they took
# (tdur), and the page's marks. What a busy machine inflates is the wait for a core, not the CPU.
TRACE_CATEGORIES = ["toplevel", "blink.user_timing", "devtools.timeline"]


def cpu_figures(trace: bytes) -> dict:
    """From a visit's trace: the CPU time (ms) the page's main thread spent until it created the
    kernel's worker, the worker's until the kernel was ready, and the worker's and the main
    thread's during the first cell; their sums estimate the visit's times with a core to each
    thread and nothing else running (no wait for a core, fetches from 127.0.0.1 near instant)."""
    events = json.loads(trace)["traceEvents"]
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    marks = {e["name"]: e["ts"] for e in events if e.get("name", "").startswith("bench:")}
    tasks = [e for e in events if e.get("ph") == "X" and e.get("cat") == "toplevel"]

    def thread(name):
        return [e for e in tasks if names.get((e["pid"], e["tid"])) == name]

    def cpu(ts, start, end):
        return sum(e.get("tdur", 0) for e in ts if start <= e["ts"] < end) / 1000

    main, worker = thread("CrRendererMain"), thread("DedicatedWorker thread")
    if not worker or "bench:ready" not in marks:
        return {}
    created = min(e["ts"] for e in worker)
    ready, start, done = marks["bench:ready"], marks.get("bench:cell-start"), marks.get("bench:cell-done")
    out = {"main_before_worker": cpu(main, 0, created), "worker_until_ready": cpu(worker, 0, ready)}
    out["ready_est"] = out["main_before_worker"] + out["worker_until_ready"]
    if start and done:
        out["cell_cpu"] = cpu(worker, start, done) + cpu(main, start, done)
        out["cell_done_est"] = out["ready_est"] + out["cell_cpu"]
    return out


def visit(context, url: str, code: str, timeout_ms: int, steps: list[tuple[str, str]] | None = None,
          browser=None) -> dict:
    """One visit: the page's and the worker's clocks. With `steps` ([(label, code)]), the first
    cell is not sent whole: each step is sent alone and timed (the phase breakdown). With a
    `browser`, the visit is traced and its CPU figures (cpu_figures) added."""
    page = context.new_page()
    if browser is not None:
        browser.start_tracing(page=page, categories=TRACE_CATEGORIES)
    traced = browser is not None
    try:
        page.goto(url, wait_until="commit")
        page.wait_for_function("() => window.__liteBench && window.__liteBench.ready !== undefined"
                               " && window.__liteBench.shown !== undefined", timeout=timeout_ms, polling=100)
        timed = []
        if steps is None:
            status = page.evaluate(RUN_FIRST_CELL, code)
            if status != "ok":
                raise RuntimeError(f"the lesson's first cell failed in the kernel: {status}")
        else:
            page.evaluate("() => { window.__liteBench.cellStart = performance.now(); }")
            for label, step in steps:
                r = page.evaluate(RUN_STEP, step)
                if r["status"] != "ok":
                    raise RuntimeError(f"step {label!r} failed in the kernel: {r}")
                timed.append((label, r["ms"], r["stderr"]))
            page.evaluate("() => { window.__liteBench.cellDone = performance.now(); }")
        out = page.evaluate("""async (code) => {
            const k = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
            let text = '';
            const f = k.requestExecute({code, silent: false, store_history: false});
            f.onIOPub = msg => { if (msg.header.msg_type === 'stream') text += msg.content.text; };
            await f.done;
            const page = performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))
                .reduce((n, e) => n + (e.encodedBodySize || 0), 0);
            return {text, origin: performance.timeOrigin, pageBytes: page};
        }""", WORKER_TIMINGS)
        bench = page.evaluate("() => window.__liteBench")
        cpu = cpu_figures(browser.stop_tracing()) if traced else {}
        traced = False
    finally:
        if traced:
            browser.stop_tracing()
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
        "cell_stderr": bench.get("cellStderr", ""),
        "wheels": sorted(((e["name"], round(e["start"]), round(e["end"])) for e in wheels), key=lambda t: t[1]),
        # everything fetched until the first cell was done: the page's resources and the worker's
        "bytes": out["pageBytes"] + sum(e.get("bytes") or 0 for e in entries),
        "steps": timed,
        "cpu": cpu,
    }


def fmt(key: str, value: float) -> str:
    if value != value:  # nan
        return "-"
    return f"{value / 1000:.1f} s"


RUN_ALL = """async (cells) => {
  const k = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  const t0 = performance.now(), failed = [];
  for (let i = 0; i < cells.length; i++) {
    const reply = await k.requestExecute({code: cells[i], store_history: true}).done;
    if (reply.content.status !== 'ok') failed.push(i);
  }
  return {ms: performance.now() - t0, failed};
}"""

FIGURE = re.compile(r"\bplt\.|\bplot_\w+\(|\bFigure\(")


def code_cells(site: Path, lesson: str) -> list[str]:
    nb = json.loads((site / "files" / lesson).read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]


def breakdown_steps(site: Path, lesson: str) -> list[tuple[str, str]]:
    """The first cell statement by statement (each import alone), then the cells after it up to
    the first that draws a Matplotlib figure."""
    cells = code_cells(site, lesson)
    # Pyodide's kernel loads the packages a cell imports before running it (inside `if False:`
    # they are found and loaded, not imported): the whole first cell's, as when it runs whole
    # (so that matplotlib's font list comes with the course wheel, as it does then)
    steps = [("load the first cell's packages (fetch + install, no import)",
              "if False:\n" + "\n".join("    " + line for line in cells[0].splitlines()))]
    for node in ast.parse(cells[0]).body:
        src = ast.get_source_segment(cells[0], node)
        steps.append((src.splitlines()[0][:60], src))
    for n, cell in enumerate(cells[1:], start=2):
        figure = bool(FIGURE.search(cell))
        steps.append((f"cell {n}" + (" (the first figure)" if figure else ""), cell))
        if figure:
            break
    return steps


class Site:
    """A built site served on its own port of 127.0.0.1 (its own origin: its own browser caches)."""

    def __init__(self, name: str, path: Path) -> None:
        self.name, self.path = name, path
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=path))
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"

    def url(self, lesson: str) -> str:
        return f"{self.base}/lab/index.html?path={lesson}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def new_context(browser):
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="en-US")
    context.add_init_script(PROBE)
    return context


def run_all(browser, site: Site, lessons: list[str], timeout_ms: int) -> dict[str, dict]:
    """Each lesson opened in a new page (cached context), its kernel ready, then every code cell
    sent in order: the kernel's time for Run All, from the page."""
    out = {}
    context = new_context(browser)
    try:
        for lesson in lessons:
            page = context.new_page()
            try:
                page.goto(site.url(lesson), wait_until="commit")
                page.wait_for_function("() => window.__liteBench && window.__liteBench.ready !== undefined",
                                       timeout=timeout_ms, polling=100)
                r = page.evaluate(RUN_ALL, code_cells(site.path, lesson))
            finally:
                page.close()
            out[lesson] = r
            print(f"  Run All {site.name:8s} {lesson}: {r['ms'] / 1000:.1f} s"
                  + (f", cells failed: {r['failed']}" if r["failed"] else ""), flush=True)
    finally:
        context.close()
    return out


CPU_ROWS = [("main_before_worker", "CPU: page, until the kernel's worker starts"),
            ("worker_until_ready", "CPU: kernel's worker, until ready"),
            ("ready_est", "**idle-machine estimate: kernel ready** (the two above)"),
            ("cell_cpu", "CPU: first cell (worker and page)"),
            ("cell_done_est", "**idle-machine estimate: first cell done**")]


def cpu_medians(rs: list[dict]) -> dict:
    return {k: statistics.median(r["cpu"][k] for r in rs if k in r.get("cpu", {}))
            for k, _ in CPU_ROWS if any(k in r.get("cpu", {}) for r in rs)}


def cpu_rows(runs_by_site: dict[str, dict[str, list[dict]]]) -> list[str]:
    names = list(runs_by_site)
    med = {(name, kind): cpu_medians(rs) for name, by_kind in runs_by_site.items() for kind, rs in by_kind.items()}
    return [f"| {text} | " + " | ".join(fmt(k, med[(name, kind)].get(k, float("nan")))
                                      for kind in ("first", "cached") for name in names) + " |"
            for k, text in CPU_ROWS]


def median_table(runs_by_site: dict[str, dict[str, list[dict]]]) -> list[str]:
    names = list(runs_by_site)
    med = {(name, kind): {k: statistics.median(r[k] for r in rs) for k, _ in PHASES}
           for name, by_kind in runs_by_site.items() for kind, rs in by_kind.items()}
    head = "| phase | " + " | ".join(f"{kind} visit: {name}" for kind in ("first", "cached") for name in names) + " |"
    rows = [head, "| --- |" + " ---: |" * (2 * len(names))]
    for k, text in PHASES:
        rows.append(f"| {text} | " + " | ".join(fmt(k, med[(name, kind)][k]) for kind in ("first", "cached")
                                                 for name in names) + " |")
    return rows


RESULTS = REPO / "benchmarks" / "results"
RESULTS_JSON = RESULTS / "lite_startup.json"
DOCS = REPO / "docs" / "jupyterlite.md"
BLOCK_START = "<!-- FIGURES: written by `python benchmarks/lite_startup.py --write` from benchmarks/results/lite_startup.json; do not edit -->"
BLOCK_END = "<!-- END FIGURES -->"


def site_summary(path: Path, runs: dict[str, list[dict]]) -> dict:
    """One site's figures as kept in RESULTS_JSON: the build's sizes (its site-figures.json, when it
    has one), the medians of every phase in ms per kind of visit, and the MB a first visit fetched."""
    try:
        built = json.loads((path / "site-figures.json").read_text())
    except (OSError, ValueError):
        built = {"site_mb": round(sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) / 1e6, 1)}
    out = {"built": built}
    for kind, rs in runs.items():
        out[kind] = {k: round(statistics.median(r[k] for r in rs)) for k, _ in PHASES}
    out["first_visit_mb"] = round(statistics.median(r["bytes"] for r in runs["first"]) / 1e6, 1)
    cpu = {kind: {k: round(v) for k, v in cpu_medians(rs).items()} for kind, rs in runs.items()}
    if all(cpu.values()):
        out["cpu"] = cpu
    return out


def figures_block(figures: dict) -> str:
    """The figures paragraph of docs/jupyterlite.md, from RESULTS_JSON's data (the test holds the
    page to it)."""
    site = figures["site"]
    built = site["built"]
    load = figures["load"]

    def s(ms: float) -> str:
        return f"{ms / 1000:.1f} s"

    lines = [f"Measured {figures['when']} (commit {figures['commit']}) by `benchmarks/lite_startup.py`: lesson 1 "
             f"in headless Chromium {figures['chromium'].split('.')[0]}, served from 127.0.0.1, medians of "
             f"{figures['runs']} first and {figures['runs']} cached visits, on {figures['cores']} cores with a 1-minute "
             f"load average of {load['during'][0]}–{load['during'][1]} while measuring (a quiet machine is 0–1; "
             "every time here grows with the load).", "",
             "| | first visit | cached visit |", "| --- | ---: | ---: |",
             f"| notebook shown | {s(site['first']['shown'])} | {s(site['cached']['shown'])} |",
             f"| kernel ready (the start-up notice goes) | {s(site['first']['ready'])} | {s(site['cached']['ready'])} |",
             f"| first cell done (NumPy, Matplotlib, ipywidgets, minitape imported) | {s(site['first']['cell_done'])} "
             f"| {s(site['cached']['cell_done'])} |", "",
             f"The site is {built['site_mb']:.0f} MB on disk"
             + (f" (Pyodide and the Python packages {built['python_mb']:.0f} MB, of which lesson 1 loads "
                f"{built['lesson_python_mb']:.0f} MB)" if "python_mb" in built else "")
             + f"; a first visit of lesson 1 fetches {site['first_visit_mb']:.0f} MB until its first cell is done, "
             "and later visits come from the browser's cache."]
    def both(visits: dict, key: str) -> str:          # first visit / cached visit
        return f"{s(visits['first'][key])} / {s(visits['cached'][key])}"

    if "cpu" in site:
        lines += ["", "The same visits' CPU time on the way (traced in Chromium: the page until it starts the kernel's "
                  "worker, then the worker), which waiting for a core does not inflate, estimates them on an idle "
                  f"machine (first visit / cached): kernel ready {both(site['cpu'], 'ready_est')}, first cell done "
                  f"{both(site['cpu'], 'cell_done_est')}."]
    if "baseline" in figures:
        base = figures["baseline"]
        lines += ["", "In the same sitting, visited in turn with it, the site before this change (first visit / "
                  f"cached): kernel ready {both(base, 'ready')}, first cell done {both(base, 'cell_done')}"
                  + (f" (idle-machine estimate {both(base['cpu'], 'ready_est')} and "
                     f"{both(base['cpu'], 'cell_done_est')})" if "cpu" in base else "")
                  + f"; {base['first_visit_mb']:.0f} MB fetched on a first visit, {base['built']['site_mb']:.0f} MB on disk."]
    return "\n".join(lines)


def write_docs_block(figures: dict) -> None:
    text = DOCS.read_text(encoding="utf-8")
    start, end = text.find(BLOCK_START), text.find(BLOCK_END)
    if start < 0 or end < start:
        raise SystemExit(f"{DOCS.relative_to(REPO)} has no figures block ({BLOCK_START} ... {BLOCK_END})")
    DOCS.write_text(text[:start + len(BLOCK_START)] + "\n" + figures_block(figures) + "\n" + text[end:],
                    encoding="utf-8")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="rounds of (first visit, cached visit); default 5")
    parser.add_argument("--site", type=Path, default=REPO / "build" / "lite")
    parser.add_argument("--vs", type=Path, default=None, metavar="BASELINE_SITE",
                        help="a second built site (e.g. a copy of build/lite made before a change): every round "
                        "visits it and --site in turn, and the table puts them side by side (before | after)")
    parser.add_argument("--lesson", default=LESSON, help=f"notebook path in the site (default {LESSON})")
    parser.add_argument("--breakdown", action="store_true",
                        help="one more first visit per site, the first cell sent statement by statement (each "
                        "import timed alone) and then the cells up to the first figure")
    parser.add_argument("--cpu", action="store_true",
                        help="also trace every visit in Chromium and report the CPU time on the way to a ready kernel "
                        "and through the first cell (main thread until the kernel's worker starts, then the worker): "
                        "an estimate of the times on an idle machine, which a busy one's waits for a core do not inflate")
    parser.add_argument("--run-all", action="store_true",
                        help="also time Run All of every English lesson in the browser kernel, per site")
    parser.add_argument("--label", default="", help="a name for this measurement (e.g. before, after): its table is appended to --output "
                        "instead of replacing it, so a before/after pair made in one sitting sits together")
    parser.add_argument("--write", action="store_true",
                        help="keep the results: the Markdown report (--output), benchmarks/results/lite_startup.json "
                        "(the figures the site states; needs --runs >= 1) and the figures block of docs/jupyterlite.md")
    parser.add_argument("--output", type=Path, default=None,
                        help="where the Markdown report goes (default with --write: benchmarks/results/lite_startup.md)")
    parser.add_argument("--json", type=Path, default=None, help="also write every measurement as JSON here")
    parser.add_argument("--timeout", type=float, default=300, help="seconds to wait for a kernel (default 300)")
    args = parser.parse_args(argv)
    if args.runs < 0:
        parser.error("--runs must be at least 0")
    if args.write and args.runs < 1:
        parser.error("--write keeps the start-up figures: it needs --runs 1 or more")
    if args.output is None and args.write:
        args.output = RESULTS / "lite_startup.md"
    for site in (args.site, args.vs):
        if site is not None and not (site / "index.html").exists():
            print(f"{site} is missing: build it with `make lite`", file=sys.stderr)
            return 1
    if not CHROMIUM.exists():
        print(f"{CHROMIUM} is missing: install Debian's chromium (`make system-packages`)", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    sites = ([Site("before", args.vs.resolve())] if args.vs else []) + \
        [Site("after" if args.vs else (args.label or "site"), args.site.resolve())]
    timeout_ms = int(args.timeout * 1000)
    load_before = os.getloadavg()
    started = time.monotonic()
    runs = {site.name: {"first": [], "cached": []} for site in sites}
    breakdown: dict[str, dict] = {}
    run_alls: dict[str, dict] = {}
    loads = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
            version = browser.version
            for n in range(args.runs):
                for site in sites:          # interleaved: both sites see the same load
                    code = first_code_cell(site.path, args.lesson)
                    context = new_context(browser)
                    try:
                        for kind in ("first", "cached"):
                            t0 = time.monotonic()
                            r = visit(context, site.url(args.lesson), code, timeout_ms,
                                      browser=browser if args.cpu else None)
                            runs[site.name][kind].append(r)
                            loads.append(os.getloadavg()[0])
                            print(f"run {n + 1}/{args.runs} {site.name:8s} {kind:6s}: shown {fmt('shown', r['shown'])}, "
                                  f"ready {fmt('ready', r['ready'])}, first cell {fmt('cell_done', r['cell_done'])}, "
                                  f"{r['bytes'] / 1e6:.1f} MB fetched"
                                  + (f"; CPU estimate: ready {fmt('', r['cpu']['ready_est'])}, first cell "
                                     f"{fmt('', r['cpu'].get('cell_done_est', float('nan')))}" if r.get("cpu") else "")
                                  + f" ({time.monotonic() - t0:.0f} s wall, load {loads[-1]:.1f})", flush=True)
                    finally:
                        context.close()
            if args.breakdown:
                for site in sites:
                    context = new_context(browser)
                    try:
                        r = visit(context, site.url(args.lesson), "", timeout_ms,
                                  steps=breakdown_steps(site.path, args.lesson))
                    finally:
                        context.close()
                    breakdown[site.name] = r
                    print(f"breakdown {site.name}: ready {fmt('ready', r['ready'])}, "
                          + ", ".join(f"{label} {ms / 1000:.2f} s" for label, ms, _ in r["steps"]), flush=True)
            if args.run_all:
                lessons = sorted(f"lessons/en/{p.name}" for p in (sites[-1].path / "files" / "lessons" / "en").glob("*.ipynb"))
                for site in sites:
                    run_alls[site.name] = run_all(browser, site, lessons, timeout_ms)
            browser.close()
    finally:
        for site in sites:
            site.close()
    load_after = os.getloadavg()

    cores = os.cpu_count()
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    load = (f"load average (1, 5, 15 min) {', '.join(f'{x:.1f}' for x in load_before)} before, "
            f"{', '.join(f'{x:.1f}' for x in load_after)} after"
            + (f", 1-min load {min(loads):.1f}-{max(loads):.1f} during the visits" if loads else "") + f"; {cores} cores")
    rows = median_table(runs) if args.runs else []
    if args.runs and args.cpu:
        rows += cpu_rows(runs)
    if args.runs:
        rows += ["", "The first cell wrote on stderr (e.g. Matplotlib building its font cache): " + ", ".join(
            f"{name}: {sum(bool(r['cell_stderr'].strip()) for rs in by_kind.values() for r in rs)} of "
            f"{sum(len(rs) for rs in by_kind.values())} visits" for name, by_kind in runs.items())]
    bd_rows = []
    if breakdown:
        names = list(breakdown)
        labels = [label for label, _, _ in breakdown[names[-1]]["steps"]]
        bd_rows = ["| step (one first visit each; sent -> reply) | " + " | ".join(names) + " |",
                   "| --- |" + " ---: |" * len(names),
                   "| kernel ready (from navigation) | " + " | ".join(fmt("", breakdown[n]["ready"]) for n in names) + " |"]
        for i, label in enumerate(labels):
            cells = []
            for n in names:
                steps = breakdown[n]["steps"]
                cells.append(f"{steps[i][1] / 1000:.2f} s" if i < len(steps) and steps[i][0] == label else "-")
            bd_rows.append(f"| `{label}` | " + " | ".join(cells) + " |")
        fontcache = {n: any("font cache" in err for _, _, err in breakdown[n]["steps"]) for n in names}
        bd_rows += ["", "Matplotlib built its font cache in the browser (stderr): "
                    + ", ".join(f"{n}: {'yes' if v else 'no'}" for n, v in fontcache.items())]
    ra_rows = []
    if run_alls:
        names = list(run_alls)
        lessons = list(run_alls[names[-1]])
        ra_rows = ["| Run All, in the browser kernel (cached visit) | " + " | ".join(names) + " |",
                   "| --- |" + " ---: |" * len(names)]
        ra_rows += [f"| {lesson.rsplit('/', 1)[-1]} | " + " | ".join(
            f"{run_alls[n][lesson]['ms'] / 1000:.1f} s" + (" (failed cells)" if run_alls[n][lesson]["failed"] else "")
            for n in names) + " |" for lesson in lessons]
    print()
    for block in (rows, bd_rows, ra_rows):
        if block:
            print("\n".join(block))
            print()
    print(f"median of {args.runs}; times from navigation start; {load}; Chromium {version}")

    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True,
                                text=True).stdout.strip()
    except OSError:
        commit = "?"
    label = f" ({args.label})" if args.label else ""
    command = "python benchmarks/lite_startup.py " + " ".join(argv if argv is not None else sys.argv[1:])
    lines = [f"## lite start-up{label}: {when}, commit {commit}", "",
             f"`{command.strip()}` on {args.lesson}; Chromium {version}; "
             f"{load}; {time.monotonic() - started:.0f} s in all.", ""]
    for block in (rows, bd_rows, ra_rows):
        if block:
            lines += [*block, ""]
    if args.runs:
        lines += ["Every run (seconds from navigation start: shown / ready / first cell done):", ""]
        for name, by_kind in runs.items():
            for kind, rs in by_kind.items():
                lines.append(f"- {name}, {kind}: " + "; ".join(f"{r['shown'] / 1000:.1f} / {r['ready'] / 1000:.1f} / "
                                                             f"{r['cell_done'] / 1000:.1f}" for r in rs))
        for name, by_kind in runs.items():
            last = by_kind["first"][-1]
            lines += ["", f"Wheels fetched by the kernel in the last first visit, {name} (name, start, end in ms):", ""]
            lines += [f"- {w}: {a}-{b}" for w, a, b in last["wheels"]]
    if args.output is not None:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        previous = args.output.read_text(encoding="utf-8") if args.output.exists() and args.label else ""
        args.output.write_text((previous + "\n" if previous else "") + "\n".join(lines) + "\n", encoding="utf-8")
        print(f"written to {args.output.relative_to(REPO) if args.output.is_relative_to(REPO) else args.output}")
    if args.write:
        figures = {"when": when, "commit": commit, "chromium": version, "cores": cores, "runs": args.runs,
                   "load": {"before": [round(x, 1) for x in load_before], "after": [round(x, 1) for x in load_after],
                            "during": [round(min(loads), 1), round(max(loads), 1)]},
                   "lesson": args.lesson}
        for site in sites:
            figures["site" if site is sites[-1] else "baseline"] = site_summary(site.path, runs[site.name])
        RESULTS_JSON.write_text(json.dumps(figures, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        write_docs_block(figures)
        print(f"written to {RESULTS_JSON.relative_to(REPO)} and the figures block of {DOCS.relative_to(REPO)}; "
              "`make lite` puts them on the landing page and in the start-up notice")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"when": when, "commit": commit, "load_before": load_before,
                                         "load_after": load_after, "chromium": version, "runs": runs,
                                         "breakdown": breakdown, "run_all": run_alls}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
