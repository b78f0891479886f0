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


def test_zygote_preloads_every_module_a_kernel_imports_and_stays_forkable(tmp_path):
    """ipykernel.debugger (debugpy) is imported while the kernel object is made: preloaded,
    it costs a forked kernel nothing, and it starts no thread that would make forking unsafe."""
    z = kernels.start_zygote(list(kernels.KERNEL_MODULES), cwd=str(tmp_path))
    try:
        assert "ipykernel.debugger" in kernels.KERNEL_MODULES
        assert z.loaded == list(kernels.KERNEL_MODULES) and z.failed == {}
        assert z.unsafe is None

        async def main():
            before = dict(kernels.STATS)
            km, kc = await _start(tmp_path)
            try:
                assert kernels.STATS["forked"] - before["forked"] == 1
                c, o = await _execute(kc, "import sys\nprint('debugpy' in sys.modules)")
                assert c["status"] == "ok" and _text(o).strip() == "True"
            finally:
                kc.stop_channels()
                await km.shutdown_kernel(now=True)
            assert not await km.is_alive()

        _run(main())
    finally:
        kernels.stop_zygote()


class _Channel:
    """An IOPub channel that hands out the given messages, then has none."""

    def __init__(self, msgs):
        self.msgs = list(msgs)

    async def get_msg(self, timeout=None):
        from queue import Empty

        if not self.msgs:
            await asyncio.sleep(min(timeout or 0, 0.01))
            raise Empty
        return self.msgs.pop(0)

    async def msg_ready(self):
        return bool(self.msgs)


def _iopub(msg_type, parent="", state=None):
    return {"msg_type": msg_type, "parent_header": {"msg_id": parent} if parent else {},
            "content": {"execution_state": state} if state else {}}


@pytest.mark.parametrize("msgs, connected, left", [
    # the kernel's welcome with nothing queued behind it: its status went out unseen
    ([_iopub("iopub_welcome")], True, 0),
    # the request's busy and idle (a kernel without welcome messages): connected at the idle
    ([_iopub("status", "k1", "busy"), _iopub("status", "k1", "idle"), _iopub("stream", "x")], True, 1),
    # a welcome with the request's statuses behind it: they are read up to the idle
    ([_iopub("iopub_welcome"), _iopub("status", "k1", "busy"), _iopub("status", "k1", "idle")], True, 0),
    # only another request's messages: not proof that ours got through
    ([_iopub("status", "other", "idle")], False, 0),
    ([], False, 0),
])
def test_prompt_client_counts_iopub_connected_on_proof_only(msgs, connected, left):
    kc = kernels.PromptKernelClient()
    channel = _Channel(msgs)
    kc._iopub_channel = channel
    assert _run(kc._iopub_connected("k1", 0.05)) is connected
    assert len(channel.msgs) == left


def test_grading_clients_and_stops_are_prompt(tmp_path):
    """Kernels of the grading manager get the prompt client; a stopping kernel is polled every
    STOP_POLL_S (jupyter_client: 0.1 s); graded kernels are stopped at once."""
    from grader.autograde.execute import GraderExecute

    km = kernels.PreloadedKernelManager(kernel_name="python3")
    assert km.client_factory is kernels.PromptKernelClient
    assert kernels.PromptKernelClient().context.getsockopt(__import__("zmq").RECONNECT_IVL) == kernels.RECONNECT_MS
    assert GraderExecute(sandbox=False).shutdown_kernel == "immediate"

    waits = []

    async def main():
        real_sleep = asyncio.sleep
        alive = iter([True, True, False])

        async def is_alive():
            return next(alive)

        async def sleep(delay, *a):
            waits.append(delay)
            await real_sleep(0)

        km._async_is_alive = is_alive
        asyncio.sleep, saved = sleep, asyncio.sleep
        try:
            await km._async_wait()
        finally:
            asyncio.sleep = saved

    _run(main())
    assert waits == [kernels.STOP_POLL_S] * 2


def _notebook(tmp_path, *sources):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(src) for src in sources])
    path = tmp_path / "lesson.ipynb"
    nbformat.write(nb, path)
    return [path]


def test_modules_reached_by_follows_attributes_and_the_course_modules_deferred_imports(tmp_path):
    nbs = _notebook(tmp_path,
                    "import numpy as np\nimport minitape as tf\nfrom lessons.widgets import tangent_explorer",
                    # other cells see the first cell's names; a function or a class is no module
                    "layer = tf.keras.layers.Dense(2)\nx = np.linspace(0, 1)\nr = np.random.default_rng(0)",
                    "tf.Variable(1.0)")
    reached = kernels.modules_reached_by(nbs)
    assert reached[:3] == ["numpy", "minitape", "lessons.widgets"]  # the imports, first
    # submodules reached through attributes, which minitape and NumPy import when touched
    assert {"minitape.keras", "minitape.keras.layers", "numpy.random"} <= set(reached)
    assert not {"numpy.linspace", "minitape.Variable", "numpy.random.default_rng"} & set(reached)
    # what lessons.widgets imports inside its functions (a widget's first draw), and what the
    # course's modules it names import in theirs
    assert {"ipywidgets", "matplotlib.backends.backend_agg", "lessons.figures", "cycler"} <= set(reached)
    # a top-level import of a course module is not followed: minitape.keras.models imports
    # h5py only to save a model, which the lesson never does
    assert "h5py" not in reached
    assert all(kernels._module_file(name) for name in reached)


def test_module_files_are_found_without_importing(tmp_path, monkeypatch):
    pkg = tmp_path / "pkg_never_imported"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("raise RuntimeError('imported')\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "leaf.py").write_text("")
    (pkg / "data").mkdir()  # a folder without __init__.py: a namespace package's part
    (pkg / "data" / "mod.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    kernels._module_file.cache_clear()
    try:
        assert kernels._module_file("pkg_never_imported") == str(pkg / "__init__.py")
        assert kernels._module_file("pkg_never_imported.sub.leaf") == str(pkg / "sub" / "leaf.py")
        assert kernels._module_file("pkg_never_imported.data.mod") == str(pkg / "data" / "mod.py")
        assert kernels._module_file("pkg_never_imported.data") is None
        assert kernels._module_file("pkg_never_imported.missing") is None
        assert kernels._module_file("no_such_top_level_module") is None
        assert kernels._module_file("pkg_never_imported.not-a-name") is None
        assert "pkg_never_imported" not in sys.modules
    finally:
        kernels._module_file.cache_clear()


def test_a_forked_kernel_imports_ipywidgets_as_a_fresh_one_does(tmp_path):
    """ipywidgets registers its comm targets at import only when it finds a shell: preloaded
    (lesson helpers import it on first use), the kernel still runs that step itself."""
    z = kernels.start_zygote(list(kernels.KERNEL_MODULES) + ["ipywidgets"], cwd=str(tmp_path))
    try:
        assert "ipywidgets" in z.loaded and z.unsafe is None

        async def main():
            km, kc = await _start(tmp_path)
            try:
                c, o = await _execute(kc, "import sys\nprint('ipywidgets.widgets' in sys.modules, "
                                          "'ipywidgets' in sys.modules)\nimport ipywidgets\n"
                                          "from comm import get_comm_manager\n"
                                          "print(sorted(get_comm_manager().targets))")
                assert c["status"] == "ok", c
                first, targets = _text(o).strip().splitlines()
                assert first == "True False"  # its submodules preloaded, its own code not run
                assert "'jupyter.widget'" in targets and "'jupyter.widget.control'" in targets
            finally:
                kc.stop_channels()
                await km.shutdown_kernel(now=True)

        _run(main())
    finally:
        kernels.stop_zygote()
