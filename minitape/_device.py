"""Device placement: ``with minitape.device("/GPU:0"):`` (CuPy) or ``"/CPU:0"`` (NumPy).

Importing minitape never imports CuPy; it is imported the first time a GPU is asked for
(``device("/GPU:0")``, ``config.list_physical_devices("GPU")``).

The placement rule, implemented once in ``_core._place``: new tensors and variables are created
on the device of the innermost ``device`` scope (the CPU outside any scope); an operation runs
on that scope's device too, or, outside any scope, where its tensor inputs live (on the GPU
when they are mixed).  Inputs living elsewhere -- Python numbers, NumPy arrays, tensors of the
other device -- are copied to where the operation runs, as TensorFlow does; the copy is an
operation of its own (``Copy``), so gradients flow back to the original device.
"""
from __future__ import annotations

import re

from . import _backend as B
from ._state import multi_device as _multi

np = B.numpy

_cupy = None
_cupy_error = None


def _load_cupy():
    """Import CuPy once, or explain why the GPU cannot be used."""
    global _cupy, _cupy_error
    if _cupy is not None:
        return _cupy
    if _cupy_error is not None:
        raise RuntimeError(_cupy_error)
    try:
        import cupy  # noqa: F401  (optional dependency)
    except Exception as e:  # ImportError, or CUDA libraries missing
        _cupy_error = ("minitape cannot use '/GPU:0': CuPy is not installed "
                       f"({type(e).__name__}: {e}). Install CuPy for CUDA 12 on a machine with an "
                       "NVIDIA GPU and its driver: pip install cupy-cuda12x (from a checkout of "
                       "minitape: pip install -e '.[gpu]'). Use '/CPU:0' meanwhile.")
        raise RuntimeError(_cupy_error) from None
    try:
        n = cupy.cuda.runtime.getDeviceCount()
    except Exception as e:
        n = 0
        detail = f" ({type(e).__name__}: {e})"
    else:
        detail = ""
    if n < 1:
        _cupy_error = ("minitape cannot use '/GPU:0': CuPy is installed but no NVIDIA GPU is "
                       f"visible{detail}. Run on a machine with a GPU, or use '/CPU:0'.")
        raise RuntimeError(_cupy_error)
    B.register_array_type(cupy.ndarray, cupy)
    _cupy = cupy
    return cupy


def gpu_available() -> bool:
    try:
        _load_cupy()
        return True
    except RuntimeError:
        return False


_SPEC = re.compile(r"^(?:/job:[^/]+)?(?:/replica:\d+)?(?:/task:\d+)?/?(?:device:)?([A-Za-z]+):(\d+)$")


def parse(spec: str):
    m = _SPEC.match(spec.strip())
    if not m:
        raise ValueError(f"Invalid device specification {spec!r}: use '/CPU:0' or '/GPU:0'.")
    kind, idx = m.group(1).upper(), int(m.group(2))
    if kind not in ("CPU", "GPU"):
        raise ValueError(f"Unknown device type {kind!r} in {spec!r}: minitape knows CPU and GPU.")
    return kind, idx


_soft_placement = [True]  # tf.config.set_soft_device_placement


class device:
    """Context manager placing work on a device, like ``tf.device``: ``"/CPU:0"``, ``"/GPU:0"``.

    Inside the block, new tensors and variables are created on the device, and operations run
    there: inputs living elsewhere (CPU tensors, NumPy arrays, Python numbers, or GPU tensors in
    a ``"/CPU:0"`` block) are copied to it by a recorded ``Copy`` operation, so gradients flow
    back to where the inputs came from.  Outside any block an operation runs where its tensor
    inputs live, on the GPU when they are mixed.  Without a usable GPU, ``"/GPU:0"`` runs the
    block on the CPU (TensorFlow's soft device placement); after
    ``tf.config.set_soft_device_placement(False)`` it raises ``InvalidArgumentError`` saying
    what is missing (CuPy, or a GPU) and how to install it.
    """

    def __init__(self, device_name):
        self._kind, self._index = parse(device_name)

    def __enter__(self):
        if self._kind == "CPU":
            B._default.append(np)
            return self
        try:
            cp = _load_cupy()
            n = cp.cuda.runtime.getDeviceCount()
            if self._index >= n:
                raise RuntimeError(f"minitape cannot use '/GPU:{self._index}': only {n} GPU(s) "
                                   "visible.")
        except RuntimeError as e:
            if _soft_placement[0]:
                # TensorFlow's soft device placement (on by default): the block runs on the
                # CPU, silently; tensors' .device says where they are
                B._default.append(np)
                return self
            # TF: the block is entered; its first operation (a constant, a Variable, any op)
            # raises. Operations take the placing path (_core._place) while it is open.
            B._default.append(B.Unplaceable(lambda index=self._index, why=str(e):
                                            _unsatisfiable(index, why)))
            self._was_multi = _multi[0]
            _multi[0] = True
            return self
        self._ctx = cp.cuda.Device(self._index)
        self._ctx.__enter__()
        B._default.append(cp)
        return self

    def __exit__(self, *exc):
        mod = B._default.pop()
        if type(mod) is B.Unplaceable:
            _multi[0] = self._was_multi
        elif mod is not np:
            self._ctx.__exit__(*exc)
        return False


def _unsatisfiable(index, why):
    """TF's error for an operation placed on a GPU that is not there; what is missing and how
    to install it is a note (shown under the traceback, not part of TF's message)."""
    from .errors import InvalidArgumentError
    e = InvalidArgumentError(
        f"Could not satisfy device specification '/job:localhost/replica:0/task:0/"
        f"device:GPU:{index}'. enable_soft_placement=0. Supported device types "
        f"[CPU]. All available devices [/job:localhost/replica:0/task:0/device:CPU:0].")
    e.add_note(why)
    return e


def device_name(value) -> str:
    """TensorFlow's full name of the device holding array ``value``."""
    mod = B.xp(value)
    if mod is np:
        return "/job:localhost/replica:0/task:0/device:CPU:0"
    return f"/job:localhost/replica:0/task:0/device:{B.device_type(mod)}:{B.device_index(value)}"


def move_like(value, like):
    """Copy ``value`` to the device of ``like`` (used by Variable.assign)."""
    return B.move(value, B.xp(like))


def gpu_name(index=0) -> str:
    """The GPU's marketing name (e.g. ``NVIDIA H100 80GB HBM3``), for benchmark tables."""
    cp = _load_cupy()
    name = cp.cuda.runtime.getDeviceProperties(index)["name"]
    return name.decode() if isinstance(name, bytes) else str(name)
