"""What a sandboxed grading kernel may import: the packages a student installs, nothing more.

A student gets minitape, the student side of the grader (``check``, the visible cases, the
in-kernel probe runtime) and the lessons' helpers from the *student wheel* (``python -m lessons
student-dist``, :mod:`lessons.student`): built from a copy of the package folders without the
instructor folders, and audited for instructor material. The instructor's installation is
another matter: an editable install (``pip install -e '.[course]'``) maps the packages to the
checkout, whose ``lessons/src`` holds every solution; a regular install carries whatever the
instructor's wheel carries. So a grading kernel never imports the instructor's packages:
:func:`ensure` builds the student wheel the same way the student distribution does, unpacks it
into a *student site* folder, audits that folder (:func:`grader.infra.student_wheel.audit`: instructor
paths, exercise registrations, solution and hidden-test fingerprints) and caches it under
``$GRADER_STUDENT_SITE_CACHE`` (default ``~/.cache/minitape-grader/student-site``), keyed on a
hash of the files it is built from and on the Python version (its bytecode is that Python's): a
grading run builds it once (a few seconds), later runs
reuse it until the packages change. :class:`grader.infra.sandbox.Sandbox` binds that folder (read-only)
and hides the instructor's package folders, whatever way they were installed.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import shutil
import sys
import tempfile
import zipfile
from pathlib import Path

__all__ = ["PACKAGES", "StudentSiteError", "ensure", "instructor_package_dirs", "publish"]

PACKAGES = ("course_lang", "minitape", "grader", "lessons")
_SKIP_PARTS = {"__pycache__", ".ipynb_checkpoints", "build", "dist"}
_COURSE_WORK = re.compile(r"grader/course/(submitted|autograded|feedback|release|exchange|downloaded)/")


class StudentSiteError(RuntimeError):
    """The student site cannot be built, or would hold instructor material."""


def instructor_package_dirs() -> dict[str, Path]:
    """Where this process imports each package of :data:`PACKAGES` from (the instructor's)."""
    found = {}
    for name in PACKAGES:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            found[name] = Path(list(spec.submodule_search_locations)[0]).resolve()
    return found


def _checkout(dirs: dict[str, Path]) -> Path | None:
    """The repository the packages come from, where they are a checkout (an editable install, a
    PYTHONPATH): the student wheel is then built from it exactly as the student distribution is."""
    roots = {p.parent for p in dirs.values()}
    if len(roots) == 1:
        root = roots.pop()
        if (root / "pyproject.toml").is_file() and set(dirs) == set(PACKAGES):
            return root
    return None


def _wanted(rel: str, path: Path) -> bool:
    from grader.infra.student_wheel import INSTRUCTOR_PATH

    parts = rel.split("/")
    return not (_SKIP_PARTS.intersection(parts) or path.suffix in {".pyc", ".pyo"}
                or INSTRUCTOR_PATH.search(rel) or path.name == "gradebook.db" or _COURSE_WORK.match(rel))


def _files(dirs: dict[str, Path]) -> list[tuple[str, Path]]:
    """(path in the site, file) of every file a student wheel could be made of."""
    out = []
    for name, folder in sorted(dirs.items()):
        for path in sorted(folder.rglob("*")):
            rel = f"{name}/{path.relative_to(folder).as_posix()}"
            if path.is_file() and not path.is_symlink() and _wanted(rel, path):
                out.append((rel, path))
    return out


def _digest(root: Path | None, files: list[tuple[str, Path]]) -> str:
    h = hashlib.sha256(b"student-site-2\0")  # 2: with bytecode
    # the bytecode is this Python's (cpython-311, -312...): a site for each version that grades
    h.update(sys.implementation.cache_tag.encode() + b"\0")
    extra = [("pyproject.toml", root / "pyproject.toml"), ("MANIFEST.in", root / "MANIFEST.in")] if root else []
    for rel, path in [*extra, *files]:
        if path.is_file():
            h.update(rel.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()[:24]


def cache_root() -> Path:
    explicit = os.environ.get("GRADER_STUDENT_SITE_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "minitape-grader" / "student-site"


def _build(site: Path, root: Path | None, files: list[tuple[str, Path]]) -> None:
    from grader.infra.student_wheel import build_wheel

    if root is not None:  # the student distribution's own build: the wheel, unpacked
        with tempfile.TemporaryDirectory(prefix="grader-student-wheel-") as tmp:
            wheel = build_wheel(root, Path(tmp))
            with zipfile.ZipFile(wheel) as zf:
                for member in zf.infolist():
                    target = (site / member.filename).resolve()
                    if not target.is_relative_to(site.resolve()):
                        raise StudentSiteError(f"the wheel holds a path outside it: {member.filename}")
                    zf.extract(member, site)
    else:  # an installed copy (no checkout to build from): its files, filtered the same way
        for rel, path in files:
            (site / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, site / rel)


def ensure(log=None) -> str:
    """The student site folder (built, audited and cached if needed); raises
    :class:`StudentSiteError` where it cannot be built or the audit finds instructor material."""
    from grader.infra.student_wheel import Fingerprints, audit

    dirs = instructor_package_dirs()
    missing = [name for name in PACKAGES if name not in dirs]
    if {"course_lang", "minitape", "grader"} & set(missing):
        raise StudentSiteError(f"cannot find the installed package(s) {', '.join(missing)}")
    root = _checkout(dirs)
    files = _files(dirs)
    key = _digest(root, files)
    cache = cache_root()
    site = cache / key
    if (site / ".audited").is_file():
        return str(site)
    cache.mkdir(parents=True, exist_ok=True)
    if log is not None:
        log(f"building the student site for sandboxed kernels (the student wheel) in {site}")
    stage = Path(tempfile.mkdtemp(prefix=f".{key}-", dir=cache))
    try:
        _build(stage, root, files)
        prints_root = root if root is not None else dirs["grader"].parent
        prints = Fingerprints.of_checkout(prints_root) if (prints_root / "grader/course/definitions").is_dir() \
            or (prints_root / "lessons/src").is_dir() else None
        problems = audit(stage, prints)
        if problems:
            raise StudentSiteError("the student site would hold instructor material:\n  "
                                   + "\n  ".join(problems[:20]))
        publish(stage, site, key)
    finally:
        if stage.exists():
            shutil.rmtree(stage, ignore_errors=True)
    return str(site)


def publish(stage: Path, folder: Path, mark: str) -> None:
    """Make the audited ``stage`` the cached ``folder``: compiled to bytecode, read-only for
    everyone (readable by the sandbox user), marked ``.audited``, renamed in one step (another
    process that built it meanwhile wins).

    The bytecode is compiled here, from the audited sources, by the Python that grades (its
    kernels are that Python): a read-only site cannot take the ``__pycache__`` Python would
    write on first import, and without it every zygote and every kernel started fresh compiled
    each module it imports again (about 0.3 CPU-s for the whole site). Checked-hash ``.pyc``
    files: Python uses one only while its source's hash matches, whatever the file times."""
    import compileall
    import py_compile

    if not compileall.compile_dir(stage, quiet=2, workers=1,
                                  invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH):
        raise StudentSiteError(f"cannot compile the sources in {stage} to bytecode")
    for path in stage.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    stage.chmod(0o755)
    (stage / ".audited").write_text(mark + "\n")
    try:
        os.rename(stage, folder)
    except OSError:  # another run built it meanwhile
        if not (folder / ".audited").is_file():
            raise
