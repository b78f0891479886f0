"""The training lesson's GPU section (lessons/gpu.py): device choice, its explanation, the cell."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lessons import gpu, i18n

ROOT = Path(__file__).resolve().parents[2]
FAKE_CUPY = ROOT / "tests" / "minitape" / "fake_cupy"
LANGS = ("en", "es", "pt", "ru")


@pytest.fixture
def lang():
    yield i18n.set_language
    i18n.set_language(None)


def test_every_message_in_every_language():
    for key, texts in gpu.MESSAGES.items():
        assert set(texts) == set(LANGS), key
        for code in LANGS:
            i18n.t(key, code, name="X", device="/CPU:0", loss=0.5, steps=3, seconds=1.0,
                   diff=0.0, ratio=2.0)


@pytest.mark.parametrize("code", LANGS)
@pytest.mark.parametrize("reason, key", [(("no-cupy", "..."), "gpu.no_cupy"),
                                         (("no-gpu", "..."), "gpu.no_gpu"), (None, "gpu.found")])
def test_pick_device_says_which_and_why(monkeypatch, capsys, lang, code, reason, key):
    from minitape import _device
    monkeypatch.setattr(_device, "gpu_unavailable_reason", lambda: reason)
    monkeypatch.setattr(_device, "gpu_name", lambda index=0: "NVIDIA Test GPU")
    lang(code)
    device = gpu.pick_device()
    assert device == ("/GPU:0" if reason is None else "/CPU:0")
    out = capsys.readouterr().out.strip()
    assert out == i18n.t(key, code, name="NVIDIA Test GPU")
    if key == "gpu.no_cupy":
        assert "pip install cupy-cuda12x" in out
    assert gpu.pick_device(show=False) == device and capsys.readouterr().out == ""


def test_the_lesson_cell_runs_on_the_cpu_where_there_is_no_gpu(capsys, lang):
    from minitape import _device
    if _device.gpu_unavailable_reason() is None:
        pytest.skip("this machine has a GPU: the cell takes its GPU branch")
    lang("es")
    start = time.perf_counter()
    exec(compile(gpu.LESSON_CELL, "<lesson cell>", "exec"), {"__name__": "__lesson__"})
    assert time.perf_counter() - start < 15, "the cell must fit the lesson's time budget"
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].startswith("Aquí no hay GPU")
    assert len(lines) == 2 and lines[1].startswith("/CPU:0: pérdida ")


def test_the_lesson_cell_compares_devices_where_there_is_a_gpu():
    """With a GPU (stood in for by tests/minitape/fake_cupy) the same cell runs on both."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(FAKE_CUPY), str(ROOT)]),
               MINITAPE_LANG="en")
    code = "from lessons import gpu\nexec(compile(gpu.LESSON_CELL, '<cell>', 'exec'))"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       cwd=str(ROOT), timeout=120)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    assert lines[0].startswith("GPU found: minitape fake GPU"), lines
    assert lines[1].startswith("/CPU:0: loss ") and lines[2].startswith("/GPU:0: loss ")
    assert lines[1].split()[2] == lines[2].split()[2], "same model, same loss on both devices"
    assert lines[3].startswith("Same model, same numbers on both devices (they differ by 0.0e+00)")
