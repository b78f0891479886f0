"""lite/build.py keeps a third-party Pyodide package only when its sha256 is the official lock's,
and stops the build, naming every bad file, otherwise. Fast: a small carrier wheel and lock made
here, no network, no browser."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def lite_build():
    spec = importlib.util.spec_from_file_location("minitape_lite_build", REPO / "lite" / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _carrier(tmp_path: Path, lite_build, files: dict[str, bytes]) -> Path:
    path = tmp_path / lite_build.CARRIER
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in files.items():
            zf.writestr(lite_build.CARRIER_DIR + name, data)
    return path


def _lock(entries: dict[str, tuple[str, bytes, list[str]]]) -> dict:
    return {"info": {"version": "0.27.7"}, "packages": {
        key: {"name": key, "file_name": file, "sha256": hashlib.sha256(data).hexdigest(), "depends": deps,
              "imports": [key], "install_dir": "site", "package_type": "package", "version": "1"}
        for key, (file, data, deps) in entries.items()}}


def test_matching_files_are_kept_with_their_dependencies(tmp_path, lite_build) -> None:
    lock = _lock({"numpy": ("numpy-2.whl", b"numpy bytes", []),
                  "prompt-toolkit": ("prompt_toolkit-3.whl", b"ptk", []),
                  "ipython": ("ipython-8.whl", b"ipython bytes", ["prompt_toolkit", "numpy"]),
                  "scipy": ("scipy-1.whl", b"not shipped", ["numpy"])})
    names = lite_build.closure(lock, ["ipython"])
    assert names == ["ipython", "numpy", "prompt-toolkit"]     # the lock's keys, not the spelling in depends
    carrier = _carrier(tmp_path, lite_build, {"numpy-2.whl": b"numpy bytes", "prompt_toolkit-3.whl": b"ptk",
                                              "ipython-8.whl": b"ipython bytes"})
    dest = tmp_path / "dist"
    dest.mkdir()
    entries = lite_build.extract_verified(lock, names, carrier, dest)
    assert [e["file_name"] for e in entries] == ["ipython-8.whl", "numpy-2.whl", "prompt_toolkit-3.whl"]
    assert (dest / "numpy-2.whl").read_bytes() == b"numpy bytes"


def test_a_tampered_or_missing_file_stops_the_build(tmp_path, lite_build) -> None:
    lock = _lock({"numpy": ("numpy-2.whl", b"numpy bytes", []),
                  "matplotlib": ("matplotlib-3.whl", b"matplotlib bytes", ["numpy"]),
                  "pillow": ("pillow-10.whl", b"pillow bytes", [])})
    carrier = _carrier(tmp_path, lite_build, {"numpy-2.whl": b"numpy bytes, one byte changeD",
                                              "matplotlib-3.whl": b"matplotlib bytes"})
    dest = tmp_path / "dist"
    dest.mkdir()
    with pytest.raises(lite_build.BuildError) as failure:
        lite_build.extract_verified(lock, ["matplotlib", "numpy", "pillow"], carrier, dest)
    message = str(failure.value)
    assert "numpy-2.whl: sha256" in message and lock["packages"]["numpy"]["sha256"] in message
    assert "pillow-10.whl (pillow) is not in" in message
    assert not (dest / "numpy-2.whl").exists()                  # nothing unverified is written


def test_a_package_missing_from_the_official_lock_stops_the_build(lite_build) -> None:
    with pytest.raises(lite_build.BuildError, match="'torch' is not a package of the official"):
        lite_build.closure(_lock({"numpy": ("numpy-2.whl", b"x", [])}), ["numpy", "torch"])


def test_the_site_lock_names_only_official_packages_and_the_sites_own(lite_build) -> None:
    """The committed pins agree with the build: the official lock's roots, the extra wheels pinned
    in site-wheels.txt, the course's dependencies shipped."""
    pinned = (REPO / "lite" / "site-wheels.txt").read_text()
    for name in lite_build.EXTRA_PACKAGES:
        assert f"\n{name}==" in pinned and "--hash=sha256:" in pinned
    assert set(lite_build.COURSE_DEPENDS) <= {"numpy", "matplotlib", "ipywidgets", "matplotlib-fontcache"}
    lock = json.loads((REPO / "lite" / "package-lock.json").read_text())
    assert lock["packages"]["node_modules/pyodide"]["version"] == lite_build.PYODIDE_VERSION
    assert lock["packages"]["node_modules/pyodide"]["integrity"].startswith("sha512-")


def test_a_dependency_nothing_imports_is_left_out_and_checked(tmp_path, lite_build) -> None:
    """The site's lock drops the edges of UNUSED_DEPENDENCIES (matplotlib -> pytz) and the build
    stops when the package's code does import the dependency."""
    lock = _lock({"matplotlib": ("matplotlib-3.whl", b"m", ["numpy", "pytz", "cycler"]),
                  "numpy": ("numpy-2.whl", b"n", []), "pytz": ("pytz-1.whl", b"p", []),
                  "cycler": ("cycler-1.whl", b"c", [])})
    trimmed = lite_build.without_unused_dependencies(lock)
    assert trimmed["packages"]["matplotlib"]["depends"] == ["numpy", "cycler"]
    assert lock["packages"]["matplotlib"]["depends"] == ["numpy", "pytz", "cycler"]   # the official one untouched
    assert "pytz" not in lite_build.closure(trimmed, ["matplotlib"])
    for source, fails in (("# pytz zones are attached by localizing\nx = 1\n", False),
                          ("import os\nimport pytz\n", True), ("    from pytz import utc\n", True)):
        with zipfile.ZipFile(tmp_path / "matplotlib-3.whl", "w") as zf:
            zf.writestr("matplotlib/dates.py", source)
        if fails:
            with pytest.raises(lite_build.BuildError, match="matplotlib/dates.py imports pytz"):
                lite_build.check_unused_dependencies(trimmed, tmp_path)
        else:
            lite_build.check_unused_dependencies(trimmed, tmp_path)
