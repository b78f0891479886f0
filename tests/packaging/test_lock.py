"""The lock files (requirements/README.md): complete, hashed, for every supported Python, and agreeing
with pyproject.toml, the holds and Binder's pins. Reads files only (the fast tier); `.ci/run` proves
they install, on every supported Python present."""

from __future__ import annotations

import re
import tomllib

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from tests.support.project import REPO

LOCKS = {"build": REPO / "requirements/build.txt", "course": REPO / "requirements/course.txt",
         "dev": REPO / "requirements/dev.txt", "tf": REPO / "requirements/tf.txt"}
PYTHONS = ("3.11.2", "3.11.7", "3.12.1", "3.13.0")  # Debian 12's 3.11, pyenv's, Ubuntu 24.04's 3.12, Debian 13's 3.13
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*(?:\[[^\]]*\])?)==([^\s;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$")


def _entries(path):
    """[(name, version, marker or None, hashes)] in file order."""
    entries, current = [], None
    for line in path.read_text(encoding="utf-8").splitlines():
        match = PIN.match(line.strip())
        if match:
            name, version, marker = match.groups()
            current = [canonicalize_name(name.split("[")[0]), version, marker, []]
            entries.append(current)
        elif current and line.strip().startswith("--hash=sha256:"):
            current[3].append(line.strip().split(":", 1)[1].rstrip(" \\"))
        elif line.strip() and not line.lstrip().startswith("#"):
            raise AssertionError(f"{path.name}: a line that is neither a pin, a hash nor a comment: {line!r}")
    return entries


def _pins(path, python: str) -> dict[str, str]:
    env = {"python_full_version": python, "python_version": ".".join(python.split(".")[:2]),
           "sys_platform": "linux", "platform_system": "Linux", "platform_machine": "x86_64",
           "os_name": "posix", "implementation_name": "cpython", "platform_python_implementation": "CPython"}
    pins: dict[str, str] = {}
    for name, version, marker, _ in _entries(path):
        if marker is None or Marker(marker).evaluate(env):
            assert name not in pins, f"{path.name} pins {name} twice for Python {python}"
            pins[name] = version
    return pins


def _extras() -> dict[str, list[Requirement]]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = {name: [Requirement(r) for r in reqs] for name, reqs in project["optional-dependencies"].items()}
    extras[""] = [Requirement(r) for r in project["dependencies"]]
    return extras


def _requirements(*extras: str) -> list[Requirement]:
    """The project's requirements with these extras, self-references expanded."""
    table, seen, out = _extras(), set(), []
    todo = ["", *extras]
    while todo:
        extra = todo.pop()
        if extra in seen:
            continue
        seen.add(extra)
        for req in table[extra]:
            if canonicalize_name(req.name) == "minitape":
                todo.extend(req.extras)
            else:
                out.append(req)
    return out


@pytest.mark.parametrize("lock", [*sorted(LOCKS), "lite-build"])
def test_every_pin_is_hashed(lock):
    entries = _entries(LOCKS.get(lock, REPO / "lite/requirements-build.txt"))
    assert entries, lock
    unhashed = [name for name, _, _, hashes in entries if not hashes]
    assert not unhashed, f"{lock}: pins without hashes: {unhashed}"


@pytest.mark.parametrize("python", PYTHONS)
@pytest.mark.parametrize("lock, extras", [("course", ("course",)), ("dev", ("course", "dev")),
                                          ("tf", ("tensorflow",))])
def test_the_lock_satisfies_pyproject_on_every_supported_python(lock, extras, python):
    pins = _pins(LOCKS[lock], python)
    env = {"python_full_version": python, "python_version": python[:4], "extra": ""}
    for req in _requirements(*extras):
        if req.marker and not req.marker.evaluate(env):
            continue
        name = canonicalize_name(req.name)
        assert name in pins, f"{lock}.txt has no pin of {req.name} for Python {python}"
        assert req.specifier.contains(Version(pins[name]), prereleases=True), \
            f"{lock}.txt pins {name}=={pins[name]}, pyproject.toml asks {req}"


@pytest.mark.parametrize("python", PYTHONS)
def test_the_course_lock_is_the_dev_lock_s_course_part(python):
    """One version of each package for students and for the tests: what the tests saw is what runs."""
    course, dev = _pins(LOCKS["course"], python), _pins(LOCKS["dev"], python)
    differ = {n: (v, dev.get(n)) for n, v in course.items() if dev.get(n) != v}
    assert not differ, differ


@pytest.mark.parametrize("python", PYTHONS)
def test_the_tensorflow_lock_keeps_the_dev_lock_s_versions(python):
    """.venv-tf puts .venv's packages after its own (make install-tf): a package both hold is the
    same version in both, so the lessons run on the NumPy the tests saw; TensorFlow 2.21 with Keras 3."""
    tf, dev = _pins(LOCKS["tf"], python), _pins(LOCKS["dev"], python)
    differ = {n: (v, dev[n]) for n, v in tf.items() if n in dev and dev[n] != v}
    assert not differ, differ
    assert tf["tensorflow-cpu"] == "2.21.0" and tf["keras"].startswith("3.")


def test_the_build_tools_agree_with_the_locks():
    build = _pins(LOCKS["build"], "3.11.7")
    assert set(build) == {"pip", "setuptools"}
    backend = tomllib.loads((REPO / "pyproject.toml").read_text())["build-system"]["requires"]
    assert all(Requirement(r).specifier.contains(build[canonicalize_name(Requirement(r).name)]) for r in backend)
    for lock in ("course", "dev", "tf"):
        pins = _pins(LOCKS[lock], "3.11.7")
        assert pins.get("setuptools", build["setuptools"]) == build["setuptools"], lock


def test_the_lite_build_tools_complete_the_lite_pins():
    """make lite installs both lite files with --no-deps: together they hold every dependency, once."""
    served = {canonicalize_name(l.split("==")[0]) for l in (REPO / "lite/requirements.txt").read_text().splitlines()
              if "==" in l and not l.startswith("#")}
    build = _pins(REPO / "lite/requirements-build.txt", "3.11.7")
    assert "jupyter-server" in build and not served & set(build), served & set(build)


def test_the_holds_are_held():
    holds = [Requirement(l.split("#", 1)[0]) for l in (REPO / "requirements/holds.txt").read_text().splitlines()
             if l.split("#", 1)[0].strip()]
    assert holds, "requirements/holds.txt holds nothing: remove the file and its uses instead"
    for python in PYTHONS:
        pins = _pins(LOCKS["dev"], python)
        for hold in holds:
            name = canonicalize_name(hold.name)
            assert name in pins and hold.specifier.contains(pins[name]), (python, str(hold), pins.get(name))


@pytest.mark.parametrize("python", ["3.11.2", "3.11.7"])
def test_binder_pins_are_the_course_lock_s(python):
    """Binder (and the student distribution built from these pins) runs what the tests ran on 3.11."""
    locked = _pins(LOCKS["course"], python)
    binder = {}
    env = {"python_full_version": python, "python_version": "3.11"}
    for line in (REPO / "binder/requirements.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if "==" in line:
            req = Requirement(line)
            if req.marker is None or req.marker.evaluate(env):
                (spec,) = req.specifier
                binder[canonicalize_name(req.name)] = spec.version
    differ = {n: (v, locked.get(n)) for n, v in binder.items() if n in locked and locked[n] != v}
    assert not differ, f"binder/requirements.txt -> (binder, course lock): {differ}"
    kernel_only = set(binder) - set(locked)
    assert kernel_only <= {"ipykernel"} | set(_pins(LOCKS["dev"], python)), kernel_only
