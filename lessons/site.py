"""``python -m lessons site``: the executed lessons as a static HTML site (``make site``).

For every lesson (``lessons/src/``, in lesson order) and every language, the student notebook is
built from its source (what ``python -m lessons build`` writes to ``lessons/<lang>/``), run top
to bottom in a fresh kernel by ``lessons.execute`` -- in the notebook's own folder, so the kernel
speaks the notebook's language as a student's does -- and exported with nbconvert's ``lab``
template to ``OUT/<lang>/NN-name.html``:

* figures are embedded in the page (``data:`` URIs), so they show without running anything;
* widgets keep their last state (nbclient stores it, nbconvert embeds it with the widget
  manager), so sliders and their pictures show as the run left them;
* exercise cells (the student's stub and its ``check()``) are shown unrun: the site shows the
  lesson, the exercises are done in JupyterLab;
* each page carries ``<html lang>``, and a bar with the language's index, the previous and next
  lesson and the same lesson in the other languages.

``OUT/index.html`` lists the languages; ``OUT/<lang>/index.html`` the lessons, by their titles in
that language. The site is built in a scratch folder beside OUT and moved into place only when
every lesson ran without an error, so OUT is always a whole site. A lesson that fails is named
with its cell (``lessons/src/NN-name.py:LINE``) and the error, and the command exits 1.
"""

from __future__ import annotations

import html
from importlib import resources
import re
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from course_lang import LANGUAGES

from . import LANGS
from .build import ROOT, instructor_notebook, student_notebook, student_path
from .i18n import MESSAGES, add_messages, t
from .readme import lesson_title
from .source import Lesson, display_path

SITE_DIR = ROOT / "build" / "site"
TEMPLATE_DIR = Path(__file__).with_name("site_template")   # nbconvert template "minitape-site"

_MESSAGES = {
    "site.title": {
        "en": "minitape: automatic differentiation with a gradient tape",
        "es": "minitape: diferenciación automática con una cinta",
        "pt": "minitape: diferenciação automática com uma fita",
        "ru": "minitape: автоматическое дифференцирование с лентой",
    },
    "site.lessons": {"en": "Lessons", "es": "Lecciones", "pt": "Lições", "ru": "Уроки"},
    "site.lesson": {"en": "Lesson {number}", "es": "Lección {number}", "pt": "Lição {number}",
                    "ru": "Урок {number}"},
    "site.contents": {"en": "All lessons", "es": "Todas las lecciones", "pt": "Todas as lições",
                      "ru": "Все уроки"},
    "site.previous": {"en": "Previous", "es": "Anterior", "pt": "Anterior", "ru": "Назад"},
    "site.next": {"en": "Next", "es": "Siguiente", "pt": "Próxima", "ru": "Далее"},
    "site.languages": {"en": "Other languages", "es": "Otros idiomas", "pt": "Outros idiomas",
                       "ru": "Другие языки"},
    "site.about": {
        "en": "Each lesson as it ran from top to bottom: the figures and the widgets show what the "
              "code computed. Widgets are frozen here, and the exercises are left for you: open the "
              "notebook in JupyterLab to move the sliders, change the code and check your answers.",
        "es": "Cada lección tal como se ejecutó de principio a fin: las figuras y los widgets muestran "
              "lo que calculó el código. Aquí los widgets están congelados y los ejercicios quedan para "
              "ti: abre el cuaderno en JupyterLab para mover los deslizadores, cambiar el código y "
              "comprobar tus respuestas.",
        "pt": "Cada lição como foi executada do início ao fim: as figuras e os widgets mostram o que o "
              "código calculou. Aqui os widgets estão congelados e os exercícios ficam para você: abra o "
              "notebook no JupyterLab para mover os controles deslizantes, mudar o código e conferir "
              "suas respostas.",
        "ru": "Каждый урок в том виде, в каком он выполнился от начала до конца: рисунки и виджеты "
              "показывают, что вычислил код. Здесь виджеты неподвижны, а упражнения оставлены вам: "
              "откройте блокнот в JupyterLab, чтобы двигать ползунки, менять код и проверять ответы.",
    },
    "site.exercise_note": {
        "en": "The exercise cells are shown unrun.",
        "es": "Las celdas de los ejercicios se muestran sin ejecutar.",
        "pt": "As células dos exercícios aparecem sem execução.",
        "ru": "Ячейки упражнений показаны невыполненными.",
    },
}
add_messages({key: texts for key, texts in _MESSAGES.items() if key not in MESSAGES}, origin=__name__)


class SiteError(RuntimeError):
    """A lesson did not run cleanly; the message names the lesson, the language and the cell."""


@dataclass
class Page:
    lesson: Lesson
    lang: str
    figures: int = 0
    widgets: int = 0
    seconds: float = 0.0

    @property
    def file(self) -> str:
        return f"{self.lesson.name}.html"


# --------------------------------------------------------------------------------------------
# Running one lesson
# --------------------------------------------------------------------------------------------
def _first_line(source: str) -> str:
    line = next((ln for ln in source.splitlines() if ln.strip()), "")
    return line if len(line) <= 80 else line[:77] + "..."


def _where(lesson: Lesson, cell, line_in_cell: int | None = None) -> str:
    """``lessons/src/NN-name.py:LINE (cell id: `first line`)`` for a notebook cell; LINE is the
    failing line when the traceback gives it (``Cell In[n], line k``), else the cell's marker."""
    by_id = {lesson.cell_id(code.key): code for code in lesson.code}
    code = by_id.get(cell.get("id"))
    place = display_path(lesson.path)
    if code is not None:
        place += f":{code.line + (line_in_cell or 0)}"
    return f"{place} (cell {cell.get('id')}: `{_first_line(cell.source)}`)"


_CELL_FRAME = re.compile(r"Cell In\[\d+\], line (\d+)")


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def run_lesson(lesson: Lesson, lang: str, root: Path = ROOT, timeout: int = 120):
    """The student notebook of ``lesson`` in ``lang``, built from its source and executed.

    Exercise cells stay unrun. Raises SiteError naming the cell when any other cell raised, the
    kernel died or a cell ran past ``timeout`` seconds. Returns ``(notebook, Execution)``.
    """
    from .execute import execute

    nb = student_notebook(instructor_notebook(lesson, lang))
    path = student_path(lesson, lang, root)
    path.parent.mkdir(parents=True, exist_ok=True)   # the kernel's folder names its language
    label = f"{lesson.name} [{lang}]"
    try:
        run = execute(path, timeout=timeout, allow_errors=True, root=root, nb=nb,
                      skip_roles=("solution", "tests"))
    except Exception as exc:  # nbclient: CellTimeoutError, DeadKernelError, a kernel that never started
        raise SiteError(f"{label} did not run to the end: {type(exc).__name__}: "
                        f"{_ANSI.sub('', str(exc)).strip()[:2000]}") from exc
    problems = []
    for error in run.errors:
        cell = nb.cells[error.index]
        trace = [_ANSI.sub("", line) for out in cell.outputs if out.get("output_type") == "error"
                 for line in out.get("traceback", [])]
        tail = "\n".join("    " + ln for chunk in trace[-3:] for ln in chunk.splitlines()[-4:])
        frame = next((m for chunk in trace for m in [_CELL_FRAME.search(chunk)] if m), None)  # the cell's own frame
        line = int(frame.group(1)) if frame else None
        problems.append(f"{label}: {_where(lesson, cell, line)} raised {error.ename}: {error.evalue}"
                        + (f"\n{tail}" if tail else ""))
    if problems:
        raise SiteError("\n".join(problems))
    return nb, run


# --------------------------------------------------------------------------------------------
# Pages
# --------------------------------------------------------------------------------------------
# The course's stylesheet (contrast-safe code and prompt colours, WCAG 2.1 AA; shared with the
# feedback pages) and the site's own bar.
COURSE_CSS = resources.files("grader") / "templates" / "course.css"
_SITE_CSS = """
nav.minitape-site { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; font-size: 14px;
  display: flex; flex-wrap: wrap; gap: 6px 18px; align-items: baseline; padding: 8px 12px;
  margin: 0 0 12px 0; border-bottom: 1px solid #d0d7de; background: #f6f8fa; }
nav.minitape-site a { color: #0969da; text-decoration: none; }
nav.minitape-site a:hover { text-decoration: underline; }
nav.minitape-site .langs { margin-left: auto; }
p.minitape-site-note { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; font-size: 13px;
  color: #57606a; margin: 0 12px 12px 12px; }
"""


def _lang_links(target: dict[str, str], here: str) -> str:
    """Links to the other languages (``{lang: href}``), each in its own name and language."""
    return " · ".join(f'<a href="{html.escape(href)}" hreflang="{code}" lang="{code}">'
                      f"{html.escape(LANGUAGES[code])}</a>" for code, href in target.items() if code != here)


def _nav(pages: list[Page], i: int, langs: list[str]) -> str:
    page, lang = pages[i], pages[i].lang
    parts = [f'<a href="index.html">{html.escape(t("site.contents", lang))}</a>']
    if i > 0:
        prev = pages[i - 1]
        parts.append(f'<a href="{prev.file}" rel="prev">← {html.escape(t("site.previous", lang))}: '
                     f"{html.escape(lesson_title(prev.lesson, lang))}</a>")
    if i + 1 < len(pages):
        nxt = pages[i + 1]
        parts.append(f'<a href="{nxt.file}" rel="next">{html.escape(t("site.next", lang))}: '
                     f"{html.escape(lesson_title(nxt.lesson, lang))} →</a>")
    others = {code: f"../{code}/{page.file}" for code in langs}
    if len(langs) > 1:
        parts.append(f'<span class="langs">{html.escape(t("site.languages", lang))}: '
                     f"{_lang_links(others, lang)}</span>")
    return '<nav class="minitape-site">' + "".join(f"<span>{p}</span>" if not p.startswith("<span")
                                                    else p for p in parts) + "</nav>"


def _link_lessons(text: str, names: set[str]) -> str:
    """Links between lesson notebooks (``03-none-gradients.ipynb``) point to their pages."""
    def swap(match: re.Match) -> str:
        return (f'href="{match.group(1)}{match.group(2)}.html{match.group(3) or ""}"'
                if match.group(2) in names else match.group(0))
    return re.sub(r'href="((?:\.\./[a-z]{2}/)?)(\d\d-[a-z0-9-]+)\.ipynb(#[^"]*)?"', swap, text)


def export_page(nb, lang: str, title: str, nav: str, note: str) -> str:
    """The executed notebook as one HTML page (nbconvert's ``lab`` template plus the site's bar)."""
    from nbconvert import HTMLExporter

    from grader.autograde.mathml import export_with_mathml

    from .widget_static import CSS as WIDGET_CSS, snapshots

    exporter = HTMLExporter(template_name="minitape-site", extra_template_basedirs=[str(TEMPLATE_DIR)],
                            language_code=lang)
    # math as MathML and widgets' last state as HTML: the page reads the same offline
    body, _ = export_with_mathml(exporter, nb, resources={
        "metadata": {"name": title}, "minitape_nav": nav, "minitape_note": note,
        "minitape_css": COURSE_CSS.read_text(encoding="utf-8") + _SITE_CSS + WIDGET_CSS,
        "minitape_widgets": snapshots(nb)})
    return body


def _index_page(lang: str, pages: list[Page], langs: list[str]) -> str:
    items = "\n".join(
        f'<li><a href="{p.file}">{html.escape(t("site.lesson", lang, number=p.lesson.number))} · '
        f"{html.escape(lesson_title(p.lesson, lang))}</a></li>" for p in pages)
    others = _lang_links({code: f"../{code}/index.html" for code in langs}, lang)
    nav = (f'<nav class="minitape-site"><span>{html.escape(t("site.lessons", lang))}</span>'
           + (f'<span class="langs">{html.escape(t("site.languages", lang))}: {others}</span>'
              if len(langs) > 1 else "") + "</nav>")
    return _document(lang, t("site.title", lang), f"""{nav}
<main>
<h1>{html.escape(t("site.title", lang))}</h1>
<p>{html.escape(t("site.about", lang))}</p>
<h2>{html.escape(t("site.lessons", lang))}</h2>
<ul class="minitape-lessons">
{items}
</ul>
</main>""")


def _root_page(langs: list[str]) -> str:
    items = "\n".join(f'<li lang="{code}"><a href="{code}/index.html" hreflang="{code}">'
                      f"{html.escape(LANGUAGES[code])}</a>: {html.escape(t('site.title', code))}</li>"
                      for code in langs)
    return _document("en", "minitape", f"""<main>
<h1>minitape</h1>
<ul class="minitape-languages">
{items}
</ul>
</main>""")


def _document(lang: str, title: str, body: str) -> str:
    return f"""<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<style>
body {{ font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #1f2328; }}
main {{ max-width: 960px; margin: 0 auto; padding: 0 16px 32px 16px; line-height: 1.5; }}
li {{ margin: 4px 0; }}
ul.minitape-lessons, ul.minitape-languages {{ list-style: none; padding: 0; font-size: 18px; }}
a {{ color: #0969da; }}
{_SITE_CSS}
</style>
</head>
<body>
{body}
</body>
</html>
"""


# --------------------------------------------------------------------------------------------
# The command
# --------------------------------------------------------------------------------------------
def _count(nb) -> tuple[int, int]:
    figures = sum(1 for c in nb.cells for o in c.get("outputs", [])
                  if any(m.startswith("image/") for m in o.get("data", {})))
    widgets = sum(1 for c in nb.cells for o in c.get("outputs", [])
                  if "application/vnd.jupyter.widget-view+json" in o.get("data", {}))
    return figures, widgets


def build_site(lessons: list[Lesson], out: Path = SITE_DIR, langs: list[str] | None = None,
               root: Path = ROOT, timeout: int = 120) -> int:
    """Execute and export ``lessons`` in ``langs`` into ``out``; 0 when every page was written."""
    langs = list(langs or LANGS)
    unknown = [lang for lang in langs if lang not in LANGS]
    if unknown:
        print(f"error: unknown language {', '.join(unknown)}; choose from {', '.join(LANGS)}", file=sys.stderr)
        return 2
    if not lessons:
        print("error: no lessons to build", file=sys.stderr)
        return 2
    out = out.resolve()
    scratch = out.parent / f".{out.name}.building"
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    pages = {lang: [Page(lesson, lang) for lesson in lessons] for lang in langs}
    names = {lesson.name for lesson in lessons}
    total, done, failures = len(lessons) * len(langs), 0, []
    start = time.perf_counter()
    print(f"Building the lessons site: {len(lessons)} lesson(s) x {len(langs)} language(s) "
          f"({', '.join(langs)}) -> {display_path(out)}", flush=True)
    try:
        for lang in langs:
            (scratch / lang).mkdir()
            for i, page in enumerate(pages[lang]):
                done += 1
                label = f"[{done:>{len(str(total))}}/{total}] {page.lesson.name} [{lang}]"
                print(f"{label} executing ...", end="", flush=True)
                began = time.perf_counter()
                try:
                    nb, run = run_lesson(page.lesson, lang, root=root, timeout=timeout)
                except SiteError as exc:
                    print(" FAILED", flush=True)
                    failures.append(str(exc))
                    continue
                page.figures, page.widgets = _count(nb)
                stderr = [c.get("id") for c in nb.cells for o in c.get("outputs", [])
                          if o.get("output_type") == "stream" and o.get("name") == "stderr"]
                title = f"{lesson_title(page.lesson, lang)} · {t('site.lesson', lang, number=page.lesson.number)}"
                note = t("site.exercise_note", lang) if page.lesson.exercises else ""
                text = export_page(nb, lang, title, _nav(pages[lang], i, langs), note)
                (scratch / lang / page.file).write_text(_link_lessons(text, names), encoding="utf-8")
                page.seconds = time.perf_counter() - began
                print(f" {run.kernel_seconds:.1f} s kernel, {page.seconds:.1f} s in all; "
                      f"{page.figures} figure(s), {page.widgets} widget(s) -> {lang}/{page.file}", flush=True)
                for cell_id in stderr:
                    print(f"  warning: cell {cell_id} wrote to stderr (shown on the page)", flush=True)
            (scratch / lang / "index.html").write_text(_index_page(lang, pages[lang], langs), encoding="utf-8")
        (scratch / "index.html").write_text(_root_page(langs), encoding="utf-8")
        if failures:
            print(f"\nerror: {len(failures)} of {total} lesson page(s) failed to execute; "
                  f"{display_path(out)} was left as it was:", file=sys.stderr)
            for failure in failures:
                print(failure, file=sys.stderr)
            return 1
        shutil.rmtree(out, ignore_errors=True)
        scratch.rename(out)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"Done in {time.perf_counter() - start:.0f} s: {total} page(s) and {len(langs) + 1} index page(s) "
          f"in {display_path(out)}; open {display_path(out / 'index.html')}", flush=True)
    return 0
