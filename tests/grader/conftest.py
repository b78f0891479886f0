import pytest


@pytest.fixture(autouse=True)
def _kernel_sandbox_choice():
    """Kernels started in the test process itself (GraderExecute, kernel managers) run without
    the sandbox unless a test chooses one; nbgrader and ``python -m grader`` run as subprocesses
    get the real default (sandboxed). No test's choice leaks into the next."""
    from grader.infra import kernels

    saved = (list(kernels._SANDBOX), list(kernels._SANDBOX_CHOSEN))
    kernels.use_sandbox(None)
    yield
    kernels._SANDBOX[:], kernels._SANDBOX_CHOSEN[:] = saved
