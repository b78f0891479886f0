"""``tf.config``: which devices minitape can use."""
from __future__ import annotations

from collections import namedtuple

from . import _device

PhysicalDevice = namedtuple("PhysicalDevice", ["name", "device_type"])


def list_physical_devices(device_type=None):
    """CPU always; GPUs when CuPy is installed and sees an NVIDIA GPU."""
    out = []
    if device_type in (None, "CPU"):
        out.append(PhysicalDevice("/physical_device:CPU:0", "CPU"))
    if device_type in (None, "GPU"):
        if _device.gpu_available():
            n = _device._cupy.cuda.runtime.getDeviceCount()
            out += [PhysicalDevice(f"/physical_device:GPU:{i}", "GPU") for i in range(n)]
    return out


def list_logical_devices(device_type=None):
    return list_physical_devices(device_type)


def run_functions_eagerly(run_eagerly):
    """minitape is always eager; accepted for compatibility."""
    return None


def set_soft_device_placement(enabled):
    """On (the default, as in TensorFlow): ``tf.device("/GPU:0")`` without a usable GPU runs
    on the CPU.  Off: entering such a block raises ``InvalidArgumentError``."""
    _device._soft_placement[0] = bool(enabled)


def get_soft_device_placement():
    return _device._soft_placement[0]
