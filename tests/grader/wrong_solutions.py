"""Real wrong solutions, one family of mistakes at a time (issue 29), for the classifier's tests
and the class built by the class-report test: each is the source a student could write for an
exercise (lessons 1, 2, 4, 6 and 7), run through minitape against the real exercise.

``WRONG[family]`` is a list of ``(exercise id, function source, expected pattern record)``;
the record is the subset of :func:`grader.student.mistakes.summary`'s exercise-level keys the test
asserts (``pattern`` and its sub-kind, factor ...).
"""

HEADER = "import minitape as tf\nimport numpy as np\n"

WRONG = {
    "none": [
        ("l01_ex1", '''
def derivative_at(x0):
    x = tf.constant(x0)            # a constant is not watched
    with tf.GradientTape() as tape:
        y = x ** 3 - 2 * x
    return tape.gradient(y, x)
''', {"pattern": "none"}),
        ("l02_ex1", '''
def input_gradient(w, x):
    with tf.GradientTape() as tape:   # forgot tape.watch(x)
        f = tf.reduce_sum(tf.tanh(tf.matmul(x, w)))
    return tape.gradient(f, x)
''', {"pattern": "none"}),
    ],
    "shape": [
        ("l01_ex2", '''
def mse_gradients(w, b, x, y_true):      # by hand, the outer product the wrong way round
    r = tf.matmul(x, w) + b - y_true
    n = float(int(tf.size(y_true)))
    return [tf.matmul(tf.transpose(2.0 * r / n), x), tf.reduce_sum(2.0 * r / n, axis=0)]
''', {"pattern": "shape", "kind": "transposed"}),
        ("l01_ex2", '''
def mse_gradients(w, b, x, y_true):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((tf.matmul(x, w) + b - y_true) ** 2)
    dw, db = tape.gradient(loss, [w, b])
    return [dw, tf.reshape(db, (1, -1))]     # keepdims-style extra axis
''', {"pattern": "shape", "kind": "extra_axis"}),
        ("l01_ex2", '''
def mse_gradients(w, b, x, y_true):      # by hand, db not summed over the batch
    r = tf.matmul(x, w) + b - y_true
    n = float(int(tf.size(y_true)))
    return [tf.matmul(tf.transpose(x), 2.0 * r / n), 2.0 * r / n]
''', {"pattern": "shape", "kind": "broadcast"}),
    ],
    "sign": [
        ("l01_ex1", '''
def derivative_at(x0):
    x = tf.Variable(x0)
    with tf.GradientTape() as tape:
        y = 2 * x - x ** 3
    return tape.gradient(y, x)
''', {"pattern": "sign"}),
        ("l01_ex2", '''
def mse_gradients(w, b, x, y_true):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((y_true - tf.matmul(x, w) - b) ** 2)
    dw, db = tape.gradient(loss, [w, b])
    return [-dw, -db]                # "descent direction"
''', {"pattern": "sign"}),
    ],
    "scale": [
        ("l01_ex2", '''
def mse_gradients(w, b, x, y_true):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum((tf.matmul(x, w) + b - y_true) ** 2)   # sum, not mean
    return tape.gradient(loss, [w, b])
''', {"pattern": "scale", "k": "n"}),
        ("l01_ex2", '''
def mse_gradients(w, b, x, y_true):      # by hand, the 2 of the square forgotten
    r = tf.matmul(x, w) + b - y_true
    n = float(int(tf.size(y_true)))
    return [tf.matmul(tf.transpose(x), r / n), tf.reduce_sum(r / n, axis=0)]
''', {"pattern": "scale", "k": "1/2"}),
        ("l01_ex3", '''
def gradients_by_name(params, x):
    with tf.GradientTape(persistent=True) as tape:
        f = tf.reduce_sum(tf.sin(params["a"] * x) + params["c"] ** 2 * x)
        f = f + f                      # counted twice
    return tape.gradient(f, params)
''', {"pattern": "scale", "k": "2"}),
    ],
    "partial": [
        ("l02_ex2", '''
def hidden_gradients(w, x, targets):    # by hand, the sigmoid's derivative forgotten
    h = tf.matmul(x, w)
    n = float(int(tf.size(targets)))
    dh = 2.0 * (tf.nn.sigmoid(h) - targets) / n
    return [dh, tf.matmul(tf.transpose(x), dh)]
''', {"pattern": "partial", "kind": "no_sigmoid_factor"}),
        ("l02_ex3", '''
def loss_parts_gradients(w, x, y, lam):
    with tf.GradientTape(persistent=True) as tape:
        data = tf.reduce_mean((tf.reduce_sum(x * w, axis=1) - y) ** 2)
        penalty = lam * tf.reduce_sum(w ** 2)
        total = data                 # the penalty forgotten
    return {"data": tape.gradient(data, w), "penalty": tape.gradient(penalty, w),
            "total": tape.gradient(total, w)}
''', {"pattern": "partial", "kind": "total_without_penalty"}),
        ("l01_ex4", '''
def dense_gradients(layer, x, y):
    with tf.GradientTape() as tape:
        pred = tf.reshape(tf.matmul(x, layer.kernel) + layer.bias, [-1])
        loss = tf.reduce_mean((pred - y) ** 2)
    return tape.gradient(loss, layer.trainable_variables)
''', {"pattern": "partial", "kind": "no_activation"}),
    ],
    "swapped": [
        ("l01_ex3", '''
def gradients_by_name(params, x):
    with tf.GradientTape() as tape:
        f = tf.reduce_sum(tf.sin(params["a"] * x) + params["c"] ** 2 * x)
    dc, da = tape.gradient(f, [params["a"], params["c"]])    # unpacked in the wrong order
    return {"a": da, "c": dc}
''', {"pattern": "swapped"}),
        ("l01_ex2", '''
def mse_gradients(w, b, x, y_true):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((tf.matmul(x, w) + b - y_true) ** 2)
    return tape.gradient(loss, [b, w])
''', {"pattern": "swapped"}),
    ],
    "stale": [
        ("l01_ex1", '''
_first = []
def derivative_at(x0):
    if not _first:                   # computed once, on the first call
        x = tf.Variable(x0)
        with tf.GradientTape() as tape:
            y = x ** 3 - 2 * x
        _first.append(tape.gradient(y, x))
    return _first[0]
''', {"pattern": "stale"}),
        ("l01_ex2", '''
def mse_gradients(w, b, x, y_true):   # the visible answer, hard-coded
    return [tf.constant([[11.0 / 6.0, -2.0 / 3.0], [4.0 / 3.0, 8.0 / 3.0]], dtype=tf.float64),
            tf.constant([2.0 / 3.0, 0.0], dtype=tf.float64)]
''', {"pattern": "stale"}),
        ("l06_ex2", '''
def train_linear(w, b, x, y, lr, steps):
    losses = []
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((tf.matmul(x, w) + b - y) ** 2)
        dw, db = tape.gradient(loss, [w, b])
        w.assign_sub(lr * dw)
        b.assign_sub(lr * db)
        losses.append(tf.reduce_mean((tf.matmul(x, w) + b - y) ** 2))   # after the update
    return tf.stack(losses)
''', {"pattern": "stale", "kind": "loss_after_update"}),
        ("l06_ex2", '''
def train_linear(w, b, x, y, lr, steps):
    losses = []
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((tf.matmul(x, w) + b - y) ** 2)
        dw, db = tape.gradient(loss, [w, b])
        new_w, new_b = w - lr * dw, b - lr * db     # computed, never assigned
        losses.append(loss)
    return tf.stack(losses)
''', {"pattern": "stale", "kind": "no_update"}),
        ("l04_ex5", '''
def lookahead_gradient(w, x, y, lr):
    with tf.GradientTape(persistent=True) as tape:
        loss = tf.reduce_mean((tf.reduce_sum(x * w, axis=1) - y) ** 2)
        with tape.stop_recording():
            g = tape.gradient(loss, w)
        ahead = w - lr * g
        loss_ahead = tf.reduce_mean((tf.reduce_sum(x * ahead, axis=1) - y) ** 2)
    return tape.gradient(loss, w)                # the loss at w, not one step ahead
''', {"pattern": "stale", "kind": "gradient_at_start"}),
        ("l07_ex5", '''
def train_losses(values, xs, ys, learning_rate, steps):   # the lesson's network, on minitape here
    def loss_of(params):
        total = 0.0
        for (x1, x2), y in zip(xs, ys):
            s = params[-1]
            for j in range(6):
                h = tf.nn.relu(params[2 * j] * x1 + params[2 * j + 1] * x2 + params[12 + j])
                s = s + params[18 + j] * h
            total = total + tf.nn.relu(1.0 - y * s)
        return total * (1.0 / len(ys)) + 1e-3 * sum((p * p for p in params), 0.0)
    params = [tf.Variable(v, dtype=tf.float64) for v in values]
    losses = []
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = loss_of(params)
        for p, g in zip(params, tape.gradient(loss, params)):
            p.assign_sub(learning_rate * g)
        losses.append(float(loss_of(params)))           # after the update
    return [losses, [float(p) for p in params]]
''', {"pattern": "stale", "kind": "loss_after_update"}),
    ],
    "not_finite": [
        ("l01_ex1", '''
def derivative_at(x0):
    h = 0.0                           # a finite difference with no step
    f = lambda x: x ** 3 - 2 * x
    return tf.constant((f(x0 + h) - f(x0 - h)) / (2 * h) if h else float("nan"))
''', {"pattern": "not_finite"}),
        ("l01_ex2", '''
def mse_gradients(w, b, x, y_true):
    with tf.GradientTape() as tape:
        n = tf.reduce_sum(tf.zeros_like(y_true))     # the count, as a sum of zeros
        loss = tf.reduce_sum((tf.matmul(x, w) + b - y_true) ** 2) / n
    return tape.gradient(loss, [w, b])
''', {"pattern": "not_finite"}),
    ],
    "extra": [
        ("l02_ex3", '''
def loss_parts_gradients(w, x, y, lam):
    with tf.GradientTape(persistent=True) as tape:
        data = tf.reduce_mean((tf.reduce_sum(x * w, axis=1) - y) ** 2)
        penalty = tf.reduce_sum(w ** 2)          # lam forgotten
        total = data + penalty
    return {"data": tape.gradient(data, w), "penalty": tape.gradient(penalty, w),
            "total": tape.gradient(total, w)}
''', {"pattern": "lam_forgotten"}),
        ("l04_ex4", '''
def truncated_gradient(w, xs, k):
    h = tf.constant(0.0, dtype=tf.float64)
    with tf.GradientTape() as tape:
        for t in range(int(xs.shape[0])):      # k ignored: the tape is never reset
            h = tf.tanh(w * h + xs[t])
        loss = h ** 2
    return tape.gradient(loss, w)
''', {"pattern": "no_reset"}),
        ("l04_ex5", '''
def lookahead_gradient(w, x, y, lr):
    with tf.GradientTape(persistent=True) as tape:
        loss = tf.reduce_mean((tf.reduce_sum(x * w, axis=1) - y) ** 2)
        g = tape.gradient(loss, w)               # recorded: no stop_recording
        ahead = w - lr * g
        loss_ahead = tf.reduce_mean((tf.reduce_sum(x * ahead, axis=1) - y) ** 2)
    return tape.gradient(loss_ahead, w)
''', {"pattern": "step_recorded"}),
    ],
    "other": [
        ("l01_ex1", '''
def derivative_at(x0):
    x = tf.Variable(x0)
    with tf.GradientTape() as tape:
        y = x ** 2 - 2 * x                # the wrong function
    return tape.gradient(y, x)
''', {"pattern": "other"}),
    ],
}


def namespace(source: str) -> dict:
    ns: dict = {}
    exec(compile(HEADER + source, "<student>", "exec"), ns)
    return ns
