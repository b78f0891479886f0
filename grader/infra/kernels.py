"""Preloaded kernels for autograding: fork each submission's kernel from a warm process.

A fresh IPython kernel spends about 1.5 CPU-seconds before the first cell of a lesson runs:
starting Python, importing ipykernel, IPython, NumPy, matplotlib, ipywidgets, minitape. For a
class of 60 that is most of the grading work. ``grader autograde-all`` therefore starts one
*zygote* per worker (:mod:`grader.infra.zygote`): a Python process that imports the kernel machinery
and the modules the assignment's source notebook imports, once. Each submission's kernel is then
``fork()``-ed from it: a new process with its own memory, pid, process group, working directory
and environment, that has the modules already imported but has run nothing else -- no student
code ever runs in the zygote. What differs from a kernel started from scratch:

- modules are imported before the student's first cell (an import then costs nothing);
- NumPy's global random stream is reseeded in each kernel (Python's ``random`` reseeds itself);
- all kernels of one worker share Python's string-hash seed.

A kernel of a grading *world* (:mod:`grader.infra.worlds`: the student site without a tool an
exercise forbids) is forked from a zygote of its own, started on first need inside that world's
sandbox (:meth:`grader.infra.sandbox.Sandbox.for_world`), so it never holds what the world
lacks: only the submissions of an assignment with such an exercise pay for it.

A kernel falls back to an ordinary start (with a warning in the log) where forking would not
give the same kernel: a kernel spec other than this interpreter's ``ipykernel_launcher``, a
kernel environment whose ``PYTHON*``/``MPL*`` variables differ from the zygote's, or a preloaded
module that started threads or picked matplotlib's backend. ``--fresh-kernels`` turns it off.
"""

from __future__ import annotations

import ast
import functools
import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import uuid
from queue import Empty
from typing import Any, Iterable

import zmq
import zmq.asyncio
from jupyter_client.asynchronous import AsyncKernelClient
from jupyter_client.manager import AsyncKernelManager
from jupyter_client.provisioning import LocalProvisioner
from traitlets import Unicode, default

from grader.infra.zygote import INLINE_BACKEND
from grader.infra.sandbox import SANDBOX_HOME, Sandbox

__all__ = ["KERNEL_MODULES", "KernelZygote", "PreloadedKernelManager", "ZygoteError",
           "active_sandbox", "active_zygote", "kernel_manager_class", "modules_imported_by",
           "modules_reached_by",
           "start_zygote", "stop_zygote", "use_sandbox", "world_environment"]

log = logging.getLogger("grader.infra.kernels")

# a world's kernel replays cells whose outputs are not kept (grader.autograde.execute): its
# figures are drawn but never rendered to images
WORLD_MPLBACKEND = "agg"

KERNEL_LOG_BYTES = 1 << 20  # of a sandboxed kernel's own stdout/stderr, into the worker's log

# what every IPython kernel imports before it runs a cell (ipykernel.debugger, i.e. debugpy,
# while the kernel object is made: two thirds of a forked kernel's start-up CPU if left to it)
KERNEL_MODULES = ("ipykernel.kernelapp", "ipykernel.ipkernel", "ipykernel.zmqshell",
                  "IPython.core.completer", "comm", "ipykernel.debugger")

# how often a client's sockets retry connecting to a kernel that has not bound them yet (zmq's
# default is 100 ms; a forked kernel binds its sockets some tens of ms after the client connects)
RECONNECT_MS = 10
# how often a stopping kernel is polled (jupyter_client: every 100 ms; a grading kernel, killed,
# is gone within a few ms)
STOP_POLL_S = 0.005


class ZygoteError(RuntimeError):
    """The zygote could not start, died, or refused to fork a kernel."""


class KernelZygote:
    """Handle on a running zygote process (see :mod:`grader.infra.zygote`)."""

    def __init__(self, modules: Iterable[str], cwd: str | None = None, startup_timeout: float = 120,
                 sandbox: "Sandbox | None" = None, world: str = ""):
        # kernels are forked from it (their /proc/self/environ is its): no seed of hidden points
        env = {k: v for k, v in os.environ.items() if k != "GRADER_SEED"}
        self.world = world
        if world:
            env["MPLBACKEND"] = WORLD_MPLBACKEND
            if sandbox is None:
                env = world_environment(env, world)
        env.setdefault("MPLBACKEND", INLINE_BACKEND)  # before matplotlib can be imported
        self.modules = list(modules)
        self.sandbox = sandbox
        self._lock = threading.Lock()
        # run as a script (stdlib only): it must start even where `grader` is importable only
        # through the parent's sys.path, and must not change the kernels' sys.path
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "zygote.py")
        cmd = [sys.executable, script, *self.modules]
        kwargs: dict = {}
        if sandbox is not None:
            # the zygote itself runs in the sandbox (it sees the scratch area, never the course);
            # each kernel it forks is confined further (grader.infra.zygote._confine)
            env = sandbox.environment(env)
            cwd = sandbox.scratch
            cmd = sandbox.command([sys.executable, sandbox.script(), "--sandboxed", *self.modules],
                                  writable=cwd, cwd=cwd, env=env)
            kwargs = dict(sandbox.popen_kwargs(), start_new_session=True)
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=cwd,
                                     env=env, **kwargs)
        self.info = self._read(startup_timeout)
        self.loaded: list[str] = self.info.get("loaded", [])
        self.failed: dict[str, str] = self.info.get("failed", {})
        self.unsafe: str | None = self.info.get("unsafe")

    def _read(self, timeout: float | None = None) -> dict:
        if timeout is not None:
            import selectors

            with selectors.DefaultSelector() as sel:
                sel.register(self.proc.stdout, selectors.EVENT_READ)
                if not sel.select(timeout):
                    self.close()
                    raise ZygoteError(f"the kernel zygote did not start within {timeout:.0f} s")
        line = self.proc.stdout.readline()
        if not line:
            code = self.proc.poll()
            raise ZygoteError(f"the kernel zygote exited (status {code})")
        return json.loads(line)

    def request(self, **req: Any) -> dict:
        with self._lock:
            if self.proc.poll() is not None:
                raise ZygoteError(f"the kernel zygote exited (status {self.proc.returncode})")
            try:
                self.proc.stdin.write(json.dumps(req).encode() + b"\n")
                self.proc.stdin.flush()
            except (BrokenPipeError, OSError) as exc:
                raise ZygoteError(f"the kernel zygote is gone: {exc}") from None
            return self._read()

    def can_fork(self, cmd: list[str]) -> bool:
        """Whether ``cmd`` is this interpreter's ``-m ipykernel_launcher`` (what we can fork)."""
        return (self.unsafe is None and len(cmd) >= 3 and cmd[1:3] == ["-m", "ipykernel_launcher"]
                and os.path.abspath(shutil.which(cmd[0]) or cmd[0]) == os.path.abspath(sys.executable))

    def fork(self, argv: list[str], cwd: str, env: dict[str, str], confine: dict | None = None) -> int:
        answer = self.request(op="fork", argv=argv, cwd=cwd, env=env, confine=confine)
        if "pid" not in answer:
            raise ZygoteError(answer.get("error", "no pid"))
        return int(answer["pid"])

    def poll(self, pid: int) -> int | None:
        answer = self.request(op="poll", pid=pid)
        if "error" in answer:
            raise ZygoteError(answer["error"])
        return answer["status"]

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()  # end of input: the zygote kills its kernels and exits
            except OSError:
                pass
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass


_ACTIVE: list[KernelZygote] = []  # the zygote of this process's kernels (the student site)
_WORLD_ZYGOTES: dict[str, KernelZygote] = {}  # world -> its zygote, started on first need
_WORLD_FAILED: dict[str, str] = {}  # world -> why its zygote could not start (kernels start fresh)
_PRELOAD: list[str] = []  # the modules the zygote preloads: a world's zygote preloads them too
# kernels this process launched: forked from the zygote, or started fresh although one was active
STATS = {"forked": 0, "fresh": 0}


def start_zygote(modules: Iterable[str], cwd: str | None = None) -> KernelZygote:
    """Start the zygote kernels of this process are forked from (replacing any earlier one),
    inside the active sandbox if there is one (:func:`use_sandbox`). The zygotes of grading
    worlds start later, each on its first kernel, with the same modules."""
    if not hasattr(os, "fork"):
        raise ZygoteError("forking kernels needs os.fork (Linux, macOS); kernels start fresh")
    stop_zygote()
    _PRELOAD[:] = list(modules)
    zygote = KernelZygote(modules, cwd=cwd, sandbox=active_sandbox())
    _ACTIVE.append(zygote)
    return zygote


def stop_zygote() -> None:
    while _ACTIVE:
        _ACTIVE.pop().close()
    while _WORLD_ZYGOTES:
        _WORLD_ZYGOTES.popitem()[1].close()
    _WORLD_FAILED.clear()


def _world_zygote(world: str) -> KernelZygote | None:
    """The zygote of ``world``'s kernels: started on the first kernel of that world, where this
    process preloads kernels at all; None where it cannot start (kernels then start fresh)."""
    zygote = _WORLD_ZYGOTES.get(world)
    if zygote is not None and zygote.proc.poll() is not None:
        log.warning("the %s kernel zygote exited (status %s); starting it again", world,
                    zygote.proc.returncode)
        _WORLD_ZYGOTES.pop(world).close()
        zygote = None
    if zygote is None and _ACTIVE and world not in _WORLD_FAILED:
        try:
            zygote = KernelZygote(_PRELOAD, sandbox=active_sandbox(world), world=world)
        except (ZygoteError, OSError) as exc:
            _WORLD_FAILED[world] = str(exc)
            log.warning("kernels of the grading world %s start fresh: %s", world, exc)
            return None
        _WORLD_ZYGOTES[world] = zygote
    return zygote


def active_zygote(world: str = "") -> KernelZygote | None:
    if world:
        return _world_zygote(world)
    zygote = _ACTIVE[-1] if _ACTIVE else None
    if zygote is not None and zygote.sandbox is not None and zygote.proc.poll() is not None:
        # a sandboxed zygote died (a kernel cannot kill it, but memory can run out): start it
        # again, so that no kernel of this worker ever starts outside the sandbox
        log.warning("the kernel zygote exited (status %s); starting it again", zygote.proc.returncode)
        _ACTIVE.pop().close()
        try:
            zygote = start_zygote(zygote.modules)
        except ZygoteError as exc:
            log.warning("kernels start fresh (in the sandbox): %s", exc)
            return None
    return zygote


# the sandbox kernels of this process run in (grader.infra.sandbox); None: not sandboxed
_SANDBOX: list["Sandbox"] = []


_SANDBOX_CHOSEN: list[bool] = []
_WORLD_SANDBOXES: dict[str, "Sandbox"] = {}  # world -> the sandbox of its kernels
_WORLD_SITES: dict[str, str] = {}  # world -> its folder, for kernels that run unsandboxed


def use_sandbox(sandbox: "Sandbox | None") -> None:
    """Run every kernel this process starts from now on in ``sandbox`` (``None``: no sandbox)."""
    _SANDBOX[:] = [sandbox] if sandbox is not None else []
    _SANDBOX_CHOSEN[:] = [True]
    while _WORLD_SANDBOXES:
        _WORLD_SANDBOXES.popitem()[1].close()


def active_sandbox(world: str = "") -> "Sandbox | None":
    """The sandbox kernels start in; for a grading ``world``, one like it whose kernels import
    that world (made on first need, :meth:`grader.infra.sandbox.Sandbox.for_world`)."""
    base = _SANDBOX[-1] if _SANDBOX else None
    if not world or base is None:
        return base
    box = _WORLD_SANDBOXES.get(world)
    if box is None:
        import multiprocessing.util

        box = _WORLD_SANDBOXES[world] = base.for_world(world)
        # its scratch area goes with the process (a pool worker ends through os._exit)
        multiprocessing.util.Finalize(None, box.close, exitpriority=5)
    return box


def world_environment(env: dict | None, world: str) -> dict:
    """The environment of an *unsandboxed* kernel of ``world``: the world's folder first on
    ``PYTHONPATH``. Without the sandbox this is no barrier (the kernel can put anything on its
    path; grading without the sandbox is only for submissions you trust), but an honest
    notebook is graded as it is with the sandbox."""
    env = dict(os.environ if env is None else env)
    site = _WORLD_SITES.get(world)
    if site is None:
        from grader.infra.student_site import ensure
        from grader.infra.worlds import ensure_world

        site = _WORLD_SITES[world] = ensure_world(ensure(), world)
    env["PYTHONPATH"] = os.pathsep.join([site, *[p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]])
    return env


def kernel_manager_class(sandbox: bool = True):
    """The kernel manager nbgrader's execution should use in this process: kernels forked from
    the zygote and/or confined in the sandbox.

    A grading worker (:mod:`grader.infra.parallel`) has set up its own sandbox (a scratch area
    of its own, the zygote inside it), or none, with :func:`use_sandbox` before any kernel
    starts, from the same choice its nbgrader arguments carry (``GraderExecute.sandbox``, which
    is ``sandbox`` here); a worker that replays a record runs no kernel. In a process where nobody chose
    (serial ``nbgrader autograde`` with the course's config), a sandbox is set up here when
    ``sandbox`` is true; where bubblewrap is missing this raises
    :class:`grader.infra.sandbox.SandboxError`, so grading does not start."""
    if not _SANDBOX_CHOSEN:
        if not sandbox:
            from grader.infra.sandbox import NO_SANDBOX_WARNING

            log.warning(NO_SANDBOX_WARNING.replace("(--no-sandbox)", "(GraderExecute.sandbox=False)"))
            use_sandbox(None)
        else:
            import atexit

            sandbox = Sandbox(hide=[os.getcwd()])  # nbgrader runs in the course folder
            sandbox.check()
            use_sandbox(sandbox)
            atexit.register(sandbox.close)
    # always ours: its session (grader.infra.session.SafeSession) survives malformed messages; without
    # a zygote or a sandbox it starts kernels as jupyter_client does
    return PreloadedKernelManager


class ForkedKernel:
    """What :class:`~jupyter_client.provisioning.LocalProvisioner` needs of a ``Popen``, for a
    kernel the zygote forked."""

    stdin = stdout = stderr = None

    def __init__(self, zygote: KernelZygote, pid: int):
        self.zygote, self.pid, self.returncode = zygote, pid, None

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                self.returncode = self.zygote.poll(self.pid)
            except ZygoteError:
                # the zygote is gone: the kernel, orphaned, was reaped by init (or still runs);
                # a sandboxed zygote's kernels died with its PID namespace
                try:
                    if self.zygote.sandbox is not None:
                        raise ProcessLookupError
                    os.kill(self.pid, 0)
                except ProcessLookupError:
                    self.returncode = -signal.SIGKILL
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"kernel {self.pid}", timeout)
            time.sleep(0.02)
        return self.returncode

    def send_signal(self, signum: int) -> None:
        if self.poll() is None:
            if self.zygote.sandbox is not None:
                # the pid is one of the sandbox's PID namespace: only the zygote can signal it
                try:
                    self.zygote.request(op="signal", pid=self.pid, signum=int(signum))
                except ZygoteError:
                    pass
                return
            try:
                os.kill(self.pid, signum)
            except ProcessLookupError:
                pass

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)


class ForkingProvisioner(LocalProvisioner):
    """Launches the kernel by forking the active zygote; an ordinary launch where it cannot.
    With a sandbox (:func:`use_sandbox`) both are confined: the manager gave the kernel a
    folder of its own (``sandbox_dir``), a copy of its submission, as working directory."""

    sandbox_dir: str | None = None

    async def launch_kernel(self, cmd: list[str], **kwargs: Any):
        world = getattr(self.parent, "world", "")
        sandbox = active_sandbox(world)
        if sandbox is not None:
            if self.sandbox_dir is None:
                raise RuntimeError("a sandboxed kernel needs its folder (PreloadedKernelManager)")
            sandbox.give(self.parent.connection_file)  # the kernel reads it as the sandbox user
        zygote = active_zygote(world)
        if zygote is not None and (zygote.sandbox is not None) != (sandbox is not None):
            zygote = None  # started before the sandbox was chosen: never mix the two
        if zygote is None or not zygote.can_fork(cmd):
            if zygote is not None:
                STATS["fresh"] += 1
                log.warning("starting a fresh kernel: %s", zygote.unsafe or f"cannot fork {cmd[:3]}")
            return await self._launch_fresh(sandbox, cmd, **kwargs)
        env = dict(kwargs.get("env") or os.environ)
        # as jupyter_client's launcher sets it; a sandboxed kernel gets no host PID (its parent
        # is outside its PID namespace, as for a fresh sandboxed kernel below)
        env["JPY_PARENT_PID"] = "1" if zygote.sandbox is not None else str(os.getpid())
        env.pop("GRADER_SEED", None)
        cwd = os.fspath(kwargs.get("cwd") or os.getcwd())
        confine = None if sandbox is None else self._confinement(sandbox)
        try:
            pid = zygote.fork(list(cmd[3:]), cwd, env, confine)
        except ZygoteError as exc:
            STATS["fresh"] += 1
            log.warning("starting a fresh kernel: %s", exc)
            return await self._launch_fresh(sandbox, cmd, **kwargs)
        STATS["forked"] += 1
        self.process = ForkedKernel(zygote, pid)
        self.pid = self.pgid = pid
        if zygote.sandbox is not None:
            # ``pid`` is one of the sandbox's PID namespace: signals go through ForkedKernel
            # (LocalProvisioner would os.killpg(pgid) here, i.e. some process of ours)
            self.pgid = None
        self.cwd = cwd
        return self.connection_info

    def _confinement(self, sandbox: Sandbox) -> dict:
        """What grader.infra.zygote._confine needs to confine this kernel."""
        return {"own": self.sandbox_dir, "scratch": sandbox.scratch, "home": SANDBOX_HOME,
                "tmp_bytes": sandbox.limits.tmp_mb << 20, "limits": sandbox.limits.rlimits(),
                "keep": list(sandbox.readonly),
                # its connection folder read-only once its sockets are bound; its output logged
                # (by its keeper: it holds no descriptor of the worker's log) up to 1 MB
                "seal": True, "log_bytes": KERNEL_LOG_BYTES}

    async def _launch_fresh(self, sandbox, cmd: list[str], **kwargs: Any):
        if sandbox is None:
            return await super().launch_kernel(cmd, **kwargs)
        # a kernel of its own under bwrap, confined as a forked one is (own namespaces, limits,
        # no capabilities) by the zygote script's --exec-confined before it execs the kernel
        cwd = os.fspath(kwargs.get("cwd") or os.getcwd())
        env = dict(kwargs.get("env") or os.environ)
        # its parent is outside its PID namespace: ipykernel would take that for a dead parent
        env["JPY_PARENT_PID"] = "1"  # i.e. none: no parent poller, no console banner
        confine = dict(self._confinement(sandbox), scratch=self.sandbox_dir, cwd=cwd)
        script = sandbox.script()  # the student site's copy: the instructor's is not there
        python = shutil.which(cmd[0]) or cmd[0]
        cmd = [sys.executable, script, "--exec-confined", json.dumps(confine), python, *cmd[1:]]
        mpl = sandbox.matplotlib_dir()  # a copy of its own: it may write there
        own_mpl = os.path.join(self.sandbox_dir, ".kernel", "matplotlib")
        shutil.copytree(mpl, own_mpl)
        sandbox.give(own_mpl)
        for name in os.listdir(own_mpl):
            sandbox.give(os.path.join(own_mpl, name))
        wrapped = sandbox.command(list(cmd), writable=self.sandbox_dir, cwd=cwd, env=env,
                                  binds={own_mpl: mpl})
        kwargs = dict(kwargs, **sandbox.popen_kwargs())
        return await super().launch_kernel(wrapped, **kwargs)

    async def cleanup(self, restart: bool = False) -> None:
        await super().cleanup(restart)
        sandbox = active_sandbox(getattr(self.parent, "world", ""))
        if not restart and self.sandbox_dir is not None and sandbox is not None:
            sandbox.remove(self.sandbox_dir)  # nothing the kernel wrote is kept
            self.sandbox_dir = None


class PromptKernelClient(AsyncKernelClient):
    """jupyter_client's asynchronous client without two fixed waits at a kernel's start.

    ``wait_for_ready`` sends ``kernel_info`` until the reply comes and IOPub is proven
    connected, as jupyter_client's does; then jupyter_client listens to IOPub until it has been
    silent for 0.2 s, and, when the status messages of its first request were published before
    the subscription reached the kernel (usual for a kernel that binds its sockets after the
    client connected), first waits 0.2 s for them in vain. Here IOPub counts as connected on the
    kernel's ``iopub_welcome`` (ipykernel 7, JEP 65) or on a status of the request, and the wait
    ends with the request's ``idle`` (or at once on a welcome without it). Nothing is dropped that
    a client reading its own replies needs: every reader here (nbclient, ``execute_interactive``)
    takes only the messages whose parent is its own request. Sockets retry a connection every
    ``RECONNECT_MS`` instead of every 100 ms."""

    def _context_default(self) -> zmq.asyncio.Context:
        self._created_context = True
        context = zmq.asyncio.Context()
        context.setsockopt(zmq.RECONNECT_IVL, RECONNECT_MS)  # the default of its new sockets
        return context

    async def _async_wait_for_ready(self, timeout: float | None = None) -> None:
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            msg_id = self.kernel_info()
            reply = await self._reply_to(msg_id, 1.0)
            if reply is not None and reply["msg_type"] == "kernel_info_reply":
                if await self._iopub_connected(msg_id, 0.2):
                    self._handle_kernel_info_reply(reply)
                    return
            if not await self._async_is_alive():
                raise RuntimeError("Kernel died before replying to kernel_info")
            if deadline is not None and time.monotonic() > deadline:
                raise RuntimeError("Kernel didn't respond in %d seconds" % timeout)

    wait_for_ready = _async_wait_for_ready  # the base class bound its own function to the name

    async def _reply_to(self, msg_id: str, wait: float) -> dict | None:
        end = time.monotonic() + wait
        while (left := end - time.monotonic()) > 0:
            try:
                msg = await self.shell_channel.get_msg(timeout=left)
            except Empty:
                return None
            if msg["parent_header"].get("msg_id") == msg_id:
                return msg
        return None

    async def _iopub_connected(self, msg_id: str, wait: float) -> bool:
        end = time.monotonic() + wait
        connected = False
        while (left := end - time.monotonic()) > 0:
            try:
                msg = await self.iopub_channel.get_msg(timeout=left)
            except Empty:
                return connected
            if msg["msg_type"] == "iopub_welcome":
                connected = True
                # its busy status, when published before the subscription, never comes
                if not await self.iopub_channel.msg_ready():
                    return True
            elif msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "status":
                connected = True
                if msg["content"].get("execution_state") == "idle":
                    return True
        return connected


class PreloadedKernelManager(AsyncKernelManager):
    """An :class:`AsyncKernelManager` whose kernels are forked from the active zygote (if any
    and if the kernel spec names no provisioner of its own); its session decodes what the
    kernel sends defensively (:class:`grader.infra.session.SafeSession`); its clients are
    :class:`PromptKernelClient`, and a stopping kernel is polled every ``STOP_POLL_S``."""

    world = Unicode("", help="The grading world (grader.infra.worlds) the kernel imports: "
                             "'' for the student site, 'no-autodiff' for minitape without its "
                             "automatic differentiation").tag(config=False)

    @default("session")
    def _default_session(self):
        from grader.infra.session import SafeSession

        return SafeSession(parent=self)

    @default("client_factory")
    def _prompt_client(self):
        return PromptKernelClient

    async def _async_wait(self, pollinterval: float = 0.1) -> None:
        await super()._async_wait(pollinterval=min(pollinterval, STOP_POLL_S))

    async def _async_pre_start_kernel(self, **kw: Any):
        spec_provisioner = (self.kernel_spec.metadata or {}).get("kernel_provisioner")
        sandbox = active_sandbox(self.world)
        if self.world:
            kw["env"] = dict(kw.get("env") or os.environ, MPLBACKEND=WORLD_MPLBACKEND)
            if sandbox is None:
                kw["env"] = world_environment(kw["env"], self.world)
        if sandbox is not None and spec_provisioner:
            raise RuntimeError(f"the kernel spec {self.kernel_name!r} names its own provisioner "
                               f"({spec_provisioner}); it cannot run in the grading sandbox")
        if self.provisioner is None and (active_zygote(self.world) is not None
                                         or sandbox is not None) and not spec_provisioner:
            self.kernel_id = self.kernel_id or kw.pop("kernel_id", str(uuid.uuid4()))
            self.provisioner = ForkingProvisioner(kernel_id=self.kernel_id,
                                                  kernel_spec=self.kernel_spec, parent=self)
        if sandbox is not None:
            # a folder of its own: a copy of the submission (its working directory), and the
            # connection file and Unix sockets it talks over (it has no network)
            own, work = sandbox.new_kernel_dir(os.fspath(kw["cwd"]) if kw.get("cwd") else None)
            self.provisioner.sandbox_dir = own
            kw["cwd"] = work
            kw["env"] = sandbox.environment(kw.get("env"))
            self.transport = "ipc"
            self.ip = os.path.join(own, ".kernel", "s")  # sockets s-1 ... s-5
            self.connection_file = os.path.join(own, ".kernel", f"kernel-{self.kernel_id}.json")
        elif self.transport == "ipc" and not os.path.isabs(self.ip or ""):
            # unconfined over Unix sockets (the course's configuration): jupyter_client names
            # them relative to the working directory, and a kernel forked into the submission's
            # folder would look for them there; an absolute path in Jupyter's runtime folder
            # (removed with the connection file) is the same for both ends
            from jupyter_core.paths import jupyter_runtime_dir

            self.kernel_id = self.kernel_id or kw.pop("kernel_id", str(uuid.uuid4()))
            runtime = jupyter_runtime_dir()
            os.makedirs(runtime, exist_ok=True)
            self.ip = os.path.join(runtime, f"kernel-{self.kernel_id}-ipc")
        return await super()._async_pre_start_kernel(**kw)


def modules_reached_by(notebooks: Iterable[str]) -> list[str]:
    """What the notebooks' code imports, also where it imports on first use: the absolute
    imports of their code cells (:func:`modules_imported_by`); the submodules their code reaches
    through attributes of an imported module (``tf.keras.layers`` after ``import minitape as
    tf``: ``minitape.keras``, ``minitape.keras.layers``, which minitape imports when first
    touched); and the imports inside the functions of the course's own modules among them
    (``lessons``, ``grader``, ``minitape``, ``course_lang``) the notebooks name, and of the
    course's modules those imports name (``lessons.widgets`` imports ``ipywidgets`` when a
    lesson first draws a widget). A module's top-level imports are not followed: what a module
    imports only on a path the lesson never takes (``h5py``, when a model is saved) stays out.
    Only names of existing files are returned; nothing is imported here."""
    from grader.infra.student_wheel import PACKAGES

    trees = _code_cell_trees(notebooks)
    found = dict.fromkeys(_absolute_imports(trees))
    for name in _attribute_modules(trees):
        found.setdefault(name, None)
    todo = [m for m in found if m.partition(".")[0] in PACKAGES]
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        path = _module_file(name)
        if path is None or not path.endswith(".py"):
            continue
        try:
            with open(path, encoding="utf-8") as f:
                tree = ast.parse(f.read())
        except (OSError, SyntaxError, UnicodeDecodeError):
            continue
        package = name if os.path.basename(path) == "__init__.py" else name.rpartition(".")[0]
        for imported, deferred in _module_imports(tree, package):
            if not deferred or _module_file(imported) is None:
                continue
            found.setdefault(imported, None)
            if imported.partition(".")[0] in PACKAGES:
                todo.append(imported)  # called, it may import more on first use
    return list(found)


def _attribute_modules(trees: list[ast.AST]) -> list[str]:
    """Submodules (existing files) named by attribute chains on names that ``import`` bound in
    any of the trees (a notebook's cells share one namespace)."""
    aliases: dict[str, str] = {}
    for node in (n for tree in trees for n in ast.walk(tree)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    aliases[alias.asname] = alias.name
                else:
                    top = alias.name.partition(".")[0]
                    aliases[top] = top
    out: dict[str, None] = {}
    for node in (n for tree in trees for n in ast.walk(tree)):
        if not isinstance(node, ast.Attribute):
            continue
        chain = []
        while isinstance(node, ast.Attribute):
            chain.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name) or node.id not in aliases:
            continue
        name = aliases[node.id]
        for part in reversed(chain):
            name = f"{name}.{part}"
            if name not in out and _module_file(name) is None:
                break
            out[name] = None
    return list(out)


def _module_imports(tree: ast.AST, package: str) -> list[tuple[str, bool]]:
    """The modules a module imports, each with whether the import is deferred (inside a
    function): ``import a.b`` gives ``a.b``, ``from a import b`` gives ``a`` and ``a.b`` where
    that is a module; ``package`` resolves relative imports."""
    out: list[tuple[str, bool]] = []

    def visit(node: ast.AST, inside: bool) -> None:
        for child in ast.iter_child_nodes(node):
            nested = inside or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, ast.Import):
                out.extend((alias.name, nested) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    parts = package.split(".")
                    if child.level - 1 >= len(parts):
                        continue
                    prefix = ".".join(parts[:len(parts) - (child.level - 1)])
                    base = f"{prefix}.{base}" if base else prefix
                out.append((base, nested))
                out.extend((f"{base}.{alias.name}", nested) for alias in child.names
                           if alias.name != "*" and _module_file(f"{base}.{alias.name}") is not None)
            visit(child, nested)

    visit(tree, False)
    return out


@functools.lru_cache(maxsize=None)
def _module_file(name: str) -> str | None:
    """The file of module ``name`` (``__init__.py`` for a package; a compiled module's file),
    found without importing anything; None where there is none."""
    import importlib.machinery
    import importlib.util

    top, *rest = name.split(".")
    if not top.isidentifier():
        return None
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    if not rest:
        return spec.origin if spec.origin and os.path.isfile(spec.origin) else None
    dirs = list(spec.submodule_search_locations or [])
    path = None
    for i, part in enumerate(rest):
        if not part.isidentifier():
            return None
        path, subdirs = None, []
        for folder in dirs:
            package = os.path.join(folder, part)
            if os.path.isfile(os.path.join(package, "__init__.py")):
                path = os.path.join(package, "__init__.py")
                subdirs.append(package)
                break
            if os.path.isdir(package) and i < len(rest) - 1:  # a namespace package
                subdirs.append(package)
                continue
            for suffix in importlib.machinery.all_suffixes():
                if os.path.isfile(os.path.join(folder, part + suffix)):
                    path = os.path.join(folder, part + suffix)
                    break
            if path:
                break
        if path is None and not subdirs:
            return None
        dirs = subdirs
    return path


def modules_imported_by(notebooks: Iterable[str]) -> list[str]:
    """Absolute imports (``import a.b``, ``from a.b import c``) in the code cells of the
    notebooks, in order of first appearance; IPython magics are translated first."""
    return _absolute_imports(_code_cell_trees(notebooks))


def _code_cell_trees(notebooks: Iterable[str]) -> list[ast.Module]:
    """The syntax trees of the notebooks' code cells, IPython magics translated first (a cell
    that is no valid Python is left out)."""
    import nbformat
    from IPython.core.inputtransformer2 import TransformerManager

    transform = TransformerManager().transform_cell
    trees = []
    for path in notebooks:
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type != "code":
                continue
            try:
                trees.append(ast.parse(transform(cell.source)))
            except SyntaxError:
                continue
    return trees


def _absolute_imports(trees: list[ast.Module]) -> list[str]:
    """``import a.b`` and ``from a.b import c`` anywhere in the trees, in order of first
    appearance."""
    found: dict[str, None] = {}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    found.setdefault(alias.name, None)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.setdefault(node.module, None)
    return list(found)
