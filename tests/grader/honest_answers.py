"""Honest answers to every exercise, and the exercises' statements followed to the letter.

``HONEST``: per exercise, answers a careful student may write that the statement allows --
another formulation (two tapes or one persistent tape, ``jacobian`` or a loop of ``gradient``,
a helper defined in another cell, float32 arithmetic, an int for a count or a code, a tuple,
a NumPy array or a Python list for the result). Each is a list of cells run in order in the
lesson's namespace (as the student's notebook runs them), after the lesson's own cells.

``TRANSFORMS`` (applied by ``tests.support.lesson_engines`` to each exercise's reference
solution from the lesson source): the same right answer returned in another container or
number type, or computed from float32 inputs. ``NO_FLOAT32_INPUTS`` names the exercises whose
inputs a student cannot make float32 without breaking the statement, and why.

``LITERAL``: for every exercise whose statement dictates steps, those steps written down word
for word (each one a cell); ``EXAMPLES``: the worked examples the statements give, with every
input, and the numbers the statement states. ``tests/grader/test_honest_answers.py`` requires
full points for all of them (the grader's one rule for number types, ``grader.student.checks``)
and the stated numbers from the literal steps.
"""

HONEST = {
    # ---- lesson 1 ----------------------------------------------------------------------------
    "l01_ex1": {
        "float32 constant, watched": ['''
def derivative_at(x0):
    x = tf.constant(x0, dtype=tf.float32)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x**3 - 2 * x
    return tape.gradient(y, x)
'''],
        "float64 Variable, a helper in another cell": ['''
def cubic(x):
    return x**3 - 2 * x
''', '''
def derivative_at(x0):
    x = tf.Variable(x0, dtype=tf.float64)
    with tf.GradientTape() as tape:
        y = cubic(x)
    return tape.gradient(y, x)
'''],
        "Python float": ['''
def derivative_at(x0):
    x = tf.Variable(x0)
    with tf.GradientTape() as tape:
        y = x * x * x - 2.0 * x
    return float(tape.gradient(y, x))
'''],
    },
    "l01_ex2": {
        "float32 arithmetic": ['''
def mse_gradients(w, b, x, y_true):
    with tf.GradientTape() as tape:
        y = tf.cast(x, tf.float32) @ tf.cast(w, tf.float32) + tf.cast(b, tf.float32)
        loss = tf.reduce_mean(tf.square(y - tf.cast(y_true, tf.float32)))
    return tape.gradient(loss, [w, b])
'''],
        "two tapes, a tuple": ['''
def mse_gradients(w, b, x, y_true):
    def loss():
        return tf.reduce_mean((tf.matmul(x, w) + b - y_true) ** 2)
    with tf.GradientTape() as tape_w:
        loss_w = loss()
    with tf.GradientTape() as tape_b:
        loss_b = loss()
    return (tape_w.gradient(loss_w, w), tape_b.gradient(loss_b, b))
'''],
        "NumPy arrays": ['''
def mse_gradients(w, b, x, y_true):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((x @ w + b - y_true) ** 2)
    dw, db = tape.gradient(loss, [w, b])
    return [dw.numpy(), db.numpy()]
'''],
    },
    "l01_ex3": {
        "one persistent tape, a gradient per key": ['''
def gradients_by_name(params, x):
    a, c = params["a"], params["c"]
    with tf.GradientTape(persistent=True) as tape:
        f = tf.reduce_sum(tf.sin(a * x) + c**2 * x)
    grads = {"a": tape.gradient(f, a), "c": tape.gradient(f, c)}
    del tape
    return grads
'''],
        "list of sources, float32 arithmetic": ['''
def gradients_by_name(params, x):
    with tf.GradientTape() as tape:
        a32, c32 = tf.cast(params["a"], tf.float32), tf.cast(params["c"], tf.float32)
        x32 = tf.cast(x, tf.float32)
        f = tf.reduce_sum(tf.math.sin(a32 * x32) + c32 * c32 * x32)
    da, dc = tape.gradient(f, [params["a"], params["c"]])
    return {"a": da, "c": dc}
'''],
    },
    "l01_ex4": {
        "the predictions squeezed, trainable_weights, a tuple": ['''
def dense_gradients(layer, x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(tf.squeeze(layer(x), axis=1) - y))
    return tuple(tape.gradient(loss, layer.trainable_weights))
'''],
        "the labels given an axis, the kernel and the bias by name": ['''
def dense_gradients(layer, x, y):
    with tf.GradientTape() as tape:
        out = layer(x)
        diff = out - tf.reshape(y, [-1, 1])
        loss = tf.reduce_mean(diff * diff)
    return tape.gradient(loss, [layer.kernel, layer.bias])
'''],
    },
    "l01_ex5": {
        "NumPy throughout, a tuple of floats": ['''
def gradient_check(f, x, grad, v):
    h = 1e-5
    x, grad, v = np.asarray(x), np.asarray(grad), np.asarray(v)
    nudge = (float(f(x + h * v)) - float(f(x - h * v))) / (2 * h)
    predicted = float(np.vdot(grad, v))
    return (nudge, predicted, abs(nudge - predicted) / max(abs(nudge), abs(predicted)))
'''],
        "tensors back, h = 1e-6, a helper in another cell": ['''
def relative_error(a, b):
    return tf.abs(a - b) / tf.maximum(tf.abs(a), tf.abs(b))
''', '''
def gradient_check(f, x, grad, v):
    h = 1e-6
    nudge = (f(x + h * v) - f(x - h * v)) / (2 * h)
    predicted = tf.reduce_sum(grad * v)
    return [nudge, predicted, relative_error(nudge, predicted)]
'''],
    },
    # ---- lesson 2 ----------------------------------------------------------------------------
    "l02_ex1": {
        "a Variable copy of x": ['''
def input_gradient(w, x):
    xv = tf.Variable(x)
    with tf.GradientTape() as tape:
        f = tf.reduce_sum(tf.tanh(xv @ w))
    return tape.gradient(f, xv)
'''],
        "float32 arithmetic": ['''
def input_gradient(w, x):
    x32 = tf.cast(x, tf.float32)
    with tf.GradientTape() as tape:
        tape.watch(x32)
        f = tf.reduce_sum(tf.math.tanh(tf.matmul(x32, tf.cast(w, tf.float32))))
    return tape.gradient(f, x32)
'''],
    },
    "l02_ex2": {
        "persistent tape, two calls, a tuple": ['''
def hidden_gradients(w, x, targets):
    with tf.GradientTape(persistent=True) as tape:
        h = x @ w
        loss = tf.reduce_mean(tf.square(tf.sigmoid(h) - targets))
    result = (tape.gradient(loss, h), tape.gradient(loss, w))
    del tape
    return result
'''],
        "h watched as a tensor of its own": ['''
def hidden_gradients(w, x, targets):
    with tf.GradientTape() as tape:
        h = tf.matmul(x, w)
        tape.watch(h)
        loss = tf.reduce_mean((tf.nn.sigmoid(h) - targets) ** 2)
    dh, dw = tape.gradient(loss, [h, w])
    return [dh.numpy(), dw.numpy()]
'''],
    },
    "l02_ex3": {
        "three tapes instead of one persistent tape": ['''
def loss_parts_gradients(w, x, y, lam):
    def data_loss():
        return tf.reduce_mean((tf.reduce_sum(x * w, axis=1) - y) ** 2)
    def penalty_loss():
        return lam * tf.reduce_sum(w**2)
    with tf.GradientTape() as t1:
        data = data_loss()
    with tf.GradientTape() as t2:
        penalty = penalty_loss()
    with tf.GradientTape() as t3:
        total = data_loss() + penalty_loss()
    return {"data": t1.gradient(data, w), "penalty": t2.gradient(penalty, w),
            "total": t3.gradient(total, w)}
'''],
        "a persistent tape asked once with a dict of targets": ['''
def loss_parts_gradients(w, x, y, lam):
    with tf.GradientTape(persistent=True) as tape:
        residual = tf.linalg.matvec(x, w) - y
        parts = {"data": tf.reduce_mean(residual**2), "penalty": lam * tf.reduce_sum(w * w)}
        parts["total"] = parts["data"] + parts["penalty"]
    grads = {name: tape.gradient(value, w) for name, value in parts.items()}
    del tape
    return grads
'''],
    },
    # ---- lesson 3 ----------------------------------------------------------------------------
    "l03_ex1": {
        "float32 constant (TensorFlow's habit)": ['''
def elementwise_derivative(x):
    x = tf.constant(x, dtype=tf.float32)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * tf.nn.sigmoid(x)
    return tape.gradient(y, x)
'''],
        "a Variable, the sum as target": ['''
def elementwise_derivative(x):
    x = tf.Variable(x)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(x * tf.sigmoid(x))
    return tape.gradient(y, x).numpy()
'''],
    },
    "l03_ex2": {
        "a list of Python floats, assign": ['''
def descent_gradients(x0, lr, steps):
    x = tf.Variable(x0)
    grads = []
    for _ in range(steps):
        with tf.GradientTape() as tape:
            f = (x - 2) ** 2
        g = tape.gradient(f, x)
        grads.append(float(g))
        x.assign(x - lr * g)
    return grads
'''],
        "float64 Variable": ['''
def descent_gradients(x0, lr, steps):
    x = tf.Variable(x0, dtype=tf.float64)
    grads = []
    for step in range(steps):
        with tf.GradientTape() as tape:
            f = tf.square(x - 2.0)
        grads.append(tape.gradient(f, x))
        x.assign_sub(lr * grads[-1])
    return tf.stack(grads)
'''],
    },
    "l03_ex3": {
        "tf.norm and log1p": ['''
def row_norms_gradient(w):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.math.log1p(tf.norm(w, axis=1)))
    return tape.gradient(loss, w)
'''],
        "float32 arithmetic": ['''
def row_norms_gradient(w):
    with tf.GradientTape() as tape:
        w32 = tf.cast(w, tf.float32)
        norms = tf.sqrt(tf.reduce_sum(tf.square(w32), axis=1))
        loss = tf.reduce_sum(tf.math.log(1.0 + norms))
    return tape.gradient(loss, w)
'''],
    },
    "l03_ex4": {
        "zeros filled in by hand": ['''
def branch_gradients(params, x, deep):
    with tf.GradientTape() as tape:
        y = tf.tanh(x @ params["a"]) if deep else x @ params["b"]
        loss = tf.reduce_mean(y**2)
    grads = tape.gradient(loss, params)
    return {k: (g if g is not None else tf.zeros_like(params[k])) for k, g in grads.items()}
'''],
        "a helper in another cell, NumPy arrays": ['''
def branch_output(params, x, deep):
    if deep:
        return tf.math.tanh(tf.matmul(x, params["a"]))
    return tf.matmul(x, params["b"])
''', '''
def branch_gradients(params, x, deep):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(branch_output(params, x, deep)))
    grads = tape.gradient(loss, params, unconnected_gradients="zero")
    return {k: v.numpy() for k, v in grads.items()}
'''],
    },
    "l03_ex5": {
        "integer codes": ['''
CAUSES = {"A": 1, "B": 0, "C": 4, "D": 2, "E": 3, "F": 5, "G": 6, "H": 0, "I": 1}
''', '''
def none_cause(snippet):
    return CAUSES[snippet]
'''],
        "a NumPy integer": ['''
def none_cause(snippet):
    return np.int64([1, 0, 4, 2, 3, 5, 6, 0, 1]["ABCDEFGHI".index(snippet)])
'''],
        "an integer tensor": ['''
def none_cause(snippet):
    codes = {"A": 1, "B": 0, "C": 4, "D": 2, "E": 3, "F": 5, "G": 6, "H": 0, "I": 1}
    return tf.constant(codes[snippet])
'''],
    },
    "l03_ex6": {
        "the masked sum's gradient divided by the count": ['''
def masked_mean_gradient(w, x, y, mask):
    with tf.GradientTape() as tape:
        losses = mask * (tf.reduce_sum(x * w, axis=1) - y) ** 2
    return tape.gradient(losses, w) / tf.reduce_sum(mask)
'''],
        "normalized weights, matvec, float32 arithmetic": ['''
def masked_mean_gradient(w, x, y, mask):
    weights = tf.cast(mask / tf.reduce_sum(mask), tf.float32)
    with tf.GradientTape() as tape:
        residual = tf.cast(tf.linalg.matvec(x, w) - y, tf.float32)
        loss = tf.reduce_sum(weights * residual**2)
    return tape.gradient(loss, w)
'''],
    },
    # ---- lesson 4 ----------------------------------------------------------------------------
    "l04_ex1": {
        "the window as min and max, the layer as matmul": ['''
def quantized_gradient(w, x, t):
    with tf.GradientTape() as tape:
        c = tf.minimum(tf.maximum(w, -1.0), 1.0)
        q = c + tf.stop_gradient(tf.round(w) - c)
        loss = tf.reduce_mean(tf.square(tf.matmul(x, q) - t))
    return tape.gradient(loss, w)
'''],
        "a helper in another cell, a NumPy array": ['''
def windowed_round(v):
    c = tf.clip_by_value(v, -1.0, 1.0)
    return tf.stop_gradient(tf.round(v)) + c - tf.stop_gradient(c)
''', '''
def quantized_gradient(w, x, t):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((x @ windowed_round(w) - t) ** 2)
    return tape.gradient(loss, w).numpy()
'''],
    },
    "l04_ex2": {
        "log1pexp in another cell, a tuple": ['''
@tf.custom_gradient
def stable_log1pexp(x):
    def backward(upstream):
        return upstream * tf.sigmoid(x)
    return tf.maximum(x, 0.0) + tf.math.log1p(tf.exp(-tf.abs(x))), backward
''', '''
def log1pexp_and_gradient(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = stable_log1pexp(x)
    return (y, tape.gradient(y, x))
'''],
        "the gradient as 1 / (1 + exp(-x))": ['''
def log1pexp_and_gradient(x):
    @tf.custom_gradient
    def log1pexp(v):
        value = tf.maximum(v, 0.0) + tf.math.log1p(tf.exp(-tf.abs(v)))
        def backward(upstream):
            return upstream / (1.0 + tf.exp(-v))
        return value, backward
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = log1pexp(x)
    dy_dx = tape.gradient(y, x)
    return [y.numpy(), dy_dx.numpy()]
'''],
    },
    "l04_ex3": {
        "a tuple from backward, the variables keyword used": ['''
def scaled_tanh_gradients(a, x):
    @tf.custom_gradient
    def scaled_tanh(z):
        y = tf.tanh(a * z)
        def backward(upstream, variables=None):
            local = 1.0 - tf.square(y)
            grads_for_variables = [tf.clip_by_value(tf.reduce_sum(upstream * z * local), -1.0, 1.0)
                                   for _ in variables]
            return upstream * a * local, grads_for_variables
        return y, backward
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(scaled_tanh(x) ** 2) + tf.square(a)
    dx, da = tape.gradient(loss, [x, a])
    return (dx, da)
'''],
        "the clip as clip_by_norm of a scalar, two gradient calls": ['''
def scaled_tanh_gradients(a, x):
    @tf.custom_gradient
    def scaled_tanh(z):
        y = tf.tanh(a * z)
        def backward(upstream, variables=None):
            local = 1.0 - y * y
            return upstream * a * local, [tf.clip_by_norm(tf.reduce_sum(upstream * z * local), 1.0)]
        return y, backward
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        loss = tf.reduce_sum(tf.square(scaled_tanh(x))) + a * a
    out = [tape.gradient(loss, x), tape.gradient(loss, a)]
    del tape
    return out
'''],
    },
    "l04_ex4": {
        "one loop, a reset every k steps": ['''
def truncated_gradient(w, xs, k):
    h = tf.constant(0.0, dtype=tf.float64)
    with tf.GradientTape() as tape:
        for t in range(xs.shape[0]):
            if t % k == 0:
                tape.reset()
            h = tf.tanh(w * h + xs[t])
        loss = h * h
    return float(tape.gradient(loss, w))
'''],
    },
    "l04_ex5": {
        "two tapes: g from the first, the look-ahead from the second": ['''
def lookahead_gradient(w, x, y, lr):
    def loss_at(v):
        return tf.reduce_mean((tf.reduce_sum(x * v, axis=1) - y) ** 2)
    with tf.GradientTape() as first:
        loss = loss_at(w)
    g = first.gradient(loss, w)
    with tf.GradientTape() as second:
        ahead = loss_at(w - lr * g)
    return second.gradient(ahead, w)
'''],
        "stop_gradient on g": ['''
def lookahead_gradient(w, x, y, lr):
    with tf.GradientTape(persistent=True) as tape:
        loss = tf.reduce_mean((tf.reduce_sum(x * w, axis=1) - y) ** 2)
        with tape.stop_recording():
            g = tape.gradient(loss, w)
        loss_ahead = tf.reduce_mean((tf.reduce_sum(x * (w - lr * g), axis=1) - y) ** 2)
    result = tape.gradient(loss_ahead, w)
    del tape
    return result.numpy()
'''],
    },
    "l04_ex6": {
        "the scale from the recorded residuals, NumPy array": ['''
def relative_loss_gradient(w, x, y):
    with tf.GradientTape() as tape:
        r = tf.linalg.matvec(x, w) - y
        loss = tf.reduce_mean(tf.square(r))
        with tape.stop_recording():
            s = tf.reduce_mean(tf.square(r))
        ratio = loss / s
    return tape.gradient(ratio, w).numpy()
'''],
    },
    "l04_ex7": {
        "the count as an int": ['''
def input_gradient_only(layer, x):
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(x)
        loss = tf.reduce_sum(layer(x) ** 2)
    return [tape.gradient(loss, x), len(tape.watched_variables())]
'''],
        "a tuple, the count as a float tensor": ['''
def input_gradient_only(layer, x):
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(x)
        out = layer(x)
        loss = tf.reduce_sum(out * out)
    grad = tape.gradient(loss, x)
    return (grad, tf.constant(len(tape.watched_variables()), dtype=tf.float32))
'''],
    },
    # ---- lesson 5 ----------------------------------------------------------------------------
    "l05_ex1": {
        "a watched float32 constant, Python floats": ['''
def first_and_second_derivative(x0):
    x = tf.constant(x0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = x * x * tf.sin(x)
        dy_dx = inner.gradient(y, x)
    d2y_dx2 = outer.gradient(dy_dx, x)
    return [float(dy_dx), float(d2y_dx2)]
'''],
        "float64 Variable, a tuple": ['''
def first_and_second_derivative(x0):
    x = tf.Variable(x0, dtype=tf.float64)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = x**2 * tf.math.sin(x)
        first = inner.gradient(y, x)
    return (first, outer.gradient(first, x))
'''],
    },
    "l05_ex2": {
        "a loop of gradient instead of jacobian": ['''
def logistic_hessian(w, x, y):
    with tf.GradientTape(persistent=True) as outer:
        with tf.GradientTape() as inner:
            loss = tf.reduce_mean(tf.math.softplus(-y * tf.linalg.matvec(x, w)))
        g = inner.gradient(loss, w)
        rows = [g[i] for i in range(w.shape[0])]
    hessian = tf.stack([outer.gradient(row, w) for row in rows])
    del outer
    return hessian
'''],
        "log(1 + exp) written out, float32": ['''
def logistic_hessian(w, x, y):
    w32 = tf.Variable(tf.cast(w, tf.float32))
    x32, y32 = tf.cast(x, tf.float32), tf.cast(y, tf.float32)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            margins = y32 * tf.linalg.matvec(x32, w32)
            loss = tf.reduce_mean(tf.math.log(1.0 + tf.exp(-margins)))
        g = inner.gradient(loss, w32)
    return outer.jacobian(g, w32)
'''],
    },
    "l05_ex3": {
        "assign instead of assign_sub, the values returned": ['''
def newton_step(w, x, y):
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            loss = tf.reduce_mean(tf.math.softplus(-y * tf.linalg.matvec(x, w)))
        g = inner.gradient(loss, w)
    h = outer.jacobian(g, w)
    delta = tf.linalg.solve(h, g[:, None])[:, 0]
    w.assign_sub(delta)
    return w.numpy()
'''],
    },
    "l05_ex4": {
        "the loss in a helper of another cell": ['''
def logistic_loss(w, x, y):
    return tf.reduce_mean(tf.math.softplus(-y * tf.linalg.matvec(x, w)))
''', '''
def logistic_hvp(w, x, y, v):
    with tf.autodiff.ForwardAccumulator(primals=w, tangents=v) as acc:
        with tf.GradientTape() as tape:
            loss = logistic_loss(w, x, y)
        g = tape.gradient(loss, w)
    return acc.jvp(g).numpy()
'''],
    },
    "l05_ex5": {
        "one tape per example, stacked": ['''
def per_example_jacobians(w, x):
    blocks = []
    for i in range(x.shape[0]):
        xi = x[i:i + 1]
        with tf.GradientTape() as tape:
            tape.watch(xi)
            yi = tf.tanh(xi @ w)
        blocks.append(tape.batch_jacobian(yi, xi)[0])
    return tf.stack(blocks)
'''],
        "the full Jacobian's diagonal blocks": ['''
def per_example_jacobians(w, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.math.tanh(tf.matmul(x, w))
    full = tape.jacobian(y, x)
    return np.stack([full[i, :, i, :].numpy() for i in range(x.shape[0])])
'''],
    },
    "l05_ex6": {
        "a tuple": ['''
def layer_vjp(w, x, u):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.tanh(x @ w)
    dx, dw = tape.gradient(y, [x, w], output_gradients=u)
    return (dx, dw)
'''],
    },
    "l05_ex7": {
        "two Jacobian calls on a persistent tape, the temperature watched too": ['''
def tempered_softmax_jacobians(z, temperature):
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([z, temperature])
        s = tf.nn.softmax(z / temperature)
    out = [tape.jacobian(s, z), tape.jacobian(s, temperature)]
    del tape
    return out
'''],
        "a loop of gradient over the probabilities, float32": ['''
def tempered_softmax_jacobians(z, temperature):
    z32, t32 = tf.Variable(tf.cast(z, tf.float32)), tf.Variable(tf.cast(temperature, tf.float32))
    with tf.GradientTape(persistent=True) as tape:
        s = tf.nn.softmax(z32 / t32)
        rows = [s[i] for i in range(z.shape[0])]
    grads = [tape.gradient(row, [z32, t32]) for row in rows]
    del tape
    return [tf.stack([g[0] for g in grads]).numpy(), [float(g[1]) for g in grads]]
'''],
    },
    # ---- lesson 6 ----------------------------------------------------------------------------
    "l06_ex1": {
        "a tuple of NumPy arrays": ['''
def gradient_descent_step(w, b, x, y, lr):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
    grads = tape.gradient(loss, (w, b))
    for v, g in zip((w, b), grads):
        v.assign_sub(lr * g)
    return (w.numpy(), b.numpy())
'''],
    },
    "l06_ex2": {
        "a Python list of floats": ['''
def train_linear(w, b, x, y, lr, steps):
    losses = []
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((x @ w + b - y) ** 2)
        dw, db = tape.gradient(loss, [w, b])
        losses.append(float(loss))
        w.assign_sub(lr * dw)
        b.assign_sub(lr * db)
    return losses
'''],
        "one step from another cell, a NumPy array": ['''
def one_step(w, b, x, y, lr):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((x @ w + b - y) ** 2)
    dw, db = tape.gradient(loss, [w, b])
    w.assign_sub(lr * dw)
    b.assign_sub(lr * db)
    return loss
''', '''
def train_linear(w, b, x, y, lr, steps):
    return np.array([one_step(w, b, x, y, lr).numpy() for _ in range(steps)])
'''],
    },
    "l06_ex3": {
        "the clipping written out": ['''
def clipped_descent(w, b, x, y, lr, steps, clip_norm):
    def clip(g):
        norm = tf.sqrt(tf.reduce_sum(g * g))
        return g * tf.minimum(1.0, clip_norm / norm) if float(norm) > 0 else g
    losses = []
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((x @ w + b - y) ** 2)
        dw, db = tape.gradient(loss, [w, b])
        w.assign_sub(lr * clip(dw))
        b.assign_sub(lr * clip(db))
        losses.append(loss.numpy())
    return losses
'''],
    },
    "l06_ex4": {
        "trainable_weights, the batches sliced first, a list of floats": ['''
def train_minibatches(model, optimizer, x, y, batch_size, epochs):
    n = int(x.shape[0])
    batches = [(x[s:s + batch_size], y[s:s + batch_size]) for s in range(0, n, batch_size)]
    losses = []
    for _ in range(epochs):
        for xb, yb in batches:
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(model(xb) - yb))
            grads = tape.gradient(loss, model.trainable_weights)
            optimizer.apply_gradients(list(zip(grads, model.trainable_weights)))
            losses.append(float(loss))
    return losses
'''],
    },
    # ---- lesson 7 ----------------------------------------------------------------------------
    "l07_ex1": {
        "div's VJP from its output": ['''
def cos(x):
    x = constant(x)
    out = Value(math.cos(x.value))
    return record("cos", out, (x,), lambda g: (-math.sin(x.value) * g,))


def div(a, b):
    a, b = constant(a), constant(b)
    out = Value(a.value / b.value)
    return record("div", out, (a, b), lambda g: (g / b.value, -g * out.value / b.value))


Value.__truediv__ = div
Value.__rtruediv__ = lambda self, other: div(other, self)


def quotient_gradients(a0, b0):
    a, b = Value(a0), Value(b0)
    with Tape() as tape:
        tape.watch(a)
        tape.watch(b)
        f = cos(a * b) / b
    return tape.gradient(f, [a, b])
'''],
    },
    "l07_ex2": {
        "ints for untouched names, a defaultdict": ['''
import collections


def backward(tape, values, target):
    grads = collections.defaultdict(int)
    grads[target] = 1
    for out, op, inputs in tape[::-1]:
        if not grads[out]:
            continue
        contributions = RULES[op](grads[out], *[values[name] for name in inputs])
        for name, c in zip(inputs, contributions):
            grads[name] = grads[name] + c
    return {name: grads[name] for name in values}
'''],
    },
    "l07_ex3": {
        "tanh's VJP from its input, the loss as a product": ['''
def tanh(x):
    x = constant(x)
    out = Value(math.tanh(x.value))
    return record("tanh", out, (x,), lambda g: (g / math.cosh(x.value) ** 2,))


def neuron_gradients(w1, w2, b, x1, x2, y):
    params = [Value(w1), Value(w2), Value(b)]
    with Tape() as tape:
        for p in params:
            tape.watch(p)
        error = tanh(params[0] * x1 + params[1] * x2 + params[2]) - y
        loss = error * error
    return tuple(tape.gradient(loss, params))
'''],
    },
    "l07_ex4": {
        "the score in a helper of another cell": ['''
def linear_score(w1, w2, b, x1, x2):
    return w1 * x1 + w2 * x2 + b
''', '''
def linear_hinge_gradients(w1, w2, b, xs, ys, alpha):
    params = [Value(w1), Value(w2), Value(b)]
    with Tape() as tape:
        for p in params:
            tape.watch(p)
        hinge = sum((relu(1.0 - y * linear_score(*params, x1, x2)) for (x1, x2), y in zip(xs, ys)), 0.0)
        loss = hinge * (1.0 / len(xs)) + alpha * sum((p * p for p in params), 0.0)
    return tape.gradient(loss, params)
'''],
    },
    "l07_ex5": {
        "the gradients zipped in a comprehension, tuples": ['''
def train_losses(values, xs, ys, learning_rate, steps, kit=OURS):
    leaf, tape_class, relu_fn = kit
    params = tuple(leaf(v) for v in values)
    losses = []
    for _ in range(steps):
        with tape_class() as tape:
            for p in params:
                tape.watch(p)
            loss = hinge_loss(list(params), xs, ys, relu_fn)
        losses.append(float(loss))
        [p.assign_sub(learning_rate * g) for p, g in zip(params, tape.gradient(loss, list(params)))]
    return (losses, tuple(float(p) for p in params))
'''],
    },
    "l07_ex6": {
        "one sum over all the axes at once, a tensor": ['''
def unbroadcast(grad, shape):
    grad = np.asarray(grad)
    lead = grad.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, n in enumerate(shape)
                                      if n == 1 and grad.shape[lead + i] != 1)
    return tf.constant(grad.sum(axis=axes, keepdims=True).reshape(shape))
'''],
    },
}

# The right answer in another container or number type (applied to each exercise's reference
# solution, from the lesson source): see tests.support.lesson_engines.honest_transform.
TRANSFORMS = ("numpy", "python", "tuple", "float32", "int", "float32_inputs")

# Exercises whose inputs a student cannot turn into float32 while doing what the statement says
NO_FLOAT32_INPUTS = {
    "l01_ex4": "the layer is float64 and fixes its input's dtype",
    "l01_ex5": "the central difference is the subject: with h = 1e-5 it needs float64 (the lesson says so)",
    "l04_ex4": "the statement starts from h = tf.constant(0.0, dtype=tf.float64)",
    "l04_ex7": "the layer is float64 and fixes its input's dtype",
    "l06_ex4": "the model is float64 and fixes its input's dtype",
}

# Every exercise whose statement dictates steps, those steps word for word.
LITERAL = {
    "l01_ex1": ['''
def derivative_at(x0):
    x = tf.Variable(x0)
    with tf.GradientTape() as tape:
        y = x**3 - 2 * x
    return tape.gradient(y, x)
'''],
    "l01_ex2": ['''
def mse_gradients(w, b, x, y_true):
    with tf.GradientTape() as tape:
        L = tf.reduce_mean((x @ w + b - y_true) ** 2)
    return tape.gradient(L, [w, b])
'''],
    "l01_ex3": ['''
def gradients_by_name(params, x):
    with tf.GradientTape() as tape:
        f = tf.reduce_sum(tf.sin(params["a"] * x) + params["c"] ** 2 * x)
    return tape.gradient(f, params)
'''],
    "l01_ex4": ['''
def dense_gradients(layer, x, y):
    with tf.GradientTape() as tape:
        L = tf.reduce_mean((tf.reshape(layer(x), [-1]) - y) ** 2)
    return tape.gradient(L, layer.trainable_variables)
'''],
    "l01_ex5": ['''
def gradient_check(f, x, grad, v):
    h = 1e-5
    nudge = (f(x + h * v) - f(x - h * v)) / (2 * h)
    predicted = tf.reduce_sum(grad * v)
    rel_error = abs(nudge - predicted) / max(abs(nudge), abs(predicted))
    return [nudge, predicted, rel_error]
'''],
    "l02_ex1": ['''
def input_gradient(w, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        f = tf.reduce_sum(tf.tanh(tf.matmul(x, w)))
    return tape.gradient(f, x)
'''],
    "l02_ex2": ['''
def hidden_gradients(w, x, targets):
    with tf.GradientTape() as tape:
        h = x @ w
        L = tf.reduce_mean((tf.nn.sigmoid(h) - targets) ** 2)
    return tape.gradient(L, [h, w])
'''],
    "l02_ex3": ['''
def loss_parts_gradients(w, x, y, lam):
    with tf.GradientTape(persistent=True) as tape:
        data = tf.reduce_mean((tf.reduce_sum(x * w, axis=1) - y) ** 2)
        penalty = lam * tf.reduce_sum(w**2)
        total = data + penalty
    result = {"data": tape.gradient(data, w), "penalty": tape.gradient(penalty, w),
              "total": tape.gradient(total, w)}
    del tape
    return result
'''],
    "l03_ex1": ['''
def elementwise_derivative(x):
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        f = x * tf.nn.sigmoid(x)
    return tape.gradient(f, x)
'''],
    "l03_ex2": ['''
def descent_gradients(x0, lr, steps):
    x = tf.Variable(x0)
    gradients = []
    for _ in range(steps):
        with tf.GradientTape() as tape:
            f = (x - 2) ** 2
        g = tape.gradient(f, x)
        gradients.append(g)
        x.assign_sub(lr * g)
    return tf.stack(gradients)
'''],
    "l03_ex3": ['''
def row_norms_gradient(w):
    with tf.GradientTape() as tape:
        r = tf.sqrt(tf.reduce_sum(w**2, axis=1))
        L = tf.reduce_sum(tf.math.log(1 + r))
    return tape.gradient(L, w)
'''],
    "l03_ex4": ['''
def branch_gradients(params, x, deep):
    with tf.GradientTape() as tape:
        if deep:
            y = tf.tanh(tf.matmul(x, params["a"]))
        else:
            y = tf.matmul(x, params["b"])
        L = tf.reduce_mean(y**2)
    return tape.gradient(L, params, unconnected_gradients=tf.UnconnectedGradients.ZERO)
'''],
    "l03_ex5": ['''
def none_cause(snippet):  # "for a snippet's letter it returns the code of its cause": the table's code
    return {"A": 1, "B": 0, "C": 4, "D": 2, "E": 3, "F": 5, "G": 6, "H": 0, "I": 1}[snippet]
'''],
    "l03_ex6": ['''
def masked_mean_gradient(w, x, y, mask):
    with tf.GradientTape() as tape:
        losses = (tf.reduce_sum(x * w, axis=1) - y) ** 2
        L = tf.reduce_sum(mask * losses) / tf.reduce_sum(mask)
    return tape.gradient(L, w)
'''],
    "l04_ex1": ['''
def quantized_gradient(w, x, t):
    with tf.GradientTape() as tape:
        c = tf.clip_by_value(w, -1.0, 1.0)
        q = c + tf.stop_gradient(tf.round(w) - c)
        L = tf.reduce_mean((x @ q - t) ** 2)
    return tape.gradient(L, w)
'''],
    "l04_ex2": ['''
def log1pexp_and_gradient(x):
    @tf.custom_gradient
    def log1pexp(x):
        def grad(upstream):
            return upstream * tf.nn.sigmoid(x)
        return tf.maximum(x, 0.0) + tf.math.log1p(tf.exp(-tf.abs(x))), grad
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = log1pexp(x)
    dy_dx = tape.gradient(y, x)
    return [y, dy_dx]
'''],
    "l04_ex3": ['''
def scaled_tanh_gradients(a, x):
    @tf.custom_gradient
    def scaled_tanh(z):
        y = tf.tanh(a * z)
        def backward(upstream, variables=None):
            return upstream * a * (1 - y**2), [tf.clip_by_value(tf.reduce_sum(upstream * z * (1 - y**2)), -1, 1)]
        return y, backward
    with tf.GradientTape() as tape:
        tape.watch(x)
        L = tf.reduce_sum(scaled_tanh(x) ** 2) + a**2
    return tape.gradient(L, [x, a])
'''],
    "l04_ex4": ['''
def truncated_gradient(w, xs, k):
    T = xs.shape[0]
    h = tf.constant(0.0, dtype=tf.float64)
    with tf.GradientTape() as tape:
        for start in range(0, T, k):
            tape.reset()
            for t in range(start, min(start + k, T)):
                h = tf.tanh(w * h + xs[t])
        L = h**2
    return tape.gradient(L, w)
'''],
    "l04_ex5": ['''
def lookahead_gradient(w, x, y, lr):
    def L(v):
        return tf.reduce_mean((tf.reduce_sum(x * v, axis=1) - y) ** 2)
    with tf.GradientTape(persistent=True) as tape:
        loss = L(w)
        with tape.stop_recording():
            g = tape.gradient(loss, w)
        loss_ahead = L(w - lr * g)
    return tape.gradient(loss_ahead, w)
'''],
    "l04_ex6": ['''
def relative_loss_gradient(w, x, y):
    with tf.GradientTape() as tape:
        r = tf.reduce_sum(x * w, axis=1) - y
        L = tf.reduce_mean(r**2)
        with tape.stop_recording():
            s = tf.reduce_mean(r**2)
        ratio = L / s
    return tape.gradient(ratio, w)
'''],
    "l04_ex7": ['''
def input_gradient_only(layer, x):
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(x)
        L = tf.reduce_sum(layer(x) ** 2)
    return [tape.gradient(L, x), float(len(tape.watched_variables()))]
'''],
    "l05_ex1": ['''
def first_and_second_derivative(x0):
    x = tf.Variable(x0)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = x**2 * tf.sin(x)
        dy_dx = inner.gradient(y, x)
    d2y_dx2 = outer.gradient(dy_dx, x)
    return [dy_dx, d2y_dx2]
'''],
    "l05_ex2": ['''
def logistic_hessian(w, x, y):
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            L = tf.reduce_mean(tf.math.softplus(-y * tf.linalg.matvec(x, w)))
        g = inner.gradient(L, w)
    return outer.jacobian(g, w)
'''],
    "l05_ex3": ['''
def newton_step(w, x, y):
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            L = tf.reduce_mean(tf.math.softplus(-y * tf.linalg.matvec(x, w)))
        g = inner.gradient(L, w)
    H = outer.jacobian(g, w)
    delta = tf.linalg.solve(H, tf.reshape(g, (-1, 1)))
    w.assign_sub(tf.reshape(delta, (-1,)))
    return w
'''],
    "l05_ex4": ['''
def logistic_hvp(w, x, y, v):
    with tf.autodiff.ForwardAccumulator(w, v) as acc:
        with tf.GradientTape() as tape:
            L = tf.reduce_mean(tf.math.softplus(-y * tf.linalg.matvec(x, w)))
        g = tape.gradient(L, w)
    return acc.jvp(g)
'''],
    "l05_ex5": ['''
def per_example_jacobians(w, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.tanh(tf.matmul(x, w))
    return tape.batch_jacobian(y, x)
'''],
    "l05_ex6": ['''
def layer_vjp(w, x, u):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.tanh(tf.matmul(x, w))
    return tape.gradient(y, [x, w], output_gradients=u)
'''],
    "l05_ex7": ['''
def tempered_softmax_jacobians(z, temperature):
    with tf.GradientTape() as tape:
        tape.watch(z)
        s = tf.nn.softmax(z / temperature)
    return tape.jacobian(s, [z, temperature])
'''],
    "l06_ex1": ['''
def gradient_descent_step(w, b, x, y, lr):
    with tf.GradientTape() as tape:
        L = tf.reduce_mean((x @ w + b - y) ** 2)
    dw, db = tape.gradient(L, [w, b])
    w.assign_sub(lr * dw)
    b.assign_sub(lr * db)
    return [w, b]
'''],
    "l06_ex2": ['''
def train_linear(w, b, x, y, lr, steps):
    losses = []
    for _ in range(steps):
        with tf.GradientTape() as tape:
            L = tf.reduce_mean((x @ w + b - y) ** 2)
        losses.append(L)
        dw, db = tape.gradient(L, [w, b])
        w.assign_sub(lr * dw)
        b.assign_sub(lr * db)
    return tf.stack(losses)
'''],
    "l06_ex3": ['''
def clipped_descent(w, b, x, y, lr, steps, clip_norm):
    losses = []
    for _ in range(steps):
        with tf.GradientTape() as tape:
            L = tf.reduce_mean((x @ w + b - y) ** 2)
        losses.append(L)
        dw, db = tape.gradient(L, [w, b])
        w.assign_sub(lr * tf.clip_by_norm(dw, clip_norm))
        b.assign_sub(lr * tf.clip_by_norm(db, clip_norm))
    return tf.stack(losses)
'''],
    "l06_ex4": ['''
def train_minibatches(model, optimizer, x, y, batch_size, epochs):
    losses = []
    for _ in range(epochs):
        for start in range(0, x.shape[0], batch_size):
            x_batch, y_batch = x[start:start + batch_size], y[start:start + batch_size]
            with tf.GradientTape() as tape:
                L = tf.reduce_mean((model(x_batch) - y_batch) ** 2)
            losses.append(L)
            optimizer.apply_gradients(zip(tape.gradient(L, model.trainable_variables),
                                          model.trainable_variables))
    return tf.stack(losses)
'''],
    "l07_ex1": ['''
def cos(x):
    x = constant(x)
    out = Value(math.cos(x.value))
    return record("cos", out, (x,), lambda g: (-g * math.sin(x.value),))


def div(a, b):
    a, b = constant(a), constant(b)
    out = Value(a.value / b.value)
    return record("div", out, (a, b), lambda g: (g / b.value, -g * a.value / b.value**2))


Value.__truediv__ = div
Value.__rtruediv__ = lambda self, other: div(other, self)


def quotient_gradients(a0, b0):
    a, b = Value(a0), Value(b0)
    with Tape() as tape:
        tape.watch(a)
        tape.watch(b)
        f = cos(a * b) / b
    return tape.gradient(f, [a, b])
'''],
    "l07_ex2": ['''
def backward(tape, values, target):
    grads = {name: 0.0 for name in values}
    grads[target] = 1.0
    for out, op, inputs in reversed(tape):
        for name, contribution in zip(inputs, RULES[op](grads[out], *(values[n] for n in inputs))):
            grads[name] += contribution
    return grads
'''],
    "l07_ex3": ['''
def tanh(x):
    x = constant(x)
    out = Value(math.tanh(x.value))
    return record("tanh", out, (x,), lambda g: (g * (1 - out.value**2),))


def neuron_gradients(w1, w2, b, x1, x2, y):
    w1, w2, b = Value(w1), Value(w2), Value(b)
    with Tape() as tape:
        tape.watch(w1)
        tape.watch(w2)
        tape.watch(b)
        L = (tanh(w1 * x1 + w2 * x2 + b) - y) ** 2
    return tape.gradient(L, [w1, w2, b])
'''],
    "l07_ex4": ['''
def linear_hinge_gradients(w1, w2, b, xs, ys, alpha):
    w1, w2, b = Value(w1), Value(w2), Value(b)
    with Tape() as tape:
        tape.watch(w1)
        tape.watch(w2)
        tape.watch(b)
        total = 0.0
        for (x1, x2), y in zip(xs, ys):
            total = total + relu(1 - y * (w1 * x1 + w2 * x2 + b))
        L = total * (1 / len(xs)) + alpha * (w1**2 + w2**2 + b**2)
    return tape.gradient(L, [w1, w2, b])
'''],
    "l07_ex5": ['''
def train_losses(values, xs, ys, learning_rate, steps, kit=OURS):
    leaf, tape_class, relu_fn = kit
    params = [leaf(v) for v in values]
    losses = []
    for _ in range(steps):
        with tape_class() as tape:
            for p in params:
                tape.watch(p)
            loss = hinge_loss(params, xs, ys, relu_fn)
        grads = tape.gradient(loss, params)
        for p, g in zip(params, grads):
            p.assign_sub(learning_rate * g)
        losses.append(float(loss))
    return [losses, [float(p) for p in params]]
'''],
    "l07_ex6": ['''
def unbroadcast(grad, shape):
    while grad.ndim > len(shape):
        grad = grad.sum(axis=0)
    for axis in range(len(shape)):
        if shape[axis] == 1 and grad.shape[axis] != 1:
            grad = grad.sum(axis=axis, keepdims=True)
    return grad
'''],
}

# The worked examples the statements give: (exercise, the call with every input, the numbers the
# statement states, how many digits it states them to, as an absolute tolerance)
EXAMPLES = [
    ("l01_ex1", "derivative_at(2.0)", 10.0, 1e-4),
    ("l03_ex2", "descent_gradients(5.0, 0.25, 3)", [6.0, 3.0, 1.5], 1e-4),
    ("l04_ex1", "[float(v) for v in np.asarray(quantized_gradient(tf.Variable([[0.3, 1.7], [-1.2, 0.8]]), "
                "tf.constant([[1.0, 2.0], [0.5, -1.0]]), tf.constant([[1.0, 0.0], [0.0, 1.0]])))"
                "[[0, 1], [1, 0]]]", [0.0, 0.0], 0),
    ("l04_ex3", "scaled_tanh_gradients(tf.Variable(0.5), tf.constant([1.0, -2.0]))",
     [[0.3634, -0.3199], 2.0], 1e-4),
    ("l04_ex4", "truncated_gradient(tf.Variable(0.8, dtype=tf.float64), "
                "tf.constant([0.5, -0.3, 0.9, 0.1, -0.7, 0.4], dtype=tf.float64), 2)", 0.1026, 1e-4),
    ("l04_ex4", "truncated_gradient(tf.Variable(0.8, dtype=tf.float64), "
                "tf.constant([0.5, -0.3, 0.9, 0.1, -0.7, 0.4], dtype=tf.float64), 3)", 0.2254, 1e-4),
    ("l04_ex4", "truncated_gradient(tf.Variable(0.8, dtype=tf.float64), "
                "tf.constant([0.5, -0.3, 0.9, 0.1, -0.7, 0.4], dtype=tf.float64), 6)", 0.2514, 1e-4),
    ("l04_ex5", "lookahead_gradient(tf.Variable([1.0, -0.5]), tf.constant([[1.0, 2.0], [0.5, -1.0], "
                "[2.0, 0.3]]), tf.constant([1.0, 0.0, 2.0]), 0.3)", [0.879, 0.261], 1e-3),
    ("l05_ex1", "first_and_second_derivative(1.0)", [2.2232, 3.0026], 1e-4),
    ("l06_ex2", "train_linear(tf.Variable([[0.0]]), tf.Variable([0.0]), "
                "tf.constant([[-1.0], [-0.5], [0.0], [0.5], [1.0], [1.5]]), "
                "tf.constant([[-3.1], [-1.9], [-1.2], [0.1], [0.9], [2.1]]), 0.1, 60)[0]", 3.315, 1e-3),
    ("l06_ex2", "float(train_linear(tf.Variable([[0.0]]), tf.Variable([0.0]), "
                "tf.constant([[-1.0], [-0.5], [0.0], [0.5], [1.0], [1.5]]), "
                "tf.constant([[-3.1], [-1.9], [-1.2], [0.1], [0.9], [2.1]]), 0.1, 60)[-1] < 0.014)", 1.0, 0),
    ("l07_ex1", "quotient_gradients(0.5, 2.0)", [-0.8415, -0.3454], 1e-4),
]
