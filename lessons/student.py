"""The student distribution: ``python -m lessons student-dist OUT`` (``make student-dist``).

A checkout of this repository is instructor material: ``grader/course/exercises/`` holds the
reference solutions and the hidden cases' code, ``grader/course/source/`` the instructor
notebooks, ``lessons/src/`` the lesson sources with their solutions. Whoever holds the checkout
can read them. What students get is built from it by this command, a folder that holds only:

* ``lessons/<lang>/*.ipynb`` -- the student notebooks (exercise stubs, no solutions, no hidden
  tests), at the same paths as in the checkout, so Binder links keep their ``urlpath``;
* ``binder/minitape-<version>-py3-none-any.whl`` -- the wheel, built from a clean copy of the
  package folders without the instructor folders (the visible cases' expected values are in
  it as data, ``grader/visible_cases.json``: that is what ``check()`` uses);
* ``binder/requirements.txt`` (the checkout's pins, with the wheel instead of ``.``),
  ``binder/runtime.txt``, ``binder/start``: what repo2docker (mybinder.org) builds and starts;
* ``Makefile`` (``make lab``: a ``.venv`` with exactly Binder's requirements, then JupyterLab on
  ``lessons/``), ``README.md`` (the students' guide and the Binder badges), ``.gitignore``;
* ``student-dist.json`` -- what it was built from (commit, version) and every file's sha256.

Before anything is written the result is audited (:func:`audit`): no path of instructor
material, inside the wheel too, and no text of it -- no exercise registration, reference or
hidden-case function (each function of ``grader/course/exercises/*.py`` is looked for, whitespace
ignored), no solution or hidden-test region of ``lessons/src/*.py`` and no nbgrader solution or
hidden-test marker. A failed audit writes nothing and exits 1.

OUT is created, or refreshed when it already holds a student distribution (its ``.git`` is kept,
so OUT can be a clone of the students' repository: build, commit, push). Publishing is described
in the README ("Publishing the student distribution").
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from . import LANGS

REPO = Path(__file__).resolve().parent.parent
MANIFEST = "student-dist.json"
PACKAGES = ("minitape", "grader", "lessons")
# instructor material, as paths relative to a checkout (or to a wheel's root)
INSTRUCTOR_DIRS = ("grader/course/exercises", "grader/course/source", "lessons/src")
INSTRUCTOR_PATH = re.compile(r"(^|/)(grader/course/exercises|grader/course/source|lessons/src)(/|$)")
# text only instructor material holds: exercise registrations, reference and hidden-case
# functions, nbgrader's solution and hidden-test markers (whitespace removed before matching)
# (the markers only in notebooks: the grader's code and docs name them)
INSTRUCTOR_MARKERS = re.compile(r"register\(Exercise\(|def_\w+_reference\(|def_ex\d+_random\(")
NOTEBOOK_MARKERS = re.compile(r"###(BEGIN|END)(SOLUTION|HIDDENTESTS)")
MIN_FINGERPRINT = 40  # shorter code (one line such as `return tape.gradient(y, x)`) also appears in prose
KEEP_ON_REFRESH = {".git"}


class StudentDistError(RuntimeError):
    """The student distribution cannot be built (or would hold instructor material)."""


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


@dataclass
class Fingerprints:
    """Instructor text, whitespace removed: each function of the exercise definitions and each
    solution or hidden-test region of the lesson sources."""

    blocks: dict[str, str] = field(default_factory=dict)  # squashed text -> where it comes from

    @classmethod
    def of_checkout(cls, root: Path = REPO) -> "Fingerprints":
        import ast

        prints = cls()
        for path in sorted((root / "grader/course/exercises").glob("*.py")):
            text = path.read_text(encoding="utf-8")
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    body = ast.get_source_segment(text, node) or ""
                    prints.add(body, f"{path.relative_to(root)}:{node.lineno} {node.name}()")
        region = re.compile(r"### BEGIN (SOLUTION|HIDDEN TESTS)\n(.*?)### END \1", re.S)
        for path in sorted((root / "lessons/src").glob("*.py")):
            text = path.read_text(encoding="utf-8")
            for match in region.finditer(text):
                line = text.count("\n", 0, match.start()) + 1
                prints.add(match.group(2), f"{path.relative_to(root)}:{line} {match.group(1).lower()}")
        return prints

    def add(self, text: str, where: str) -> None:
        squashed = _squash(text)
        if len(squashed) >= MIN_FINGERPRINT:
            self.blocks.setdefault(squashed, where)

    def found_in(self, squashed: str) -> list[str]:
        return [where for block, where in self.blocks.items() if block in squashed]


def _readable_text(name: str, data: bytes) -> str:
    """What a file says: a notebook's cell sources and outputs, else the bytes as text."""
    if name.endswith(".ipynb"):
        try:
            nb = json.loads(data)
            parts = []
            for cell in nb.get("cells", []):
                src = cell.get("source", "")
                parts.append("".join(src) if isinstance(src, list) else str(src))
                for out in cell.get("outputs", []):
                    parts.append(json.dumps(out, ensure_ascii=False))
            return "\n".join(parts) + "\n" + data.decode("utf-8", "replace")
        except ValueError:
            pass
    return data.decode("utf-8", "replace")


def _members(root: Path):
    """(name, bytes) of every file under root, and of every file inside each wheel/zip there."""
    for path in sorted(p for p in root.rglob("*") if p.is_file() and ".git" not in p.relative_to(root).parts):
        rel = path.relative_to(root).as_posix()
        data = path.read_bytes()
        yield rel, data
        if rel.endswith((".whl", ".zip")):
            with zipfile.ZipFile(io.BytesIO(data)) as zf:
                for name in zf.namelist():
                    if not name.endswith("/"):
                        yield f"{rel}!/{name}", zf.read(name)


def audit(root: Path, fingerprints: Fingerprints | None = None) -> list[str]:
    """Every reason ``root`` (a student distribution, or any folder) holds instructor material:
    an instructor path (inside wheels too), nbgrader's solution/hidden markers, exercise
    registrations, or a fingerprint of the instructor's code. Empty: clean."""
    problems = []
    for name, data in _members(Path(root)):
        inner = name.split("!/", 1)[-1]
        if INSTRUCTOR_PATH.search(inner) or INSTRUCTOR_PATH.search(name):
            problems.append(f"{name}: instructor material by path")
            continue
        if name.endswith((".pyc", ".png", ".svg")) or b"\0" in data[:4096]:
            continue
        squashed = _squash(_readable_text(name, data))
        marker = INSTRUCTOR_MARKERS.search(squashed) or (
            NOTEBOOK_MARKERS.search(squashed) if name.endswith(".ipynb") else None)
        if marker:
            problems.append(f"{name}: instructor text {marker.group(0)!r}")
        if fingerprints is not None:
            problems += [f"{name}: holds the code of {where}" for where in fingerprints.found_in(squashed)]
    return problems


# -- building ---------------------------------------------------------------------------------

def _git(*args: str, root: Path = REPO) -> str | None:
    try:
        return subprocess.run(["git", *args], cwd=root, check=True, capture_output=True,
                              text=True, timeout=60).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None


def _package_sources(root: Path, dest: Path) -> None:
    """The files a wheel is built from, without the instructor folders (never copied at all)
    and without build or runtime leftovers."""
    skip_parts = {"__pycache__", ".ipynb_checkpoints", "build", "dist"}
    for name in ("pyproject.toml", "MANIFEST.in", "README.md"):
        shutil.copy2(root / name, dest / name)
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*")):
            rel = path.relative_to(root)
            if (not path.is_file() or skip_parts.intersection(rel.parts) or path.suffix in {".pyc", ".pyo"}
                    or INSTRUCTOR_PATH.search(rel.as_posix()) or path.name == "gradebook.db"
                    or re.match(r"grader/course/(submitted|autograded|feedback|release|exchange|downloaded)/",
                                rel.as_posix())):
                continue
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, dest / rel)


def _can_build_here() -> bool:
    """Whether this environment's setuptools can build the wheel (>= 70.1 has bdist_wheel built in;
    older ones need the ``wheel`` package); else pip builds in an isolated environment."""
    from importlib import metadata, util

    try:
        version = tuple(int(x) for x in metadata.version("setuptools").split(".")[:2])
    except (metadata.PackageNotFoundError, ValueError):
        return False
    return version >= (70, 1) or (version >= (64, 0) and util.find_spec("wheel") is not None)


def build_wheel(root: Path, out: Path) -> Path:
    """The package's wheel, built by pip from a clean copy of its sources (no instructor folders,
    no stale ``build/`` of the checkout)."""
    with tempfile.TemporaryDirectory(prefix="minitape-student-src-") as tmp:
        src = Path(tmp) / "src"
        src.mkdir()
        _package_sources(root, src)
        cmd = [sys.executable, "-m", "pip", "--disable-pip-version-check", "wheel", "--no-deps",
               "--quiet", "--wheel-dir", str(out), str(src)]
        if _can_build_here():
            cmd.insert(-1, "--no-build-isolation")  # this environment's setuptools: no download
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
        if proc.returncode != 0:
            raise StudentDistError(f"building the wheel failed:\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}")
    wheels = sorted(out.glob("minitape-*.whl"))
    if len(wheels) != 1:
        raise StudentDistError(f"expected one wheel in {out}, found {[w.name for w in wheels]}")
    return wheels[0]


def student_requirements(root: Path, wheel_name: str) -> str:
    """binder/requirements.txt of the checkout with the project itself (``.``) replaced by the
    wheel: the same pins, so the student distribution's Binder is the environment the tests saw."""
    lines = (root / "binder/requirements.txt").read_text(encoding="utf-8").splitlines()
    if "." not in [line.strip() for line in lines]:
        raise StudentDistError("binder/requirements.txt does not install the project ('.')")
    out = []
    for line in lines:
        if line.strip() == ".":
            out.append(f"./binder/{wheel_name}")
        elif line.startswith("# The project itself"):
            out.append("# The course itself: minitape, grader (checks, visible cases as data) and the "
                       "lessons' tooling, as a wheel without instructor material.")
        else:
            out.append(line)
    head = ("# Generated by `python -m lessons student-dist` from the course's binder/requirements.txt.\n")
    return head + "\n".join(out) + "\n"


BINDER_START = """#!/bin/bash
# repo2docker (mybinder.org) runs this before JupyterLab. Binder is a students' JupyterLab:
# nbgrader's instructor interface is off (the installed course's lessons/jupyter_config).
config="$(python -c 'from lessons.lab import CONFIG; print(CONFIG)')"
export JUPYTER_CONFIG_PATH="$config${JUPYTER_CONFIG_PATH:+:$JUPYTER_CONFIG_PATH}"
exec "$@"
"""

MAKEFILE = """# make lab: a .venv with exactly Binder's environment (binder/requirements.txt: the pinned
# JupyterLab, NumPy, ... and the course's wheel), then JupyterLab on the lessons.
# Needs python3.11 on PATH (or: make lab PYTHON=/path/to/python3.11).

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
PYTHON ?= python3.11
VPY := .venv/bin/python
STAMP := .venv/.stamp-$(shell sha256sum binder/requirements.txt | cut -c1-16)

.PHONY: lab clean
lab: $(STAMP)
\t$(VPY) -m lessons lab --root lessons

$(STAMP):
\t@command -v $(PYTHON) >/dev/null || { echo "error: $(PYTHON) is not on PATH; install Python 3.11 or run: make lab PYTHON=/path/to/python3.11" >&2; exit 1; }
\t@printf '\\n==> %s\\n' "Installing the course into .venv (2-3 min the first time)"
\t$(PYTHON) -m venv --clear .venv
\t$(VPY) -m pip --disable-pip-version-check install --progress-bar on -r binder/requirements.txt
\t@touch $@

clean:
\trm -rf .venv
"""

GITIGNORE = ".venv/\n.ipynb_checkpoints/\n__pycache__/\n"


def student_readme(root: Path, version: str) -> str:
    from .readme import course_settings, render_table
    from .source import load_lessons

    repository, branch = course_settings(root)
    table = render_table(load_lessons(root / "lessons/src"), repository, branch,
                         note="The badges open the lesson in JupyterLab on Binder.")
    return f"""# minitape: learn reverse-mode automatic differentiation with a gradient tape

The lessons of the minitape course (version {version}) as Jupyter notebooks, in English,
Spanish, Portuguese and Russian. Click a lesson's Binder badge to run it in your browser with
nothing to install, or run it on your machine:

```bash
make lab     # creates .venv on first use (Python 3.11), installs the course, starts JupyterLab
```

Open the notebook of your language (`lessons/en/`, `lessons/es/`, `lessons/pt/`, `lessons/ru/`),
run the cells from top to bottom, and in each exercise replace `raise NotImplementedError()`
with your code; the cell below it, `check("l01_ex1")`, checks your function at a few fixed
points and shows what differs. When your notebook is graded, hidden checks call your function
at other points, so a general solution is needed.

## Lessons

{table}
"""


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def build(out: Path, root: Path = REPO) -> dict:
    """Build the student distribution of the checkout ``root`` into ``out``; returns its manifest.
    Raises :class:`StudentDistError` (and writes nothing) where it cannot, or where the audit
    finds instructor material."""
    out = Path(out).resolve()
    root = Path(root).resolve()
    missing = [d for d in INSTRUCTOR_DIRS if not (root / d).is_dir()]
    if missing:
        raise StudentDistError(f"{root} is not a course checkout (missing {', '.join(missing)}): the "
                               "student distribution is built from the instructor's repository")
    if out == root or root in out.parents and not out.is_relative_to(root / "build"):
        raise StudentDistError(f"{out}: build the student distribution outside the checkout "
                               f"(or under {root / 'build'})")
    if out.exists() and any(p.name not in KEEP_ON_REFRESH for p in out.iterdir()) and not (out / MANIFEST).is_file():
        raise StudentDistError(f"{out} is not empty and holds no {MANIFEST}: not overwriting it "
                               "(give a new folder, or a clone of the students' repository made by this command)")
    notebooks = {f"lessons/{lang}/{p.name}": p for lang in LANGS
                 for p in sorted((root / "lessons" / lang).glob("*.ipynb"))}
    if not notebooks:
        raise StudentDistError(f"no student notebooks under {root / 'lessons'} (run `python -m lessons build`)")

    with tempfile.TemporaryDirectory(prefix="minitape-student-") as tmp:
        stage = Path(tmp) / "dist"
        (stage / "binder").mkdir(parents=True)
        wheel = build_wheel(root, stage / "binder")
        version = wheel.name.split("-")[1]
        for rel, src in notebooks.items():
            (stage / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, stage / rel)
        (stage / "binder/requirements.txt").write_text(student_requirements(root, wheel.name))
        shutil.copy2(root / "binder/runtime.txt", stage / "binder/runtime.txt")
        (stage / "binder/start").write_text(BINDER_START)
        (stage / "binder/start").chmod(0o755)
        (stage / "Makefile").write_text(MAKEFILE)
        (stage / ".gitignore").write_text(GITIGNORE)
        (stage / "README.md").write_text(student_readme(root, version), encoding="utf-8")

        problems = audit(stage, Fingerprints.of_checkout(root))
        if problems:
            raise StudentDistError("the student distribution would hold instructor material:\n  "
                                   + "\n  ".join(problems[:50]))
        commit = _git("rev-parse", "HEAD", root=root)
        dirty = bool(_git("status", "--porcelain", "--untracked-files=no", root=root))
        manifest = {"version": version, "source_commit": commit, "source_dirty": dirty,
                    "wheel": f"binder/{wheel.name}",
                    "files": {p.relative_to(stage).as_posix(): _sha256(p.read_bytes())
                              for p in sorted(stage.rglob("*")) if p.is_file()}}
        (stage / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")

        out.mkdir(parents=True, exist_ok=True)
        for old in out.iterdir():
            if old.name in KEEP_ON_REFRESH or old.name == ".venv":
                continue
            shutil.rmtree(old) if old.is_dir() and not old.is_symlink() else old.unlink()
        for item in stage.iterdir():
            shutil.move(str(item), out / item.name)
    return manifest


def placeholder_error(root: Path = REPO) -> str | None:
    """The one-line refusal while the students' repository is still the placeholder (the Binder
    badges would send students to someone else's repository), or None."""
    from .readme import PLACEHOLDER_REPOSITORY, course_settings

    repository, _ = course_settings(root)
    if repository != PLACEHOLDER_REPOSITORY:
        return None
    return (f"the students' repository is still the placeholder {repository!r}: set "
            "[tool.minitape-course] repository = \"<you>/<repo>\" in pyproject.toml, then "
            "`python -m lessons build` (or pass --allow-placeholder for a local try)")


def main(out: Path, allow_placeholder: bool = False) -> int:
    problem = None if allow_placeholder else placeholder_error()
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 1
    try:
        manifest = build(out)
    except StudentDistError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    n = sum(1 for f in manifest["files"] if f.endswith(".ipynb"))
    print(f"Student distribution in {Path(out).resolve()}: {n} notebooks, {manifest['wheel']}, "
          f"Binder files, Makefile (make lab); audited: no instructor material.")
    return 0
