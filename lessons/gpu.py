"""The GPU section of the training lesson: the same training code on the CPU and on a GPU.

``pick_device()`` answers ``"/GPU:0"`` when minitape can use an NVIDIA GPU (through CuPy, the
``gpu`` extra) and ``"/CPU:0"`` otherwise, and says which, and why, in the student's language.
``report(results)`` prints what the lesson cell measured.  ``LESSON_CELL`` is that cell's code,
identical in every language; ``tests/lessons/test_lessons_gpu.py`` runs it with and without a
GPU.
"""
from __future__ import annotations

from . import i18n
from .i18n import t

MESSAGES = {
    "gpu.found": {
        "en": 'GPU found: {name}. The cells below run there with the device "/GPU:0"; exactly '
              'the same code runs on the CPU with "/CPU:0".',
        "es": 'GPU encontrada: {name}. Las celdas siguientes se ejecutan en ella con el '
              'dispositivo "/GPU:0"; exactamente el mismo código se ejecuta en la CPU con "/CPU:0".',
        "pt": 'GPU encontrada: {name}. As células a seguir rodam nela com o dispositivo "/GPU:0"; '
              'exatamente o mesmo código roda na CPU com "/CPU:0".',
        "ru": 'Найден GPU: {name}. Следующие ячейки выполняются на нём с устройством "/GPU:0"; '
              'точно тот же код работает на CPU с "/CPU:0".',
    },
    "gpu.no_cupy": {
        "en": "No GPU here: CuPy, the library minitape uses to compute on NVIDIA GPUs, is not "
              'installed. Everything runs on the CPU ("/CPU:0") with exactly the same code. On '
              "a computer with an NVIDIA GPU, install it with  pip install cupy-cuda12x  and "
              "run this cell again.",
        "es": "Aquí no hay GPU: CuPy, la biblioteca con la que minitape calcula en GPU de NVIDIA, "
              'no está instalada. Todo se ejecuta en la CPU ("/CPU:0") con exactamente el mismo '
              "código. En un ordenador con GPU de NVIDIA, instálala con  "
              "pip install cupy-cuda12x  y vuelve a ejecutar esta celda.",
        "pt": "Não há GPU aqui: o CuPy, a biblioteca que o minitape usa para calcular em GPUs "
              'NVIDIA, não está instalado. Tudo roda na CPU ("/CPU:0") com exatamente o mesmo '
              "código. Num computador com GPU NVIDIA, instale-o com  pip install cupy-cuda12x  "
              "e execute esta célula de novo.",
        "ru": "GPU здесь нет: не установлена CuPy — библиотека, с помощью которой minitape "
              'считает на GPU NVIDIA. Всё выполняется на CPU ("/CPU:0") точно тем же кодом. На '
              "компьютере с GPU NVIDIA установите её командой  pip install cupy-cuda12x  и "
              "запустите эту ячейку ещё раз.",
    },
    "gpu.no_gpu": {
        "en": "No GPU here: CuPy is installed but sees no NVIDIA GPU (or no driver for it). "
              'Everything runs on the CPU ("/CPU:0") with exactly the same code.',
        "es": "Aquí no hay GPU: CuPy está instalada, pero no ve ninguna GPU de NVIDIA (o falta "
              'su controlador). Todo se ejecuta en la CPU ("/CPU:0") con exactamente el mismo '
              "código.",
        "pt": "Não há GPU aqui: o CuPy está instalado, mas não encontra nenhuma GPU NVIDIA (ou o "
              'driver dela). Tudo roda na CPU ("/CPU:0") com exatamente o mesmo código.',
        "ru": "GPU здесь нет: CuPy установлена, но не видит ни одного GPU NVIDIA (или драйвера "
              'для него). Всё выполняется на CPU ("/CPU:0") точно тем же кодом.',
    },
    "gpu.result": {
        "en": "{device}: loss {loss:.6f} after {steps} steps, {seconds:.2f} s",
        "es": "{device}: pérdida {loss:.6f} tras {steps} pasos, {seconds:.2f} s",
        "pt": "{device}: perda {loss:.6f} após {steps} passos, {seconds:.2f} s",
        "ru": "{device}: значение потерь {loss:.6f} после {steps} шагов, {seconds:.2f} с",
    },
    "gpu.faster": {
        "en": "Same model, same numbers on both devices (they differ by {diff:.1e}); the GPU was "
              "{ratio:.1f} times as fast as the CPU.",
        "es": "Mismo modelo, mismos números en los dos dispositivos (difieren en {diff:.1e}); la "
              "GPU fue {ratio:.1f} veces más rápida que la CPU.",
        "pt": "Mesmo modelo, mesmos números nos dois dispositivos (diferem em {diff:.1e}); a GPU "
              "foi {ratio:.1f} vezes mais rápida que a CPU.",
        "ru": "Та же модель и те же числа на обоих устройствах (расхождение {diff:.1e}); GPU "
              "справился в {ratio:.1f} раза быстрее CPU.",
    },
    "gpu.slower": {
        "en": "Same model, same numbers on both devices (they differ by {diff:.1e}), but here the "
              "GPU was slower. This model is small: launching each operation costs a GPU a few "
              "microseconds whatever the size of its arrays, so a GPU pays off for large arrays. "
              "Try train(device, hidden=2048).",
        "es": "Mismo modelo, mismos números en los dos dispositivos (difieren en {diff:.1e}), pero "
              "aquí la GPU fue más lenta. El modelo es pequeño: lanzar cada operación le cuesta a "
              "una GPU unos microsegundos, sea cual sea el tamaño de sus arreglos, así que una "
              "GPU compensa con arreglos grandes. Prueba train(device, hidden=2048).",
        "pt": "Mesmo modelo, mesmos números nos dois dispositivos (diferem em {diff:.1e}), mas "
              "aqui a GPU foi mais lenta. O modelo é pequeno: lançar cada operação custa a uma "
              "GPU alguns microssegundos, qualquer que seja o tamanho dos arrays, então uma GPU "
              "compensa com arrays grandes. Experimente train(device, hidden=2048).",
        "ru": "Та же модель и те же числа на обоих устройствах (расхождение {diff:.1e}), но здесь "
              "GPU оказался медленнее. Модель маленькая: запуск каждой операции стоит GPU "
              "несколько микросекунд независимо от размера массивов, поэтому GPU окупается на "
              "больших массивах. Попробуйте train(device, hidden=2048).",
    },
}

if "gpu.found" not in i18n.MESSAGES:  # a second import (importlib.reload) adds nothing twice
    i18n.add_messages(MESSAGES, origin=__name__)


def pick_device(show: bool = True) -> str:
    """``"/GPU:0"`` when minitape can use a GPU, else ``"/CPU:0"``; prints which and why."""
    from minitape import _device
    reason = _device.gpu_unavailable_reason()
    if reason is None:
        if show:
            print(t("gpu.found", name=_device.gpu_name(0)))
        return "/GPU:0"
    if show:
        print(t("gpu.no_cupy" if reason[0] == "no-cupy" else "gpu.no_gpu"))
    return "/CPU:0"


def report(results: dict, steps: int) -> None:
    """Print ``{device: (final loss, seconds)}``, and the comparison when there are two."""
    for device, (loss, seconds) in results.items():
        print(t("gpu.result", device=device, loss=loss, steps=steps, seconds=seconds))
    if len(results) == 2:
        (l_cpu, s_cpu), (l_gpu, s_gpu) = results.values()
        ratio = s_cpu / max(s_gpu, 1e-9)
        print(t("gpu.faster" if ratio >= 1 else "gpu.slower", diff=abs(l_cpu - l_gpu), ratio=ratio))


# The lesson's cell: identical in every language (prose around it explains it).
LESSON_CELL = '''\
import time
import minitape as tf
from lessons.gpu import pick_device, report

device = pick_device()  # "/GPU:0" when minitape can use a GPU, otherwise "/CPU:0" (and why)


def train(device, steps=20, batch=512, hidden=256):
    """This lesson's training loop, unchanged: only the device differs."""
    tf.random.set_seed(0)
    with tf.device(device):  # new tensors and variables live there; operations run there
        x = tf.random.normal((batch, hidden))
        y = tf.reduce_sum(tf.sin(x[:, :4]), axis=1, keepdims=True)
        model = tf.keras.Sequential([tf.keras.layers.Dense(hidden, activation="relu"),
                                     tf.keras.layers.Dense(1)])
        optimizer = tf.keras.optimizers.Adam(learning_rate=1e-3)
        start = time.perf_counter()
        for step in range(steps):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(model(x) - y))
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
        final = float(loss)  # copies one number to the host: waits for the GPU to finish
    return final, time.perf_counter() - start


results = {"/CPU:0": train("/CPU:0")}
if device != "/CPU:0":
    results[device] = train(device)
report(results, steps=20)
'''
