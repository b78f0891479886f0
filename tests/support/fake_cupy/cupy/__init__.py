"""A stand-in for CuPy on machines without a GPU, for testing minitape's CuPy glue.

Put ``tests/support/fake_cupy`` (and the repository root) on ``PYTHONPATH`` and ``import cupy`` gives this module: the
strict test backend's arrays (``strict_backend.StrictArray``: CPU arrays refusing implicit
conversion to NumPy, as CuPy's do) behind CuPy's names, one visible "GPU", and the parts of
``cupy.cuda`` minitape and ``benchmarks/gpu.py`` use.  It proves nothing about CUDA; it runs the
code paths that only execute when CuPy imports (``minitape.device("/GPU:0")``, device names,
``tests/minitape/test_gpu.py``, the GPU benchmark) on any machine.
"""
from __future__ import annotations

import types

from tests.support import strict_backend as _sb

__version__ = "0.0-fake"
ndarray = _sb.StrictArray
asarray = _sb.asarray
array = _sb.asarray
asnumpy = _sb.asnumpy
linalg = _sb.strict.linalg

# What real CuPy does not have at the top level (minitape must not rely on them).
_ABSENT = {"special", "minitape_device_type", "vectorize", "frompyfunc"}


def __getattr__(name):
    if name in _ABSENT or name.startswith("__"):
        raise AttributeError(f"module 'cupy' has no attribute {name!r}")
    return getattr(_sb.strict, name)


class Device:
    """``cupy.cuda.Device``: a context manager selecting the current GPU."""

    def __init__(self, device=None):
        self.id = 0 if device is None else int(device)
        if self.id != 0:
            raise RuntimeError(f"fake CuPy has one GPU; no device {self.id}")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def synchronize(self):
        pass


def _properties(index):
    return {"name": b"minitape fake GPU (strict CPU backend)", "totalGlobalMem": 0}


cuda = types.SimpleNamespace(
    Device=Device,
    runtime=types.SimpleNamespace(getDeviceCount=lambda: 1, getDeviceProperties=_properties,
                                  runtimeGetVersion=lambda: 0, deviceSynchronize=lambda: None),
    get_current_stream=lambda: types.SimpleNamespace(synchronize=lambda: None),
)
