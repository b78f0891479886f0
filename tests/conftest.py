"""Suite-wide pytest configuration."""

from __future__ import annotations

import re
from pathlib import Path

import pytest


# markers of tests that wait on a kernel, a browser or an install: after the slow ones, before the rest
_EXPENSIVE = ("kernel", "browser", "install", "lite")


def pytest_collection_modifyitems(session, config, items):
    """Run tests marked `slow` first, then the others that need a kernel, a browser or an
    install: with pytest-xdist one worker starts the long ones (a full install, a browser
    session) at once while the others work through the fast tests, instead of the long ones
    starting last and running alone."""
    items.sort(key=lambda item: (item.get_closest_marker("slow") is None,
                                 not any(item.get_closest_marker(m) for m in _EXPENSIVE)))


@pytest.fixture(scope="session", autouse=True)
def _shared_builds(request, tmp_path_factory):
    """The folder where ``tests.support.shared.build_once`` builds what every worker of this
    session shares (a released course, the student distribution): beside the workers' own
    temporary folders in a pytest-xdist worker (``pytest-N/popen-gwX``), in this run's one
    otherwise (a pytest run in a subprocess of a worker inherits PYTEST_XDIST_WORKER, so the
    worker is told by its config, not by the environment)."""
    from tests.support import shared

    base = tmp_path_factory.getbasetemp()
    shared.set_root((base.parent if hasattr(request.config, "workerinput") else base) / "shared")


_MODULE_FIXTURE = re.compile(r"""@pytest\.fixture\([^)]*scope\s*=\s*["']module["']""")


def modules_sharing_a_fixture(root: Path) -> frozenset[str]:
    """The test modules (paths as in node ids) that define a module-scoped fixture: a course
    graded once, a site built once, for all of the module's tests."""
    return frozenset(p.relative_to(root).as_posix() for p in (root / "tests").rglob("test_*.py")
                     if _MODULE_FIXTURE.search(p.read_text(encoding="utf-8")))


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config, log):
    """``-n N`` (--dist load) with one change: the tests of a module that builds a module-scoped
    fixture (a graded course, a built site) go to one worker together, so the fixture is built
    once per run instead of once per worker that gets one of its tests (measured: the
    submissions' graded course was set up on both workers, 133 s each). Every other test is
    scheduled alone, as --dist load does. (pytest-xdist's own --dist loadgroup would do this
    with marks, but with pytest 9 its marks have no effect: docs/testing.md.)"""
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    grouped = modules_sharing_a_fixture(Path(config.rootpath))

    class ByModuleFixture(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return path if path in grouped else nodeid

    return ByModuleFixture(config, log)


def pytest_configure(config):
    """A run that deselects the ``kernel`` marker (``make check``) refuses to start a Jupyter
    kernel in its processes: a test that starts one lacks the marker (docs/testing.md) and fails
    at once, saying so, instead of slowing the fast tier down unnoticed."""
    if "not kernel" in (config.option.markexpr or ""):
        _refuse_kernels()


def _refuse_kernels() -> None:
    try:
        from jupyter_client.manager import AsyncKernelManager, KernelManager
    except ImportError:  # nothing could start a kernel here anyway
        return
    message = ("this run deselects tests marked `kernel` (make check), yet a test started a Jupyter "
               "kernel: mark it @pytest.mark.kernel (docs/testing.md)")

    def refuse(self, *args, **kwargs):
        raise RuntimeError(message)

    async def refuse_async(self, *args, **kwargs):
        raise RuntimeError(message)

    KernelManager.start_kernel = refuse
    KernelManager._async_start_kernel = refuse_async
    AsyncKernelManager.start_kernel = refuse_async


# Debian's Chromium, driven by Playwright (its own browser downloads are not used)
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    # no host name resolves but 127.0.0.1: a test page can reach nothing outside this machine
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium per test process (a second Playwright cannot start in one process:
    every test that needs a browser takes this one)."""
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (`make test` does it as root)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
