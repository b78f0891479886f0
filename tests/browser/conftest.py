"""Real-browser harness: JupyterLab on 127.0.0.1 with a token, driven by Debian's headless Chromium
through Playwright. Screenshots go to test-artifacts/browser/.

Fixtures:
- `lab_root`: a scratch folder JupyterLab serves (tests copy lessons or write notebooks into it, so
  JupyterLab's autosave never touches the committed notebooks).
- `jupyterlab`: the running server (`.url(path)` gives an address with the token).
- `page`: a fresh Playwright page in Chromium; `screenshot(page, name)` saves an artifact.
- `run_all_cells(page)`: waits for the kernel, runs every cell, waits until all have run; fails at
  once, naming the cells not run and the error outputs, when the run stops at an error.
- `notebook_state(page)`: kernel status, code cells not run, error and stderr outputs (from the
  cell models).

The server's kernels import this checkout (PYTHONPATH), and notebooks render every cell
(windowingMode "none"), so what a test reads from the page does not depend on scrolling.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: F401  (one Chromium setup for the suite)
from tests.support.server import free_port, running_server

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts" / "browser"


@dataclass
class JupyterLab:
    base: str
    token: str
    root: Path
    log: Path

    def url(self, path: str = "lab") -> str:
        sep = "&" if "?" in path else "?"
        return f"{self.base}/{path.lstrip('/')}{sep}token={self.token}"


@pytest.fixture
def lab_root(tmp_path: Path) -> Path:
    root = tmp_path / "lab-root"
    root.mkdir()
    return root


@pytest.fixture
def jupyterlab(lab_root: Path, tmp_path: Path):
    with jupyterlab_server(lab_root, tmp_path) as lab:
        yield lab


@contextlib.contextmanager
def jupyterlab_server(lab_root: Path, tmp_path: Path) -> Iterator[JupyterLab]:
    """A JupyterLab serving `lab_root`, its settings and log under `tmp_path`, stopped on the way
    out (with its kernels). The `jupyterlab` fixture gives each test one; a module whose tests
    only add folders of their own can share one (test_widget_layout.py)."""
    home = tmp_path / "jupyter-home"
    config = home / "config"
    config.mkdir(parents=True)
    # No news or update checks (this machine has no network), nothing restored from a workspace,
    # and the app exposed so tests can run JupyterLab commands (e.g. notebook:run-all-cells).
    (config / "jupyter_server_config.json").write_text(json.dumps({
        "LabApp": {"news_url": None, "check_for_updates_class": "jupyterlab.NeverCheckForUpdate",
                   "expose_app_in_browser": True},
    }))
    # and no "get notified about Jupyter news?" toast over the page
    settings = home / "lab-settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text(json.dumps({"fetchNews": "false"}))
    # Every cell rendered as an ordinary element: JupyterLab 4's default windowing
    # ("contentVisibility") skips the rendering of cells out of view, and their text then reads as
    # empty (innerText, Playwright's inner_text) until they are scrolled to.
    notebook = settings.parent / "notebook-extension"
    notebook.mkdir()
    (notebook / "tracker.jupyterlab-settings").write_text(json.dumps({"windowingMode": "none"}))
    env = {k: v for k, v in os.environ.items() if k not in {"MINITAPE_LANG", "JPY_SESSION_NAME"}}
    # Kernels start in the notebook's folder under lab_root, so `import minitape` (and lessons,
    # grader) must not rely on the working directory: put this checkout first on the path, as the
    # other subprocess tests do (with `make test`'s editable install it is the same code).
    pythonpath = [str(REPO)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env.update(PYTHONPATH=os.pathsep.join(pythonpath),
               JUPYTER_CONFIG_DIR=str(config), JUPYTER_DATA_DIR=str(home / "data"),
               JUPYTER_RUNTIME_DIR=str(home / "runtime"), IPYTHONDIR=str(home / "ipython"),
               JUPYTERLAB_SETTINGS_DIR=str(home / "lab-settings"),
               JUPYTERLAB_WORKSPACES_DIR=str(home / "lab-workspaces"),
               MPLCONFIGDIR=str(home / "matplotlib"),
               PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    port, token = free_port(), secrets.token_hex(16)
    lab = JupyterLab(base=f"http://127.0.0.1:{port}", token=token, root=lab_root, log=tmp_path / "jupyterlab.log")
    with running_server(
            [sys.executable, "-m", "jupyterlab", "--no-browser", "--ServerApp.ip=127.0.0.1", "--allow-root",
             f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
             f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={lab_root}"],
            cwd=lab_root, env=env, log=lab.log, status_url=lab.url("api/status"), name="JupyterLab"):
        yield lab


# `browser` (one Chromium per test process) lives in tests/conftest.py: tests outside this folder
# use it too, since a second Playwright in one process cannot start.


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="en-US")
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def screenshot():
    """`screenshot(page, name)` saves test-artifacts/browser/<name>.png and returns its path."""

    def save(page, name: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return save


# The open notebook as its cell models hold it (every cell, rendered or not): which code cells
# have run, and every error or stderr output, with the cell's index and first line.
_NOTEBOOK_STATE_JS = """() => {
    const w = window.jupyterapp.shell.currentWidget;
    const session = w && w.sessionContext && w.sessionContext.session;
    const kernel = session && session.kernel;
    const text = t => Array.isArray(t) ? t.join('') : (t || '');
    const cells = [...(w ? w.content.widgets : [])].map((c, i) => ({i, c}))
        .filter(x => x.c.model.type === 'code');
    const head = x => x.c.model.sharedModel.getSource().split('\\n')[0].slice(0, 80);
    return {
        kernel: kernel ? kernel.status + '/' + kernel.connectionStatus : 'no kernel',
        runAll: window.__minitapeRunAll === undefined ? null : window.__minitapeRunAll,
        codeCells: cells.length,
        notRun: cells.filter(x => x.c.model.executionCount === null).map(x => `#${x.i} ${head(x)}`),
        problems: cells.flatMap(x => x.c.model.outputs.toJSON()
            .filter(o => o.output_type === 'error' || (o.output_type === 'stream' && o.name === 'stderr'))
            .map(o => `#${x.i} ${head(x)}: ` + (o.output_type === 'error'
                ? `${o.ename}: ${o.evalue}` : 'stderr: ' + text(o.text).trim().slice(0, 500)))),
    };
}"""


def notebook_state(page) -> dict:
    """The open notebook's kernel status, code cells not run yet and error/stderr outputs."""
    return page.evaluate(_NOTEBOOK_STATE_JS)


def _describe(state: dict) -> str:
    lines = [f"kernel {state['kernel']}, run-all result {state['runAll']!r}, "
             f"{len(state['notRun'])} of {state['codeCells']} code cells not run"]
    lines += [f"  not run: {c}" for c in state["notRun"][:10]]
    if len(state["notRun"]) > 10:
        lines.append(f"  ... and {len(state['notRun']) - 10} more")
    lines += [f"  error output: {p}" for p in state["problems"]] or ["  no error or stderr output"]
    return "\n".join(lines)


@pytest.fixture(name="notebook_state")
def notebook_state_fixture():
    """`notebook_state(page)`: see `notebook_state` above."""
    return notebook_state


@pytest.fixture
def run_all_cells():
    """`run_all_cells(page)`: in the open notebook, wait for its kernel, run all cells (as Run → Run
    All Cells does) and wait until every cell has run and the kernel is idle again.

    JupyterLab stops a run at the first cell that raises (the cells after it never run), so when
    the run ends with cells not run, or does not end in time, the test fails at once with the
    cells not run and the error outputs (e.g. a ModuleNotFoundError in the first cell) instead of
    waiting for cells that will never run. Returns `notebook_state(page)` after the run."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    def run(page, timeout_ms: int = 180_000) -> dict:
        deadline = time.monotonic() + timeout_ms / 1000

        def left() -> int:   # milliseconds left of timeout_ms, for each wait in turn
            return max(1_000, int((deadline - time.monotonic()) * 1000))

        page.wait_for_selector(".jp-NotebookPanel .jp-Notebook", timeout=left())
        try:
            page.wait_for_function(
                """() => {
                    const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
                    const kernel = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
                    return !!kernel && kernel.connectionStatus === 'connected' && kernel.status === 'idle';
                }""",
                timeout=left(),
            )
        except PlaywrightTimeout:
            pytest.fail("the notebook's kernel did not become idle in time\n" + _describe(notebook_state(page)))
        # Start the run without awaiting it in evaluate (which has no timeout); its promise
        # settles once every cell has run or the run stopped at an error.
        page.evaluate("""() => {
            window.__minitapeRunAll = null;
            window.jupyterapp.commands.execute('notebook:run-all-cells').then(
                ok => { window.__minitapeRunAll = ok === false ? 'stopped' : 'done'; },
                err => { window.__minitapeRunAll = 'failed: ' + err; });
        }""")
        try:
            page.wait_for_function(
                """() => {
                    const w = window.jupyterapp.shell.currentWidget;
                    return window.__minitapeRunAll !== null && w.sessionContext.session.kernel.status === 'idle';
                }""",
                timeout=left(),
            )
        except PlaywrightTimeout:
            pytest.fail(f"Run All Cells did not finish in {timeout_ms / 1000:.0f} s\n"
                        + _describe(notebook_state(page)))
        state = notebook_state(page)
        if state["notRun"]:
            pytest.fail("Run All Cells stopped before the end\n" + _describe(state))
        return state

    return run
