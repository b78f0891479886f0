"""What the built site (build/lite, `make lite`) does for the kernel's start-up (lite/build.py's
start-up section, lite/README.md "Start-up"): the kernel's packages are preloaded by loadPyodide
from the site's lock, and every package and the standard library come with Python 3.12 bytecode
that Python uses without looking at the source (PEP 552 unchecked-hash .pyc). Reads the site's
files only; no browser (tests/browser/test_lite.py sees the kernel start and import them)."""

from __future__ import annotations

import importlib.util
import json
import zipfile
from pathlib import Path

import pytest

pytestmark = [pytest.mark.lite]

REPO = Path(__file__).resolve().parents[2]
SITE = REPO / "build" / "lite"
PYODIDE = SITE / "static" / "pyodide"
MAGIC_312 = (3531).to_bytes(2, "little") + b"\r\n"       # importlib.util.MAGIC_NUMBER of Python 3.12
UNCHECKED_HASH = 0b01                                      # PEP 552 flags: hash-based, not checked


@pytest.fixture(scope="module")
def lite_build():
    spec = importlib.util.spec_from_file_location("minitape_lite_build_startup", REPO / "lite" / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if not (SITE / ".build-key").exists() or (SITE / ".build-key").read_text() != module.input_key():
        pytest.fail(f"{SITE} is missing or older than its inputs: build it with `make lite`")
    return module


@pytest.fixture(scope="module")
def lock(lite_build) -> dict:
    return json.loads((PYODIDE / "pyodide-lock.json").read_text())


def _is_unchecked_312_pyc(data: bytes) -> bool:
    return data[:4] == MAGIC_312 and int.from_bytes(data[4:8], "little") == UNCHECKED_HASH


def test_the_kernel_preloads_its_packages_from_the_sites_lock(lite_build, lock) -> None:
    config = json.loads((SITE / "jupyter-lite.json").read_text())["jupyter-config-data"]
    options = config["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]["loadPyodideOptions"]
    # what jupyterlite-pyodide-kernel 0.6.1 would otherwise install one by one before it is ready
    assert set(options["packages"]) >= {"micropip", "piplite", "ssl", "sqlite3", "ipykernel", "comm",
                                        "pyodide_kernel", "jedi", "ipython"}
    names = {lite_build.canonical(k) for k in lock["packages"]}
    assert {lite_build.canonical(p) for p in options["packages"]} <= names
    for module in ("piplite", "pyodide_kernel", "ipykernel"):
        entry = lock["packages"][lite_build.KERNEL_WHEELS[module]]
        assert entry["imports"] == [module] and (PYODIDE / entry["file_name"]).is_file()


def test_every_package_with_python_files_brings_its_bytecode(lite_build, lock) -> None:
    suffix = lite_build.BYTECODE_SUFFIX
    checked = 0
    for key, entry in lock["packages"].items():
        if key.endswith(suffix):
            continue
        with zipfile.ZipFile(PYODIDE / entry["file_name"]) as zf:
            sources = [n for n in zf.namelist() if n.endswith(".py") and ".dist-info/" not in n
                       and "/" in n and not n.startswith("..")]
        if not sources or entry.get("install_dir", "site") != "site":
            continue
        bytecode = [d for d in entry["depends"] if d.endswith(suffix)]
        assert bytecode == [f"{lite_build.canonical(key)}{suffix}"], f"{key} has no bytecode dependency"
        wheel = PYODIDE / lock["packages"][bytecode[0]]["file_name"]
        with zipfile.ZipFile(wheel) as zf:
            pycs = {n: zf.read(n) for n in zf.namelist() if n.endswith(".pyc")}
        expected = {f"{n.rpartition('/')[0]}/__pycache__/{n.rpartition('/')[2][:-3]}.cpython-312.pyc"
                    for n in sources}
        # every module of the package that Python 3.12 compiles (a few test data files do not)
        assert len(expected & set(pycs)) >= 0.95 * len(expected), f"{key}: bytecode for too few modules"
        assert all(_is_unchecked_312_pyc(data) for data in pycs.values()), f"{wheel.name} holds another kind of .pyc"
        checked += 1
    assert checked >= 25      # IPython, NumPy, Matplotlib, the course and the rest


def test_the_standard_library_archive_is_the_official_one_plus_bytecode(lite_build) -> None:
    config = json.loads((SITE / "jupyter-lite.json").read_text())["jupyter-config-data"]
    options = config["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]["loadPyodideOptions"]
    assert options["stdLibURL"] == f"./static/pyodide/{lite_build.STDLIB_BYTECODE}"
    with zipfile.ZipFile(PYODIDE / "python_stdlib.zip") as official, \
            zipfile.ZipFile(PYODIDE / lite_build.STDLIB_BYTECODE) as ours:
        theirs = {i.filename: official.read(i) for i in official.infolist()}
        mine = {i.filename: ours.read(i) for i in ours.infolist()}
    assert {n: mine.get(n) for n in theirs} == theirs
    added = set(mine) - set(theirs)
    sources = {n for n in theirs if n.endswith(".py")}
    assert added <= {n[:-3] + ".pyc" for n in sources}
    assert len(added) >= 0.95 * len(sources) and "json/__init__.pyc" in added
    assert all(_is_unchecked_312_pyc(mine[n]) for n in added)
