"""The kernel zygote: imports an assignment's modules once, then forks one IPython kernel per
submission (run as ``python .../grader/infra/zygote.py MODULE...`` by :mod:`grader.infra.kernels`).

Protocol: one JSON object per line on the zygote's stdin, one reply per line on its stdout.
Both are moved to private file descriptors at start-up, so kernels write their output to the
zygote's stderr (the grading worker's log) and read nothing.

- ``{"op": "fork", "argv": [...], "cwd": DIR, "env": {...}, "confine": {...}}`` → ``{"pid": N}``
  or ``{"error": WHY}`` (the caller then starts an ordinary kernel). With ``confine`` (a
  sandboxed zygote, see :mod:`grader.infra.sandbox`) the kernel is confined further, below.
- ``{"op": "signal", "pid": N, "signum": S}`` → ``{"ok": true}``: ``S`` to the kernel's process
  group (used for a sandboxed zygote, whose PIDs are those of its own namespace); a confined
  kernel's keeper passes an interrupt on to the kernel's own group, and dies of a kill (the
  kernel with it).
- ``{"op": "poll", "pid": N}`` → ``{"status": null}`` while it runs, else its exit status as
  :attr:`subprocess.Popen.returncode` gives it (negative: killed by that signal). A kernel is
  reaped only when a poll sees it exit, so its pid cannot be reused while its manager may still
  signal it.

End of input (the worker is gone) kills the kernels still running and ends the zygote.

Confined kernels. In a sandbox the zygote serves one submission after another, so each kernel
gets namespaces of its own, made with ``unshare(2)`` in the forked child (Linux only): a user
namespace (which grants the rights for the rest, and that the kernel loses again), a PID
namespace, a mount namespace and an IPC namespace. The forked child stays outside the new PID
namespace as a small *keeper* that waits for the kernel; the kernel is its child and PID 1 of
the new namespace. So:

- the kernel cannot see or signal the zygote, the keeper, the grading worker or other kernels
  (``/proc`` is remounted and shows its own namespace only; ``JPY_PARENT_PID`` names nothing);
- when the kernel exits, the Linux kernel kills every process left in its namespace (daemons
  that double-forked and called ``setsid`` included); when the keeper is killed (the worker's
  shutdown or kill), the kernel gets ``SIGKILL`` (``PR_SET_PDEATHSIG``) and its namespace dies;
- the kernel has a session and process group of its own, apart from the keeper's: killing its
  own group reaches only its own processes (the kernel itself, PID 1 of its namespace, ignores
  a ``SIGKILL`` sent from inside it), never the keeper;
- resource limits (``setrlimit``) apply to the kernel and everything it starts: address space,
  CPU seconds, file size, number of processes -- counted per user namespace, i.e. per kernel
  -- and no core dumps;
- before any student code runs the kernel drops every capability (also from its bounding set)
  and sets ``no_new_privs``, so it cannot undo its mounts or regain rights; the zygote and the
  keeper are not dumpable, so a kernel could not attach to them even if it could name them;
- the kernel holds no descriptor of the host: 0 is ``/dev/null``, 1 and 2 are pipes the keeper
  copies to its own (the worker's log; ``confine["log_bytes"]`` at most), every other inherited
  descriptor is closed;
- with ``confine["seal"]`` its connection folder (``<own>/.kernel``, the only folder of the host
  it sees) is writable only until its sockets are bound: the kernel then asks its keeper, which
  still has the rights of the new user namespace, to remount it read-only, and waits for that
  before it reads any message (so before any student code runs).
"""

from __future__ import annotations

import atexit
import ctypes
import ctypes.util
import importlib
import importlib.util
import json
import os
import signal
import sys
import threading
import traceback

INLINE_BACKEND = "module://matplotlib_inline.backend_inline"

# Modules whose import does something only when an IPython shell is running: imported in the
# zygote they would skip that step, so a kernel must import them itself (their submodules stay
# imported: the kernel's import runs only the module's own code again). ipywidgets registers its
# comm targets at import when it finds a shell.
NEEDS_SHELL = ("matplotlib_inline.backend_inline", "ipywidgets")


def startup_environment(env: dict) -> dict:
    """The variables Python and matplotlib read while starting up or importing: a kernel may be
    forked only where they are the same as the zygote's (else imports would differ)."""
    env = dict(env)
    env.setdefault("MPLBACKEND", INLINE_BACKEND)  # what ipykernel sets before any user code
    return {k: v for k, v in env.items() if k.startswith(("PYTHON", "MPL"))}


def _preload(modules: list[str]) -> tuple[list[str], dict[str, str], str | None]:
    loaded, failed = [], {}
    for name in modules:
        try:
            importlib.import_module(name)
            loaded.append(name)
        except BaseException as exc:  # noqa: BLE001 - a module that fails here fails in the kernel too
            failed[name] = f"{type(exc).__name__}: {exc}"
    for name in NEEDS_SHELL:
        sys.modules.pop(name, None)
    unsafe = None
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is not None and getattr(pyplot, "_backend_mod", None) is not None:
        unsafe = "a preloaded module chose matplotlib's backend before the kernel could"
    elif threading.active_count() > 1:
        unsafe = f"a preloaded module started {threading.active_count() - 1} thread(s); forking is unsafe"
    return loaded, failed, unsafe


# ----------------------------------------------------------------------------------------------
# Confinement of a kernel (Linux): namespaces, limits, no capabilities
# ----------------------------------------------------------------------------------------------
CLONE_NEWNS, CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID = 0x00020000, 0x08000000, 0x10000000, 0x20000000
MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_BIND, MS_REC, MS_PRIVATE = 2, 4, 8, 0x1000, 0x4000, 1 << 18
MS_RDONLY, MS_REMOUNT, MS_NOATIME, MS_NODIRATIME, MS_RELATIME = 1, 32, 1024, 2048, 1 << 21
# statvfs flags of a mount -> the mount flags a remount must keep (Linux refuses to clear a flag
# a less privileged mount namespace inherited locked)
_KEPT_FLAGS = ((2, MS_NOSUID), (4, MS_NODEV), (8, MS_NOEXEC), (1024, MS_NOATIME),
               (2048, MS_NODIRATIME), (4096, MS_RELATIME))
_SEAL: list = []  # in a confined kernel: its end of the keeper's channel (see _seal_kernel_dir)
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS = 1, 4, 24, 38
PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 47, 4
_LIBC = None


def _libc():
    global _LIBC
    if _LIBC is None:
        _LIBC = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
    return _LIBC


def _check(result: int, what: str) -> None:
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def _drop_capabilities() -> None:
    libc = _libc()
    for cap in range(64):  # the bounding set: exec can never give them back
        if libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 and ctypes.get_errno() != 22:  # EINVAL: no such cap
            _check(-1, "prctl(PR_CAPBSET_DROP)")
    libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)

    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                    ("inheritable", ctypes.c_uint32)]

    header, data = Header(0x20080522, 0), (Data * 2)()  # _LINUX_CAPABILITY_VERSION_3: all zero
    _check(libc.capset(ctypes.byref(header), data), "capset")
    _check(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl(PR_SET_NO_NEW_PRIVS)")


def _set_limits(limits: dict) -> None:
    import resource

    names = {"address_space": resource.RLIMIT_AS, "cpu_seconds": resource.RLIMIT_CPU,
             "file_size": resource.RLIMIT_FSIZE, "processes": resource.RLIMIT_NPROC,
             "open_files": resource.RLIMIT_NOFILE, "core": resource.RLIMIT_CORE}
    for name, value in limits.items():
        if value is None:
            continue
        soft, hard = (value, value) if name != "cpu_seconds" else (value, value + 5)  # SIGXCPU first
        resource.setrlimit(names[name], (soft, hard))


def _mount_own_view(libc, confine: dict) -> None:
    """The kernel's mounts: its own ``/proc``; a fresh ``/tmp`` and ``/dev/shm`` (not the ones
    earlier kernels of this zygote wrote to); of the scratch area, only its own folder."""
    own = confine["own"]
    targets = [t for t in ("/tmp", "/dev/shm", confine.get("scratch"))
               if t and os.path.isdir(t) and not (t.startswith("/tmp/") and t != "/tmp")]
    # what must stay visible although a fresh tmpfs covers it: the kernel's own folder, and the
    # read-only Python installation when it lives under /tmp (a checkout cloned there, its .venv)
    def covered(p: str) -> bool:
        return any(p == t or p.startswith(t.rstrip("/") + "/") for t in targets)

    # the kernel's own folder (its copy of the submission: its working directory) is not the
    # host's folder but a copy in the fresh, size-limited tmpfs: a kernel that fills it gets
    # ENOSPC, the machine's disk never fills. Only ``.kernel`` (connection file, sockets) is
    # the host's, bound back.
    own_fd = None
    if covered(own):
        own_fd = os.open(own, os.O_RDONLY | os.O_DIRECTORY)
        kernel_dir = os.path.join(own, ".kernel")
        kept = [kernel_dir] if os.path.isdir(kernel_dir) else []
    else:
        kept = [own]
    kept += [p for p in confine.get("keep", ()) if p != own and os.path.exists(p) and covered(p)]
    fds = {path: os.open(path, os.O_PATH) for path in kept}
    flags = MS_NOSUID | MS_NODEV
    _check(libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None), "mount --make-rprivate /")
    _check(libc.mount(b"proc", b"/proc", b"proc", flags | MS_NOEXEC, None), "mount /proc")
    tmp_opts = f"mode=1777,size={int(confine.get('tmp_bytes', 256 << 20))}".encode()
    for target in targets:
        _check(libc.mount(b"tmpfs", target.encode(), b"tmpfs", flags, tmp_opts), f"mount tmpfs {target}")
    if own_fd is not None:
        import shutil

        os.makedirs(own, mode=0o700, exist_ok=True)
        shutil.copytree(f"/proc/self/fd/{own_fd}", own, symlinks=True, dirs_exist_ok=True,
                        ignore=lambda folder, names: [".kernel"] if folder == f"/proc/self/fd/{own_fd}" else [])
        os.close(own_fd)
    for path, fd in fds.items():  # bound again from the descriptors opened before (read-only stays so)
        if os.path.isdir(f"/proc/self/fd/{fd}"):
            os.makedirs(path, exist_ok=True)
        else:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            open(path, "a").close()
        _check(libc.mount(f"/proc/self/fd/{fd}".encode(), path.encode(), None, MS_BIND | MS_REC, None),
               f"bind {path}")
        os.close(fd)
    home = confine.get("home")
    if home:
        os.makedirs(home, exist_ok=True)


def _read_only(libc, path: str) -> None:
    """Make the mount at ``path`` read-only (in this mount namespace), keeping its other flags."""
    flags = MS_REMOUNT | MS_BIND | MS_RDONLY
    have = os.statvfs(path).f_flag
    for st_flag, ms_flag in _KEPT_FLAGS:
        if have & st_flag:
            flags |= ms_flag
    _check(libc.mount(None, path.encode(), None, flags, None), f"remount {path} read-only")


def _own_descriptors(out_w: int, err_w: int, keep: int | None) -> None:
    """In the kernel: descriptor 0 is the sandbox's /dev/null, 1 and 2 its pipes to the keeper;
    every other descriptor inherited from the zygote (the worker's log above all, which named
    earlier students and the course and was writable) is closed, but ``keep``."""
    null = os.open("/dev/null", os.O_RDONLY)
    for target, fd in ((0, null), (1, out_w), (2, err_w)):
        if fd != target:
            os.dup2(fd, target)
    for fd in {null, out_w, err_w} - {0, 1, 2}:
        os.close(fd)
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        if fd > 2 and fd != keep:
            try:
                os.close(fd)
            except OSError:  # the listing's own descriptor, already closed
                pass


def _keep(pipes: dict[int, int], seal, seal_path: str | None, log_bytes: int | None) -> None:
    """The keeper's loop until the kernel's end: copy what the kernel writes to its stdout and
    stderr (``pipes``: read end -> this process's descriptor; for a forked kernel both are the
    worker's log, which the kernel never holds), at most ``log_bytes`` in all; and, when the
    kernel says its sockets are bound, make ``seal_path`` (the kernel's connection folder, the
    only folder of the host it sees) read-only for it."""
    import select

    budget = log_bytes
    open_fds: dict[int, object] = dict(pipes)
    if seal is not None:
        open_fds[seal.fileno()] = "seal"
    while open_fds:
        ready, _, _ = select.select(list(open_fds), [], [])
        for fd in ready:
            if open_fds[fd] == "seal":
                try:
                    asked = seal.recv(1)
                except OSError:
                    asked = b""
                if asked == b"s" and seal_path:
                    try:
                        _read_only(_libc(), seal_path)
                        answer = b"k"
                    except OSError:
                        answer = b"x"  # the kernel then stops: never runs on a writable host folder
                    try:
                        seal.sendall(answer)
                    except OSError:
                        pass
                del open_fds[fd]
                seal.close()
                continue
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                del open_fds[fd]
                os.close(fd)
                continue
            target = open_fds[fd]
            if budget is None:
                _write_all(target, chunk)
            elif budget > 0:
                _write_all(target, chunk[:budget])
                budget -= len(chunk)
                if budget <= 0:
                    _write_all(2, b"\n[grader] the kernel's output beyond this was not logged\n")


def _write_all(fd: int, data: bytes) -> None:
    try:
        while data:
            data = data[os.write(fd, data):]
    except OSError:
        pass


def _seal_kernel_dir() -> None:
    """In a confined kernel whose sockets are bound: ask the keeper to make the connection
    folder read-only, and wait until it has. Student code runs only after this."""
    if not _SEAL:
        return
    channel = _SEAL.pop()
    try:
        channel.sendall(b"s")
        answer = channel.recv(1)
    except OSError:
        answer = b""
    channel.close()
    if answer != b"k":
        raise SystemExit("the kernel's connection folder could not be made read-only")


def _confine(request: dict) -> None:
    """In the forked child: new namespaces; return in the kernel (PID 1 of its own namespace)
    while this process stays behind as its keeper and never returns."""
    import socket

    libc = _libc()
    confine = request["confine"]
    uid, gid = os.getuid(), os.getgid()
    # a sandboxed zygote is not dumpable, and /proc/self of a process that is not is owned by
    # root, so the ID maps below could not be written: dumpable again until the kernel forked
    _check(libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0), "prctl(PR_SET_DUMPABLE)")
    _check(libc.unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC), "unshare")
    with open("/proc/self/uid_map", "w") as f:
        f.write(f"{uid} {uid} 1\n")
    with open("/proc/self/setgroups", "w") as f:
        f.write("deny")
    with open("/proc/self/gid_map", "w") as f:
        f.write(f"{gid} {gid} 1\n")
    alive_r, alive_w = os.pipe()  # the kernel sees EOF here once its keeper is gone
    out_r, out_w = os.pipe()  # the kernel's stdout and stderr, which the keeper passes on
    err_r, err_w = os.pipe()
    # the connection folder (sockets, connection file) is the host's: writable only until the
    # kernel has bound its sockets, then read-only (before any student code can run)
    seal_path = os.path.join(confine["own"], ".kernel") if confine.get("seal") else None
    keeper_end, kernel_end = socket.socketpair() if seal_path else (None, None)
    kid = os.fork()
    if kid == 0:
        os.close(alive_w)
        os.close(out_r)
        os.close(err_r)
        if keeper_end is not None:
            keeper_end.close()
        # a process group (and session) apart from the keeper's: a kernel that kills its own
        # group (os.kill(0, SIGKILL), what a cell stopping a runaway child does) reaches its own
        # processes only, never the keeper, whose death would kill it a moment later
        os.setsid()
        _check(libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "prctl(PR_SET_PDEATHSIG)")
        import select

        if select.select([alive_r], [], [], 0)[0]:  # the keeper died before PDEATHSIG was set
            os._exit(1)
        os.close(alive_r)
        _mount_own_view(libc, confine)
        _set_limits(confine.get("limits", {}))
        _drop_capabilities()
        libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)  # the kernel itself may be inspected (its own /proc)
        _own_descriptors(out_w, err_w, kernel_end.fileno() if kernel_end is not None else None)
        if kernel_end is not None:
            _SEAL.append(kernel_end)
        return
    # the keeper: outside the kernel's PID namespace; it waits and passes the kernel's end on
    os.close(alive_r)
    os.close(out_w)
    os.close(err_w)
    if kernel_end is not None:
        kernel_end.close()
    libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)

    def forward(signum, _frame):  # an interrupt for the kernel's group (the zygote signals ours)
        try:
            os.killpg(kid, signum)
        except OSError:  # not yet in a group of its own
            try:
                os.kill(kid, signum)
            except OSError:
                pass

    for signum in (signal.SIGINT, signal.SIGQUIT, signal.SIGHUP, signal.SIGUSR1, signal.SIGUSR2):
        signal.signal(signum, forward)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the keeper dies, and the kernel with it
    status = 1
    try:
        _keep({out_r: 1, err_r: 2}, keeper_end, seal_path, confine.get("log_bytes"))
    except BaseException:  # noqa: BLE001 - the keeper must still wait for its kernel
        pass
    try:
        while True:
            try:
                _, status = os.waitpid(kid, 0)
                break
            except ChildProcessError:
                break
        code = os.waitstatus_to_exitcode(status)
    except BaseException:  # noqa: BLE001
        code = 1
    if code < 0:
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    os._exit(code if code >= 0 else 1)


def _launch_kernel(argv: list[str]) -> None:
    """``IPKernelApp.launch_instance(argv)``; a confined kernel asks its keeper to seal its
    connection folder as soon as its sockets are bound and its connection file written, before
    it reads any message (so before any student code)."""
    from ipykernel.kernelapp import IPKernelApp

    app = IPKernelApp.instance()
    if _SEAL:
        write = app.write_connection_file

        def write_and_seal(**kwargs):
            write(**kwargs)
            _seal_kernel_dir()

        app.write_connection_file = write_and_seal
    app.initialize(argv)
    app.start()


def _kernel_main(argv: list[str]) -> int:
    """``python zygote.py --kernel FD ARG...`` (what a confined kernel started fresh runs instead
    of ``python -m ipykernel_launcher ARG...``: the same kernel, which seals its connection folder
    through the keeper's channel ``FD``)."""
    import socket

    _SEAL.append(socket.socket(fileno=int(argv[0])))
    sys.path[:] = sys.path[1:]  # without this script's folder, as ipykernel_launcher leaves it
    spec = importlib.util.find_spec("ipykernel_launcher")
    sys.argv = [spec.origin if spec else "ipykernel_launcher", *argv[1:]]
    _launch_kernel(argv[1:])
    return 0


def _run_kernel(request: dict, base_path: list[str], channels) -> None:
    """In the forked child: become a fresh kernel process, run the kernel, never return."""
    code = 1
    try:
        for channel in channels:
            channel.close()
        os.setsid()  # its own process group, as jupyter_client starts kernels (interrupts)
        if request.get("confine") is not None:
            _confine(request)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.path[:] = base_path  # as ipykernel_launcher leaves it (IPython adds '' itself)
        argv = list(request["argv"])
        spec = importlib.util.find_spec("ipykernel_launcher")
        sys.argv = [spec.origin if spec else "ipykernel_launcher", *argv]
        if "numpy.random" in sys.modules:  # its global stream was seeded in the zygote
            sys.modules["numpy.random"].seed()
        parent = os.environ.get("JPY_PARENT_PID")
        if parent:  # ipykernel reads it when imported, i.e. in the zygote, not here
            argv.append(f"--IPKernelApp.parent_handle={parent}")
        _launch_kernel(argv)
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:  # noqa: BLE001
        traceback.print_exc()
    finally:
        try:
            atexit._run_exitfuncs()
        except BaseException:  # noqa: BLE001
            pass
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except BaseException:  # noqa: BLE001
                pass
        os._exit(code)


def main(modules: list[str]) -> int:
    # the protocol gets private descriptors; kernels inherit /dev/null and stderr instead
    reader = os.fdopen(os.dup(0), "rb")
    writer = os.fdopen(os.dup(1), "wb", buffering=0)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the worker; EOF stops us

    def reply(obj) -> None:
        writer.write(json.dumps(obj).encode() + b"\n")

    base_path = list(sys.path[1:])  # without this script's folder, which Python put first
    if "--sandboxed" in modules:  # a sandboxed zygote: no kernel may attach to it
        modules = [m for m in modules if m != "--sandboxed"]
        _check(_libc().prctl(PR_SET_DUMPABLE, 0, 0, 0, 0), "prctl(PR_SET_DUMPABLE)")
    own_startup = startup_environment(os.environ)
    os.environ.setdefault("MPLBACKEND", INLINE_BACKEND)
    # debugpy (ipykernel.debugger) warns at import that Python's frozen modules may hide
    # breakpoints: not a kernel's concern, and noise in the grading log (kernels get their own
    # environment, so this stays here)
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    loaded, failed, unsafe = _preload(modules)
    reply({"ready": True, "pid": os.getpid(), "loaded": loaded, "failed": failed, "unsafe": unsafe})

    children: dict[int, int | None] = {}
    for line in reader:
        try:
            request = json.loads(line)
            op = request.get("op")
            if op == "fork":
                if unsafe:
                    reply({"error": unsafe})
                    continue
                theirs = startup_environment(request["env"])
                if theirs != own_startup:
                    names = sorted(k for k in set(theirs) | set(own_startup)
                                   if theirs.get(k) != own_startup.get(k))
                    reply({"error": "the kernel's environment differs in " + ", ".join(names)})
                    continue
                pid = os.fork()
                if pid == 0:
                    _run_kernel(request, base_path, (reader, writer))
                children[pid] = None
                reply({"pid": pid})
            elif op == "signal":  # the worker cannot name a kernel of a sandboxed zygote itself
                pid, signum = int(request["pid"]), int(request["signum"])
                if children.get(pid, 0) is not None:
                    reply({"error": f"no running kernel with pid {pid}"})
                    continue
                try:
                    os.killpg(pid, signum)  # the keeper's group: the keeper and the kernel
                except ProcessLookupError:
                    pass
                reply({"ok": True})
            elif op == "poll":
                pid = int(request["pid"])
                if pid not in children:
                    reply({"error": f"no kernel with pid {pid}"})
                    continue
                if children[pid] is None:
                    done, status = os.waitpid(pid, os.WNOHANG)
                    if done:
                        children[pid] = os.waitstatus_to_exitcode(status)
                reply({"status": children[pid]})
            else:
                reply({"error": f"unknown request {op!r}"})
        except Exception as exc:  # noqa: BLE001 - a bad request must not end the zygote
            reply({"error": f"{type(exc).__name__}: {exc}"})
    for pid, status in children.items():
        if status is None:
            try:
                os.killpg(pid, signal.SIGKILL)
            except OSError:
                pass
            try:
                os.waitpid(pid, 0)
            except OSError:
                pass
    return 0


def exec_confined(confine: dict, argv: list[str]) -> None:
    """``python zygote.py --exec-confined JSON PROGRAM ARG...``: run PROGRAM confined as a
    forked kernel is (used for kernels that start fresh inside the sandbox). A kernel whose
    connection folder is sealed (``confine["seal"]``; PROGRAM ``python -m ipykernel_launcher``)
    runs as ``python zygote.py --kernel FD ARG...``, which seals it once its sockets are bound."""
    _confine({"confine": confine})
    os.chdir(confine.get("cwd") or "/")
    if _SEAL and argv[1:3] == ["-m", "ipykernel_launcher"]:
        channel = _SEAL.pop()
        os.set_inheritable(channel.fileno(), True)
        argv = [argv[0], os.path.abspath(__file__), "--kernel", str(channel.fileno()), *argv[3:]]
    elif _SEAL:  # a program that binds nothing there (the sandbox's check): sealed before it runs
        _seal_kernel_dir()
    os.execv(argv[0], argv)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--exec-confined"]:
        exec_confined(json.loads(sys.argv[2]), sys.argv[3:])
    if sys.argv[1:2] == ["--kernel"]:
        raise SystemExit(_kernel_main(sys.argv[2:]))
    raise SystemExit(main(sys.argv[1:]))
