"""The JupyterLite site's sizes and load times have one source: benchmarks/results/lite_startup.json,
written by `python benchmarks/lite_startup.py --write` (which copies in the sizes the build wrote
into the site, site-figures.json). lite/build.py puts its figures on the landing page and in the
start-up notice (tests/browser/test_lite.py reads them there), and docs/jupyterlite.md's figures
block is written from it: this holds the docs to the file. Fast: files only, no site, no browser."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def bench():
    return _load("minitape_lite_startup_bench", REPO / "benchmarks" / "lite_startup.py")


@pytest.fixture(scope="module")
def lite_build():
    return _load("minitape_lite_build_figures", REPO / "lite" / "build.py")


def test_the_docs_figures_are_the_measured_ones(bench):
    figures = json.loads(bench.RESULTS_JSON.read_text(encoding="utf-8"))
    text = bench.DOCS.read_text(encoding="utf-8")
    start, end = text.index(bench.BLOCK_START) + len(bench.BLOCK_START), text.index(bench.BLOCK_END)
    assert text[start:end].strip() == bench.figures_block(figures), \
        "docs/jupyterlite.md's figures differ from benchmarks/results/lite_startup.json: " \
        "run `python benchmarks/lite_startup.py --write` (never edit the block by hand)"
    # nothing else in the page states a size or a start-up time of the site
    rest = text[:text.index(bench.BLOCK_START)] + text[end:]
    assert not [w for w in ("MB", " s,", " s ") if w in rest.split("**Tests**")[0]], \
        "a figure outside the block of docs/jupyterlite.md"


def test_the_block_says_what_the_file_holds(bench):
    figures = {"when": "2026-01-02 03:04 UTC", "commit": "abc1234", "chromium": "156.0.1.2", "cores": 2, "runs": 3,
               "load": {"before": [1, 1, 1], "after": [1, 1, 1], "during": [0.4, 2.5]},
               "site": {"built": {"site_mb": 61.2, "python_mb": 40.4, "lesson_python_mb": 30.6},
                        "first": {"shown": 1500, "ready": 4900, "cell_done": 5800},
                        "cached": {"shown": 1400, "ready": 4500, "cell_done": 5300}, "first_visit_mb": 48.9}}
    block = bench.figures_block(figures)
    for fact in ("2026-01-02 03:04 UTC", "abc1234", "medians of 3", "0.4–2.5", "| 4.9 s | 4.5 s |",
                 "| 5.8 s | 5.3 s |", "61 MB on disk", "40 MB", "31 MB", "fetches 49 MB"):
        assert fact in block, fact
    assert "before this change" not in block and "idle machine" not in block
    figures["site"]["cpu"] = {"first": {"ready_est": 4100, "cell_done_est": 5600},
                              "cached": {"ready_est": 3900, "cell_done_est": 5400}}
    assert "kernel ready 4.1 s / 3.9 s, first cell done 5.6 s / 5.4 s" in bench.figures_block(figures)
    del figures["site"]["cpu"]
    figures["baseline"] = dict(figures["site"], first_visit_mb=60.1, built={"site_mb": 74.8})
    assert "60 MB fetched on a first visit, 75 MB on disk" in bench.figures_block(figures)


def test_the_build_states_the_measured_figures(lite_build, bench):
    figures = json.loads(bench.RESULTS_JSON.read_text(encoding="utf-8"))
    measured = lite_build.measured_figures()
    assert measured["first_visit_mb"] == figures["site"]["first_visit_mb"]
    assert measured["kernel_ready_s"] * 1000 >= figures["site"]["first"]["ready"] > (measured["kernel_ready_s"] - 1) * 1000
    assert lite_build.MEASURED == bench.RESULTS_JSON
    # the notice and the landing page take "{seconds}" from it, in every language
    for lang, texts in lite_build.STARTUP_MESSAGES.items():
        assert "{seconds}" in texts["starting"], lang
        assert "{seconds}" in lite_build.LANDING_TEXT[lang][1] and "{size}" in lite_build.LANDING_TEXT[lang][1]


@pytest.mark.parametrize("lang, n, text", [
    ("en", 1, "1 second"), ("en", 7, "7 seconds"), ("es", 7, "7 segundos"), ("pt", 1, "1 segundo"),
    ("ru", 1, "1\u00a0секунды"), ("ru", 3, "3\u00a0секунд"), ("ru", 21, "21\u00a0секунды"), ("ru", 12, "12\u00a0секунд"),
])
def test_seconds_read_as_each_language_says_them_after_about(lite_build, lang, n, text):
    assert lite_build.seconds_phrase(lang, n) == text


def test_a_missing_results_file_stops_the_build_with_one_line(lite_build, tmp_path, monkeypatch):
    monkeypatch.setattr(lite_build, "MEASURED", tmp_path / "results" / "lite_startup.json")
    monkeypatch.setattr(lite_build, "REPO", tmp_path)
    with pytest.raises(lite_build.BuildError, match="run `python benchmarks/lite_startup.py --write`"):
        lite_build.measured_figures()


def test_the_cpu_estimate_adds_the_page_until_the_worker_then_the_worker(bench):
    """cpu_figures reads a Chromium trace: the main thread's CPU before the kernel's worker exists,
    the worker's until the kernel is ready, both threads' during the first cell (ms)."""
    def task(tid, ts, tdur):
        return {"ph": "X", "cat": "toplevel", "name": "ThreadControllerImpl::RunTask", "pid": 1, "tid": tid,
                "ts": ts, "dur": tdur * 3, "tdur": tdur}
    events = [{"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "CrRendererMain"}},
              {"ph": "M", "name": "thread_name", "pid": 1, "tid": 2, "args": {"name": "DedicatedWorker thread"}},
              {"ph": "M", "name": "thread_name", "pid": 1, "tid": 3, "args": {"name": "Compositor"}},
              task(1, 1_000, 500_000), task(1, 900_000, 300_000),      # the page, before the worker
              task(3, 950_000, 999_000),                               # another thread: not counted
              task(2, 1_000_000, 2_000_000),                           # the worker starts the kernel
              task(1, 1_500_000, 100_000),                             # the page, meanwhile: off the path
              {"name": "bench:ready", "ph": "R", "pid": 1, "tid": 1, "ts": 4_000_000},
              {"name": "bench:cell-start", "ph": "R", "pid": 1, "tid": 1, "ts": 4_100_000},
              task(2, 4_200_000, 900_000), task(1, 4_300_000, 50_000),
              {"name": "bench:cell-done", "ph": "R", "pid": 1, "tid": 1, "ts": 6_000_000}]
    cpu = bench.cpu_figures(json.dumps({"traceEvents": events}).encode())
    assert cpu == {"main_before_worker": 800.0, "worker_until_ready": 2000.0, "ready_est": 2800.0,
                   "cell_cpu": 950.0, "cell_done_est": 3750.0}
    assert bench.cpu_figures(json.dumps({"traceEvents": events[:5]}).encode()) == {}   # no worker: nothing
