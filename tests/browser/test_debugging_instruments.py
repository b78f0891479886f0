"""minitape.debugging in a real JupyterLab: the tape drawing and the stepper widget render (the
SVG is not sanitised away), the Next button walks the backward pass, and both themes are legible
(screenshots in test-artifacts/browser/)."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[2]


def _notebook(path: Path) -> None:
    cells = [
        f"import sys\nsys.path.insert(0, {str(REPO)!r})\nimport minitape as tf\n"
        "from minitape.debugging import draw, stepper, why_none",
        "x = tf.Variable(3.0)\nwith tf.GradientTape(persistent=True) as tape:\n"
        "    y = x**2 + 2 * x\ndraw(tape)",
        "s = stepper(tape, y, x)\ns",
        "z = tf.constant(2.0)\nwith tf.GradientTape() as t2:\n    w = z * z\nwhy_none(t2, w, z)",
    ]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, path)


def test_drawing_and_stepper_render_and_step_in_jupyterlab(jupyterlab, page, run_all_cells,
                                                           screenshot) -> None:
    _notebook(jupyterlab.root / "instruments.ipynb")
    page.goto(jupyterlab.url("lab/tree/instruments.ipynb"))
    run_all_cells(page)
    panel = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")
    assert panel.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']").count() == 0
    # the drawing of lesson 1 and the stepper's drawing are both real SVG in the page
    page.wait_for_selector(".jp-OutputArea-output svg.minitape-tape", timeout=30_000)
    assert panel.locator("svg.minitape-tape").count() >= 2
    assert panel.locator("svg.minitape-tape text", has_text="AddV2").count() >= 2
    # why_none renders as Markdown (code spans)
    assert panel.locator(".jp-RenderedMarkdown code", has_text="tape.watch(z)").count() == 1
    # Next walks the backward pass: the current operation is highlighted, gradients appear
    panel.get_by_role("button", name="Next").click()
    page.wait_for_selector("g.mt-op.mt-current", timeout=10_000)
    assert panel.locator("g.mt-current text").text_content() == "AddV2"
    for _ in range(2):                      # three operations: steps 1, 2, 3
        panel.get_by_role("button", name="Next").click()
    page.wait_for_function("() => [...document.querySelectorAll('svg.minitape-tape text')]"
                           ".some(t => t.textContent === 'grad = 8.0')", timeout=10_000)
    expect(panel.get_by_role("button", name="Next")).to_be_disabled()  # the last step
    panel.locator("svg.minitape-tape").nth(1).scroll_into_view_if_needed()
    shot = screenshot(page, "debugging-light")
    assert shot.stat().st_size > 10_000
    # start the theme change without awaiting its promise (evaluate has no timeout of its own)
    page.evaluate("() => { window.jupyterapp.commands.execute('apputils:change-theme', "
                  "{theme: 'JupyterLab Dark'}); }")
    page.wait_for_function("() => document.body.dataset.jpThemeLight === 'false'", timeout=20_000)
    page.wait_for_selector("#jupyterlab-splash", state="detached", timeout=20_000)
    page.wait_for_timeout(500)
    screenshot(page, "debugging-dark")
