"""The static HTML site of the executed lessons (``python -m lessons site``, ``make site``).

One lesson (the first in the registry, which has figures and a widget) is built in two languages
by the command itself, and the pages are read back with html.parser: the ``lang`` attribute of
each page, figures embedded as ``data:`` images, the widgets' state embedded, no error output,
every relative link and image resolving to a file of the site, links between languages, titles
in the page's language, and well-nested markup. A lesson whose cell raises makes the command exit
1 naming the lesson, the source line and the error, and leaves the output folder untouched.
"""

from __future__ import annotations

import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from lessons.readme import lesson_title
from lessons.source import load_lessons

REPO = Path(__file__).resolve().parents[2]
LANGS = ["en", "es"]
# elements with no end tag, and those whose end tag HTML lets a page leave out
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
OPTIONAL_END = {"p", "li", "dt", "dd", "option", "optgroup", "tr", "td", "th", "thead", "tbody", "tfoot",
                "colgroup", "caption", "rt", "rp"}


class Page(HTMLParser):
    """What the checks need from one HTML file, and the nesting problems found on the way."""

    def __init__(self, path: Path):
        super().__init__(convert_charrefs=True)
        self.path = path
        self.doctype = None
        self.lang = None
        self.title = ""
        self.links: list[tuple[str, str, dict]] = []  # (tag, url, attributes)
        self.scripts: list[str] = []                 # type attributes of inline scripts
        self.mime_types: list[str] = []              # data-mime-type of rendered outputs
        self.svgs = 0                                # inline SVG drawings (minitape's draw(tape))
        self.text: list[str] = []
        self.problems: list[str] = []
        self._stack: list[str] = []
        self._in_title = False
        self.feed(path.read_text(encoding="utf-8"))
        self.close()
        if [t for t in self._stack if t not in OPTIONAL_END]:
            self.problems.append(f"never closed: {self._stack}")

    def handle_decl(self, decl):
        self.doctype = decl

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "html":
            self.lang = a.get("lang")
        if tag == "title":
            self._in_title = True
        for name in ("href", "src"):
            if a.get(name) is not None:
                self.links.append((tag, a[name], a))
        if tag == "script" and a.get("type"):
            self.scripts.append(a["type"])
        if tag == "svg":
            self.svgs += 1
        if a.get("data-mime-type"):
            self.mime_types.append(a["data-mime-type"])
        if tag not in VOID:
            self._stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self._stack.pop()

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if tag not in self._stack:
            self.problems.append(f"line {self.getpos()[0]}: </{tag}> closes nothing open")
            return
        while self._stack:   # close what HTML lets a page leave open; anything else is an error
            top = self._stack.pop()
            if top == tag:
                break
            if top not in OPTIONAL_END:
                self.problems.append(f"line {self.getpos()[0]}: </{tag}> while <{top}> is open")
        if tag == "title":
            self._in_title = False

    def handle_data(self, data):
        if self._in_title:
            self.title += data
        self.text.append(data)


def _local_target(page: Path, url: str) -> Path | None:
    """The file a relative link of ``page`` points to; None for external, data: or in-page links."""
    parts = urlsplit(url)
    if parts.scheme or parts.netloc or url.startswith("#") or not parts.path:
        return None
    return (page.parent / unquote(parts.path)).resolve()


@pytest.mark.kernel  # executes a lesson (a site build)
def test_site_of_one_lesson_in_two_languages(tmp_path):
    """One build (20-40 s on the shared 2-core machine), read back by the checks below; one test, so that pytest-xdist's
    workers do not each build it."""
    lesson = load_lessons()[0]
    out = tmp_path / "site"
    args = [sys.executable, "-m", "lessons", "site", lesson.name, "--out", str(out)]
    for lang in LANGS:
        args += ["--lang", lang]
    proc = subprocess.run(args, cwd=REPO, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    site = (out, proc.stdout)
    check_progress_and_files(site, lesson)
    check_every_page_is_well_formed_and_every_link_resolves(site)
    check_lesson_pages_embed_figures_and_widgets_without_error_output(site, lesson)
    check_index_pages_list_the_lessons_in_their_language(site, lesson)


def check_progress_and_files(site, lesson):
    out, stdout = site
    for i, lang in enumerate(LANGS, start=1):
        assert re.search(rf"\[{i}/{len(LANGS)}\] {lesson.name} \[{lang}\] executing \.\.\. .* -> "
                         rf"{lang}/{lesson.name}\.html", stdout), stdout
    assert "Done in" in stdout
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert files == sorted(["index.html"] + [f"{lang}/{name}" for lang in LANGS
                                             for name in ("index.html", f"{lesson.name}.html")])


def check_every_page_is_well_formed_and_every_link_resolves(site):
    out, _ = site
    pages = sorted(out.rglob("*.html"))
    assert len(pages) == 1 + 2 * len(LANGS)
    for path in pages:
        page = Page(path)
        where = path.relative_to(out)
        assert page.doctype and page.doctype.lower() == "doctype html", where
        assert page.problems == [], f"{where}: {page.problems[:10]}"
        assert page.title.strip(), where
        lang = path.parent.name if path.parent != out else "en"
        assert page.lang == lang, (where, page.lang)
        local = [(tag, url, _local_target(path, url)) for tag, url, _ in page.links]
        broken = [url for _, url, target in local if target is not None and not target.is_file()]
        assert broken == [], f"{where}: links to missing files: {broken}"
        outside = [url for _, url, target in local if target is not None and out.resolve() not in target.parents]
        assert outside == [], f"{where}: links out of the site: {outside}"


def check_lesson_pages_embed_figures_and_widgets_without_error_output(site, lesson):
    out, stdout = site
    for lang in LANGS:
        path = out / lang / f"{lesson.name}.html"
        page = Page(path)
        text = "".join(page.text)
        images = [url for tag, url, _ in page.links if tag == "img"]
        embedded = [url for url in images if url.startswith("data:image/")]
        reported = int(re.search(rf"{lesson.name} \[{lang}\] .*?(\d+) figure", stdout).group(1))
        # a figure is a data: image in the page, or an inline SVG drawing (draw(tape) renders as HTML)
        assert reported > 0 and len(embedded) + page.svgs >= reported, (reported, len(embedded), page.svgs)
        assert embedded, images[:3]
        assert all(url.startswith("data:") for url in images), images   # nothing to fetch for a figure
        assert "application/vnd.jupyter.widget-state+json" in page.scripts, page.scripts
        assert "application/vnd.jupyter.widget-view+json" in page.scripts, page.scripts
        assert not [m for m in page.mime_types if m in ("application/vnd.jupyter.stderr",
                                                        "application/vnd.jupyter.error")], page.mime_types
        assert "Traceback" not in text and "NotImplementedError:" not in text
        # the exercises are on the page, their cells unrun
        assert all(f'check("{ex.grade_id}")' in text for ex in lesson.exercises)
        # the page speaks its language: its title and the lesson's heading
        assert lesson_title(lesson, lang) in page.title and lesson_title(lesson, lang) in text
        others = {a.get("hreflang"): url for tag, url, a in page.links if tag == "a" and a.get("hreflang")}
        assert others == {other: f"../{other}/{lesson.name}.html" for other in LANGS if other != lang}


def check_index_pages_list_the_lessons_in_their_language(site, lesson):
    out, _ = site
    for lang in LANGS:
        page = Page(out / lang / "index.html")
        lesson_links = {url: a for tag, url, a in page.links if tag == "a" and url == f"{lesson.name}.html"}
        assert lesson_links, page.links
        assert lesson_title(lesson, lang) in "".join(page.text)
        assert {a.get("hreflang") for tag, url, a in page.links if a.get("hreflang")} == set(LANGS) - {lang}
    root = Page(out / "index.html")
    assert sorted(url for tag, url, _ in root.links if tag == "a") == sorted(f"{lang}/index.html" for lang in LANGS)


@pytest.mark.kernel  # executes a lesson (a site build)
def test_a_failing_cell_is_named_and_the_site_is_left_alone(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "01-broken.py").write_text(
        '# %% [markdown] key="intro" lang="en"\n# ## A lesson that breaks\n\n'
        '# %% key="fine"\nx = 1 + 1\n\n'
        '# %% key="broken"\nz = x * 2\ny = z / 0\n', encoding="utf-8")
    out = tmp_path / "site"
    out.mkdir()
    (out / "keep.txt").write_text("the last good site")
    proc = subprocess.run([sys.executable, "-m", "lessons", "site", "--src", str(src), "--lang", "en",
                           "--out", str(out)], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    # the failing line of the source (the cell's marker is line 7, its second line 9), the cell, the error
    assert "01-broken [en]: " in proc.stderr and "01-broken.py:9 (cell l01-broken: `z = x * 2`)" in proc.stderr
    assert "raised ZeroDivisionError: division by zero" in proc.stderr, proc.stderr
    assert sorted(p.name for p in out.iterdir()) == ["keep.txt"]
    assert not list(tmp_path.glob(".site*")), "the scratch folder was left behind"


def test_the_site_messages_follow_the_glossary():
    from lessons.glossary import check_catalog
    from lessons.i18n import catalog
    from lessons.site import _MESSAGES

    assert set(_MESSAGES) <= set(catalog())
    assert check_catalog(_MESSAGES, "lessons/site.py") == []
