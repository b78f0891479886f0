"""Device placement: ``with minitape.device("/GPU:0"):`` (CuPy) or ``"/CPU:0"`` (NumPy).

Importing minitape never imports CuPy; it is imported the first time a GPU is asked for.
"""
from __future__ import annotations

import re

from . import _backend as B

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
                       f"({type(e).__name__}: {e}). Install the GPU extra: "
                       "pip install 'minitape-course[gpu]' (CuPy for CUDA 12), on a machine with an "
                       "NVIDIA GPU and driver.")
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


class device:
    """Context manager placing new tensors and variables on a device, like ``tf.device``."""

    def __init__(self, device_name):
        self._kind, self._index = parse(device_name)

    def __enter__(self):
        if self._kind == "CPU":
            B._default.append(np)
        else:
            cp = _load_cupy()
            n = cp.cuda.runtime.getDeviceCount()
            if self._index >= n:
                raise RuntimeError(f"minitape cannot use '/GPU:{self._index}': only {n} GPU(s) visible.")
            self._ctx = cp.cuda.Device(self._index)
            self._ctx.__enter__()
            B._default.append(cp)
        return self

    def __exit__(self, *exc):
        mod = B._default.pop()
        if mod is not np:
            self._ctx.__exit__(*exc)
        return False


def device_name(value) -> str:
    mod = B.xp(value)
    if mod is np:
        return "/job:localhost/replica:0/task:0/device:CPU:0"
    dev = getattr(value, "device", None)
    idx = getattr(dev, "id", 0)
    return f"/job:localhost/replica:0/task:0/device:GPU:{idx}"


def move_like(value, like):
    """Copy ``value`` to the device of ``like`` (used by Variable.assign)."""
    target = B.xp(like)
    if target is np:
        return B.to_host(value)
    return target.asarray(B.to_host(value) if B.xp(value) is np else value)
