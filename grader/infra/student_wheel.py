"""The student wheel and its audit: what a student may hold of this project, built from a clean
copy of the package folders without instructor material, and the check that it holds none
(no instructor path, no exercise registration, reference or hidden-case code, no solution or
hidden-test region, no nbgrader marker).

Used by the student distribution (``python -m lessons student-dist``, :mod:`lessons.student`)
and by grading (:mod:`grader.infra.student_site`: the sandboxed kernels import exactly this wheel's
contents); it lives in the grader, the lower of the two packages, so that both use one copy.
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

REPO = Path(__file__).resolve().parents[2]
MANIFEST = "student-dist.json"
PACKAGES = ("course_lang", "minitape", "grader", "lessons")
# instructor material, as paths relative to a checkout (or to a wheel's root)
INSTRUCTOR_DIRS = ("grader/course/definitions", "grader/course/source", "lessons/src")
INSTRUCTOR_PATH = re.compile(r"(^|/)(grader/course/definitions|grader/course/source|lessons/src)(/|$)")
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
        for path in sorted((root / "grader/course/definitions").glob("*.py")):
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
