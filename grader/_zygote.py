"""The kernel zygote: imports an assignment's modules once, then forks one IPython kernel per
submission (run as ``python .../grader/_zygote.py MODULE...`` by :mod:`grader.kernels`).

Protocol: one JSON object per line on the zygote's stdin, one reply per line on its stdout.
Both are moved to private file descriptors at start-up, so kernels write their output to the
zygote's stderr (the grading worker's log) and read nothing.

- ``{"op": "fork", "argv": [...], "cwd": DIR, "env": {...}}`` → ``{"pid": N}`` or
  ``{"error": WHY}`` (the caller then starts an ordinary kernel).
- ``{"op": "poll", "pid": N}`` → ``{"status": null}`` while it runs, else its exit status as
  :attr:`subprocess.Popen.returncode` gives it (negative: killed by that signal). A kernel is
  reaped only when a poll sees it exit, so its pid cannot be reused while its manager may still
  signal it.

End of input (the worker is gone) kills the kernels still running and ends the zygote.
"""

from __future__ import annotations

import atexit
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
# zygote they would skip that step, so a kernel must import them itself.
NEEDS_SHELL = ("matplotlib_inline.backend_inline",)


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


def _run_kernel(request: dict, base_path: list[str], channels) -> None:
    """In the forked child: become a fresh kernel process, run the kernel, never return."""
    code = 1
    try:
        for channel in channels:
            channel.close()
        os.setsid()  # its own process group, as jupyter_client starts kernels (interrupts)
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
        from ipykernel.kernelapp import IPKernelApp

        IPKernelApp.launch_instance(argv=argv)
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
    own_startup = startup_environment(os.environ)
    os.environ.setdefault("MPLBACKEND", INLINE_BACKEND)
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


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
