"""The static site reads the same offline (issue 25): math as MathML, widgets' last state drawn.

Lesson 5 (its Newton plot is drawn inside a widget) is built in English and loaded in Chromium
from 127.0.0.1 with every other host blocked: no raw ``$...$`` and no LaTeX on the page, every
formula rendered, and every widget view followed by a visible snapshot of its last state (the
figure an Output widget holds included), where it used to be a blank box.
"""

from __future__ import annotations

import functools
import http.server
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LESSON = "05-higher-order"

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_site_page_renders_math_and_widget_figures_offline(tmp_path, browser):
    out = tmp_path / "site"
    proc = subprocess.run([sys.executable, "-m", "lessons", "site", "05", "--lang", "en", "--out", str(out)],
                          cwd=REPO, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    source = (out / "en" / f"{LESSON}.html").read_text(encoding="utf-8")
    assert "<math" in source and "mathjax" not in source.lower()
    views = source.count('<script type="application/vnd.jupyter.widget-view+json">')
    assert views >= 1 and source.count('<div class="minitape-widget-static">') == views

    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(out))
    handler.log_message = lambda *a: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    page = browser.new_page()
    try:
        page.route("**/*", lambda r: r.continue_() if r.request.url.startswith("http://127.0.0.1:")
                   else r.abort())
        page.goto(f"http://127.0.0.1:{server.server_address[1]}/en/{LESSON}.html")
        page.wait_for_load_state("load")
        page.wait_for_timeout(1000)
        text = page.inner_text("body")
        math = page.evaluate("() => [...document.querySelectorAll('math')]"
                             ".map(m => m.getBoundingClientRect().height)")
        widgets = page.evaluate("""() => [...document.querySelectorAll('.minitape-widget-static')].map(s => ({
            height: s.getBoundingClientRect().height, images: s.querySelectorAll('img, svg').length,
            visible: getComputedStyle(s).display !== 'none'}))""")
    finally:
        page.close()
        server.shutdown()
    assert math and all(h > 5 for h in math), math
    assert not re.findall(r"(?<![\\\w])\$[^$\n]{1,80}\$", text), re.findall(r"\$[^$\n]{1,80}\$", text)[:5]
    assert "\\frac" not in text and "\\partial" not in text
    assert widgets and all(w["visible"] and w["height"] > 20 for w in widgets), widgets
    assert any(w["images"] for w in widgets), widgets  # the Newton plot, drawn inside a widget
