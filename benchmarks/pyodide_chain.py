#!/usr/bin/env python
"""The chain figure of benchmarks/run.py measured in CPython and inside the JupyterLite site's
Pyodide kernel, in one run, side by side.

    python benchmarks/pyodide_chain.py            # full: 3 turns of 15 batches of 100 ms each side
    python benchmarks/pyodide_chain.py --quick    # smoke run: 1 turn of 5 batches of 20 ms
    python benchmarks/pyodide_chain.py --write    # also write benchmarks/results/pyodide_chain.md

The workload is benchmarks/chain_workload.py, the one place its code lives: a recorded scalar
chain of 200 primitive ops and its gradient with minitape, and the same by hand in NumPy as the
floor. `make lite` puts that file's text, unchanged, into the site's notebook
`benchmarks/chain.ipynb` (lite/build.py, `stage_chain_benchmark`); a student can open and run
it there too.

What this script does: serves build/lite on 127.0.0.1, opens the notebook in Debian's headless
Chromium (/usr/bin/chromium through Playwright, as tests/browser and lite_startup.py do), waits
for its kernel, then lets the two sides take turns: CPython (this process, importing
chain_workload.py) measures, the Pyodide kernel runs the notebook's code cells one by one (the
parameters cell set to --quick or not), CPython again, the notebook's last cell again, ...,
CPython last (--segments: 3 Pyodide measurements, 1 with --quick), so that a change in the
shared machine's load falls on both sides. Each side's batches are pooled into one median. It
prints a table of µs per op (minitape, NumPy by hand) in each, the ratios, the gradients each
computed, and `uptime` before and after. Exit status 1 when a figure is not finite and positive
or a gradient disagrees (inside Pyodide or with CPython's).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import json
import math
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
from _results import add_write_option, written_to  # noqa: E402

WORKLOAD = HERE / "chain_workload.py"
NOTEBOOK = "benchmarks/chain.ipynb"      # its path in the site's contents
CHROMIUM = Path("/usr/bin/chromium")
# the suite's list (tests/conftest.py), repeated here so that the script runs without tests/
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
PARAMETERS = "QUICK = {quick}"           # the notebook's cell tagged "parameters"
FLOOR, TAPE = "NumPy by hand", "minitape"
GRADIENT_RTOL = 1e-12                    # CPython's gradient against Pyodide's (float64, libm's sin/cos)

INTRO = """# The chain benchmark, inside this browser tab

minitape's per-operation cost, measured by the Python that runs this notebook: Pyodide (Python
compiled to WebAssembly) in your browser. `y = sin(y * 1.0001 + 0.1) * 0.9` is repeated 50 times
on a float64 scalar, recorded on a `GradientTape` and differentiated (200 primitive operations),
and the same forward pass and chain rule are written by hand in NumPy as the floor.

The second cell is `benchmarks/chain_workload.py` of the repository, unchanged: the same code
`benchmarks/run.py` and `benchmarks/pyodide_chain.py` run in CPython. Run all cells (about 10 s
once Python has started); `QUICK = True` makes it a 3-second smoke run."""

REPORT = """chain_result = measure(quick=QUICK)
print(f"{chain_result['implementation']} {chain_result['python']} on {chain_result['platform']}, "
      f"NumPy {chain_result['numpy']}, minitape {chain_result['minitape']}")
for name, r in chain_result["implementations"].items():
    print(f"{name:>14}: {r['per_op_us']:7.3f} µs per primitive op "
          f"(quartiles {r['q1_us']:.3f}-{r['q3_us']:.3f}, fastest {r['best_us']:.3f}; "
          f"{r['rounds']} batches of {r['batch']}), "
          f"dy/dx = {r['gradient']!r}")
print(f"tape overhead: minitape / NumPy by hand = {chain_result['overhead']:.1f}x")"""


# ---------------------------------------------------------------------------------------------
# the notebook the site ships (lite/build.py calls write_notebook; no NumPy needed here)

def _cell(kind: str, source: str, **metadata) -> dict:
    cell = {"cell_type": kind, "metadata": metadata, "source": source.splitlines(keepends=True)}
    if kind == "code":
        cell.update(execution_count=None, outputs=[])
    return cell


def notebook() -> dict:
    """benchmarks/chain.ipynb: the intro, the parameters, chain_workload.py's text, the report."""
    return {
        "cells": [_cell("markdown", INTRO),
                  _cell("code", PARAMETERS.format(quick=False), tags=["parameters"]),
                  _cell("code", WORKLOAD.read_text(encoding="utf-8").rstrip("\n"),
                        source_file="benchmarks/chain_workload.py"),
                  _cell("code", REPORT)],
        "metadata": {"kernelspec": {"display_name": "Python (Pyodide)", "language": "python", "name": "python"},
                     "language_info": {"name": "python"}},
        "nbformat": 4, "nbformat_minor": 5,
    }


def write_notebook(path: Path) -> Path:
    nb = notebook()
    for n, cell in enumerate(nb["cells"]):
        cell["id"] = f"chain-{n}"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def code_cells(nb: dict, quick: bool) -> list[str]:
    """The notebook's code cells as the kernel runs them, the parameters cell set to `quick`."""
    cells = []
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        if "parameters" in cell["metadata"].get("tags", []):
            source = PARAMETERS.format(quick=bool(quick))
        cells.append(source)
    return cells


def stale(site: Path) -> str | None:
    """Why the site's notebook is not the one this checkout would ship, or None."""
    path = site / "files" / NOTEBOOK
    if not path.exists():
        return f"{path} is missing: build the site with `make lite`"
    if code_cells(json.loads(path.read_text(encoding="utf-8")), False) != code_cells(notebook(), False):
        return f"{path} is older than benchmarks/chain_workload.py: rebuild the site with `make lite`"
    return None


# ---------------------------------------------------------------------------------------------
# serving the site and running the notebook in its kernel

class _Quiet(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
                      ".whl": "application/octet-stream"}

    def log_message(self, *args) -> None:
        pass


@contextlib.contextmanager
def serve(site: Path):
    """The static site on 127.0.0.1 (a plain file server, as any static host): yields its base URL."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=site))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


KERNEL_READY = """(path) => {
  const app = window.jupyterapp, w = app && app.shell && app.shell.currentWidget;
  const k = w && w.context && w.context.path === path && w.sessionContext.session && w.sessionContext.session.kernel;
  return !!(k && k.connectionStatus === 'connected' && k.status === 'idle');
}"""

EXECUTE = """async (code) => {
  const k = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  let text = '';
  const f = k.requestExecute({code, store_history: false});
  f.onIOPub = msg => {
    const t = msg.header.msg_type;
    if (t === 'stream') text += msg.content.text;
    else if (t === 'error') text += msg.content.traceback.join('\\n') + '\\n';
  };
  const reply = await f.done;
  return {status: reply.content.status, text};
}"""

READ_RESULT = """import json as _json, pyodide as _pyodide
print(_json.dumps(dict(chain_result, pyodide=_pyodide.__version__)))
del _json, _pyodide"""

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


class PyodideSession:
    """The site's chain notebook open in a fresh browser context (an empty profile), its kernel
    started; `run(quick)` runs the notebook's code cells there and returns measure()'s dict."""

    def __init__(self, browser, base_url: str, site: Path, timeout_s: float = 420, log=print):
        problem = stale(site)
        if problem:
            raise RuntimeError(problem)
        self.nb = json.loads((site / "files" / NOTEBOOK).read_text(encoding="utf-8"))
        self.context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="en-US")
        self.page = self.context.new_page()
        self.log = log
        self.chromium = browser.version
        t0 = time.monotonic()
        log(f"opening {NOTEBOOK} of the site in Chromium {browser.version}; waiting for its Pyodide kernel ...")
        self.page.goto(f"{base_url}/lab/index.html?path={NOTEBOOK}", wait_until="commit")
        self.page.wait_for_function(KERNEL_READY, arg=NOTEBOOK, timeout=timeout_s * 1000, polling=200)
        self.kernel_ready_s = time.monotonic() - t0
        log(f"kernel ready after {self.kernel_ready_s:.0f} s")

    def execute(self, code: str) -> str:
        reply = self.page.evaluate(EXECUTE, code)
        text = _ANSI.sub("", reply["text"])
        if reply["status"] != "ok":
            raise RuntimeError(f"a cell of {NOTEBOOK} failed in the Pyodide kernel:\n{code[:300]}\n---\n{text[-3000:]}")
        return text

    def run(self, quick: bool) -> dict:
        """Every code cell of the notebook, in order: the first measurement."""
        t0 = time.monotonic()
        for n, code in enumerate(code_cells(self.nb, quick), 1):
            self.printed = self.execute(code)
        self.log(f"Pyodide: the notebook's {n} code cells ran in {time.monotonic() - t0:.0f} s "
                 "(loading NumPy and the course included)")
        return self._result()

    def rerun(self) -> dict:
        """The notebook's last cell again (it calls measure()): one more measurement."""
        self.printed = self.execute(code_cells(self.nb, False)[-1])
        return self._result()

    def _result(self) -> dict:
        return json.loads(self.execute(READ_RESULT).strip().splitlines()[-1])

    def close(self) -> None:
        self.context.close()


# ---------------------------------------------------------------------------------------------
# the side-by-side table

def finite_positive(x) -> bool:
    return isinstance(x, (int, float)) and math.isfinite(x) and x > 0


def problems(cpython: dict, pyodide: dict) -> list[str]:
    """What is wrong with a pair of results: figures not finite and positive, gradients that
    disagree between the implementations or between CPython and Pyodide."""
    out = []
    for where, res in (("CPython", cpython), ("Pyodide", pyodide)):
        for name in (TAPE, FLOOR):
            r = res["implementations"][name]
            for key in ("per_op_us", "q1_us", "q3_us", "best_us"):
                if not finite_positive(r[key]):
                    out.append(f"{where} {name} {key} = {r[key]!r} (not finite and positive)")
            if not math.isfinite(r["gradient"]):
                out.append(f"{where} {name} gradient = {r['gradient']!r}")
    ref = cpython["implementations"][FLOOR]["gradient"]
    for where, res in (("CPython", cpython), ("Pyodide", pyodide)):
        for name in (TAPE, FLOOR):
            g = res["implementations"][name]["gradient"]
            if not abs(g - ref) <= GRADIENT_RTOL * abs(ref):
                out.append(f"{where} {name}: dy/dx = {g!r}, CPython's NumPy by hand gives {ref!r} "
                           f"(rtol {GRADIENT_RTOL})")
    return out


def combine(measurements: list[dict]) -> dict:
    """One side's figure from its measurements (segments): every batch of all of them pooled,
    then median, quartiles and fastest recomputed; `segments` keeps each one's minitape median."""
    from chain_workload import summarize

    out = json.loads(json.dumps(measurements[0]))
    for name, r in out["implementations"].items():
        r.update(summarize([t for m in measurements for t in m["implementations"][name]["batches_us"]]))
    out["overhead"] = out["implementations"][TAPE]["per_op_us"] / out["implementations"][FLOOR]["per_op_us"]
    out["segments"] = [m["implementations"][TAPE]["per_op_us"] for m in measurements]
    return out


def table(cpython: dict, pyodide: dict) -> list[str]:
    c, p = cpython["implementations"], pyodide["implementations"]
    head = (f"| µs per primitive op (forward + backward) | CPython {cpython['python']} | "
            f"Pyodide {pyodide.get('pyodide', '?')} kernel (Python {pyodide['python']}) | Pyodide / CPython |")
    rows = [head, "| --- | ---: | ---: | ---: |"]
    for name, label in ((TAPE, "minitape: chain recorded + gradient"), (FLOOR, "NumPy by hand (floor)")):
        rows.append(f"| {label} | {c[name]['per_op_us']:.3f} | {p[name]['per_op_us']:.3f} | "
                    f"{p[name]['per_op_us'] / c[name]['per_op_us']:.2f}x |")
    rows.append(f"| minitape / NumPy by hand (the tape's overhead) | {cpython['overhead']:.1f}x | "
                f"{pyodide['overhead']:.1f}x | |")
    for name, label in ((TAPE, "minitape, fastest batch"), (FLOOR, "NumPy by hand, fastest batch")):
        rows.append(f"| {label} | {c[name]['best_us']:.3f} | {p[name]['best_us']:.3f} | "
                    f"{p[name]['best_us'] / c[name]['best_us']:.2f}x |")
    rows.append(f"| NumPy | {cpython['numpy']} | {pyodide['numpy']} | |")
    rows.append(f"| dy/dx, minitape | {c[TAPE]['gradient']!r} | {p[TAPE]['gradient']!r} | |")
    rows.append(f"| dy/dx, NumPy by hand | {c[FLOOR]['gradient']!r} | {p[FLOOR]['gradient']!r} | |")
    return rows


def uptime() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "load average %.2f, %.2f, %.2f" % os.getloadavg()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smoke run: 5 rounds of 20 ms batches on each side")
    parser.add_argument("--site", type=Path, default=REPO / "build" / "lite", help="the built site (default build/lite)")
    parser.add_argument("--timeout", type=float, default=420, help="seconds to wait for the kernel (default 420)")
    parser.add_argument("--segments", type=int, help="measurements in Pyodide, taking turns with CPython's "
                        "(which makes one more, the last): default 3, 1 with --quick")
    add_write_option(parser, "pyodide_chain")
    args = parser.parse_args(argv)
    if args.segments is None:
        args.segments = 1 if args.quick else 3
    if args.segments < 1:
        parser.error("--segments must be at least 1")
    if not (args.site / "index.html").exists():
        print(f"{args.site} is missing: build it with `make lite`", file=sys.stderr)
        return 1
    problem = stale(args.site)
    if problem:
        print(problem, file=sys.stderr)
        return 1
    if not CHROMIUM.exists():
        print(f"{CHROMIUM} is missing: install Debian's chromium (`make system-packages`)", file=sys.stderr)
        return 1
    with written_to(args.write, "The chain in CPython and in the Pyodide kernel (benchmarks/pyodide_chain.py)",
                    markdown=True):
        return _main(args)


def _main(args) -> int:
    import chain_workload
    from playwright.sync_api import sync_playwright

    def log(msg):
        print(f"[pyodide_chain] {msg}", file=sys.stderr, flush=True)

    before = uptime()
    with serve(args.site) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            session = PyodideSession(browser, base, args.site, args.timeout, log)
            try:
                cpython, pyodide = [], []
                for n in range(args.segments):
                    log(f"CPython: measuring ({n + 1} of {args.segments + 1}) ...")
                    cpython.append(chain_workload.measure(quick=args.quick))
                    log(f"Pyodide: measuring ({n + 1} of {args.segments}) ...")
                    pyodide.append(session.run(args.quick) if n == 0 else session.rerun())
                log(f"CPython: measuring ({args.segments + 1} of {args.segments + 1}) ...")
                cpython.append(chain_workload.measure(quick=args.quick))
                printed = session.printed
            finally:
                session.close()
            chromium = browser.version
        finally:
            browser.close()
    after = uptime()
    segments = {"CPython": cpython, "Pyodide": pyodide}
    cpython, pyodide = combine(cpython), combine(pyodide)

    print(f"**chain: {chain_workload.CHAIN_LINES} x `y = sin(y * 1.0001 + 0.1) * 0.9` = "
          f"{chain_workload.CHAIN_OPS} primitive ops on a float64 scalar, recorded and differentiated; "
          f"the same code (benchmarks/chain_workload.py) in CPython and in the site's Pyodide kernel"
          f"{' (--quick: smoke run, not for comparison)' if args.quick else ''}**")
    print()
    print("\n".join(table(cpython, pyodide)))
    print()
    c, p = cpython["implementations"], pyodide["implementations"]
    print(f"The two sides took turns, CPython first and last: {len(segments['CPython'])} measurements in "
          f"CPython, {len(segments['Pyodide'])} in Pyodide, each {c[TAPE]['rounds'] // len(segments['CPython'])} "
          f"batches per implementation of at least {'20' if args.quick else '100'} ms of calls; a figure is "
          f"the median over all batches of its side, the fastest batch their minimum (what a loaded machine "
          f"disturbs least). minitape's median per measurement, in order (µs/op): CPython "
          f"{', '.join(f'{x:.3f}' for x in cpython['segments'])}; Pyodide "
          f"{', '.join(f'{x:.3f}' for x in pyodide['segments'])}. Interquartile ranges (µs/op): CPython "
          f"minitape {c[TAPE]['q1_us']:.3f}-{c[TAPE]['q3_us']:.3f}, NumPy {c[FLOOR]['q1_us']:.3f}-"
          f"{c[FLOOR]['q3_us']:.3f}; Pyodide minitape {p[TAPE]['q1_us']:.3f}-{p[TAPE]['q3_us']:.3f}, NumPy "
          f"{p[FLOOR]['q1_us']:.3f}-{p[FLOOR]['q3_us']:.3f}.")
    print()
    print(f"Chromium {chromium}, headless, site served from 127.0.0.1; kernel ready "
          f"{session.kernel_ready_s:.0f} s after opening the notebook. The machine is shared: "
          f"`uptime` before: `{before}`; after: `{after}`. Read the ratios, measured in the same run.")
    print()
    print("What the notebook's last cell printed in the Pyodide kernel (its last measurement):")
    print()
    print("```text\n" + printed.rstrip() + "\n```")
    wrong = problems(cpython, pyodide)
    for p in wrong:
        print(f"\nPROBLEM: {p}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
