"""Mistake patterns the exercises declare (issue 29; :class:`grader.mistakes.Pattern`).

Each pattern is a function with the exercise's reference signature that returns the answer
one known mistake produces (written with minitape, like the references). The classifier tries
an exercise's patterns before the generic ones (sign, scale, ...) and claims one only where it
explains the student's value on every case. ``kind``: ``partial`` (one term, or one factor of
the chain rule, missing), ``stale`` (a value at another point) or ``extra`` (a mistake of its
own, counted under its name in the class report). ``python -m grader.visible`` ships their
answers at the visible cases as data, so ``check()`` names them too.

Kept beside the ``lNN.py`` definitions (instructor material, loaded after them) so that
declaring a pattern never edits an exercise's own definition.
"""

from __future__ import annotations

from grader.student.mistakes import Pattern

from . import get


def _tf():
    import minitape as tf

    return tf


def declare(exercise_id: str, *patterns: Pattern) -> None:
    ex = get(exercise_id)
    known = {p.name for p in ex.mistakes}
    ex.mistakes = tuple(ex.mistakes) + tuple(p for p in patterns if p.name not in known)


# l01_ex4: the layer's activation left out of the loss (its derivative, a factor of the chain
# rule, is missing); the visible Dense has no activation, the hidden ones a tanh
def _dense_without_activation(layer, x):
    tf = _tf()
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((tf.matmul(x, layer.kernel) + layer.bias) ** 2)
    return tape.gradient(loss, layer.trainable_variables)


declare("l01_ex4", Pattern(
    "no_activation", _dense_without_activation, "partial",
    title={"en": "the gradient of the layer without its activation",
           "es": "el gradiente de la capa sin su activación",
           "pt": "o gradiente da camada sem a sua ativação",
           "ru": "градиент слоя без его функции активации"},
    hint={"en": "call the layer itself (`layer(x)`): `x @ kernel + bias` leaves out the activation's derivative.",
          "es": "llama a la propia capa (`layer(x)`): `x @ kernel + bias` deja fuera la derivada de la activación.",
          "pt": "chame a própria camada (`layer(x)`): `x @ kernel + bias` deixa de fora a derivada da ativação.",
          "ru": "вызовите сам слой (`layer(x)`): `x @ kernel + bias` теряет производную функции активации."}))


# l02_ex2: dL/dh without the sigmoid's derivative (a chain-rule factor)
def _hidden_without_sigmoid_factor(w, x, targets):
    tf = _tf()
    h = tf.matmul(x, w)
    n = float(int(tf.size(targets)))
    dh = 2.0 * (tf.nn.sigmoid(h) - targets) / n
    return [dh, tf.matmul(tf.transpose(x), dh)]


declare("l02_ex2", Pattern(
    "no_sigmoid_factor", _hidden_without_sigmoid_factor, "partial",
    title={"en": "the chain rule without the sigmoid's derivative",
           "es": "la regla de la cadena sin la derivada de la sigmoide",
           "pt": "a regra da cadeia sem a derivada da sigmoide",
           "ru": "цепное правило без производной сигмоиды"},
    hint={"en": "dL/dh passes through `sigmoid(h)`: multiply by `sigmoid(h) * (1 - sigmoid(h))`, or let the tape do it.",
          "es": "dL/dh pasa por `sigmoid(h)`: multiplica por `sigmoid(h) * (1 - sigmoid(h))` o deja que lo haga la cinta.",
          "pt": "dL/dh passa por `sigmoid(h)`: multiplique por `sigmoid(h) * (1 - sigmoid(h))` ou deixe a fita fazer isso.",
          "ru": "dL/dh проходит через `sigmoid(h)`: умножьте на `sigmoid(h) * (1 - sigmoid(h))` или доверьте это ленте."}))


# l02_ex3: "total" as the gradient of the data term alone; the penalty's gradient without lam
def _l02_ex3_parts(w, x, y, lam, *, penalty_factor=None, total="both"):
    tf = _tf()
    with tf.GradientTape(persistent=True) as tape:
        data = tf.reduce_mean((tf.reduce_sum(x * w, axis=1) - y) ** 2)
        penalty = (lam if penalty_factor is None else penalty_factor) * tf.reduce_sum(w ** 2)
        whole = data + penalty if total == "both" else data
    out = {"data": tape.gradient(data, w), "penalty": tape.gradient(penalty, w),
           "total": tape.gradient(whole, w)}
    del tape
    return out


declare(
    "l02_ex3",
    Pattern("total_without_penalty", lambda w, x, y, lam: _l02_ex3_parts(w, x, y, lam, total="data"),
            "partial",
            title={"en": "“total” is the gradient of the data term alone",
                   "es": "«total» es el gradiente del término de datos solo",
                   "pt": "“total” é o gradiente apenas do termo de dados",
                   "ru": "«total» — градиент одного лишь слагаемого данных"},
            hint={"en": "the total is `data + penalty`: its gradient has both terms.",
                  "es": "el total es `data + penalty`: su gradiente tiene los dos términos.",
                  "pt": "o total é `data + penalty`: o seu gradiente tem os dois termos.",
                  "ru": "итог — это `data + penalty`: в его градиенте оба слагаемых."}),
    Pattern("lam_forgotten", lambda w, x, y, lam: _l02_ex3_parts(w, x, y, lam, penalty_factor=1.0),
            "extra",
            title={"en": "the penalty without `lam`",
                   "es": "la penalización sin `lam`",
                   "pt": "a penalização sem `lam`",
                   "ru": "штраф без множителя `lam`"},
            hint={"en": "`penalty = lam * sum(w**2)`: its gradient is `2 * lam * w`.",
                  "es": "`penalty = lam * sum(w**2)`: su gradiente es `2 * lam * w`.",
                  "pt": "`penalty = lam * sum(w**2)`: o seu gradiente é `2 * lam * w`.",
                  "ru": "`penalty = lam * sum(w**2)`: его градиент равен `2 * lam * w`."}),
)


# l06_ex2: the loss curve at other points of the loop -- each loss taken after its step's
# update (one step late), or the parameters never updated (every loss is the first one)
def _losses(w, b, x, y, lr, steps, *, after=False, update=True):
    from .l06 import _linear_loss

    tf = _tf()
    losses = []
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = _linear_loss(tf, w, b, x, y)
        dw, db = tape.gradient(loss, [w, b])
        if update:
            w.assign_sub(lr * dw)
            b.assign_sub(lr * db)
        losses.append(_linear_loss(tf, w, b, x, y) if after else loss)
    return tf.stack(losses)


declare(
    "l06_ex2",
    Pattern("loss_after_update", lambda w, b, x, y, lr, steps: _losses(w, b, x, y, lr, steps, after=True),
            "stale",
            title={"en": "every loss is taken after its step's update (one step late)",
                   "es": "cada pérdida se toma después de la actualización de su paso (un paso tarde)",
                   "pt": "cada perda é medida depois da atualização do seu passo (um passo atrasada)",
                   "ru": "каждое значение потерь взято после обновления на своём шаге (на шаг позже)"},
            hint={"en": "record the loss the tape computed, before `assign_sub` changes the parameters.",
                  "es": "guarda la pérdida que calculó la cinta, antes de que `assign_sub` cambie los parámetros.",
                  "pt": "guarde a perda que a fita calculou, antes de `assign_sub` mudar os parâmetros.",
                  "ru": "сохраняйте значение потерь, вычисленное под лентой, до того как `assign_sub` изменит параметры."}),
    Pattern("no_update", lambda w, b, x, y, lr, steps: _losses(w, b, x, y, lr, steps, update=False),
            "stale",
            title={"en": "the parameters are never updated: every loss is the first one",
                   "es": "los parámetros nunca se actualizan: todas las pérdidas son iguales a la primera",
                   "pt": "os parâmetros nunca são atualizados: todas as perdas são iguais à primeira",
                   "ru": "параметры не обновляются: все потери равны первой"},
            hint={"en": "update the Variables in place (`w.assign_sub(lr * dw)`); `w - lr * dw` alone changes nothing.",
                  "es": "actualiza las variables en su sitio (`w.assign_sub(lr * dw)`); `w - lr * dw` por sí solo no cambia nada.",
                  "pt": "atualize as variáveis no lugar (`w.assign_sub(lr * dw)`); `w - lr * dw` sozinho não muda nada.",
                  "ru": "обновляйте переменные на месте (`w.assign_sub(lr * dw)`); само по себе `w - lr * dw` ничего не меняет."}),
)


# l04_ex4: the tape never reset -- the full backpropagation through time, every step counted
def _untruncated_gradient(w, xs, k):
    tf = _tf()
    h = tf.constant(0.0, dtype=tf.float64)
    with tf.GradientTape() as tape:
        for t in range(int(xs.shape[0])):
            h = tf.tanh(w * h + xs[t])
        loss = h ** 2
    return tape.gradient(loss, w)


declare("l04_ex4", Pattern(
    "no_reset", _untruncated_gradient, "extra",
    title={"en": "the full gradient: the tape was never reset",
           "es": "el gradiente completo: la cinta no se reinició nunca",
           "pt": "o gradiente completo: a fita nunca foi reiniciada",
           "ru": "полный градиент: лента ни разу не была сброшена"},
    hint={"en": "call `tape.reset()` inside the loop, before every step `t > 0` with `t % k == 0`: only the steps after the last reset count.",
          "es": "llama a `tape.reset()` dentro del bucle, antes de cada paso `t > 0` con `t % k == 0`: solo cuentan los pasos posteriores al último reinicio.",
          "pt": "chame `tape.reset()` dentro do laço, antes de cada passo `t > 0` com `t % k == 0`: só contam os passos depois do último reinício.",
          "ru": "вызывайте `tape.reset()` внутри цикла перед каждым шагом `t > 0`, для которого `t % k == 0`: учитываются только шаги после последнего сброса."}))


# l04_ex5: g computed while the tape records (the look-ahead step differentiated too: second
# order), or the gradient at the start point instead of one step ahead
def _lookahead_parts(w, x, y, lr, *, stop=True, ahead=True):
    tf = _tf()

    def loss_at(v):
        return tf.reduce_mean((tf.reduce_sum(x * v, axis=1) - y) ** 2)

    with tf.GradientTape(persistent=True) as tape:
        loss = loss_at(w)
        if stop:
            with tape.stop_recording():
                g = tape.gradient(loss, w)
        else:
            g = tape.gradient(loss, w)
        loss_ahead = loss_at(w - lr * g)
    grad = tape.gradient(loss_ahead if ahead else loss, w)
    del tape
    return grad


declare(
    "l04_ex5",
    Pattern("step_recorded", lambda w, x, y, lr: _lookahead_parts(w, x, y, lr, stop=False), "extra",
            title={"en": "g was recorded: the look-ahead step was differentiated too",
                   "es": "g quedó grabado: también se derivó el paso de anticipación",
                   "pt": "g ficou gravado: o passo de antecipação também foi derivado",
                   "ru": "g попал на ленту: шаг вперёд тоже продифференцирован"},
            hint={"en": "compute `g` inside `with tape.stop_recording():`, so that the step `lr * g` is a constant for the tape.",
                  "es": "calcula `g` dentro de `with tape.stop_recording():`, para que el paso `lr * g` sea una constante para la cinta.",
                  "pt": "calcule `g` dentro de `with tape.stop_recording():`, para que o passo `lr * g` seja uma constante para a fita.",
                  "ru": "вычисляйте `g` внутри `with tape.stop_recording():`, чтобы шаг `lr * g` был для ленты константой."}),
    Pattern("gradient_at_start", lambda w, x, y, lr: _lookahead_parts(w, x, y, lr, ahead=False), "stale",
            title={"en": "the gradient at w, not one step ahead",
                   "es": "el gradiente en w, no un paso más adelante",
                   "pt": "o gradiente em w, não um passo à frente",
                   "ru": "градиент в точке w, а не на шаг впереди"},
            hint={"en": "differentiate the loss at `w - lr * g`, not the loss at `w`.",
                  "es": "deriva la pérdida en `w - lr * g`, no la pérdida en `w`.",
                  "pt": "derive a perda em `w - lr * g`, não a perda em `w`.",
                  "ru": "дифференцируйте функцию потерь в точке `w - lr * g`, а не в точке `w`."}),
)


# l07_ex5: each loss taken after its step's update (one step late); the parameters are right
def _train_losses_after_update(values, xs, ys, learning_rate, steps):
    from .l07 import _network_loss

    tf = _tf()
    params = [tf.Variable(float(v), dtype=tf.float64) for v in values]
    losses = []
    for _ in range(int(steps)):
        with tf.GradientTape() as tape:
            loss = _network_loss(tf, params, xs, ys)
        for p, g in zip(params, tape.gradient(loss, params)):
            p.assign_sub(learning_rate * g)
        losses.append(_network_loss(tf, params, xs, ys))
    return [tf.stack(losses), tf.stack([tf.identity(p) for p in params])]


declare("l07_ex5", Pattern(
    "loss_after_update", _train_losses_after_update, "stale",
    title={"en": "every loss is taken after its step's update (one step late)",
           "es": "cada pérdida se toma después de la actualización de su paso (un paso tarde)",
           "pt": "cada perda é medida depois da atualização do seu passo (um passo atrasada)",
           "ru": "каждое значение функции потерь взято после обновления на своём шаге (на шаг позже)"},
    hint={"en": "keep `float(loss)` of the loss your tape recorded, before `assign_sub` moves the parameters.",
          "es": "guarda `float(loss)` de la pérdida que grabó tu cinta, antes de que `assign_sub` mueva los parámetros.",
          "pt": "guarde `float(loss)` da perda que a sua fita gravou, antes de `assign_sub` mover os parâmetros.",
          "ru": "сохраняйте `float(loss)` для функции потерь, записанной вашей лентой, до того как `assign_sub` сдвинет параметры."}))
