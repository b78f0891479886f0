"""The JupyterLite site (`make lite`, build/lite/) in Debian's headless Chromium, offline.

The site is served from 127.0.0.1 by a plain static file server, as any static host would serve
it. Every request the page, its workers or its service worker make to any other host is aborted
and recorded (Playwright route interception on the browser context), and Chromium resolves no
other host name at all (the harness's --host-resolver-rules); each test ends by asserting that
nothing was even attempted outside 127.0.0.1, so a CDN or PyPI reference in the site fails here.

- lesson 1 in Portuguese and Russian (LITE_LANGS; English and Spanish go through the same flow in
  JupyterLab, so every language meets a real browser once): Run All without error output, the tangent slider dragged and the
  kernel's readout and plot follow, check() fails for the stub and passes with the solution, in
  the lesson's language (the flow of the JupyterLab test, test_lessons_in_browser.py); then the
  student's edit is still there after a reload (JupyterLite's browser storage) and File →
  Download, clicked in the menus as they read in the lesson's language, gives the notebook with
  it, named 01-gradients.ipynb;
- lesson 1 in English and Spanish: JupyterLab's interface in the lesson's language, the menus
  the students' guide names where it says, File → Download clicked (no kernel waited for);
- every other lesson in English, one after another in one kernel: Run All without error output;
- the landing page lists every lesson in every language and its links open them, and says in
  each language what the first visit costs (the measured figures), how to hand in, and links the
  students' guide in that language;
- while the kernel starts, the lesson page shows a notice in the notebook's language, which is
  gone once the kernel is ready (lite/startup-status.js): watched on lesson 1's first visit in
  each of LITE_LANGS, before its flow above.

Run them with `make test-lite` (builds the site first) or `pytest -m lite` after `make lite`.
"""

from __future__ import annotations

import functools
import http.server
import importlib.util
import json
import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import nbformat
import pytest

from lessons import LANGS
from test_lessons_in_browser import (ERROR_OUTPUT, LAB_LANGS, _assert_no_error_output,
                                     work_through_lesson_01)

pytestmark = [pytest.mark.lite, pytest.mark.browser, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[2]
SITE = REPO / "build" / "lite"
LESSONS = sorted(p.name for p in (REPO / "lessons" / "en").glob("*.ipynb"))
# Kernel start (Pyodide, then IPython and the lesson's packages) took 35-90 s here on 2 busy cores.
RUN_TIMEOUT_MS = 420_000
LITE_LANGS = tuple(lang for lang in LANGS if lang not in LAB_LANGS)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
                      ".whl": "application/octet-stream"}

    def log_message(self, *args) -> None:
        pass


@dataclass
class LiteSite:
    base: str
    blocked: list[str] = field(default_factory=list)

    def url(self, path: str) -> str:
        return f"{self.base}/{path.lstrip('/')}"

    def lesson_url(self, lang: str, name: str) -> str:
        return self.url(f"lab/index.html?path=lessons/{lang}/{name}")

    def offline(self, page) -> None:
        """Abort (and record) every request of this page's context to anything but this server."""
        host = urlsplit(self.base).netloc

        def route(r):
            parts = urlsplit(r.request.url)
            if parts.scheme in {"http", "https", "ws", "wss"} and parts.netloc != host:
                self.blocked.append(r.request.url)
                r.abort()
            else:
                r.continue_()

        page.context.route("**/*", route)


def _lite_build():
    spec = importlib.util.spec_from_file_location("minitape_lite_build", REPO / "lite" / "build.py")
    lite_build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(lite_build)
    return lite_build


def _site_is_current() -> str | None:
    """Why build/lite cannot be tested as it is, or None."""
    if not (SITE / "index.html").exists():
        return f"{SITE} is missing: build it with `make lite`"
    lite_build = _lite_build()
    key = SITE / ".build-key"
    if not key.exists() or key.read_text() != lite_build.input_key():
        return f"{SITE} is older than the lessons or the course: rebuild it with `make lite`"
    return None


@pytest.fixture(scope="module")
def lite_site():
    problem = _site_is_current()
    if problem:
        pytest.fail(problem)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=SITE))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield LiteSite(base=f"http://127.0.0.1:{server.server_address[1]}")
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def offline_page(lite_site, page):
    lite_site.blocked.clear()
    lite_site.offline(page)
    yield page
    assert lite_site.blocked == [], f"the site tried to reach other hosts: {lite_site.blocked}"


# minitape's TapeWarning that a lesson may show on purpose (TensorFlow's one warning, for
# watching an integer tensor): Python's warning line and its source-line echo.
_TAUGHT_WARNING = re.compile(r"^(\S.*:\d+: TapeWarning: .*|\s+\S.*)$")


def _taught(stderr: str) -> bool:
    lines = [line for line in stderr.splitlines() if line.strip()]
    return bool(lines) and all(_TAUGHT_WARNING.match(line) for line in lines) and "TapeWarning" in stderr


def _assert_no_error_output_but_taught_warnings(page, state: dict, when: str) -> None:
    """As _assert_no_error_output, except for stderr that is only a lesson's own TapeWarnings."""
    problems = [p for p in state["problems"]
                if not (": stderr: " in p and _taught(p.split(": stderr: ", 1)[1]))]
    assert problems == [], f"error or stderr output {when}:\n" + "\n".join(problems)
    panel = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")
    shown = [text for text in panel.locator(ERROR_OUTPUT).all_inner_texts() if not _taught(text)]
    assert shown == [], f"error output shown {when}: {shown}"
    assert panel.get_by_text("Error displaying widget").count() == 0, f"a widget failed to render {when}"


def _open_lesson(page, site: LiteSite, lang: str, name: str) -> float:
    start = time.monotonic()
    page.goto(site.lesson_url(lang, name))
    return start


def test_landing_page_lists_every_lesson_by_language(lite_site, offline_page) -> None:
    page = offline_page
    page.goto(lite_site.url("index.html"))
    lite_build = _lite_build()
    texts = lite_build.LANDING_TEXT
    measured = lite_build.measured_figures()
    seen = set()
    for lang in LANGS:
        section = page.locator(f"section[lang='{lang}']")
        # the page's text in this language: what the site is, and what the first visit costs
        intro, note = section.locator("p.intro").inner_text(), section.locator("p.note").inner_text()
        handin = section.locator("p.handin").inner_text()
        assert intro.startswith(lite_build.typeset(texts[lang][0].split("{")[0].strip(), lang)), (lang, intro)
        assert note.startswith(lite_build.typeset(texts[lang][1].split("{")[0].strip(), lang)), (lang, note)
        assert "{" not in intro + note + handin, (lang, note, handin)
        # the figures measured by benchmarks/lite_startup.py --write, as the build read them
        assert f"{measured['first_visit_mb']:.0f}\u00a0МБ" in note if lang == "ru" else \
            f"{measured['first_visit_mb']:.0f} MB" in note, (lang, note)
        assert lite_build.seconds_phrase(lang, measured["kernel_ready_s"]) in note, (lang, note)
        menu, item = lite_build.MENU_LABELS[lang]["download"]
        assert f"{menu} → {item}" in handin and "01-gradients.ipynb" in handin, (lang, handin)
        # the students' guide, in this language, one click away
        guide = section.locator("p.guide a")
        assert guide.get_attribute("href") == f"guide/{lite_build.guide_page(lang)}"
        assert (SITE / "guide" / lite_build.guide_page(lang)).is_file()
        seen.add(note)
        links = section.locator("ol a")
        assert links.count() == len(LESSONS), f"{lang}: {links.all_inner_texts()}"
        for name, link in zip(LESSONS, links.all()):
            nb = nbformat.read(REPO / "lessons" / lang / name, as_version=4)
            title = next(line[2:].strip() for cell in nb.cells if cell.cell_type == "markdown"
                         for line in cell.source.splitlines() if line.startswith("# "))
            assert link.inner_text().strip() == title
            assert link.get_attribute("href") == f"lab/index.html?path=lessons/{lang}/{name}"
            assert (SITE / "files" / "lessons" / lang / name).exists()
    assert len(seen) == len(LANGS), "two languages share a text"
    # the Russian guide page, from the landing page's link: the guide's text, in Russian
    page.locator("section[lang='ru'] p.guide a").click()
    page.wait_for_load_state()
    assert page.evaluate("() => document.documentElement.lang") == "ru"
    assert "01-gradients.ipynb" in page.locator("body").inner_text()
    page.go_back()
    # the first link opens its lesson in JupyterLite
    page.locator("section[lang='en'] a").first.click()
    page.wait_for_selector(".jp-NotebookPanel .jp-Notebook", timeout=120_000)
    assert page.evaluate("() => window.jupyterapp.shell.currentWidget.context.path") == f"lessons/en/{LESSONS[0]}"


def _watch_the_startup_notice(page, lang: str, screenshot) -> None:
    """On the first visit of a lesson page that has just been opened: while Python starts, a notice
    in the notebook's language says so (with its seconds); once the kernel is connected and idle,
    it is gone and the kernel runs the lesson's code, with modules from the site's bytecode. Ends
    by clearing the kernel's namespace (%reset -f), so the lesson then runs as on a fresh start."""
    starting = _lite_build().STARTUP_MESSAGES[lang]["starting"]
    notice = page.locator("#minitape-starting")
    notice.wait_for(state="visible", timeout=60_000)
    # the notice and the kernel's state read at the same instant, in the page
    seen = page.evaluate("""() => {
        const el = document.getElementById('minitape-starting');
        const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
        const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
        return {text: el ? el.textContent : null, lang: el ? el.lang : null,
                ready: !!k && k.connectionStatus === 'connected' && k.status === 'idle'};
    }""")
    screenshot(page, f"lite-startup-notice-{lang}")
    assert seen["ready"] is False, "the notice was up although the kernel was ready"
    assert seen["lang"] == lang
    # the seconds measured by benchmarks/lite_startup.py --write, as the build read them
    lite_build = _lite_build()
    assert seen["text"].startswith(lite_build.typeset(starting.split("{seconds}")[0], lang)), seen["text"]
    assert lite_build.seconds_phrase(lang, lite_build.measured_figures()["kernel_ready_s"]) in seen["text"]
    assert "{" not in seen["text"], seen["text"]
    page.wait_for_function("""() => {
        const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
        const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
        return !!k && k.connectionStatus === 'connected' && k.status === 'idle';
    }""", timeout=RUN_TIMEOUT_MS)
    # the notice goes within its polling interval (250 ms) of the kernel being ready
    notice.wait_for(state="detached", timeout=5_000)
    assert page.evaluate("() => performance.getEntriesByName('minitape:kernel-ready').length") == 1
    # and the kernel does run the lesson's code
    reply = page.evaluate("""async () => {
        const k = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
        return (await k.requestExecute({code: 'import minitape as tf; print(tf.constant(2.0) * 3)'}).done).content.status;
    }""")
    assert reply == "ok"
    assert notice.count() == 0
    # the kernel's modules came from the site's bytecode (lite/build.py's start-up section): the
    # standard library's from the archive with .pyc files, IPython's and the course's from their
    # packages' unchecked-hash .pyc (Python would write timestamp-checked ones itself)
    facts = json.loads(page.evaluate("""async () => {
        const k = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
        let out = '';
        const f = k.requestExecute({code: `
import json as _j, sys as _s, IPython as _i, minitape as _m
def _flags(mod):
    with open(mod.__spec__.cached, 'rb') as f:
        return int.from_bytes(f.read(8)[4:], 'little')
print(_j.dumps({'stdlib': _s.modules['json'].__file__, 'ipython': _flags(_i), 'minitape': _flags(_m)}))`});
        f.onIOPub = msg => { if (msg.header.msg_type === 'stream') out += msg.content.text; };
        await f.done;
        return out;
    }""").strip().splitlines()[-1])
    assert facts["stdlib"].endswith(".zip/json/__init__.pyc"), facts
    assert facts["ipython"] == 1 and facts["minitape"] == 1, facts
    reply = page.evaluate("""async () => {
        const k = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
        return (await k.requestExecute({code: '%reset -f', silent: true, store_history: false}).done).content.status;
    }""")
    assert reply == "ok", f"clearing the kernel after the start-up checks: {reply}"


@pytest.mark.parametrize("lang", LITE_LANGS)
def test_lesson_01_in_jupyterlite(lang, lite_site, offline_page, run_all_cells, notebook_state, screenshot) -> None:
    """Lesson 1 on a first visit: the start-up notice in the lesson's language until the kernel is
    ready (_watch_the_startup_notice), then the student's flow (work_through_lesson_01), then the
    edit kept over a reload and downloaded. The notice is watched on this visit rather than on a
    visit of its own: each first visit boots Pyodide, most of a lite test's time."""
    page = offline_page
    start = _open_lesson(page, lite_site, lang, LESSONS[0])
    _watch_the_startup_notice(page, lang, screenshot)
    work_through_lesson_01(page, lang, run_all_cells=lambda p: run_all_cells(p, timeout_ms=RUN_TIMEOUT_MS),
                           notebook_state=notebook_state, screenshot=screenshot, shot_prefix="lite-lesson01",
                           slider="mouse")
    print(f"lite lesson 1 ({lang}): {time.monotonic() - start:.0f} s from opening to the passed check")

    # --- the student's work stays in the browser, and downloads as a notebook --------------------
    solution = page.evaluate("() => window.jupyterapp.shell.currentWidget.content.widgets"
                             ".map(c => c.model.sharedModel.getSource()).find(s => s.includes('tape.gradient'))")
    page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    page.wait_for_function("() => !window.jupyterapp.shell.currentWidget.context.model.dirty", timeout=30_000)
    # the next visit: the student opens the lesson's link again
    page.goto("about:blank")
    _open_lesson(page, lite_site, lang, LESSONS[0])
    try:
        page.wait_for_selector(".jp-NotebookPanel .jp-Notebook", timeout=120_000)
    except Exception:
        screenshot(page, f"lite-lesson01-{lang}-revisit")
        raise
    page.wait_for_function("() => window.jupyterapp.shell.currentWidget.context.isReady", timeout=60_000)
    sources = page.evaluate("() => window.jupyterapp.shell.currentWidget.content.widgets"
                            ".map(c => c.model.sharedModel.getSource())")
    assert solution in sources, "the typed solution was lost on reload"
    # the hand-in: File -> Download, clicked in the menus as the student sees them (in the
    # lesson's language), gives the notebook with the edit, named as the lesson
    downloaded = _download_from_the_file_menu(page, lang)
    assert solution in [c.source for c in downloaded.cells]


def _menu_labels(page, menu: str) -> list[str]:
    """Open the main menu `menu` (by its label) and return its items' labels; the menu is left open."""
    page.locator("#jp-MainMenu .lm-MenuBar-item").filter(
        has=page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(f"^{re.escape(menu)}$"))).click()
    page.locator(".lm-Menu").last.wait_for(state="visible", timeout=10_000)
    return [t.strip() for t in page.locator(".lm-Menu").last.locator(".lm-Menu-itemLabel").all_inner_texts()]


def _download_from_the_file_menu(page, lang: str):
    """Click File -> Download by the labels the students' guide gives (lite/build.py's MENU_LABELS,
    in the lesson's language) and return the downloaded notebook, checked: named as the lesson
    (01-gradients.ipynb, as JupyterLab and Binder name it), and valid."""
    labels = _lite_build().MENU_LABELS[lang]
    menu, item = labels["download"]
    assert item in _menu_labels(page, menu), f"{lang}: no {item!r} in the {menu!r} menu"
    with page.expect_download(timeout=60_000) as download:
        page.locator(".lm-Menu").last.locator(".lm-Menu-item").filter(
            has=page.locator(".lm-Menu-itemLabel", has_text=re.compile(f"^{re.escape(item)}$"))).click()
    assert download.value.suggested_filename == LESSONS[0], download.value.suggested_filename
    downloaded = nbformat.read(download.value.path(), as_version=4)
    nbformat.validate(downloaded)
    return downloaded


@pytest.mark.parametrize("lang", LAB_LANGS)
def test_the_lesson_page_speaks_the_lessons_language_and_hands_in_from_the_file_menu(lang, lite_site,
                                                                                     offline_page) -> None:
    """Lesson 1 opened from lessons/<lang>/ (English and Spanish here; Portuguese and Russian in
    test_lesson_01_in_jupyterlite): JupyterLab's interface in that language (the site's language
    packs, lite/lesson-language.js), the menus the students' guide names (Run All, the language
    menu) where it says, and File -> Download giving the lesson's notebook, named as the lesson.
    No kernel is waited for: the page is closed while Python starts."""
    page = offline_page
    _open_lesson(page, lite_site, lang, LESSONS[0])
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
                           " && window.jupyterapp.shell.currentWidget.context"
                           " && window.jupyterapp.shell.currentWidget.context.isReady", timeout=180_000)
    locale = json.loads((SITE / "lab" / "lesson-language.js").read_text().split("var LOCALES = ", 1)[1]
                        .split(";", 1)[0])[lang]
    assert page.evaluate("() => document.documentElement.lang") == locale.replace("_", "-")
    labels = _lite_build().MENU_LABELS[lang]
    for what in ("run_all", "language"):
        menu, item = labels[what]
        assert item in _menu_labels(page, menu), (lang, what)
        page.keyboard.press("Escape")
    downloaded = _download_from_the_file_menu(page, lang)
    original = nbformat.read(REPO / "lessons" / lang / LESSONS[0], as_version=4)
    assert [c.source for c in downloaded.cells] == [c.source for c in original.cells]


def test_every_other_lesson_runs_in_jupyterlite(lite_site, offline_page, run_all_cells, notebook_state,
                                                screenshot) -> None:
    """Every lesson after the first (2-7), in English, one after another in one kernel: its start
    (Pyodide, IPython, the packages) is most of a lesson's time in the browser. Each next lesson is loaded from the
    site's contents into the open notebook, the kernel's namespace is cleared (%reset -f: no
    name defined by the previous lesson is left) and all its cells are run."""
    page = offline_page
    start = _open_lesson(page, lite_site, "en", LESSONS[1])
    times = []
    for n, name in enumerate(LESSONS[1:]):
        if n:
            ok = page.evaluate("""async ([path]) => {
                const app = window.jupyterapp, w = app.shell.currentWidget;
                const model = await app.serviceManager.contents.get(path, {content: true});
                w.content.model.fromJSON(model.content);
                const kernel = w.sessionContext.session.kernel;
                const reply = await kernel.requestExecute({code: '%reset -f', silent: true, store_history: false}).done;
                return reply.content.status;
            }""", [f"lessons/en/{name}"])
            assert ok == "ok", f"clearing the kernel before {name}: {ok}"
            cells = page.evaluate("() => window.jupyterapp.shell.currentWidget.content.widgets.length")
            assert cells == len(nbformat.read(REPO / "lessons" / "en" / name, as_version=4).cells), name
        lesson_start = time.monotonic()
        state = run_all_cells(page, timeout_ms=RUN_TIMEOUT_MS)
        _assert_no_error_output_but_taught_warnings(page, state, f"after Run All Cells of {name}")
        times.append(f"{name} {time.monotonic() - lesson_start:.0f} s")
        screenshot(page, f"lite-{Path(name).stem}")
    print(f"lite lessons 2-{len(LESSONS)} (en): {time.monotonic() - start:.0f} s in all: {', '.join(times)}")


def test_the_site_holds_no_instructor_material():
    """What the browser downloads (the site's files, the course wheel inside it) passes the
    student distribution's audit: no instructor path, no exercise registration, reference or
    hidden case, no solution or hidden-test region of the lesson sources."""
    from lessons.student import Fingerprints, audit

    problem = _site_is_current()
    if problem:
        pytest.fail(problem)
    prints = Fingerprints.of_checkout(REPO)
    assert len(prints.blocks) > 50  # the references and solutions it looks for were found
    wheels = list(SITE.rglob("minitape-*.whl"))
    assert wheels, "the course wheel is not in the site"
    assert audit(SITE, prints) == []
