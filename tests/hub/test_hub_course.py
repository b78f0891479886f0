"""The course on a real JupyterHub, end to end: students in Chromium, the instructor with nbgrader's
exchange and the sandboxed grader, every user a system user of this machine.

One hub for the module (``hub/course_hub.py``, what ``make hub`` builds too): ``jupyterhub`` with the
production ``hub/jupyterhub_config.py`` (DummyAuthenticator instead of PAM, ports on 127.0.0.1),
configurable-http-proxy from npm, an instructor and two students (``ana``: Spanish, ``ben``:
Portuguese) created with ``useradd``, private homes, the exchange at mode 0777, the students'
servers running ``python -m lessons hub-server`` from the hub's environment (the student
distribution's wheel over requirements/hub.txt) with this checkout hidden from them.

The route, in order (each fixture one stage; the tests read what it left):

1. each student, in their own Chromium context: logs in, sees JupyterLab in their language with
   nbgrader's Assignments tab and none of its instructor interface, fetches the lesson in their
   language (the student distribution's notebook), answers one exercise right and one wrong,
   saves, validates (check() in their language) and submits;
2. the instructor: ``nbgrader collect``, ``python -m grader autograde-all`` (sandboxed, two
   workers), ``nbgrader generate_feedback``, ``nbgrader release_feedback``, the export and the class
   report;
3. each student fetches the feedback in the Assignments tab and reads it in their language.

Isolation is tried from a student's server: another student's home and submission, the
instructor's course folder, the answers (the checkout, importing the definitions). The time of
each step is written to test-artifacts/hub/timings.json and printed.

Needs root (system users); CI runs as root.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import secrets
import shutil
import stat
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import pytest

from tests.support import hub as ui
from tests.support.course import LESSON, WRONG, reference_solutions

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.kernel]

REPO = Path(__file__).resolve().parents[2]
LOCALES = {"es": "es-ES", "pt": "pt-BR"}
LAB_LOCALES = {"es": "es_ES", "pt": "pt_BR"}


def lab_translation(lang: str, msgid: str) -> str:
    """``msgid`` in JupyterLab's language pack for ``lang`` (the Portuguese pack leaves the menu
    bar in English, so the file browser's column header is what the test reads)."""
    import importlib

    pack = importlib.import_module(f"jupyterlab_language_pack_{LAB_LOCALES[lang]}")
    catalog = Path(pack.__file__).parent / "locale" / LAB_LOCALES[lang] / "LC_MESSAGES" / "jupyterlab.json"
    return json.loads(catalog.read_text(encoding="utf-8"))[msgid][0]
STUBS = {"l01_ex1": "def derivative_at", "l01_ex2": "def mse_gradients"}


@dataclass
class Student:
    name: str
    lang: str
    right: str          # the exercise answered with the reference solution
    wrong: str          # the exercise answered with a wrong one
    seen: dict = field(default_factory=dict)   # what the test read on the way

    @property
    def assignment(self) -> str:
        return f"{LESSON}-{self.lang}"


@dataclass
class Course:
    site: object
    hub: object
    students: list[Student]
    times: ui.StepTimes
    dist: Path
    answers: dict[str, dict[str, str]]


def _require_root():
    if os.geteuid() != 0:
        pytest.skip("the hub's users are system users: this test creates them and needs root (CI runs as root)")
    for tool in ("useradd", "userdel", "bwrap", "node"):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is missing (make test installs bubblewrap; Node.js runs JupyterHub's proxy)")


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    _require_root()
    from hub import course_hub
    from tests.support.course import released_course
    from tests.support.project import student_distribution

    times = ui.StepTimes()
    course_hub.remove_stale_users(log=lambda *_: None)
    tag = secrets.token_hex(2)
    students = [Student(f"ana-{tag}", "es", right="l01_ex1", wrong="l01_ex2"),
                Student(f"ben-{tag}", "pt", right="l01_ex2", wrong="l01_ex1")]
    # under /tmp itself: pytest's own temporary folders are 0700 and root's, unreachable to users
    root = Path(tempfile.mkdtemp(prefix="minitape-hub-", dir="/tmp"))
    site = course_hub.Site(root=root, tag=tag, instructor=f"ines-{tag}",
                           students={s.name: s.lang for s in students}, hide=[REPO])
    quiet = lambda *_: None  # noqa: E731
    try:
        with times("system users, exchange, hub's nbgrader_config.py"):
            site.make_folders()
            site.make_users(log=quiet)
        assignments = [s.assignment for s in students]
        with ThreadPoolExecutor(2) as pool:
            # the assignments are generated (from this checkout) while the hub's environment installs
            generated = pool.submit(times.run, "nbgrader generate_assignment es, pt (shared with other tests)",
                                    released_course, tmp_path_factory.mktemp("hub-course") / "course",
                                    langs=("es", "pt"))
            with times("student distribution (python -m lessons student-dist, shared)"):
                dist = student_distribution()
            with times("configurable-http-proxy (npm ci)"):
                course_hub.install_proxy()
            with times("hub's environment (requirements/hub.txt + student wheel, uv)"):
                course_hub.build_env(site.env, next((dist / "binder").glob("minitape-*.whl")), log=quiet)
            released = generated.result()
        log = root / "state" / "hub.log"
        with contextlib.ExitStack() as stack, ThreadPoolExecutor(1) as pool:
            # the hub starts while the instructor imports the roster and releases
            started = pool.submit(times.run, "JupyterHub start", stack.enter_context, course_hub.running_hub(site, log))
            with times("instructor: course folder, roster import, release_assignment x2"):
                site.make_course(assignments, released=released, log=quiet)
            hub = started.result()
            stack.callback(lambda: ui.ARTIFACTS.mkdir(parents=True, exist_ok=True) or shutil.copy2(log, ui.ARTIFACTS))
            answers = {a: reference_solutions(site.course, a) for a in assignments}
            yield Course(site, hub, students, times, dist, answers)
    finally:
        print("\nJupyterHub course route, seconds per step:\n" + times.table())
        times.write()
        site.remove()


def _page(browser, student: Student):
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale=LOCALES[student.lang])
    return context.new_page()


@pytest.fixture(scope="module")
def submitted(course, browser):
    """Stage 1: both students, in Chromium, from login to submission."""
    pages = {s.name: _page(browser, s) for s in course.students}
    times, site = course.times, course.site
    try:
        with times("students log in, servers spawn, JupyterLab loads (x2, together)"):
            for s in course.students:
                ui.log_in(pages[s.name], site.url, s.name)
            for s in course.students:
                ui.wait_for_lab(pages[s.name], s.name)
        for s in course.students:
            pages[s.name].wait_for_selector(".jp-DirListing-headerItemText", timeout=60_000)
            s.seen["name_header"] = pages[s.name].locator(".jp-DirListing-headerItemText").first.inner_text().strip()
        with times("Assignments tab: list, fetch (x2)"):
            for s in course.students:
                page = pages[s.name]
                s.seen["nbgrader_menu"] = ui.open_assignments(page)
                s.seen["released"] = ui.listed(page, "released")
                ui.row(page, "released", s.assignment).locator("button", has_text="Fetch").click()
            for s in course.students:
                pages[s.name].wait_for_selector(f"#fetched_assignments_list > .list_item:has-text('{s.assignment}')",
                                                timeout=120_000)
                fetched = site.home(s.name) / s.assignment / f"{LESSON}.ipynb"
                s.seen["fetched"] = nbformat.read(str(fetched), as_version=4)
        with times("open the notebook, answer two exercises, save (x2)"):
            for s in course.students:
                page = pages[s.name]
                row = ui.row(page, "fetched", s.assignment)
                row.locator("a.assignment-notebooks-link").click()
                row.locator(".nested_list_item a", has_text=LESSON).click()
                page.wait_for_selector(".jp-NotebookPanel .jp-CodeCell .cm-content", timeout=120_000)
                code = {s.right: course.answers[s.assignment][s.right], s.wrong: WRONG[s.wrong]}
                s.seen["typed"] = {ex: ui.answer(page, STUBS[ex], text) for ex, text in code.items()}
                page.keyboard.press("Control+s")
                page.wait_for_selector(".lm-TabBar-tab.jp-mod-dirty", state="detached", timeout=60_000)
        with times("Validate (x2, together)"):
            for s in course.students:
                page = pages[s.name]
                page.locator(".lm-TabBar-tab", has_text="Assignments").first.click()
                row = ui.row(page, "fetched", s.assignment)
                validate = row.locator(".nested_list_item button", has_text="Validate")
                if not validate.is_visible():
                    row.locator("a.assignment-notebooks-link").click()
                validate.click()
            for s in course.students:
                s.seen["validation"] = ui.dialog_text(pages[s.name])
                ui.close_dialog(pages[s.name])
        with times("Submit (x2)"):
            for s in course.students:
                page = pages[s.name]
                ui.row(page, "fetched", s.assignment).locator("button", has_text="Submit").click()
                page.wait_for_selector(f"#submitted_assignments_list > .list_item:has-text('{s.assignment}')",
                                       timeout=120_000)
        # anyone may write into the exchange's inbound/: ana's server submits a copy of her
        # notebook under ben's name, newer than his (nbgrader's collect would only warn)
        ana, ben = course.students
        s_forged = ui.execute(f"{site.url}/user/{ana.name}", course.hub.user_token(ana.name), f"""
import datetime, os, shutil
stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f UTC")
dest = os.path.join({str(site.exchange / 'minitape-autodiff' / 'inbound')!r}, "{ben.name}+{ben.assignment}+" + stamp + "+forgedbyana")
os.mkdir(dest)
shutil.copy({str(site.home(ana.name) / ana.assignment / (LESSON + '.ipynb'))!r}, dest)
open(os.path.join(dest, "timestamp.txt"), "w").write(stamp)
print("forged", dest)
""")
        ana.seen["forged"] = s_forged
        yield pages
    finally:
        for page in pages.values():
            page.context.close()


@pytest.fixture(scope="module")
def graded(course, submitted):
    """Stage 2: the instructor collects, grades in the sandbox, writes and releases feedback."""
    site, times = course.site, course.times
    out = {}
    with times("nbgrader collect (x2)"):
        out["collect"] = [site.instructor_run("nbgrader", "collect", s.assignment) for s in course.students]
    with times("python -m grader autograde-all (sandboxed, --jobs 2, x2)"):
        out["autograde"] = [site.instructor_run("python", "-m", "grader", "autograde-all", s.assignment,
                                                "--jobs", "2", "--quiet") for s in course.students]
    with times("nbgrader generate_feedback + release_feedback (x2)"):
        for s in course.students:
            site.instructor_run("nbgrader", "generate_feedback", s.assignment)
            out.setdefault("release", []).append(site.instructor_run("nbgrader", "release_feedback", s.assignment))
    with times("python -m grader export + report"):
        site.instructor_run("python", "-m", "grader", "export", "--to", "grades.csv")
        site.instructor_run("python", "-m", "grader", "report", LESSON, "--out", "report", "--quiet")
    return out


@pytest.fixture(scope="module")
def feedback(course, submitted, graded):
    """Stage 3: each student fetches their feedback in the Assignments tab and opens it."""
    pages, times = submitted, course.times
    with times("Fetch Feedback, open it (x2)"):
        for s in course.students:
            page = pages[s.name]
            page.locator(".lm-TabBar-tab", has_text="Assignments").first.click()
            page.locator("#refresh_assignments_list").click()
            ui.row(page, "submitted", s.assignment).locator("button", has_text="Fetch Feedback").click()
            link = page.locator("#submitted_assignments_list a", has_text="view feedback")
            link.wait_for(timeout=120_000)
            link.click()
            page.locator(".jp-DirListing-item", has_text=f"{LESSON}.html").dblclick()
            frame = page.frame_locator(".jp-HTMLViewer iframe")
            frame.locator("body").wait_for(timeout=60_000)
            page.wait_for_function("""() => {const f = document.querySelector('.jp-HTMLViewer iframe');
                const body = f && f.contentDocument && f.contentDocument.body;
                return !!body && body.innerText.length > 1000}""", timeout=60_000)
            s.seen["feedback"] = frame.locator("body").inner_text()
    return {s.name: s.seen["feedback"] for s in course.students}


# ---------------------------------------------------------------------------------------------
# stage 1: the students' lab
# ---------------------------------------------------------------------------------------------
def test_students_lab_speaks_their_language_with_the_assignments_tab_only(course, submitted):
    for s in course.students:
        assert s.seen["name_header"] == lab_translation(s.lang, "Name") != "Name", (s.name, s.seen["name_header"])
        # nbgrader's student interface only: no Formgrader, Courses or Create Assignment
        assert s.seen["nbgrader_menu"] == ["Assignment List"], s.seen["nbgrader_menu"]
        assert set(s.seen["released"]) == {st.assignment for st in course.students}


def test_students_fetch_the_student_distributions_lesson_in_their_language(course, submitted):
    for s in course.students:
        fetched = s.seen["fetched"]
        lesson = nbformat.read(str(course.dist / "lessons" / s.lang / f"{LESSON}.ipynb"), as_version=4)
        assert [c.source for c in fetched.cells] == [c.source for c in lesson.cells], s.name
        for ex, text in s.seen["typed"].items():
            expected = course.answers[s.assignment][s.right] if ex == s.right else WRONG[ex]
            assert text.strip() == expected.strip(), (s.name, ex, text)


def test_validate_runs_check_in_the_students_language(course, submitted):
    from grader.student.registry import all_exercises

    exercises = all_exercises()
    for s in course.students:
        text = s.seen["validation"]
        wrong_title = exercises[s.wrong].display_title(s.lang)
        right_title = exercises[s.right].display_title(s.lang)
        assert f'check("{s.wrong}")' in text and wrong_title in text, text[:3000]
        assert f'check("{s.right}")' not in text and right_title not in text, text[:3000]


def test_students_lab_has_nothing_of_the_instructor(course, submitted):
    site, hub = course.site, course.hub
    s = course.students[0]
    token = hub.user_token(s.name)
    server = f"{site.url}/user/{s.name}"
    out = ui.execute(server, token, """
import importlib.util, json, os, sys
import grader, lessons
print(json.dumps({
    "definitions": importlib.util.find_spec("grader.course.definitions") is not None,
    "grader": grader.__file__, "lessons": lessons.__file__, "prefix": sys.prefix,
    "lesson_sources": os.path.isdir(os.path.join(os.path.dirname(lessons.__file__), "src")),
    "user": os.environ.get("JUPYTERHUB_USER"), "uid": os.getuid(),
}))
""")
    found = json.loads(out.strip().splitlines()[-1])
    # check() in a kernel of her server: the student wheel's visible checks, in her language
    answer = course.answers[s.assignment][s.right]
    report = ui.execute(server, token, f"import minitape as tf\n{answer}\nfrom grader import check\n"
                                       f"r = check({s.right!r})\nprint(r.passed, r.lang)\nprint(r.text())\n")
    assert report.startswith(f"True {s.lang}\n"), report
    from grader.student.registry import all_exercises

    assert all_exercises()[s.right].display_title(s.lang) in report, report
    assert found["user"] == s.name and found["uid"] == site.home(s.name).stat().st_uid
    assert found["definitions"] is False and found["lesson_sources"] is False, found
    assert found["prefix"] == str(site.env) and found["grader"].startswith(str(site.env)), found
    # nbgrader's instructor server extensions are not there
    import urllib.error
    import urllib.request

    for path in ("formgrader", "formgrader/api/assignments"):
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(urllib.request.Request(f"{server}/{path}",
                                                          headers={"Authorization": f"token {token}"}))
        assert err.value.code == 404, path


# ---------------------------------------------------------------------------------------------
# stage 2: the instructor
# ---------------------------------------------------------------------------------------------
def test_instructor_collects_and_grades_what_the_students_built(course, graded):
    site = course.site
    for s, run in zip(course.students, graded["collect"]):
        assert f"Collecting submission: {s.name} {s.assignment}" in run.stdout + run.stderr
    # the submission ana's server wrote under ben's name is refused, in one line; his own is graded
    ana, ben = course.students
    assert "forged" in ana.seen["forged"], ana.seen["forged"]
    out = graded["collect"][1].stdout + graded["collect"][1].stderr
    [refused] = [line for line in out.splitlines() if "refused" in line]
    assert f"is named for {ben.name!r} but was written by {ana.name!r}: not collected" in refused, out
    for s, run in zip(course.students, graded["autograde"]):
        assert f"{s.assignment}: 1 submission(s): 1 graded" in run.stdout, run.stdout
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{site.course / 'gradebook.db'}") as gb:
        points = {c.name: c.max_score for c in gb.find_notebook(LESSON, course.students[0].assignment).grade_cells
                  if c.name in STUBS or c.name.startswith("l01_")}
        scores = {}
        for s in course.students:
            sub = gb.find_submission_notebook(LESSON, s.assignment, s.name)
            scores[s.name] = {g.name: g.score for g in sub.grades}
            assert sub.score == pytest.approx(points[s.right]), (s.name, scores[s.name])
    for s in course.students:
        assert scores[s.name][s.right] == pytest.approx(points[s.right])
        assert scores[s.name][s.wrong] == 0
    with open(site.course / "grades.csv", newline="", encoding="utf-8") as f:
        rows = {r["student_id"]: r for r in csv.DictReader(f)}
    for s in course.students:
        row = rows[s.name]
        assert row[f"{LESSON}:language"] == s.lang
        assert float(row[f"{LESSON}:score"]) == pytest.approx(points[s.right])
        assert float(row[f"{LESSON}:{s.right}"]) == pytest.approx(points[s.right])
        assert float(row[f"{LESSON}:{s.wrong}"]) == 0
        # the two exercises left as stubs are unanswered; nothing crashed, timed out or was refused
        assert row[f"{LESSON}:status"].split(";") == ["unanswered"], row
    report = json.loads((site.course / "report" / "report.json").read_text(encoding="utf-8"))
    assert report["students"] == len(course.students)
    for ex in STUBS:
        assert report["exercises"][ex]["full"] == 1 and report["exercises"][ex]["zero"] == 1, report["exercises"][ex]


def test_exchange_has_the_permissions_nbgrader_documents(course, graded):
    site = course.site
    root = site.exchange
    course_dir = root / "minitape-autodiff"

    def mode(p: Path) -> int:
        return stat.S_IMODE(p.stat().st_mode) | (p.stat().st_mode & stat.S_ISGID)

    assert stat.S_IMODE(root.stat().st_mode) == 0o777
    assert mode(course_dir) == 0o755 and mode(course_dir / "outbound") == 0o755
    assert mode(course_dir / "inbound") == 0o2733        # write-only for students, set-gid
    assert mode(course_dir / "feedback") == 0o711         # nobody lists the feedback
    instructor = site.home(site.instructor).stat().st_uid
    assert {p.stat().st_uid for p in (course_dir, course_dir / "outbound", course_dir / "inbound")} == {instructor}
    for s in course.students:
        uid = site.home(s.name).stat().st_uid
        named = [p for p in (course_dir / "inbound").iterdir() if p.name.startswith(f"{s.name}+{s.assignment}+")]
        [submission] = [p for p in named if p.stat().st_uid == uid]   # ben's also has ana's forgery
        notebook = submission / f"{LESSON}.ipynb"
        assert stat.S_IMODE(notebook.stat().st_mode) == 0o644
        assert len(submission.name.split("+")[-1]) >= 8   # the random part no one else can list
    for home in site.homes.iterdir():
        assert stat.S_IMODE(home.stat().st_mode) == 0o700, home


def test_a_student_server_cannot_reach_what_is_not_theirs(course, graded):
    site, hub = course.site, course.hub
    ana, ben = course.students
    inbound = site.exchange / "minitape-autodiff" / "inbound"
    tries = {
        "own home": f"os.listdir({str(site.home(ana.name))!r})",
        "released assignment": f"open({str(site.exchange / 'minitape-autodiff/outbound' / ana.assignment / (LESSON + '.ipynb'))!r}).read()",
        "other student's home": f"os.listdir({str(site.home(ben.name))!r})",
        "other student's notebook": f"open({str(site.home(ben.name) / ben.assignment / (LESSON + '.ipynb'))!r}).read()",
        "other student's submission cache": f"os.listdir({str(site.home(ben.name) / '.local/share/jupyter/nbgrader_cache')!r})",
        "submissions in the exchange (list)": f"os.listdir({str(inbound)!r})",
        "submissions in the exchange (glob)": f"assert glob.glob({str(inbound / '*')!r})",
        "released feedback (list)": f"os.listdir({str(site.exchange / 'minitape-autodiff' / 'feedback')!r})",
        "changing a release": f"open({str(site.exchange / 'minitape-autodiff/outbound' / ana.assignment / (LESSON + '.ipynb'))!r}, 'a')",
        "instructor's course folder": f"os.listdir({str(site.course)!r})",
        "instructor's gradebook": f"open({str(site.course / 'gradebook.db')!r}, 'rb').read()",
        "instructor's definitions": f"open({str(site.course / 'definitions' / 'l01.py')!r}).read()",
        "the checkout's definitions": f"open({str(REPO / 'grader/course/definitions/l01.py')!r}).read()",
        "the checkout's lesson sources": f"os.listdir({str(REPO / 'lessons/src')!r})",
        "importing the definitions": "import grader.course.definitions",
    }
    code = "import glob, json, os\nout = {}\n"
    for name, attempt in tries.items():
        code += (f"try:\n    {attempt}\n    out[{name!r}] = 'allowed'\n"
                 f"except Exception as e:\n    out[{name!r}] = type(e).__name__\n")
    code += "print(json.dumps(out))\n"
    out = ui.execute(f"{site.url}/user/{ana.name}", hub.user_token(ana.name), code)
    result = json.loads(out.strip().splitlines()[-1])
    # the controls: what is hers is reachable, so a refusal below is a refusal, not a broken probe
    assert result.pop("own home") == "allowed" and result.pop("released assignment") == "allowed", result
    refused = {name: why for name, why in result.items() if why != "allowed"}
    assert refused == result, f"a student's server reached: {[n for n, w in result.items() if w == 'allowed']}"
    assert result["importing the definitions"] == "ModuleNotFoundError"
    assert result["submissions in the exchange (list)"] == "PermissionError"


# ---------------------------------------------------------------------------------------------
# stage 3: feedback
# ---------------------------------------------------------------------------------------------
def test_students_read_their_feedback_in_their_language(course, graded, feedback):
    from grader.i18n import t

    for s in course.students:
        text = feedback[s.name]
        for key in ("feedback.score", "feedback.test_cell"):
            assert t(key, s.lang) in text, (s.name, key, text[:500])
        assert t("feedback.score", "en") not in text.split("\n")[0], text[:200]
        other = next(st for st in course.students if st is not s)
        assert t("feedback.test_cell", other.lang) not in text
    with open(course.site.course / "grades.csv", newline="", encoding="utf-8") as f:
        rows = {r["student_id"]: r for r in csv.DictReader(f)}
    for s in course.students:
        score, total = float(rows[s.name][f"{LESSON}:score"]), float(rows[s.name][f"{LESSON}:max_score"])
        header = feedback[s.name].split("\n")[0]
        assert f"{t('feedback.score', s.lang)}: {score:.1f} / {total:.1f}" in header, header


# ---------------------------------------------------------------------------------------------
# the instructor's own server on the hub
# ---------------------------------------------------------------------------------------------
def test_the_instructors_server_has_formgrader_in_the_course_folder(course, graded):
    import urllib.request

    site, hub = course.site, course.hub
    with course.times("the instructor's server starts (Formgrader)"):
        hub.api("POST", f"users/{site.instructor}/server")
        hub.wait_for_server(site.instructor)
    token = hub.user_token(site.instructor)
    request = urllib.request.Request(f"{site.url}/user/{site.instructor}/formgrader/api/assignments",
                                     headers={"Authorization": f"token {token}"})
    with urllib.request.urlopen(request, timeout=120) as resp:
        assignments = {a["name"]: a for a in json.loads(resp.read())}
    assert set(assignments) >= {s.assignment for s in course.students}, assignments
    for s in course.students:
        assert assignments[s.assignment]["num_submissions"] == 1, assignments[s.assignment]
