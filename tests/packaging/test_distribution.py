"""The sdist and wheel: the three packages with all their files except the instructor
material, NumPy as the only runtime dependency, and none of the repository tooling (binder/,
tests/, benchmarks/).

Instructor material is what students must never hold: the exercise definitions (reference
solutions and hidden cases, grader/course/definitions/), the nbgrader source notebooks
(solutions and hidden tests, grader/course/source/) and the lesson sources (solutions,
lessons/src/). Students install the wheel (Binder builds one from the repository), so neither
it nor the sdist carries any of it, by path or by content."""

from __future__ import annotations

import re
import sys
import tarfile
import tomllib
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

from packaging.requirements import Requirement

from tests.support.project import PACKAGES, REPO, clean_env, project_files, run

TOOLING = ("binder/", "tests/", "benchmarks/", ".ci/")
# nbgrader runtime state that may sit in a working copy of the course (pruned in MANIFEST.in).
COURSE_STATE = re.compile(r"^grader/course/(submitted|autograded|feedback|release|exchange)/|(^|/)gradebook\.db$")
INSTRUCTOR = re.compile(r"^(grader/course/definitions|grader/course/source|lessons/src)/")
# text that only instructor material contains: exercise registrations with their reference
# solutions and hidden-case generators, notebooks' solution regions
INSTRUCTOR_TEXT = re.compile(rb"register\(Exercise\(|def _\w+_reference\(|def _ex\d+_random\(|"
                             rb"### BEGIN (SOLUTION|HIDDEN TESTS)\\n\"")


def _package_files() -> set[str]:
    return {f for f in project_files()
            if f.split("/", 1)[0] in PACKAGES and not f.endswith((".pyc", ".pyo"))
            and not COURSE_STATE.search(f) and not INSTRUCTOR.search(f)}


@pytest.mark.install  # builds the sdist and the wheel
def test_sdist_and_wheel_contents(project_copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "dist"
    # python -m build makes the sdist, then the wheel from the unpacked sdist (as pip would).
    run([sys.executable, "-m", "build", "--outdir", out, project_copy], cwd=project_copy,
        env=clean_env(), timeout=600)
    (wheel,) = out.glob("*.whl")
    (sdist,) = out.glob("*.tar.gz")
    expected = _package_files()

    with zipfile.ZipFile(wheel) as zf:
        names = [n for n in zf.namelist() if not n.endswith("/")]
        (metadata_name,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        metadata = Parser().parsestr(zf.read(metadata_name).decode())
    top_level = {n.split("/", 1)[0] for n in names}
    dist_info = metadata_name.split("/", 1)[0]
    for package in PACKAGES:
        assert f"{package}/__init__.py" in names, f"package {package!r} is missing from the wheel"
    assert top_level == {*PACKAGES, dist_info}, f"unexpected top-level entries: {sorted(top_level)}"
    shipped = {n for n in names if not n.startswith(dist_info)}
    missing = sorted(expected - shipped)
    assert not missing, f"files of the packages missing from the wheel (add to MANIFEST.in?): {missing}"
    extra = sorted(shipped - expected)
    assert not extra, f"files in the wheel that are not in the project: {extra}"

    with tarfile.open(sdist) as tf:
        root, *_ = tf.getnames()[0].split("/")
        members = {m.name.split("/", 1)[1] for m in tf.getmembers() if m.isfile() and "/" in m.name}
    assert {"pyproject.toml", "README.md", "MANIFEST.in"} <= members
    missing = sorted(expected - members)
    assert not missing, f"files of the packages missing from the sdist: {missing}"

    # no instructor material, by path or by content, in either
    with zipfile.ZipFile(wheel) as zf:
        wheel_text = {n: zf.read(n) for n in names}
    with tarfile.open(sdist) as tf:
        sdist_text = {m.name.split("/", 1)[1]: tf.extractfile(m).read()
                      for m in tf.getmembers() if m.isfile() and "/" in m.name}
    assert any(INSTRUCTOR.search(f) for f in project_files()), "the checkout has instructor material"
    for kind, files in (("wheel", wheel_text), ("sdist", sdist_text)):
        by_path = sorted(n for n in files if INSTRUCTOR.search(n))
        assert not by_path, f"instructor material in the {kind}: {by_path}"
        by_text = sorted(n for n, data in files.items() if INSTRUCTOR_TEXT.search(data))
        assert not by_text, f"solutions or hidden tests inside files of the {kind}: {by_text}"
    # what check() needs instead: the visible cases as data
    assert "grader/student/visible_cases.json" in wheel_text
    leaked = sorted(m for m in members if m.startswith(TOOLING))
    assert not leaked, f"repository tooling in the sdist: {leaked}"

    # Runtime dependency: NumPy only; everything else behind an extra.
    assert metadata["Requires-Python"] == ">=3.11"
    requirements = [Requirement(r) for r in metadata.get_all("Requires-Dist")]
    unconditional = [r for r in requirements if r.marker is None or r.marker.evaluate({"extra": ""})]
    assert [r.name for r in unconditional] == ["numpy"]
    assert {"course", "gpu", "dev"} <= set(metadata.get_all("Provides-Extra"))


def _normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _binder_pins() -> dict[str, str]:
    pins = {}
    for line in (REPO / "binder/requirements.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line or line == ".":
            continue
        req = Requirement(line)
        if req.marker is not None and not req.marker.evaluate():
            continue  # a pin for other 3.11 patch releases (soupsieve)
        spec = str(req.specifier)
        assert spec.startswith("==") and "," not in spec, f"binder requirement not pinned: {line!r}"
        assert _normalize(req.name) not in pins, f"{req.name} pinned twice"
        pins[_normalize(req.name)] = spec[2:]
    return pins


def test_binder_files_pin_the_course() -> None:
    lines = [l.strip() for l in (REPO / "binder/requirements.txt").read_text().splitlines()]
    assert "." in lines, "binder/requirements.txt must install the project itself ('.')"
    pins = _binder_pins()
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text())
    extras = pyproject["project"]["optional-dependencies"]
    wanted = [Requirement(r) for r in extras["course"] + pyproject["project"]["dependencies"]]
    reqs = []
    while wanted:  # the course's own extras ("minitape[keras]") stand for their requirements
        req = wanted.pop()
        if _normalize(req.name) == "minitape":
            wanted += [Requirement(r) for extra in req.extras for r in extras[extra]]
        else:
            reqs.append(req)
    for req in reqs:
        name = _normalize(req.name)
        assert name in pins, f"{req.name} (pyproject.toml) is not pinned in binder/requirements.txt"
        assert req.specifier.contains(pins[name], prereleases=True), (
            f"binder pins {req.name}=={pins[name]}, outside pyproject.toml's {req}")
    for lang in ("es-es", "pt-br", "ru-ru"):
        assert f"jupyterlab-language-pack-{lang}" in pins, f"JupyterLab language pack {lang} missing"
    assert (REPO / "binder/runtime.txt").read_text().strip() == "python-3.11"
    post_build = REPO / "binder/postBuild"
    if post_build.exists():
        body = [l.strip() for l in post_build.read_text().splitlines() if l.strip() and not l.startswith("#")]
        assert body and body[0] == "set -e", "binder/postBuild must start with `set -e`"


def test_ci_runs_the_readme_test_command() -> None:
    testing = (REPO / "docs" / "testing.md").read_text()  # the README links it ("Contributors")
    quick_start = testing.split("## `make test`", 1)[1]
    block = quick_start.split("```", 2)[1]
    commands = [l.split("#", 1)[0].strip() for l in block.splitlines()[1:]]
    commands = [c for c in commands if c]
    assert commands[:2] == ["make lab", "make test"], commands
    ci = (REPO / ".ci/run").read_text()
    steps = [l.strip() for l in ci.splitlines() if l.strip() and not l.lstrip().startswith("#")]
    # the one test command is the README's, with the interpreter found before; after it, only the
    # fast tier on the other supported Pythons; pytest is never called directly
    (test_line,) = [s for s in steps if s.startswith("make test")]
    assert test_line == 'make test PYTHON="$python"', steps
    after = steps[steps.index(test_line) + 1:]
    assert [s.split()[:2] for s in after if s.startswith("make ")] == [["make", "check"]], after
    assert "pytest" not in ci
    before = steps[:steps.index(test_line)]
    assert not [s for s in before if s.startswith("make ")], before


def test_install_instructions_name_installable_things() -> None:
    """minitape is not on the package index, so installing it (or its gpu extra) by name cannot work.
    Lessons, messages, errors and docs say `pip install cupy-cuda12x` or, from a checkout,
    `pip install -e '.[gpu]'`."""
    import re

    bad = re.compile(r"pip install ['\"]?minitape\b")
    found = []
    for path in REPO.rglob("*"):
        if (path == Path(__file__) or path.suffix not in {".py", ".md", ".json", ".ipynb", ".txt"} or not path.is_file()
                or any(part.startswith(".") or part in {"build", "dist", "node_modules"}
                       for part in path.relative_to(REPO).parts)):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if bad.search(line) and "bad = re.compile" not in line:
                found.append(f"{path.relative_to(REPO)}:{n}: {line.strip()[:120]}")
    assert not found, "\n".join(found)


def test_binder_start_is_a_students_lab() -> None:
    """repo2docker runs binder/start before JupyterLab: it must put the students' Jupyter
    configuration (nbgrader's interface off) first on JUPYTER_CONFIG_PATH and exec the server."""
    import os
    import subprocess

    start = REPO / "binder/start"
    assert os.access(start, os.X_OK)
    out = subprocess.run([str(start), "sh", "-c", 'printf %s "$JUPYTER_CONFIG_PATH"'], cwd=REPO,
                         env={"PATH": os.environ["PATH"], "REPO_DIR": str(REPO),
                              "JUPYTER_CONFIG_PATH": "/elsewhere"},
                         capture_output=True, text=True, check=True).stdout
    first, rest = out.split(":", 1)
    assert Path(first) == REPO / "lessons/jupyter_config" and rest == "/elsewhere"
    assert (Path(first) / "labconfig/page_config.json").is_file()
