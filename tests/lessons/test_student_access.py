"""The student never holds the answers: what students get (the student distribution, its Binder
environment, `make lab`) carries no reference solution, hidden case, instructor notebook or lesson
solution, and a kernel started the way students start it cannot read them; `check()` still works
there from the visible cases shipped as data.

* the student distribution (`python -m lessons student-dist`) is built and audited: by path (also
  inside its wheel) and by content (every function of the exercise definitions, every solution and
  hidden-test region of the lesson sources, whitespace ignored);
* its `make lab` (`python -m lessons lab --root lessons` with the wheel installed, not the
  checkout) starts, through its server, a real kernel for a lesson (reached with jupyter_client):
  it cannot open the instructor files by relative path nor import `grader.course.definitions`;
  `check()` fails the stub and passes a solution (tests/packaging/test_binder.py does the same
  with Binder's pinned environment);
* `make lab` in the checkout (`python -m lessons lab`): a real kernel started through the lab's
  server, in the lesson folder, cannot open the checkout's instructor files by relative or
  absolute path (they are not in its sandbox) nor import them; `check()` works there too.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from test_lab import REPO, TOKEN, _env, _get, _server

from lessons import student

INSTRUCTOR_FILES = ["grader/course/definitions/l01.py", "grader/course/definitions/__init__.py",
                    "lessons/src/01-gradients.py",
                    "grader/course/source/01-gradients-en/01-gradients.ipynb"]

# run in the kernel: try to read the instructor files, import the definitions, then check()
PROBE = textwrap.dedent("""
    import json, os
    _report = dict(cwd=os.getcwd(), read=dict(), listed=dict())
    for _p in PATHS:
        try:
            with open(_p, "rb") as _f:
                _report["read"][_p] = len(_f.read())
        except OSError as _e:
            _report["read"][_p] = type(_e).__name__
    for _p in FOLDERS:
        try:
            _report["listed"][_p] = sorted(os.listdir(_p))
        except OSError as _e:
            _report["listed"][_p] = type(_e).__name__
    try:
        import grader.course.definitions
        _report["import"] = "imported " + str(grader.course.definitions.__file__)
    except Exception as _e:
        _report["import"] = type(_e).__name__
    import grader, grader.student.registry
    _report["grader"] = grader.__file__
    _report["definitions"] = grader.student.registry.definitions_available()

    import minitape as tf
    from grader import check
    def derivative_at(x0):
        raise NotImplementedError()
    _report["stub"] = check("l01_ex1").passed
    def derivative_at(x0):
        x = tf.Variable(x0)
        with tf.GradientTape() as tape:
            y = x ** 3 - 2 * x
        return tape.gradient(y, x)
    _result = check("l01_ex1")
    _report["solution"] = [_result.passed, len(_result.checks)]
    print("REPORT" + json.dumps(_report))
""")


def _probe_code(checkout: Path, cwd_depth: int) -> tuple[str, list[str], list[str]]:
    """The probe for a kernel whose working directory is ``cwd_depth`` folders below ``checkout``."""
    up = "/".join([".."] * cwd_depth)
    paths = [f"{up}/{f}" for f in INSTRUCTOR_FILES] + [str(checkout / f) for f in INSTRUCTOR_FILES]
    paths += [f"{up}/tests/conftest.py", str(checkout / "tests/conftest.py")]
    folders = [str(checkout / "grader/course"), str(checkout / "lessons/src"), f"{up}/lessons/src"]
    return f"PATHS = {paths!r}\nFOLDERS = {folders!r}\n" + PROBE, paths, folders


def _report(outputs: list[str]) -> dict:
    text = "".join(outputs)
    assert "REPORT" in text, text[-3000:]
    return json.loads(text.split("REPORT", 1)[1].splitlines()[0])


def _run_in_kernel(client, code: str, timeout: float = 180) -> list[str]:
    """Execute code with a jupyter_client BlockingKernelClient; stdout text, errors raise."""
    msg_id = client.execute(code)
    out = []
    deadline = time.monotonic() + timeout
    while True:
        msg = client.get_iopub_msg(timeout=max(1, deadline - time.monotonic()))
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        kind, content = msg["msg_type"], msg["content"]
        if kind == "stream":
            out.append(content["text"])
        elif kind == "error":
            raise AssertionError("\n".join(content["traceback"]))
        elif kind == "status" and content["execution_state"] == "idle":
            return out


def _assert_nothing_readable(report: dict, paths: list[str], folders: list[str]) -> None:
    assert set(report["read"]) == set(paths)
    readable = {p: r for p, r in report["read"].items() if isinstance(r, int)}
    assert not readable, f"the kernel read instructor material or the checkout: {readable}"
    for folder, listing in report["listed"].items():
        assert listing in ("FileNotFoundError", "PermissionError", []), f"{folder}: {listing}"
    assert report["import"] in ("ModuleNotFoundError", "ImportError"), report["import"]
    assert report["definitions"] is False
    # check() works from the visible cases' data: the stub fails, the solution passes them all
    assert report["stub"] is False
    assert report["solution"][0] is True and report["solution"][1] >= 2, report["solution"]


# -- the distribution --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    """The distribution, built once for the session (tests/packaging/test_binder.py takes the same
    build; building asserts a non-empty manifest), copied for this module: its lab runs in it."""
    import shutil

    from tests.support.project import student_distribution

    out = tmp_path_factory.mktemp("student") / "minitape-student"
    shutil.copytree(student_distribution(), out, symlinks=True)
    return out


@pytest.mark.install  # builds the student distribution (a wheel)
def test_student_dist_holds_only_student_material(dist: Path) -> None:
    files = sorted(p.relative_to(dist).as_posix() for p in dist.rglob("*") if p.is_file())
    wheel = json.loads((dist / student.MANIFEST).read_text())["wheel"]
    assert set(files) == set(json.loads((dist / student.MANIFEST).read_text())["files"]) | {student.MANIFEST}
    tops = {f.split("/", 1)[0] for f in files}
    assert tops == {"lessons", "binder", "docs", "Makefile", "README.md", ".gitignore", student.MANIFEST}, tops
    # the students' guide in the four languages, as in the checkout, and the README pointing at it
    assert sorted(f for f in files if f.startswith("docs/")) == sorted(g.as_posix() for g in student.GUIDES.values())
    for guide in student.GUIDES.values():
        assert (dist / guide).read_bytes() == (REPO / guide).read_bytes()
    notebooks = [f for f in files if f.startswith("lessons/")]
    expected = sorted(p.relative_to(REPO).as_posix() for p in REPO.glob("lessons/*/*.ipynb")
                      if "src" not in p.parts)
    assert notebooks == expected
    assert wheel.startswith("binder/minitape-") and wheel.endswith(".whl") and wheel in files
    # the wheel holds check()'s data and nothing of the instructor's
    import zipfile

    with zipfile.ZipFile(dist / wheel) as zf:
        names = zf.namelist()
    assert "grader/student/visible_cases.json" in names and "grader/__init__.py" in names
    assert not [n for n in names if student.INSTRUCTOR_PATH.search(n)]
    assert student.audit(dist, student.Fingerprints.of_checkout(REPO)) == []
    # Binder installs the wheel with the checkout's pins
    reqs = (dist / "binder/requirements.txt").read_text().splitlines()
    assert f"./{wheel}" in reqs and "." not in [r.strip() for r in reqs]
    pins = [r for r in (REPO / "binder/requirements.txt").read_text().splitlines()
            if "==" in r and not r.startswith("#")]
    assert pins and all(p in reqs for p in pins)
    assert os.access(dist / "binder/start", os.X_OK)
    readme = (dist / "README.md").read_text()
    assert "make lab" in readme and "mybinder.org/v2/gh/" in readme and "lessons/src" not in readme
    # its make lab: Binder's exact requirements into .venv, then the lab on lessons/ with them
    dry = subprocess.run(["make", "-n", "--no-print-directory", "-C", str(dist), "lab", "PYTHON=python3.11"],
                         capture_output=True, text=True, timeout=60)
    assert dry.returncode == 0, dry.stderr
    assert "python3.11 -m venv --clear .venv" in dry.stdout
    assert ".venv/bin/python -m pip --disable-pip-version-check install --progress-bar on -r binder/requirements.txt" in dry.stdout
    assert dry.stdout.rstrip().splitlines()[-1] == ".venv/bin/python -m lessons lab --root lessons"
    # JupyterLab's menus in the student's language (issue 27): make lab LAB_LANG=es, the settings
    # it points at shipped in the wheel, and the README saying so in the four languages
    dry = subprocess.run(["make", "-n", "--no-print-directory", "-C", str(dist), "lab", "PYTHON=python3.11",
                          "LAB_LANG=es"], capture_output=True, text=True, timeout=60)
    assert dry.stdout.rstrip().splitlines()[-1] == ".venv/bin/python -m lessons lab --root lessons --lang es"
    assert {"lessons/jupyter_config/jupyter_server_config.py",
            *(f"lessons/jupyter_config/lab_settings/{lang}/overrides.json" for lang in ("en", "es", "pt", "ru"))} <= set(names)
    for heading, command in [("## English", "LAB_LANG=en"), ("## Español", "LAB_LANG=es"),
                             ("## Português", "LAB_LANG=pt"), ("## Русский", "LAB_LANG=ru")]:
        assert heading in readme and f"make lab {command}" in readme, heading
    assert [f'<div lang="{lang}">' in readme for lang in ("en", "es", "pt", "ru")] == [True] * 4
    # how to hand in, and the browser-only route, in each language; the guide linked from each
    for lang in ("en", "es", "pt", "ru"):
        section = readme.split(f'<div lang="{lang}">', 1)[1].split("</div>", 1)[0]
        assert f"`lessons/{lang}/01-gradients.ipynb`" in section and f"]({student.GUIDES[lang].as_posix()})" in section
        assert student.SITE_PHRASES[lang][1] in section     # no site named in pyproject.toml: who gives it
    # the checkout's make student-dist runs the same command
    dry = subprocess.run(["make", "-n", "-C", str(REPO), "student-dist", "STUDENT_DIST=/elsewhere/x",
                          "VENV=/nonexistent-venv"], capture_output=True, text=True, timeout=60)
    assert dry.returncode == 0 and "/nonexistent-venv/bin/python -m lessons student-dist /elsewhere/x" in dry.stdout


def test_audit_finds_instructor_material(tmp_path: Path) -> None:
    """The audit is what stands between the checkout and the students: it must catch the
    instructor files by path, and their text wherever it is copied to."""
    prints = student.Fingerprints.of_checkout(REPO)
    assert len(prints.blocks) >= 20
    (tmp_path / "lessons/en").mkdir(parents=True)
    assert student.audit(tmp_path, prints) == []
    # a reference function pasted into a notes file (reindented), a lesson source renamed
    ref = (REPO / "grader/course/definitions/l01.py").read_text()
    start = ref.index("def _mse_gradients_reference")
    body = ref[start:ref.index("\n\n\n", start)]
    (tmp_path / "notes.txt").write_text(textwrap.indent(body, "        "))
    (tmp_path / "lessons/en/copy.py").write_bytes((REPO / "lessons/src/01-gradients.py").read_bytes())
    import shutil
    import zipfile

    shutil.copytree(REPO / "grader/course/definitions", tmp_path / "x/grader/course/definitions",
                    ignore=shutil.ignore_patterns("__pycache__"))
    with zipfile.ZipFile(tmp_path / "pkg.whl", "w") as zf:
        zf.writestr("lessons/src/01-gradients.py", "x = 1\n")
    problems = "\n".join(student.audit(tmp_path, prints))
    assert "notes.txt: holds the code of grader/course/definitions/l01.py" in problems, problems
    assert "lessons/en/copy.py" in problems
    assert "x/grader/course/definitions/l01.py: instructor material by path" in problems
    assert "pkg.whl!/lessons/src/01-gradients.py: instructor material by path" in problems


def test_student_dist_refuses_to_overwrite_other_folders(tmp_path: Path) -> None:
    (tmp_path / "mine.txt").write_text("my work")
    with pytest.raises(student.StudentDistError, match="not overwriting"):
        student.build(tmp_path)
    assert (tmp_path / "mine.txt").read_text() == "my work"
    proc = subprocess.run([sys.executable, "-m", "lessons", "student-dist", str(tmp_path),
                           "--allow-placeholder"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and "not overwriting" in proc.stderr


def test_student_dist_refuses_the_placeholder_repository(tmp_path: Path) -> None:
    """Binder badges to `your-github-user/minitape-student` must not ship silently."""
    from lessons.readme import PLACEHOLDER_REPOSITORY, course_settings

    if course_settings(REPO)[0] != PLACEHOLDER_REPOSITORY:
        pytest.skip("this checkout names its students' repository")
    proc = subprocess.run([sys.executable, "-m", "lessons", "student-dist", str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and PLACEHOLDER_REPOSITORY in lines[0], lines
    assert "[tool.minitape-course] repository" in lines[0] and "--allow-placeholder" in lines[0]
    assert not (tmp_path / "out").exists()


@pytest.mark.install  # builds the student distribution (a wheel)
def test_student_dist_refresh_keeps_git_and_replaces_the_rest(dist: Path, tmp_path: Path) -> None:
    import shutil

    out = tmp_path / "clone"
    shutil.copytree(dist, out)
    (out / ".git").mkdir()
    (out / ".git/HEAD").write_text("ref: refs/heads/main\n")
    (out / "lessons/en/old-lesson.ipynb").write_text("{}")
    student.build(out)
    assert (out / ".git/HEAD").read_text() == "ref: refs/heads/main\n"
    assert not (out / "lessons/en/old-lesson.ipynb").exists()
    assert student.audit(out) == []


@pytest.fixture(scope="module")
def student_venv(dist: Path, tmp_path_factory) -> Path:
    """An environment as the distribution's `make lab` (and Binder) makes it: the distribution's
    wheel installed, not the checkout. Its dependencies (JupyterLab, NumPy, ...) are this test
    run's, reached through a path entry, whose .pth files -- the checkout's editable install --
    are not processed; tests/packaging/test_binder.py installs the real pins."""
    import sysconfig

    venv = tmp_path_factory.mktemp("student-venv") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    wheel = dist / json.loads((dist / student.MANIFEST).read_text())["wheel"]
    subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", "--python",
                    str(venv / "bin/python"), "install", "--quiet", "--no-deps", str(wheel)],
                   check=True, timeout=300, capture_output=True)
    (site,) = (venv / "lib").glob("python3*/site-packages")
    (site / "course-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return venv


@pytest.mark.install  # the distribution installed into a virtualenv
@pytest.mark.kernel
def test_student_dist_lab_kernel_cannot_reach_the_answers(dist: Path, student_venv: Path,
                                                          tmp_path: Path) -> None:
    """The distribution's `make lab` (`python -m lessons lab --root lessons` in its environment):
    no instructor material is reachable, so the lab starts ordinary kernels; a real one, started
    through the lab's server for lessons/en/01-gradients.ipynb, finds none of the answers by
    `../` paths or by import, imports the installed wheel, and check() works from the data."""
    python = student_venv / "bin/python"
    where = subprocess.run([python, "-c", "import json, sys; from lessons import lab; "
                            "print(json.dumps(lab.instructor_material(lab.Path(sys.argv[1]))))",
                            str(dist / "lessons")], capture_output=True, text=True, timeout=120, check=True,
                           cwd=dist)  # as make lab there runs it (not this checkout's root)
    assert json.loads(where.stdout) == []
    env = _env(tmp_path)
    env["JUPYTER_RUNTIME_DIR"] = str(tmp_path / "runtime")
    report, (paths, folders), log = _lab_kernel_report(
        [python, "-m", "lessons", "lab", "--root", "lessons"], env, dist, dist, dist / "lessons")
    assert "kernels confined" not in log and "WARNING" not in log.split("\n", 1)[0]
    assert Path(report["cwd"]) == dist / "lessons/en"
    assert Path(report["grader"]).is_relative_to(student_venv), f"the kernel imported {report['grader']}"
    assert report["interrupt"] == "KeyboardInterrupt"
    # the checkout's absolute paths: a student who has only the distribution has no checkout;
    # this test machine has one, so only the relative ones are asked of this kernel
    relative = [p for p in paths if p.startswith("..")]
    report["read"] = {p: report["read"][p] for p in relative}
    report["listed"] = {p: v for p, v in report["listed"].items() if p.startswith("..")}
    _assert_nothing_readable(report, relative, [f for f in folders if f.startswith("..")])


# -- make lab in the checkout ------------------------------------------------------------------

def _lab_kernel_report(argv: list, env: dict, cwd: Path, checkout: Path, root: Path):
    """Start the lab (argv, in cwd), open en/01-gradients.ipynb's session through its REST API,
    connect to that kernel with jupyter_client and run the probe: (report, (paths, folders), log)."""
    from jupyter_client import BlockingKernelClient

    runtime = Path(env["JUPYTER_RUNTIME_DIR"])
    with _server(argv, env, cwd) as (base, log):
        body = json.dumps({"path": "en/01-gradients.ipynb", "type": "notebook", "name": "",
                           "kernel": {"name": "python3"}}).encode()
        req = urllib.request.Request(f"{base}/api/sessions", data=body, method="POST",
                                     headers={"Authorization": f"token {TOKEN}",
                                              "Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=120) as resp:
            session = json.loads(resp.read())
        kernel_id = session["kernel"]["id"]
        # a client of our own takes a kernel whose heartbeat does not answer yet (still starting,
        # slowly on a loaded machine) for dead: ask again until it answers
        deadline = time.monotonic() + 240
        while True:
            client = BlockingKernelClient(connection_file=str(runtime / f"kernel-{kernel_id}.json"))
            client.load_connection_file()
            client.start_channels()
            try:
                client.wait_for_ready(timeout=60)
                break
            except RuntimeError as exc:
                client.stop_channels()
                if time.monotonic() > deadline:
                    raise AssertionError(f"{exc}; the server's log:\n{log.read_text()[-4000:]}") from None
                time.sleep(2)
        try:
            code, paths, folders = _probe_code(checkout, len((root / "en").relative_to(checkout).parts))
            report = _report(_run_in_kernel(client, code))
            # Kernel > Interrupt (the server's REST call) reaches the kernel, in its sandbox too
            msg_id = client.execute("import time\ntime.sleep(120)")
            time.sleep(3)
            req = urllib.request.Request(f"{base}/api/kernels/{kernel_id}/interrupt", data=b"", method="POST",
                                         headers={"Authorization": f"token {TOKEN}"})
            urllib.request.urlopen(req, timeout=60).close()
            deadline = time.monotonic() + 60
            report["interrupt"] = None
            while report["interrupt"] is None and time.monotonic() < deadline:
                msg = client.get_iopub_msg(timeout=60)
                if msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "error":
                    report["interrupt"] = msg["content"]["ename"]
        finally:
            client.stop_channels()
        # the server refuses the hidden names by path too (not only in listings)
        report["served"] = {url: _get(f"{base}{url}")[0] for url in (
            "/api/contents/src/01-gradients.py", "/files/src/01-gradients.py", "/api/contents/src",
            "/api/contents/en/01-gradients.ipynb")}
        terminals = urllib.request.Request(f"{base}/api/terminals", headers={"Authorization": f"token {TOKEN}"})
        try:
            with urllib.request.urlopen(terminals, timeout=30) as resp:
                report["terminals"] = resp.status
        except urllib.error.HTTPError as exc:
            report["terminals"] = exc.code
        return report, (paths, folders), log.read_text()


@pytest.mark.kernel
@pytest.mark.skipif(not Path("/usr/bin/bwrap").exists(), reason="bubblewrap is not installed")
def test_make_lab_kernel_in_the_checkout_cannot_reach_the_answers(tmp_path: Path) -> None:
    """`make lab` runs `python -m lessons lab` from the checkout (an editable install): the
    kernel the lab starts for a lesson cannot see the checkout's instructor folders."""
    env = _env(tmp_path)
    env["JUPYTER_RUNTIME_DIR"] = str(tmp_path / "runtime")
    report, (paths, folders), log = _lab_kernel_report(
        [sys.executable, "-m", "lessons", "lab"], env, tmp_path, REPO, REPO / "lessons")
    assert "kernels confined" in log, log
    assert Path(report["cwd"]) == REPO / "lessons/en", report["cwd"]
    _assert_nothing_readable(report, paths, folders)
    assert report["terminals"] == 404, "a terminal would run unconfined beside the confined kernels"
    assert report["interrupt"] == "KeyboardInterrupt"
    assert report["served"] == {"/api/contents/src/01-gradients.py": 404, "/files/src/01-gradients.py": 404,
                                "/api/contents/src": 404, "/api/contents/en/01-gradients.ipynb": 200}


def test_lab_without_bubblewrap_refuses_unless_told(tmp_path: Path) -> None:
    env = _env(tmp_path)
    env["PATH"] = str(tmp_path / "nothing")  # no bwrap on PATH
    proc = subprocess.run([sys.executable, "-m", "lessons", "lab", "--no-browser"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert "instructor material" in proc.stderr and "--no-sandbox" in proc.stderr
    assert "student-dist" in proc.stderr
    assert "apt-get install bubblewrap" in proc.stderr and "grade with" not in proc.stderr


@pytest.mark.kernel
def test_lab_with_no_sandbox_warns_and_the_probe_sees_the_leak(tmp_path: Path) -> None:
    """The control for the test above: unconfined (--no-sandbox), the same probe does read the
    checkout's instructor files -- so its passing above is the sandbox's doing."""
    env = _env(tmp_path)
    env["JUPYTER_RUNTIME_DIR"] = str(tmp_path / "runtime")
    report, _paths, log = _lab_kernel_report(
        [sys.executable, "-m", "lessons", "lab", "--no-sandbox"], env, tmp_path, REPO, REPO / "lessons")
    assert "WARNING: starting the lab without a sandbox" in log
    assert isinstance(report["read"]["../../grader/course/definitions/l01.py"], int)
    assert isinstance(report["read"][str(REPO / "lessons/src/01-gradients.py")], int)
    assert report["import"].startswith("imported")
