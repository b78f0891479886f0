"""The browser harness itself: JupyterLab starts on 127.0.0.1 with a token, Debian's Chromium
opens a notebook, runs it with a kernel of this environment and shows the outputs."""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_notebook_runs_in_jupyterlab_in_chromium(jupyterlab, page, run_all_cells, screenshot) -> None:
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# Harness check"),
        nbformat.v4.new_code_cell("import sys\nprint('prefix=' + sys.prefix)"),
        nbformat.v4.new_code_cell("print(6 * 7)"),
    ])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, jupyterlab.root / "harness.ipynb")

    # without the token JupyterLab asks for one: the server is not open to anyone on the machine
    page.goto(jupyterlab.base + "/lab")
    page.wait_for_selector("input[type=password], input[name=password]", timeout=60_000)

    page.goto(jupyterlab.url("lab/tree/harness.ipynb"))
    run_all_cells(page)
    outputs = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output").all_inner_texts()
    assert [o.strip() for o in outputs] == [f"prefix={sys.prefix}", "42"], outputs
    assert page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']").count() == 0
    shot = screenshot(page, "harness-notebook")
    assert shot.stat().st_size > 10_000
