"""Suite-wide pytest configuration."""

from __future__ import annotations


def pytest_collection_modifyitems(session, config, items):
    """Run tests marked `slow` first: with pytest-xdist one worker starts the long ones (a full
    install, a browser session) at once while the others work through the fast tests, instead of
    the long ones starting last and running alone."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


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
