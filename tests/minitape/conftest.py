"""Engine tests: which array backend every tensor lives on.

``python -m pytest tests/minitape`` runs the engine on NumPy (the default).  The same suite runs
with every tensor placed on another backend through minitape's device stack (as if each test
ran inside ``with minitape.device(...)``):

* ``--backend=strict`` (or ``MINITAPE_TEST_BACKEND=strict``): ``strict_backend.StrictArray``, a
  CPU array that refuses implicit conversion to NumPy the way CuPy does.  A pass proves that
  no code path the suite exercises converts device arrays to the host implicitly.  CI runs it.
* ``--backend=cupy``: CuPy on the GPU; every test is skipped, with the reason, where CuPy or a
  GPU is missing.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def pytest_addoption(parser):
    parser.addoption(
        "--backend", default=None, choices=("numpy", "strict", "cupy"),
        help="array backend for tests/minitape: numpy (default), strict (a CPU backend that "
             "refuses implicit conversion to NumPy, as CuPy does) or cupy (the GPU; skipped "
             "without one). Also MINITAPE_TEST_BACKEND.")


def backend_name(config) -> str:
    return (config.getoption("backend", default=None)
            or os.environ.get("MINITAPE_TEST_BACKEND") or "numpy")


def _gpu_problem():
    """None when CuPy sees a GPU, else the reason (minitape's own error message)."""
    from minitape import _device
    try:
        _device._load_cupy()
    except RuntimeError as e:
        return str(e)
    return None


def pytest_report_header(config):
    return f"minitape array backend (tests/minitape): {backend_name(config)}"


def _same_on_every_backend(item) -> bool:
    """Tests an ambient backend cannot reach: they hide it (``no_ambient_device``: they place
    their tensors themselves) or run minitape in a subprocess (marker ``backend_independent``)."""
    return ("no_ambient_device" in getattr(item, "fixturenames", ())
            or item.get_closest_marker("backend_independent") is not None)


def pytest_collection_modifyitems(session, config, items):
    """Under ``--backend=strict`` or ``cupy``, leave out the tests that would run exactly as on
    NumPy (``_same_on_every_backend``): the rerun covers every test whose tensors land on the
    backend, and nothing else. Skip, with minitape's own reason, what needs a GPU where there is
    none: tests marked ``gpu``, and every engine test under ``--backend=cupy``."""
    if backend_name(config) != "numpy":
        here = [item for item in items if HERE in Path(str(item.fspath)).resolve().parents]
        same = [item for item in here if _same_on_every_backend(item)]
        if same:
            config.hook.pytest_deselected(items=same)
            ids = {id(item) for item in same}
            items[:] = [item for item in items if id(item) not in ids]
    cupy_run = backend_name(config) == "cupy"
    marked = [item for item in items if item.get_closest_marker("gpu")]
    if not (cupy_run or marked):
        return
    problem = _gpu_problem()
    if problem is None:
        return
    for item in marked:
        item.add_marker(pytest.mark.skip(reason=f"no GPU: {problem}"))
    if cupy_run:
        skip = pytest.mark.skip(reason=f"--backend=cupy needs CuPy and an NVIDIA GPU: {problem}")
        for item in items:
            if HERE in Path(str(item.fspath)).resolve().parents:
                item.add_marker(skip)


@pytest.fixture
def no_ambient_device():
    """For tests that define their own placement: hide the device a --backend run puts
    everything on (use with ``pytest.mark.usefixtures``)."""
    from minitape import _backend

    saved = _backend._default[1:]
    del _backend._default[1:]
    try:
        yield
    finally:
        _backend._default[1:] = saved


def _module_for(name):
    if name == "strict":
        from tests.support import strict_backend
        return strict_backend.install()
    if name == "cupy":
        from minitape import _device
        return _device._load_cupy()
    raise pytest.UsageError(f"unknown minitape test backend {name!r} (numpy, strict, cupy)")


@pytest.fixture(scope="module", autouse=True)
def array_backend(request):
    """The backend's name; for strict and cupy its module is pushed on the device stack."""
    name = backend_name(request.config)
    if name == "numpy":
        yield name
        return
    from minitape import _backend
    module = _module_for(name)
    _backend._default.append(module)
    try:
        yield name
    finally:
        stack = _backend._default
        for i in range(len(stack) - 1, 0, -1):
            if stack[i] is module:
                del stack[i]
                break
