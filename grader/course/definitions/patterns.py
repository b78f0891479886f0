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
# rule, is missing); the visible Dense has no activation, the hidden ones a tanh. And the shape
# trap the lesson shows: (k, 1) predictions minus (k,) labels broadcast into a (k, k) matrix,
# whose mean is another loss (every prediction against every label)
def _dense_without_activation(layer, x, y):
    tf = _tf()
    with tf.GradientTape() as tape:
        pred = tf.reshape(tf.matmul(x, layer.kernel) + layer.bias, [-1])
        loss = tf.reduce_mean((pred - y) ** 2)
    return tape.gradient(loss, layer.trainable_variables)


def _dense_broadcast(layer, x, y):
    tf = _tf()
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((layer(x) - y) ** 2)
    return tape.gradient(loss, layer.trainable_variables)


declare(
    "l01_ex4",
    Pattern("broadcast_kk", _dense_broadcast, "extra",
            title={"en": "the loss of a (k, k) matrix: (k, 1) predictions minus (k,) labels broadcast",
                   "es": "la pérdida de una matriz (k, k): las predicciones (k, 1) menos las etiquetas (k,) se difunden (*broadcasting*)",
                   "pt": "a perda de uma matriz (k, k): as previsões (k, 1) menos os rótulos (k,) se expandem (*broadcasting*)",
                   "ru": "потери по матрице (k, k): из предсказаний формы (k, 1) вычтены метки формы (k,), и формы растянулись (*broadcasting*)"},
            hint={"en": "give the predictions and `y` the same shape before subtracting: `tf.reshape(layer(x), [-1])` or `tf.reshape(y, [-1, 1])`.",
                  "es": "da a las predicciones y a `y` la misma forma antes de restar: `tf.reshape(layer(x), [-1])` o `tf.reshape(y, [-1, 1])`.",
                  "pt": "dê às previsões e a `y` o mesmo formato antes de subtrair: `tf.reshape(layer(x), [-1])` ou `tf.reshape(y, [-1, 1])`.",
                  "ru": "приведите предсказания и `y` к одной форме до вычитания: `tf.reshape(layer(x), [-1])` или `tf.reshape(y, [-1, 1])`."}),
    Pattern("no_activation", _dense_without_activation, "partial",
            title={"en": "the gradient of the layer without its activation",
                   "es": "el gradiente de la capa sin su activación",
                   "pt": "o gradiente da camada sem a sua ativação",
                   "ru": "градиент слоя без его функции активации"},
            hint={"en": "call the layer itself (`layer(x)`): `x @ kernel + bias` leaves out the activation's derivative.",
                  "es": "llama a la propia capa (`layer(x)`): `x @ kernel + bias` deja fuera la derivada de la activación.",
                  "pt": "chame a própria camada (`layer(x)`): `x @ kernel + bias` deixa de fora a derivada da ativação.",
                  "ru": "вызовите сам слой (`layer(x)`): `x @ kernel + bias` теряет производную функции активации."}),
)


# l01_ex5: the slope the gradient predicts without the direction (sum(grad)), and three ways of
# getting the relative error wrong: without its absolute value, relative to the nudge alone, or
# not relative at all
def _check_parts(f, x, grad, v, **how):
    from .l01 import _gradient_check

    return _gradient_check(f, x, grad, v, **how)


declare(
    "l01_ex5",
    Pattern("no_direction", lambda f, x, grad, v: _check_parts(f, x, grad, v, direction=False), "extra",
            title={"en": "the predicted slope without the direction: `sum(grad)`",
                   "es": "la pendiente prevista sin la dirección: `sum(grad)`",
                   "pt": "a inclinação prevista sem a direção: `sum(grad)`",
                   "ru": "предсказанный наклон без направления: `sum(grad)`"},
            hint={"en": "the slope along `v` is the dot product `sum(grad * v)`: each component of the gradient weighted by how far `v` moves that input.",
                  "es": "la pendiente a lo largo de `v` es el producto escalar `sum(grad * v)`: cada componente del gradiente, ponderada por lo que `v` mueve esa entrada.",
                  "pt": "a inclinação ao longo de `v` é o produto escalar `sum(grad * v)`: cada componente do gradiente, ponderada por quanto `v` move essa entrada.",
                  "ru": "наклон вдоль `v` — это скалярное произведение `sum(grad * v)`: каждая компонента градиента с весом, равным сдвигу этого входа по `v`."}),
    Pattern("signed_error", lambda f, x, grad, v: _check_parts(f, x, grad, v, error="signed"), "extra",
            title={"en": "the relative error without its absolute value",
                   "es": "el error relativo sin su valor absoluto",
                   "pt": "o erro relativo sem o valor absoluto",
                   "ru": "относительная ошибка без модуля"},
            hint={"en": "an error is a distance: `abs(nudge - predicted)`, never negative.",
                  "es": "un error es una distancia: `abs(nudge - predicted)`, nunca negativo.",
                  "pt": "um erro é uma distância: `abs(nudge - predicted)`, nunca negativo.",
                  "ru": "ошибка — это расстояние: `abs(nudge - predicted)`, она не бывает отрицательной."}),
    Pattern("relative_to_nudge", lambda f, x, grad, v: _check_parts(f, x, grad, v, error="nudge"), "extra",
            title={"en": "the error relative to the nudge alone",
                   "es": "el error relativo solo a la diferencia central",
                   "pt": "o erro relativo apenas à diferença central",
                   "ru": "ошибка относительно одной лишь центральной разности"},
            hint={"en": "divide by the larger of the two slopes, `max(abs(nudge), abs(predicted))`, so that neither side is the reference.",
                  "es": "divide entre la mayor de las dos pendientes, `max(abs(nudge), abs(predicted))`, para que ninguno de los dos lados haga de referencia.",
                  "pt": "divida pela maior das duas inclinações, `max(abs(nudge), abs(predicted))`, para que nenhum dos lados sirva de referência.",
                  "ru": "делите на больший из двух наклонов, `max(abs(nudge), abs(predicted))`, чтобы ни одна из сторон не считалась эталоном."}),
    Pattern("absolute_error", lambda f, x, grad, v: _check_parts(f, x, grad, v, error="absolute"), "extra",
            title={"en": "the absolute error, not the relative one",
                   "es": "el error absoluto, no el relativo",
                   "pt": "o erro absoluto, não o relativo",
                   "ru": "абсолютная ошибка вместо относительной"},
            hint={"en": "divide `abs(nudge - predicted)` by `max(abs(nudge), abs(predicted))`: an error of 0.01 is tiny for a slope of 1000 and huge for a slope of 0.001.",
                  "es": "divide `abs(nudge - predicted)` entre `max(abs(nudge), abs(predicted))`: un error de 0,01 es diminuto para una pendiente de 1000 y enorme para una de 0,001.",
                  "pt": "divida `abs(nudge - predicted)` por `max(abs(nudge), abs(predicted))`: um erro de 0,01 é minúsculo para uma inclinação de 1000 e enorme para uma de 0,001.",
                  "ru": "делите `abs(nudge - predicted)` на `max(abs(nudge), abs(predicted))`: ошибка 0,01 ничтожна при наклоне 1000 и огромна при наклоне 0,001."}),
)


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


# l03_ex6: sum versus mean -- the gradient of the vector of masked losses (their sum), their
# mean over the whole batch (padding counted in the denominator), or the mask forgotten
def _masked_parts(w, x, y, mask, *, how):
    from .l03 import _per_example_losses

    tf = _tf()
    with tf.GradientTape() as tape:
        losses = _per_example_losses(tf, w, x, y)
        if how == "sum":
            loss = mask * losses
        elif how == "mean_over_all":
            loss = tf.reduce_mean(mask * losses)
        else:
            loss = tf.reduce_mean(losses)
    return tape.gradient(loss, w)


declare(
    "l03_ex6",
    Pattern("sum_not_mean", lambda w, x, y, mask: _masked_parts(w, x, y, mask, how="sum"), "extra",
            title={"en": "the gradient of the sum of the losses that count, not of their mean",
                   "es": "el gradiente de la suma de las pérdidas que cuentan, no de su media",
                   "pt": "o gradiente da soma das perdas que contam, não da média delas",
                   "ru": "градиент суммы учитываемых потерь, а не их среднего"},
            hint={"en": "a vector target gives the gradient of its sum: divide by `tf.reduce_sum(mask)`, the number of examples that count.",
                  "es": "un objetivo vectorial da el gradiente de su suma: divide entre `tf.reduce_sum(mask)`, el número de ejemplos que cuentan.",
                  "pt": "um alvo vetorial dá o gradiente da sua soma: divida por `tf.reduce_sum(mask)`, o número de exemplos que contam.",
                  "ru": "цель-вектор даёт градиент своей суммы: разделите на `tf.reduce_sum(mask)`, число учитываемых примеров."}),
    Pattern("mean_over_all", lambda w, x, y, mask: _masked_parts(w, x, y, mask, how="mean_over_all"), "extra",
            title={"en": "a mean over the whole batch, padding included",
                   "es": "una media sobre todo el lote, relleno incluido",
                   "pt": "uma média sobre o lote inteiro, preenchimento incluído",
                   "ru": "среднее по всему батчу вместе с заполнением"},
            hint={"en": "`tf.reduce_mean` divides by every example, masked ones too: divide the masked sum by `tf.reduce_sum(mask)` instead.",
                  "es": "`tf.reduce_mean` divide entre todos los ejemplos, también los enmascarados: divide la suma enmascarada entre `tf.reduce_sum(mask)`.",
                  "pt": "`tf.reduce_mean` divide por todos os exemplos, inclusive os mascarados: divida a soma mascarada por `tf.reduce_sum(mask)`.",
                  "ru": "`tf.reduce_mean` делит на число всех примеров, включая замаскированные: делите сумму с маской на `tf.reduce_sum(mask)`."}),
    Pattern("mask_ignored", lambda w, x, y, mask: _masked_parts(w, x, y, mask, how="ignored"), "extra",
            title={"en": "the mean of every loss: the mask is not used",
                   "es": "la media de todas las pérdidas: no se usa la máscara",
                   "pt": "a média de todas as perdas: a máscara não é usada",
                   "ru": "среднее всех потерь: маска не применена"},
            hint={"en": "multiply the losses by `mask` before summing, so that the padding adds nothing.",
                  "es": "multiplica las pérdidas por `mask` antes de sumar, para que el relleno no sume nada.",
                  "pt": "multiplique as perdas por `mask` antes de somar, para que o preenchimento não some nada.",
                  "ru": "умножьте потери на `mask` до суммирования, чтобы заполнение ничего не добавляло."}),
)


# l05_ex7: the gradient with respect to the temperature where its Jacobian is asked: the sum of
# the Jacobian's entries, 0 because the probabilities add up to 1 whatever the temperature
def _tempered_gradient(z, temperature):
    tf = _tf()
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(z)
        s = tf.nn.softmax(z / temperature)
    out = [tape.jacobian(s, z), tape.gradient(s, temperature)]
    del tape
    return out


declare("l05_ex7", Pattern(
    "gradient_not_jacobian", _tempered_gradient, "extra",
    title={"en": "the gradient for the temperature, not its Jacobian: one number, 0",
           "es": "el gradiente respecto de la temperatura, no su jacobiano: un solo número, 0",
           "pt": "o gradiente em relação à temperatura, não a jacobiana: um número só, 0",
           "ru": "градиент по температуре вместо якобиана: одно число, 0"},
    hint={"en": "`gradient` adds up the target's elements, and the probabilities always add up to 1; `tape.jacobian(s, temperature)` keeps one derivative per probability.",
          "es": "`gradient` suma los elementos del objetivo, y las probabilidades siempre suman 1; `tape.jacobian(s, temperature)` conserva una derivada por probabilidad.",
          "pt": "`gradient` soma os elementos do alvo, e as probabilidades sempre somam 1; `tape.jacobian(s, temperature)` mantém uma derivada por probabilidade.",
          "ru": "`gradient` суммирует элементы цели, а вероятности в сумме всегда дают 1; `tape.jacobian(s, temperature)` сохраняет по производной на каждую вероятность."}))


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


# l04_ex1: the straight-through estimator without its window (the gradient passes for every
# weight), or the weights never rounded (the loss of w itself)
def _quantized_parts(w, x, t, **how):
    from .l04 import _quantized_gradient

    return _quantized_gradient(w, x, t, **how)


declare(
    "l04_ex1",
    Pattern("no_window", lambda w, x, t: _quantized_parts(w, x, t, window=False), "extra",
            title={"en": "the straight-through estimator without its window: every weight gets a gradient",
                   "es": "el estimador *straight-through* sin su ventana: todos los pesos reciben gradiente",
                   "pt": "o estimador *straight-through* sem a janela: todos os pesos recebem gradiente",
                   "ru": "сквозная оценка градиента без окна: градиент получают все веса"},
            hint={"en": "start the trick from `c = tf.clip_by_value(w, -1.0, 1.0)`, not from `w`: the gradient of `c` is 0 outside [-1, 1].",
                  "es": "empieza el truco desde `c = tf.clip_by_value(w, -1.0, 1.0)`, no desde `w`: el gradiente de `c` es 0 fuera de [-1, 1].",
                  "pt": "comece o truque por `c = tf.clip_by_value(w, -1.0, 1.0)`, não por `w`: o gradiente de `c` é 0 fora de [-1, 1].",
                  "ru": "начинайте приём с `c = tf.clip_by_value(w, -1.0, 1.0)`, а не с `w`: вне [-1, 1] градиент `c` равен 0."}),
    Pattern("not_rounded", lambda w, x, t: _quantized_parts(w, x, t, rounded=False), "extra",
            title={"en": "the gradient of the loss of the unrounded weights",
                   "es": "el gradiente de la pérdida con los pesos sin redondear",
                   "pt": "o gradiente da perda com os pesos sem arredondar",
                   "ru": "градиент функции потерь с неокруглёнными весами"},
            hint={"en": "the forward pass must use the rounded weights `q`, whose value is `round(w)`: compute `x @ q`.",
                  "es": "la pasada hacia delante debe usar los pesos redondeados `q`, cuyo valor es `round(w)`: calcula `x @ q`.",
                  "pt": "a passagem para a frente deve usar os pesos arredondados `q`, cujo valor é `round(w)`: calcule `x @ q`.",
                  "ru": "прямой проход должен использовать округлённые веса `q`, значение которых равно `round(w)`: вычисляйте `x @ q`."}),
)


# l04_ex3: the gain's gradient not clipped (plain autodiff), or the whole dL/da clipped after the
# fact, penalty included (a clip outside the function, not inside its backward pass)
def _scaled_tanh_parts(a, x, *, clip):
    from .l04 import _scaled_tanh_gradients

    return _scaled_tanh_gradients(a, x, clip=clip)


declare(
    "l04_ex3",
    Pattern("not_clipped", lambda a, x: _scaled_tanh_parts(a, x, clip="none"), "extra",
            title={"en": "the gradient for `a` without the clip",
                   "es": "el gradiente para `a` sin el recorte",
                   "pt": "o gradiente para `a` sem o recorte",
                   "ru": "градиент по `a` без обрезки"},
            hint={"en": "inside `backward`, clip the gradient for `a` with `tf.clip_by_value(..., -1.0, 1.0)` before returning it.",
                  "es": "dentro de `backward`, recorta el gradiente para `a` con `tf.clip_by_value(..., -1.0, 1.0)` antes de devolverlo.",
                  "pt": "dentro de `backward`, recorte o gradiente para `a` com `tf.clip_by_value(..., -1.0, 1.0)` antes de devolvê-lo.",
                  "ru": "внутри `backward` обрежьте градиент по `a` с помощью `tf.clip_by_value(..., -1.0, 1.0)`, прежде чем вернуть его."}),
    Pattern("clipped_total", lambda a, x: _scaled_tanh_parts(a, x, clip="total"), "extra",
            title={"en": "the whole dL/da clipped, the penalty's part included",
                   "es": "todo dL/da recortado, incluida la parte de la penalización",
                   "pt": "todo o dL/da recortado, inclusive a parte da penalização",
                   "ru": "обрезан весь dL/da, включая вклад штрафа"},
            hint={"en": "clip inside `backward`: only the function's own gradient for `a` is clipped, and the penalty's `2 * a` is added to it afterwards.",
                  "es": "recorta dentro de `backward`: solo se recorta el gradiente propio de la función para `a`, y después se le suma el `2 * a` de la penalización.",
                  "pt": "recorte dentro de `backward`: só o gradiente da própria função para `a` é recortado, e depois se soma a ele o `2 * a` da penalização.",
                  "ru": "обрезайте внутри `backward`: обрезается только собственный градиент функции по `a`, а `2 * a` от штрафа прибавляется к нему потом."}),
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
