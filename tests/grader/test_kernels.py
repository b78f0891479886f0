"""Kernels forked from a preloaded process (grader.infra.kernels) behave like kernels started fresh:
own process, directory, environment, random stream; interrupts, deaths and shutdowns are seen;
inline figures still appear; where forking would differ, a fresh kernel is started instead."""

from __future__ import annotations

import asyncio
import os
import sys

import nbformat
import pytest

from grader.infra import kernels

pytestmark = [pytest.mark.slow, pytest.mark.kernel]


def test_modules_imported_by_reads_code_cells_through_ipython(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("import not_code"),
        nbformat.v4.new_code_cell("%matplotlib inline\nimport numpy as np, os.path\n"
                                  "from minitape import debugging\nfrom . import relative"),
        nbformat.v4.new_code_cell("def f():\n    import json\n!ls\nx = 1 +"),  # a syntax error
        nbformat.v4.new_code_cell("def f():\n    import json\n    from collections import abc"),
    ])
    path = tmp_path / "a.ipynb"
    nbformat.write(nb, path)
    assert kernels.modules_imported_by([path]) == ["numpy", "os.path", "minitape", "json", "collections"]


@pytest.fixture
def zygote(tmp_path):
    z = kernels.start_zygote(["numpy", "matplotlib.pyplot", "definitely_not_a_module"], cwd=str(tmp_path))
    yield z
    kernels.stop_zygote()


def _run(coro):
    # in a thread of its own: another test in this process (Playwright's sync API) may keep an
    # event loop running in the main thread, where asyncio.run refuses to start
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


async def _start(cwd, env=None):
    km = kernels.PreloadedKernelManager(kernel_name="python3")
    await km.start_kernel(cwd=str(cwd), env=env or dict(os.environ))
    kc = km.client()
    kc.start_channels()
    await kc.wait_for_ready(timeout=60)
    return km, kc


async def _execute(kc, code, timeout=60):
    outputs = []
    reply = await kc.execute_interactive(code, timeout=timeout, output_hook=outputs.append)
    return reply["content"], outputs


def _text(outputs):
    return "".join(o["content"].get("text", "") for o in outputs if o["msg_type"] == "stream")


def test_zygote_reports_what_it_preloaded(zygote):
    assert zygote.loaded == ["numpy", "matplotlib.pyplot"]
    assert "ModuleNotFoundError" in zygote.failed["definitely_not_a_module"]
    assert zygote.unsafe is None
    assert zygote.can_fork([sys.executable, "-m", "ipykernel_launcher", "-f", "x.json"])
    assert not zygote.can_fork([sys.executable, "-m", "other_kernel", "-f", "x.json"])
    assert not zygote.can_fork(["/usr/bin/python3-elsewhere", "-m", "ipykernel_launcher"])


def test_forked_kernel_is_a_fresh_process_with_its_own_state(zygote, tmp_path):
    async def main():
        work = tmp_path / "submission"
        work.mkdir()
        env = dict(os.environ, MINITAPE_LANG="ru")
        before = dict(kernels.STATS)
        km1, kc1 = await _start(work, env)
        km2, kc2 = await _start(tmp_path)
        try:
            assert kernels.STATS["forked"] - before["forked"] == 2
            code = ("import os, sys\npreloaded = 'numpy' in sys.modules\nimport numpy as np\n"
                    "print(os.getpid(), os.getppid(), os.getpgid(0), os.getcwd(), "
                    "os.environ.get('MINITAPE_LANG'), preloaded, '' in sys.path, np.random.random())")
            c1, o1 = await _execute(kc1, code)
            c2, o2 = await _execute(kc2, code)
            assert c1["status"] == c2["status"] == "ok"
            pid1, ppid1, pgid1, cwd1, lang1, pre1, empty1, r1 = _text(o1).split()
            pid2, ppid2, pgid2, cwd2, lang2, pre2, empty2, r2 = _text(o2).split()
            zpid = str(zygote.proc.pid)
            assert ppid1 == ppid2 == zpid and pid1 != pid2 and pid1 != zpid
            assert pgid1 == pid1 and pgid2 == pid2  # own process group: interrupts reach it
            assert (cwd1, lang1) == (str(work), "ru") and (cwd2, lang2) == (str(tmp_path), "None")
            assert pre1 == pre2 == "True" and empty1 == empty2 == "True"
            assert r1 != r2  # NumPy's global stream is reseeded in each kernel
            # state set in one kernel is not in the other
            await _execute(kc1, "secret = 42")
            c, o = await _execute(kc2, "print('secret' in globals())")
            assert _text(o).strip() == "False"
            # inline figures still appear, though matplotlib was imported in the zygote
            c, o = await _execute(kc1, "import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\n"
                                       "print(plt.get_backend())")
            assert "matplotlib_inline" in _text(o) or "inline" in _text(o)
            assert any(m["msg_type"] == "display_data" and "image/png" in m["content"]["data"] for m in o)
            # an interrupt stops a running cell and the kernel lives on
            task = asyncio.ensure_future(_execute(kc1, "import time\ntime.sleep(60)"))
            await asyncio.sleep(1.5)
            await km1.interrupt_kernel()
            c, _ = await asyncio.wait_for(task, 30)
            assert c["status"] == "error" and c["ename"] == "KeyboardInterrupt"
            c, o = await _execute(kc1, "print(secret)")
            assert _text(o).strip() == "42"
            # a kernel that exits on its own is seen dead, with its exit status
            kc2.execute("import os; os._exit(3)")
            for _ in range(200):
                if not await km2.is_alive():
                    break
                await asyncio.sleep(0.05)
            assert not await km2.is_alive()
            assert km2.provisioner.process.returncode == 3
        finally:
            for km, kc in ((km1, kc1), (km2, kc2)):
                kc.stop_channels()
                await km.shutdown_kernel(now=False)
        assert km1.provisioner is None or not km1.has_kernel
        assert not await km1.is_alive()

    _run(main())


def test_kernel_environment_differing_at_startup_gets_a_fresh_kernel(zygote, tmp_path):
    async def main():
        env = dict(os.environ, PYTHONWARNINGS="error::DeprecationWarning")
        before = dict(kernels.STATS)
        km, kc = await _start(tmp_path, env)
        try:
            assert kernels.STATS["fresh"] - before["fresh"] == 1
            c, o = await _execute(kc, "import os\nprint(os.getppid())")
            assert _text(o).strip() == str(os.getpid())  # our own child: started, not forked
        finally:
            kc.stop_channels()
            await km.shutdown_kernel(now=True)

    _run(main())


def test_zygote_that_dies_leaves_clear_errors(tmp_path):
    z = kernels.start_zygote([], cwd=str(tmp_path))
    try:
        z.proc.kill()
        z.proc.wait()
        with pytest.raises(kernels.ZygoteError, match="exited"):
            z.fork(["-f", "x.json"], str(tmp_path), dict(os.environ))
    finally:
        kernels.stop_zygote()
    assert kernels.active_zygote() is None


def test_without_zygote_the_manager_starts_ordinary_kernels(tmp_path):
    assert kernels.active_zygote() is None

    async def main():
        km, kc = await _start(tmp_path)
        try:
            assert type(km.provisioner).__name__ == "LocalProvisioner"
            c, o = await _execute(kc, "print(1 + 1)")
            assert _text(o).strip() == "2"
        finally:
            kc.stop_channels()
            await km.shutdown_kernel(now=True)

    _run(main())
