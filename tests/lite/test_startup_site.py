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


def _pycs(lock: dict, key: str) -> dict[str, bytes]:
    entry = lock["packages"].get(key)
    if entry is None:
        return {}
    with zipfile.ZipFile(PYODIDE / entry["file_name"]) as zf:
        return {n: zf.read(n) for n in zf.namelist() if n.endswith(".pyc")}


def test_bytecode_comes_for_what_the_kernel_and_the_lessons_import_only(lite_build, lock) -> None:
    """Each package the kernel or a lesson imports from brings a bytecode wheel, its lock entry
    depending on it, with unchecked-hash Python 3.12 .pyc files for the modules imported (found by
    running the kernel's start and every lesson under Node at build time) and none for the rest."""
    suffix = lite_build.BYTECODE_SUFFIX
    with_bytecode = {k for k in lock["packages"] if k.endswith(suffix)}
    for key, entry in lock["packages"].items():
        if key.endswith(suffix):
            continue
        deps = [d for d in entry["depends"] if d.endswith(suffix)]
        assert deps in ([], [f"{lite_build.canonical(key)}{suffix}"]), (key, deps)
        if deps:
            pycs = _pycs(lock, deps[0])
            assert pycs and all(_is_unchecked_312_pyc(d) for d in pycs.values()), key
    assert with_bytecode >= {f"{k}{suffix}" for k in ("ipython", "numpy", "matplotlib", "minitape", "ipywidgets",
                                                        "prompt-toolkit", "pygments", "traitlets", "jedi")}
    # what a lesson runs has its bytecode...
    expected = {"ipython": "IPython/core/interactiveshell", "numpy": "numpy/linalg/linalg",
                "matplotlib": "matplotlib/pyplot", "minitape": "minitape/debugging/__init__",
                "pygments": "pygments/lexers/python", "ipywidgets": "ipywidgets/widgets/widget_float"}
    for key, module in expected.items():
        folder, name = module.rsplit("/", 1)
        assert f"{folder}/__pycache__/{name}.cpython-312.pyc" in _pycs(lock, f"{key}{suffix}"), module
    # ... and what nothing imports has none: Pygments' Haskell lexer, NumPy's tests, fontTools' subsetter
    absent = {"pygments": "pygments/lexers/__pycache__/haskell.cpython-312.pyc",
              "numpy": "numpy/linalg/tests/__pycache__/test_linalg.cpython-312.pyc",
              "fonttools": "fontTools/subset/__pycache__/__init__.cpython-312.pyc"}
    for key, pyc in absent.items():
        assert pyc not in _pycs(lock, f"{key}{suffix}"), pyc
    pygments = sum(1 for n in zipfile.ZipFile(PYODIDE / lock["packages"]["pygments"]["file_name"]).namelist()
                   if n.endswith(".py"))
    assert len(_pycs(lock, f"pygments{suffix}")) < pygments / 3


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
    # the modules the kernel and the lessons import, not the whole library
    assert {"json/__init__.pyc", "asyncio/base_events.pyc", "inspect.pyc", "tracemalloc.pyc"} <= added
    assert not {"imaplib.pyc", "mailbox.pyc", "turtle.pyc"} & added and len(added) < len(sources) / 2
    assert all(_is_unchecked_312_pyc(mine[n]) for n in added)


def test_the_file_menu_has_download_and_cells_are_drawn_when_idle(lite_build) -> None:
    config = json.loads((SITE / "jupyter-lite.json").read_text())["jupyter-config-data"]
    overrides = config["settingsOverrides"]
    menus = overrides["@jupyterlab/mainmenu-extension:plugin"]["menus"]
    file_menu = [m for m in menus if m["id"] == "jp-mainmenu-file"]
    assert [i.get("command") for m in file_menu for i in m["items"] if "command" in i] == ["docmanager:download"]
    assert overrides["@jupyterlab/notebook-extension:tracker"]["windowingMode"] == "defer"


def test_the_site_ships_the_language_packs_with_jupyterlites_own_strings(lite_build) -> None:
    """es, pt, ru packs in api/translations (only the one in use is fetched, after the app): the
    domains the interface uses, and JupyterLite's File -> Download translated as JupyterLab's."""
    api = SITE / "api" / "translations"
    assert set(json.loads((api / "all.json").read_text())["data"]) == {"en", "es_ES", "pt_BR", "ru_RU"}
    for locale in ("es_ES", "pt_BR", "ru_RU"):
        data = json.loads((api / f"{locale}.json").read_text(encoding="utf-8"))["data"]
        assert set(data) <= set(lite_build.PACK_DOMAINS) and "jupyterlab" in data, locale
        assert data["jupyterlite"]["Download"] == data["jupyterlab"]["Download"] != ["Download"], locale
        assert (api / f"{locale}.json").stat().st_size < 300_000
    # the lesson page picks the pack of the lesson's language, before JupyterLite's config-utils
    page = (SITE / "lab" / "index.html").read_text()
    config, language, download, utils = (page.index(t) for t in (
        'id="jupyter-config-data"', 'src="./lesson-language.js"', 'src="./download-name.js"', "config-utils.js"))
    assert config < language < utils and config < download < utils
    script = (SITE / "lab" / "lesson-language.js").read_text()
    assert '{"en": "en", "es": "es_ES", "pt": "pt_BR", "ru": "ru_RU"}' in script


def test_the_sites_figures_are_the_builds(lite_build, lock) -> None:
    """site-figures.json: what the build measured of the site it wrote (benchmarks/lite_startup.py
    copies it into the results the pages state)."""
    figures = json.loads((SITE / lite_build.SITE_FIGURES).read_text())
    total = sum(p.stat().st_size for p in SITE.rglob("*") if p.is_file() and p.name != lite_build.SITE_FIGURES)
    assert abs(figures["site_mb"] - total / 1e6) < 0.1
    assert figures["lesson_python_mb"] < figures["python_mb"] < figures["site_mb"]
    assert figures["lesson_packages"] == len(lite_build.closure(lock, [*lite_build.PRELOAD, "minitape"]))
    for lang in ("en", "es", "pt", "ru"):
        assert (SITE / "guide" / lite_build.guide_page(lang)).is_file()
