"""Notebook cells in the style of TensorFlow's guides, for the differential run against
TensorFlow (``record_guides.py``).

Written for this project (not copied from the guides): each notebook exercises what one guide
teaches -- tensors, variables, modules and layers, a basic training loop, a custom training loop,
the introduction to autodiff and the advanced autodiff guide -- with cells a student would type.
The cells of a notebook share one namespace, as in Jupyter; what each cell prints, warns and
raises, and the repr of its last expression (what Jupyter displays), is compared.

Values are deterministic (no random initial weights: Keras layers get constant initializers or
assigned weights), so the printed numbers can be compared with TensorFlow's.
"""

NOTEBOOKS = {}

NOTEBOOKS["tensors"] = [
    "import numpy as np\nrank_0 = tf.constant(7)\nprint(rank_0)",
    "rank_1 = tf.constant([1.5, 2.0, 4.25])\nprint(rank_1)",
    "rank_2 = tf.constant([[1, 2], [3, 4], [5, 6]], dtype=tf.float16)\nprint(rank_2)",
    "rank_3 = tf.constant([[[0, 1], [2, 3]], [[4, 5], [6, 7]]])\nprint(rank_3)",
    "rank_2.numpy()",
    "np.array(rank_1)",
    "a = tf.constant([[1, 2], [3, 4]])\nb = tf.constant([[1, 1], [1, 1]])\n"
    "print(tf.add(a, b), '\\n')\nprint(tf.multiply(a, b), '\\n')\nprint(tf.matmul(a, b), '\\n')",
    "print(a + b, '\\n')\nprint(a * b, '\\n')\nprint(a @ b, '\\n')",
    "c = tf.constant([[4.0, 5.0], [10.0, 1.0]])\nprint(tf.reduce_max(c))\n"
    "print(tf.math.argmax(c))\nprint(tf.nn.softmax(c))",
    "tf.convert_to_tensor([1, 2, 3])",
    "tf.reduce_max([1, 2, 3])",
    "tf.reduce_max(np.array([1, 2, 3]))",
    "t = tf.zeros([3, 2, 4, 5])\nprint('dtype:', t.dtype)\nprint('ndim:', t.ndim)\n"
    "print('shape:', t.shape)\nprint('axis 0:', t.shape[0])\nprint('last axis:', t.shape[-1])\n"
    "print('size:', tf.size(t).numpy())",
    "tf.rank(t)",
    "tf.shape(t)",
    "r1 = tf.constant([0, 1, 1, 2, 3, 5, 8, 13, 21, 34])\nprint(r1.numpy())\n"
    "print('first:', r1[0].numpy())\nprint('second:', r1[1].numpy())\n"
    "print('last:', r1[-1].numpy())",
    "print('all', r1[:].numpy())\nprint('before 4', r1[:4].numpy())\n"
    "print('from 4', r1[4:].numpy())\nprint('2 to 6', r1[2:7].numpy())\n"
    "print('every other', r1[::2].numpy())\nprint('reversed', r1[::-1].numpy())",
    "m = tf.constant([[1., 2.], [3., 4.], [5., 6.]])\nprint(m[1, 1].numpy())\n"
    "print('second row:', m[1, :].numpy())\nprint('second column:', m[:, 1].numpy())\n"
    "print('last row:', m[-1, :].numpy())\nprint('without the first row:')\n"
    "print(m[1:, :].numpy(), '\\n')",
    "print(rank_3[:, :, 1])",
    "v = tf.constant([[1], [2], [3]])\nprint(v.shape)\nprint(v.shape.as_list())",
    "reshaped = tf.reshape(v, [1, 3])\nprint(v.shape)\nprint(reshaped.shape)",
    "print(tf.reshape(rank_3, [-1]))",
    "print(tf.reshape(rank_3, [2 * 2, 2]), '\\n')\nprint(tf.reshape(rank_3, [2, -1]))",
    "tf.reshape(rank_3, [7, -1])",
    "f64 = tf.constant([2.2, 3.3, 4.4], dtype=tf.float64)\nf16 = tf.cast(f64, dtype=tf.float16)\n"
    "u8 = tf.cast(f16, dtype=tf.uint8)\nprint(u8)",
    "x = tf.constant([1, 2, 3])\ny = tf.constant(2)\nz = tf.constant([2, 2, 2])\n"
    "print(tf.multiply(x, 2))\nprint(x * y)\nprint(x * z)",
    "col = tf.reshape(x, [3, 1])\nrow = tf.range(1, 5)\nprint(col, '\\n')\nprint(row, '\\n')\n"
    "print(tf.multiply(col, row))",
    "print(tf.broadcast_to(tf.constant([1, 2, 3]), [3, 3]))",
    "tf.constant([1, 2]) + tf.constant([1, 2, 3])",
    "tf.constant([1, 2]) + tf.constant([1.0, 2.0])",
    "tf.constant([1.5, 2.5]) + 1",
    "s = tf.constant(['Gray wolf', 'Quick brown fox'])\nprint(s)" ,
    "bools = tf.constant([True, False, True])\nprint(bools)\nprint(tf.reduce_any(bools))",
    "tf.constant(3.0).numpy()",
    "print(tf.constant([[1.0, 2.0], [3.0, 4.0]]).dtype)\nprint(tf.constant(1).dtype)\n"
    "print(tf.constant(1.0, dtype=tf.float64).dtype.name)",
    "print(f'{tf.constant([1, 2, 3])}')\nprint('{}'.format(tf.constant(2.5)))",
    "print(type(tf.constant(1.0)).__name__)\nprint(isinstance(tf.constant(1.0), tf.Tensor))",
    "tf.ones([2, 3], dtype=tf.int32)",
    "tf.zeros_like(tf.constant([[1.0, 2.0]]))",
    "tf.range(5)",
    "tf.linspace(0.0, 1.0, 5)",
    "tf.stack([tf.constant([1, 2]), tf.constant([3, 4])], axis=1)",
    "tf.concat([tf.ones([1, 2]), tf.zeros([2, 2])], axis=0)",
    "tf.transpose(tf.constant([[1, 2, 3], [4, 5, 6]]))",
    "tf.reduce_sum(tf.constant([[1, 2], [3, 4]]), axis=0)",
    "tf.reduce_mean(tf.constant([1, 2]))",
    "tf.reduce_mean(tf.constant([1.0, 2.0]))",
    "tf.where(tf.constant([True, False]), tf.constant([1, 2]), tf.constant([10, 20]))",
    "tf.math.exp(tf.constant([0.0, 1.0]))",
    "tf.sqrt(tf.constant([4.0, 9.0]))",
    "tf.cast(tf.constant([1.7, -1.7]), tf.int32)",
    "tf.constant([1, 2]) / tf.constant([2, 4])",
    "tf.constant([7, -7]) // 2",
    "tf.constant([7, -7]) % 3",
    "tf.abs(tf.constant([-1.5, 2.0]))",
    "-tf.constant([1, -2])",
    "tf.constant([1.0, 2.0]) > 1.5",
    "tf.constant([[1.0, 2.0]]) @ tf.constant([[3.0], [4.0]])",
]

NOTEBOOKS["variables"] = [
    "my_tensor = tf.constant([[1.0, 2.0], [3.0, 4.0]])\nmy_variable = tf.Variable(my_tensor)\n"
    "bool_variable = tf.Variable([False, False, False, True])\n"
    "complex_variable = tf.Variable([5 + 4j, 6 + 1j])",
    "print('Shape: ', my_variable.shape)\nprint('DType: ', my_variable.dtype)\n"
    "print('As NumPy: ', my_variable.numpy())",
    "print('A variable:', my_variable)\nprint('\\nViewed as a tensor:', tf.convert_to_tensor(my_variable))\n"
    "print('\\nIndex of highest value:', tf.math.argmax(my_variable))",
    "print('\\nCopying and reshaping: ', tf.reshape(my_variable, [1, 4]))",
    "my_variable",
    "bool_variable",
    "a = tf.Variable([2.0, 3.0])\na.assign([1, 2])",
    "a.assign([1.0, 2.0, 3.0])",
    "a = tf.Variable([2.0, 3.0])\nb = tf.Variable(a)\na.assign([5, 6])\n"
    "print(a.numpy())\nprint(b.numpy())\nprint(a.assign_add([2, 3]).numpy())\n"
    "print(a.assign_sub([7, 9]).numpy())",
    "a = tf.Variable(my_tensor, name='Mark')\nb = tf.Variable(my_tensor + 1, name='Mark')\n"
    "print(a == b)",
    "print(a.name, b.name)",
    "step_counter = tf.Variable(1, trainable=False)\nprint(step_counter.trainable, step_counter.dtype)",
    "v = tf.Variable(2.5)\nv",
    "v.numpy()",
    "print(v)\nprint(v + 1)\nprint(v * v)",
    "print(type(v).__name__)",
    "v.assign(4)",
    "v.assign('hello')",
    "w = tf.Variable([[1, 2], [3, 4]])\nw[0, 1].assign(9)\nprint(w.numpy())",
    "w[1].assign([7, 8])\nw",
    "tf.Variable(1.0, dtype=tf.float64) + tf.constant(2.0)",
    "x = tf.Variable([1.0, 2.0])\nx.assign_add([1.0, 2.0, 3.0])",
    "print(x.shape, x.dtype.name, x.trainable)",
    "y = tf.Variable(tf.zeros([2, 2]))\ny.assign(tf.ones([2, 2]) * 3)\nprint(y)",
    "tf.Variable([1, 2], dtype=tf.float32)",
    "z = tf.Variable(5.0, name='zed')\nprint(z.name)\nz",
    "u = tf.Variable([1.0, 2.0, 3.0], shape=tf.TensorShape(None))\nu.assign([4.0, 5.0])\n"
    "print(u.shape)\nprint(u.numpy())",
]

NOTEBOOKS["modules"] = [
    "class Affine(tf.Module):\n"
    "  def __init__(self, name=None):\n"
    "    super().__init__(name=name)\n"
    "    self.slope = tf.Variable(1.5, name='slope')\n"
    "    self.offset = tf.Variable(-2.0, trainable=False, name='offset')\n"
    "  def __call__(self, x):\n"
    "    return self.slope * x + self.offset\n"
    "affine = Affine(name='affine')\n"
    "affine(tf.constant([1.0, 4.0]))",
    "print('trainable:', affine.trainable_variables)\n"
    "print('all:', affine.variables)",
    "print(affine.name)",
    "class Dense(tf.Module):\n"
    "  def __init__(self, in_features, out_features, name=None):\n"
    "    super().__init__(name=name)\n"
    "    self.w = tf.Variable(tf.ones([in_features, out_features]) * 0.5, name='w')\n"
    "    self.b = tf.Variable(tf.zeros([out_features]), name='b')\n"
    "  def __call__(self, x):\n"
    "    y = tf.matmul(x, self.w) + self.b\n"
    "    return tf.nn.relu(y)\n"
    "class TwoLayers(tf.Module):\n"
    "  def __init__(self, name=None):\n"
    "    super().__init__(name=name)\n"
    "    self.dense_1 = Dense(in_features=3, out_features=3)\n"
    "    self.dense_2 = Dense(in_features=3, out_features=2)\n"
    "  def __call__(self, x):\n"
    "    x = self.dense_1(x)\n"
    "    return self.dense_2(x)\n"
    "my_model = TwoLayers(name='two_layers')\n"
    "print('output:', my_model(tf.constant([[1.0, -1.0, 3.0]])))",
    "print('Submodules:', [type(m).__name__ for m in my_model.submodules])",
    "for var in my_model.variables:\n  print(var.name, var.shape)",
    "len(my_model.trainable_variables)",
    "my_model.dense_1.w.numpy()",
    "layer = tf.keras.layers.Dense(2, activation='relu', kernel_initializer='ones', "
    "bias_initializer='zeros')\nprint(layer.built)\nout = layer(tf.constant([[1.0, -2.0, 4.0]]))\n"
    "print(out)\nprint(layer.built)",
    "print([v.name for v in layer.trainable_variables])\nprint([v.shape for v in layer.weights])",
    "layer.kernel.numpy()",
    "layer.bias",
    "model = tf.keras.Sequential([\n"
    "    tf.keras.layers.Dense(3, activation='relu', kernel_initializer='ones'),\n"
    "    tf.keras.layers.Dense(1, kernel_initializer='ones'),\n"
    "])\nprint(model(tf.constant([[1.0, 2.0]])))\nprint(len(model.trainable_variables))",
    "model(tf.constant([[1.0, 2.0]]), training=False)",
    "print([v.shape for v in model.trainable_variables])",
    "class Scale(tf.keras.layers.Layer):\n"
    "  def __init__(self, **kwargs):\n"
    "    super().__init__(**kwargs)\n"
    "    self.factor = tf.Variable(3.0)\n"
    "  def call(self, x):\n"
    "    return x * self.factor\n"
    "scale = Scale()\nprint(scale(tf.constant([1.0, 2.0])))\nprint(len(scale.trainable_variables))",
    "bn = tf.keras.layers.BatchNormalization()\nx = tf.constant([[1.0, 2.0], [3.0, 6.0]])\n"
    "print(bn(x, training=True))\nprint(bn(x, training=False))",
    "print([v.name for v in bn.trainable_variables])\nprint(len(bn.non_trainable_variables))\n"
    "print(bn.moving_mean.numpy())",
    "layer2 = tf.keras.layers.Dense(2, kernel_initializer='zeros')\nlayer2(tf.ones([1, 3]))\n"
    "layer2(tf.ones([1, 4]))",
]

NOTEBOOKS["basic_training"] = [
    "TRUE_W = 3.0\nTRUE_B = 2.0\nNUM = 5\nx = tf.linspace(-2.0, 2.0, NUM)\n"
    "noise = tf.constant([0.1, -0.2, 0.05, 0.0, -0.1])\ny = x * TRUE_W + TRUE_B + noise\nprint(x)\nprint(y)",
    "class MyModel(tf.Module):\n"
    "  def __init__(self, **kwargs):\n"
    "    super().__init__(**kwargs)\n"
    "    self.w = tf.Variable(5.0)\n"
    "    self.b = tf.Variable(0.0)\n"
    "  def __call__(self, x):\n"
    "    return self.w * x + self.b\n"
    "model = MyModel()\nprint('Variables:', model.variables)\n"
    "assert model(3.0).numpy() == 15.0",
    "def loss(target_y, predicted_y):\n  return tf.reduce_mean(tf.square(target_y - predicted_y))\n"
    "print('Current loss: %1.6f' % loss(y, model(x)).numpy())",
    "def train(model, x, y, learning_rate):\n"
    "  with tf.GradientTape() as t:\n"
    "    current_loss = loss(y, model(x))\n"
    "  dw, db = t.gradient(current_loss, [model.w, model.b])\n"
    "  model.w.assign_sub(learning_rate * dw)\n"
    "  model.b.assign_sub(learning_rate * db)\n"
    "for epoch in range(10):\n"
    "  train(model, x, y, learning_rate=0.1)\n"
    "  print(f'Epoch {epoch:2d}: W={model.w.numpy():1.2f} b={model.b.numpy():1.2f}, "
    "loss={loss(y, model(x)):2.5f}')",
    "print(model.w)\nprint(model.b)",
    "class MyKerasModel(tf.keras.Model):\n"
    "  def __init__(self, **kwargs):\n"
    "    super().__init__(**kwargs)\n"
    "    self.w = tf.Variable(5.0)\n"
    "    self.b = tf.Variable(0.0)\n"
    "  def call(self, x):\n"
    "    return self.w * x + self.b\n"
    "keras_model = MyKerasModel()\nprint(keras_model(tf.constant([1.0, 2.0])))\n"
    "print(len(keras_model.trainable_variables))",
    "opt = tf.keras.optimizers.SGD(learning_rate=0.1)\n"
    "for step in range(5):\n"
    "  with tf.GradientTape() as tape:\n"
    "    l = loss(y, keras_model(x))\n"
    "  grads = tape.gradient(l, keras_model.trainable_variables)\n"
    "  opt.apply_gradients(zip(grads, keras_model.trainable_variables))\n"
    "  print(step, round(float(l), 4))",
    "mse = tf.keras.losses.MeanSquaredError()\nmse(y, keras_model(x))",
    "opt2 = tf.keras.optimizers.Adam(learning_rate=0.5)\nv = tf.Variable(1.0)\n"
    "for _ in range(3):\n"
    "  with tf.GradientTape() as tape:\n"
    "    l = (v - 4.0) ** 2\n"
    "  opt2.apply_gradients([(tape.gradient(l, v), v)])\n"
    "print(v.numpy())",
    "sgd = tf.keras.optimizers.SGD(learning_rate=0.1, momentum=0.9)\nv2 = tf.Variable([1.0, -1.0])\n"
    "for _ in range(3):\n"
    "  with tf.GradientTape() as tape:\n"
    "    l = tf.reduce_sum(v2 ** 2)\n"
    "  sgd.apply_gradients([(tape.gradient(l, v2), v2)])\n"
    "print(v2.numpy())",
    "sgd.apply_gradients([(tf.constant([1.0, 2.0, 3.0]), v2)])",
    "w = tf.Variable(2.0)\nb = tf.Variable(1.0)\n"
    "with tf.GradientTape() as tape:\n"
    "  pred = w * 3.0\n"
    "  l = (pred - 1.0) ** 2\n"
    "grads = tape.gradient(l, [w, b])\nprint(grads)",
    "opt3 = tf.keras.optimizers.SGD(0.1)\nopt3.apply_gradients(zip(grads, [w, b]))\n"
    "print(w.numpy(), b.numpy())",
]

NOTEBOOKS["custom_training"] = [
    "features = tf.constant([[5.1, 3.5], [4.9, 3.0], [6.2, 2.9], [5.9, 3.0], [6.9, 3.1], "
    "[5.0, 3.3]])\nlabels = tf.constant([0, 0, 1, 1, 2, 0])\nprint(features.shape, labels.dtype)",
    "model = tf.keras.Sequential([\n"
    "  tf.keras.layers.Dense(4, activation=tf.nn.relu, kernel_initializer='ones', "
    "bias_initializer='zeros'),\n"
    "  tf.keras.layers.Dense(3, kernel_initializer='zeros'),\n])\n"
    "predictions = model(features)\npredictions[:3]",
    "tf.nn.softmax(predictions[:2])",
    "print('Prediction:', tf.math.argmax(predictions, axis=1))\nprint('    Labels:', labels)",
    "loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)\n"
    "def loss(model, x, y, training):\n"
    "  y_ = model(x, training=training)\n"
    "  return loss_object(y_true=y, y_pred=y_)\n"
    "l = loss(model, features, labels, training=False)\nprint('Loss test:', l)",
    "def grad(model, inputs, targets):\n"
    "  with tf.GradientTape() as tape:\n"
    "    loss_value = loss(model, inputs, targets, training=True)\n"
    "  return loss_value, tape.gradient(loss_value, model.trainable_variables)\n"
    "loss_value, grads = grad(model, features, labels)\n"
    "print([None if g is None else g.shape for g in grads])",
    "optimizer = tf.keras.optimizers.SGD(learning_rate=0.01)\n"
    "print('Step: 0, Initial Loss: {}'.format(loss_value.numpy()))\n"
    "optimizer.apply_gradients(zip(grads, model.trainable_variables))\n"
    "print('Step: 1, Loss: {}'.format(loss(model, features, labels, training=True).numpy()))",
    "epoch_loss_avg = tf.keras.metrics.Mean()\n"
    "epoch_accuracy = tf.keras.metrics.SparseCategoricalAccuracy()\n"
    "for epoch in range(3):\n"
    "  loss_value, grads = grad(model, features, labels)\n"
    "  optimizer.apply_gradients(zip(grads, model.trainable_variables))\n"
    "  epoch_loss_avg.update_state(loss_value)\n"
    "  epoch_accuracy.update_state(labels, model(features, training=True))\n"
    "  print('Epoch {:03d}: Loss: {:.3f}, Accuracy: {:.3%}'.format(epoch, "
    "epoch_loss_avg.result(), epoch_accuracy.result()))",
    "epoch_loss_avg.result()",
    "epoch_loss_avg.reset_state()\nepoch_loss_avg.result()",
    "acc = tf.keras.metrics.Accuracy()\nacc.update_state([1, 2, 3], [1, 2, 4])\nacc.result().numpy()",
    "test_x = tf.constant([[5.0, 3.6], [6.7, 3.0]])\nlogits = model(test_x, training=False)\n"
    "prediction = tf.math.argmax(logits, axis=1, output_type=tf.int32)\nprint(prediction)",
    "sce = tf.keras.losses.SparseCategoricalCrossentropy()\n"
    "sce(tf.constant([1, 0]), tf.constant([[0.2, 0.8], [0.6, 0.4]]))",
    "tf.keras.losses.sparse_categorical_crossentropy(tf.constant([1, 0]), "
    "tf.constant([[1.0, 2.0], [0.5, 0.1]]), from_logits=True)",
    "tf.keras.metrics.sparse_categorical_accuracy(tf.constant([1, 0]), "
    "tf.constant([[0.2, 0.8], [0.3, 0.7]]))",
]

NOTEBOOKS["autodiff"] = [
    "x = tf.Variable(3.0)\nwith tf.GradientTape() as tape:\n  y = x**2\n"
    "dy_dx = tape.gradient(y, x)\ndy_dx.numpy()",
    "w = tf.Variable(tf.constant([[0.5, -1.0], [2.0, 0.25], [1.0, 1.0]]), name='w')\n"
    "b = tf.Variable(tf.zeros(2, dtype=tf.float32), name='b')\nx = [[1., 2., 3.]]\n"
    "with tf.GradientTape(persistent=True) as tape:\n  y = x @ w + b\n  loss = tf.reduce_mean(y**2)\n"
    "[dl_dw, dl_db] = tape.gradient(loss, [w, b])\nprint(w.shape)\nprint(dl_dw.shape)\nprint(dl_dw)",
    "my_vars = {'w': w, 'b': b}\ngrad = tape.gradient(loss, my_vars)\ngrad['b']",
    "layer = tf.keras.layers.Dense(2, activation='relu', kernel_initializer='ones')\n"
    "x = tf.constant([[1., 2., 3.]])\nwith tf.GradientTape() as tape:\n  y = layer(x)\n"
    "  loss = tf.reduce_mean(y**2)\ngrad = tape.gradient(loss, layer.trainable_variables)\n"
    "for var, g in zip(layer.trainable_variables, grad):\n  print(f'{var.name}, shape: {g.shape}')",
    "p = tf.Variable(1.5, name='p')\nq = tf.Variable(-2.0, name='q', trainable=False)\n"
    "r = tf.Variable(0.5, name='r') * 2.0\nc = tf.constant(4.0, name='c')\n"
    "with tf.GradientTape() as tape:\n  y = p * q + tf.sin(r) + c * p\n"
    "grad = tape.gradient(y, [p, q, r, c])\nfor g in grad:\n  print(g)",
    "[var.name for var in tape.watched_variables()]",
    "x = tf.constant(3.0)\nwith tf.GradientTape() as tape:\n  tape.watch(x)\n  y = x**2\n"
    "dy_dx = tape.gradient(y, x)\nprint(dy_dx.numpy())",
    "x0 = tf.Variable(0.0)\nx1 = tf.Variable(10.0)\n"
    "with tf.GradientTape(watch_accessed_variables=False) as tape:\n  tape.watch(x1)\n"
    "  y0 = tf.math.sin(x0)\n  y1 = tf.nn.softplus(x1)\n  y = y0 + y1\n  ys = tf.reduce_sum(y)\n"
    "grad = tape.gradient(ys, {'x0': x0, 'x1': x1})\nprint('dy/dx0:', grad['x0'])\n"
    "print('dy/dx1:', grad['x1'].numpy())",
    "x = tf.constant(3.0)\nwith tf.GradientTape() as tape:\n  tape.watch(x)\n  y = x * x\n"
    "  z = y * y\nprint(tape.gradient(z, y).numpy())",
    "x = tf.constant([2.0, -0.5])\nwith tf.GradientTape(persistent=True) as tape:\n  tape.watch(x)\n"
    "  y = tf.exp(x)\n  z = y * x\nprint(tape.gradient(z, x).numpy())\nprint(tape.gradient(y, x).numpy())\n"
    "del tape",
    "x = tf.constant(2.0)\nwith tf.GradientTape() as tape:\n  tape.watch(x)\n  y = x * x\n"
    "tape.gradient(y, x)\ntape.gradient(y, x)",
    "x = tf.Variable(2.0)\nwith tf.GradientTape(persistent=True) as tape:\n  y0 = x**2\n  y1 = 1 / x\n"
    "print(tape.gradient(y0, x).numpy())\nprint(tape.gradient(y1, x).numpy())",
    "x = tf.Variable(2.0)\nwith tf.GradientTape() as tape:\n  y0 = x**2\n  y1 = 1 / x\n"
    "print(tape.gradient({'y0': y0, 'y1': y1}, x).numpy())",
    "x = tf.Variable(2.)\nwith tf.GradientTape() as tape:\n  y = x * [3., 4.]\n"
    "print(tape.gradient(y, x).numpy())",
    "x = tf.linspace(-3.0, 3.0, 7)\nwith tf.GradientTape() as tape:\n  tape.watch(x)\n"
    "  y = tf.nn.sigmoid(x)\ndy_dx = tape.gradient(y, x)\nprint(dy_dx)",
    "x = tf.constant(1.0)\nv0 = tf.Variable(2.0)\nv1 = tf.Variable(2.0)\n"
    "with tf.GradientTape(persistent=True) as tape:\n  tape.watch(x)\n  if x > 0.0:\n    result = v0\n"
    "  else:\n    result = v1**2\ndv0, dv1 = tape.gradient(result, [v0, v1])\nprint(dv0)\nprint(dv1)",
    "dx = tape.gradient(result, x)\nprint(dx)",
    "x = tf.Variable(2.)\ny = tf.Variable(3.)\nwith tf.GradientTape() as tape:\n  z = y * y\n"
    "print(tape.gradient(z, x))",
    "x = tf.Variable(2.0)\nfor epoch in range(2):\n  with tf.GradientTape() as tape:\n"
    "    y = x + 1\n  print(type(x).__name__, ':', tape.gradient(y, x))\n  x = x + 1",
    "w = tf.Variable([0.5, 1.5, -1.0])\nwith tf.GradientTape() as tape:\n"
    "  e = tf.exp(w)\n  y = np.sum(e)\n  y = tf.constant(y) * 2.0\n"
    "print(tape.gradient(y, w))",
    "x = tf.constant(10)\nwith tf.GradientTape() as g:\n  g.watch(x)\n  y = x * x\n"
    "print(g.gradient(y, x))",
    "x0 = tf.Variable(3.0)\nx1 = tf.Variable(0.0)\nwith tf.GradientTape() as tape:\n"
    "  x1.assign_add(x0)\n  y = x1**2\nprint(tape.gradient(y, x0))",
    "image = tf.Variable([[[0.5, 0.0, 0.0]]])\ndelta = tf.Variable(0.1)\n"
    "with tf.GradientTape() as tape:\n  new_image = tf.image.adjust_contrast(image, delta)\n"
    "try:\n  print(tape.gradient(new_image, [image, delta]))\n  assert False\n"
    "except LookupError as e:\n  print(f'{type(e).__name__}: {e}')",
    "x = tf.Variable([2., 2.])\ny = tf.Variable(3.)\nwith tf.GradientTape() as tape:\n  z = y**2\n"
    "print(tape.gradient(z, x, unconnected_gradients=tf.UnconnectedGradients.ZERO))",
    "x = tf.Variable(1.0)\nwith tf.GradientTape() as tape:\n  y = tf.stop_gradient(x) * x\n"
    "tape.gradient(y, x)",
    "x = tf.Variable(3)\nwith tf.GradientTape() as tape:\n  y = x * 2\nprint(tape.gradient(y, x))",
    "x = tf.Variable([1.0, 2.0])\nwith tf.GradientTape() as tape:\n  y = x * x\n"
    "tape.gradient(y, x, output_gradients=tf.constant([1.0, 0.5]))",
    "x = tf.Variable(2.0)\nwith tf.GradientTape() as tape:\n  y = tf.round(x) + tf.floor(x) + tf.sign(x)\n"
    "print(tape.gradient(y, x))",
    "x = tf.Variable([1.0, 5.0, 3.0])\nwith tf.GradientTape() as tape:\n  y = tf.reduce_max(x)\n"
    "print(tape.gradient(y, x))",
    "x = tf.Variable(2.0)\nwith tf.GradientTape() as tape:\n  y = tf.cast(x, tf.int32) * 2\n"
    "print(tape.gradient(y, x))",
    "x = tf.Variable(2.0)\nwith tf.GradientTape() as tape:\n  y = x * 2\ntape.gradient(None, x)",
]

NOTEBOOKS["advanced_autodiff"] = [
    "x = tf.Variable(2.0)\ny = tf.Variable(3.0)\nwith tf.GradientTape() as t:\n  x_sq = x * x\n"
    "  with t.stop_recording():\n    y_sq = y * y\n  z = x_sq + y_sq\ngrad = t.gradient(z, {'x': x, 'y': y})\n"
    "print('dz/dx:', grad['x'])\nprint('dz/dy:', grad['y'])",
    "x = tf.Variable(2.0)\ny = tf.Variable(3.0)\nreset = True\nwith tf.GradientTape() as t:\n"
    "  y_sq = y * y\n  if reset:\n    t.reset()\n  z = x * x + y_sq\n"
    "grad = t.gradient(z, {'x': x, 'y': y})\nprint('dz/dx:', grad['x'])\nprint('dz/dy:', grad['y'])",
    "@tf.custom_gradient\ndef halve_gradient(y):\n  def grad(dy):\n"
    "    return dy * 0.5\n  return tf.identity(y), grad\nv = tf.Variable(3.0)\n"
    "with tf.GradientTape() as t:\n  out = halve_gradient(v * v) + v\nprint(t.gradient(out, v))",
    "x0 = tf.constant(0.0)\nx1 = tf.constant(0.0)\nwith tf.GradientTape() as tape0, "
    "tf.GradientTape() as tape1:\n  tape0.watch(x0)\n  tape1.watch(x1)\n  y0 = tf.math.sin(x0)\n"
    "  y1 = tf.nn.sigmoid(x1)\n  y = y0 + y1\n  ys = tf.reduce_sum(y)\n"
    "print(tape0.gradient(ys, x0).numpy())\nprint(tape1.gradient(ys, x1).numpy())",
    "x = tf.Variable(1.0)\nwith tf.GradientTape() as t2:\n  with tf.GradientTape() as t1:\n"
    "    y = x * x * x\n  dy_dx = t1.gradient(y, x)\nd2y_dx2 = t2.gradient(dy_dx, x)\n"
    "print('dy_dx:', dy_dx.numpy())\nprint('d2y_dx2:', d2y_dx2.numpy())",
    "x = tf.constant([[1.0, -2.0], [0.5, 3.0]])\nlayer = tf.keras.layers.Dense(2, activation=tf.nn.relu, "
    "kernel_initializer='ones')\nwith tf.GradientTape() as t2:\n  with tf.GradientTape() as t1:\n"
    "    x_ = tf.identity(x)\n    t1.watch(x_)\n    t2.watch(x_)\n    y = layer(x_)\n    out = tf.reduce_sum(layer(x_)**2)\n"
    "  g1 = t1.gradient(out, x_)\n  g1_mag = tf.norm(g1)\ndg1_mag = t2.gradient(g1_mag, layer.kernel)\n"
    "print(g1.numpy())\nprint(dg1_mag)",
    "x = tf.linspace(-3.0, 3.0, 7)\ndelta = tf.Variable(0.0)\nwith tf.GradientTape() as tape:\n"
    "  y = tf.nn.sigmoid(x + delta)\ndy_dx = tape.jacobian(y, delta)\nprint(y.shape)\nprint(dy_dx.shape)\n"
    "print(dy_dx)",
    "x = tf.constant([[1.0, 2.0, -1.0], [0.5, -0.5, 2.0]])\n"
    "layer = tf.keras.layers.Dense(2, activation=tf.nn.elu, kernel_initializer='ones')\n"
    "with tf.GradientTape(persistent=True) as tape:\n  y = layer(x)\n"
    "j = tape.jacobian(y, layer.kernel)\nprint(j.shape)\nprint(tf.reduce_sum(j, axis=[0, 1]))",
    "g = tape.gradient(y, layer.kernel)\nprint(g)\nj_sum = tf.reduce_sum(j, axis=[0, 1])\n"
    "delta = tf.reduce_max(abs(g - j_sum)).numpy()\nassert delta < 1e-3\nprint('delta:', delta)",
    "x = tf.constant([[1.0, 2.0], [3.0, -1.0]])\nlayer1 = tf.keras.layers.Dense(3, activation=tf.nn.relu, "
    "kernel_initializer='ones')\nlayer2 = tf.keras.layers.Dense(1, kernel_initializer='ones')\n"
    "with tf.GradientTape() as t2:\n  with tf.GradientTape() as t1:\n    x_ = layer1(x)\n    y = layer2(x_)\n"
    "    loss = tf.reduce_mean(y**2)\n  g = t1.gradient(loss, layer1.kernel)\nh = t2.jacobian(g, layer1.kernel)\n"
    "print(f'layer.kernel.shape: {layer1.kernel.shape}')\nprint(f'h.shape: {h.shape}')",
    "n_params = tf.reduce_prod(layer1.kernel.shape)\ng_vec = tf.reshape(g, [n_params, 1])\n"
    "h_mat = tf.reshape(h, [n_params, n_params])\nprint(h_mat)",
    "x = tf.constant([[1.0, -1.0, 2.0], [0.5, 3.0, -2.0]])\nlayer1 = tf.keras.layers.Dense(4, "
    "activation=tf.nn.elu, kernel_initializer='ones')\nlayer2 = tf.keras.layers.Dense(3, "
    "activation=tf.nn.elu, kernel_initializer='ones')\nwith tf.GradientTape(persistent=True, "
    "watch_accessed_variables=False) as tape:\n  tape.watch(x)\n  y = layer1(x)\n  y = layer2(y)\n"
    "print(y.shape)\nj = tape.jacobian(y, x)\nprint(j.shape)",
    "jb = tape.batch_jacobian(y, x)\nprint(jb.shape)\nprint(jb[0])",
    "def diag(j):\n  return tf.stack([j[i, :, i, :] for i in range(j.shape[0])])\n"
    "print(tf.reduce_max(abs(diag(j) - jb)).numpy())",
    "x = tf.Variable([1.0, 2.0])\nwith tf.GradientTape() as tape:\n  y = x * 2.0\n"
    "tape.batch_jacobian(y, x)",
    "x = tf.Variable([[1.0, 2.0]])\nwith tf.GradientTape() as tape:\n  y = tf.ones([1, 3])\n"
    "tape.batch_jacobian(y, x)",
    "x = tf.constant([1.0, 2.0])\nwith tf.GradientTape() as tape:\n  tape.watch(x)\n  y = x ** 3\n"
    "tape.jacobian(y, x, unconnected_gradients=tf.UnconnectedGradients.ZERO)",
    "with tf.GradientTape() as t:\n  pass\nwith t.stop_recording():\n  pass",
    "t = tf.GradientTape()\nwith t.stop_recording():\n  pass",
    "x = tf.Variable(2.0)\nwith tf.GradientTape() as tape:\n  y = x * x\n  g = tape.gradient(y, x)\nprint(g)",
    "x = tf.Variable(3.0)\nwith tf.GradientTape(persistent=True) as tape:\n  y = x * x\n"
    "  g = tape.gradient(y, x)\nprint(g)\nprint(tape.gradient(g, x))",
    "primal = tf.constant(1.1)\ntangent = tf.constant(1.0)\n"
    "with tf.autodiff.ForwardAccumulator(primal, tangent) as acc:\n  y = primal ** 3\n"
    "print(acc.jvp(y))",
    "x = tf.Variable([1.0, -1.0])\nwith tf.GradientTape() as t3:\n  with tf.GradientTape() as t2:\n"
    "    with tf.GradientTape() as t1:\n      y = tf.reduce_sum(tf.nn.relu(x) * x)\n"
    "    g1 = t1.gradient(y, x)\n  g2 = t2.gradient(g1, x)\ng3 = t3.gradient(g2, x)\nprint(g1)\nprint(g2)\nprint(g3)",
    "x = tf.Variable(0.0)\nwith tf.GradientTape() as t2:\n  with tf.GradientTape() as t1:\n"
    "    y = tf.nn.elu(x)\n  g = t1.gradient(y, x)\nprint(g, t2.gradient(g, x))",
    "x = tf.Variable([0.0, 6.0, 3.0])\nwith tf.GradientTape() as t:\n  y = tf.nn.relu6(x)\n"
    "print(t.gradient(y, x))",
    "x = tf.Variable([1.0, 2.0])\nwith tf.GradientTape() as tape:\n  y = x * x\n"
    "tape.gradient(y, x, output_gradients=tf.constant([1.0, 2.0, 3.0]))",
    "x = tf.constant([1, 2])\nwith tf.GradientTape() as tape:\n  tape.watch(x)\n  y = x * x\n"
    "print(tape.gradient(y, x))",
]

NOTEBOOKS["printing_and_errors"] = [
    "import sys\nbig = tf.range(2000)\nprint(big)",
    "tf.reshape(tf.range(24, dtype=tf.float32), [2, 3, 4])",
    "print(tf.reshape(tf.range(1200), [40, 30]))",
    "tf.constant([1, 2], dtype=tf.int64)",
    "tf.constant([0.1, 0.25], dtype=tf.float16)",
    "tf.constant([True, False])",
    "tf.constant(0.1)",
    "tf.constant(0.1, dtype=tf.float64)",
    "tf.constant([[1e-8, 1e8]])",
    "tf.constant([1.0, float('nan'), float('inf')])",
    "print(tf.constant([1.0, -0.0, 3.5]))",
    "print(tf.Variable([[1.5, 2.0], [3.0, 4.25]]))",
    "tf.Variable(7)",
    # (tf.print is not here: TF writes it at the file-descriptor level, which this harness
    # does not capture; tests/minitape/test_fidelity_printing.py has TF's recorded text)
    "print(tf.TensorShape([2, None]))\nprint(tf.TensorShape(None))\nprint(tf.constant([[1, 2]]).shape)",
    "tf.constant([[1, 2]]).shape",
    "tf.constant([[1, 2]]).shape == (1, 2)",
    "tf.constant([[1, 2]]).shape.rank",
    "print(tf.float32, tf.int32, tf.bool)\nprint(repr(tf.float64))",
    "tf.float32.is_floating, tf.int32.is_integer, tf.float32.max",
    "tf.constant([1, 2, 3])[5]",
    "tf.constant([1, 2, 3])[1.0]",
    "tf.constant([[1, 2], [3, 4]])[:, 3]",
    "tf.reduce_sum(tf.constant([1.0, 2.0]), axis=1)",
    "tf.nn.softmax(tf.constant([1, 2]))",
    "tf.constant([True]) + tf.constant([False])",
    "tf.reduce_sum(tf.constant([True, False]))",
    "tf.matmul(tf.ones([2, 3]), tf.ones([2, 3]))",
    "tf.matmul(tf.ones([2, 3]), tf.ones([3, 2], dtype=tf.float64))",
    "tf.constant([1, 2]) * 0.5",
    "tf.constant([1, None])",
    "tf.constant([1, 'a'])",
    "tf.cast(tf.constant([1.5]), tf.string)",
    "tf.reshape(tf.ones([2, 3]), [4, 2])",
    "tf.Variable(1.0).assign_add(tf.constant(1, dtype=tf.int32))",
    "tf.zeros([2, -1])",
    "tf.ones([2, 2]) @ tf.ones([3])",
    "tf.transpose(tf.ones([2, 3]), perm=[0, 1, 2])",
    "tf.gather(tf.constant([1, 2, 3]), [5])",
    "tf.concat([tf.ones([2, 2]), tf.ones([2, 3])], axis=0)",
    "tf.stack([tf.ones([2]), tf.ones([3])])",
    "tf.squeeze(tf.ones([2, 1]), axis=0)",
    "tf.one_hot([0, 2], 3)",
    "tf.argmax(tf.constant([[1.0, 5.0], [7.0, 2.0]]), axis=1)",
    "tf.math.top_k(tf.constant([1.0, 4.0, 2.0]), k=2)",
    "tf.clip_by_value(tf.constant([-2.0, 0.5, 3.0]), -1.0, 1.0)",
    "tf.random.set_seed(1)\nprint(tf.random.normal([2]).shape, tf.random.uniform([3], dtype=tf.float64).dtype)",
    "tf.eye(2)",
    "tf.fill([2, 2], 7)",
    "tf.range(1, 10, 3)",
    "tf.range(0.0, 1.0, 0.25)",
    "tf.linspace(0, 1, 3)",
    "tf.size(tf.ones([2, 3]))",
    "len(tf.ones([4, 2]))",
    "float(tf.constant(2.5)), int(tf.constant(3)), bool(tf.constant(True))",
    "bool(tf.constant([1, 2]))",
    "for row in tf.constant([[1, 2], [3, 4]]):\n  print(row)",
    "list(tf.constant([1.5, 2.5]))",
    "x = tf.Variable(1.0)\nx.numpy(), x.trainable, x.shape, x.dtype",
    "x = tf.Variable([1.0, 2.0])\nwith tf.GradientTape() as tape:\n  y = tf.reduce_sum(x ** 2)\n"
    "g = tape.gradient(y, x)\ng",
    "tape.gradient(y, x)",
    "with tf.GradientTape() as tape:\n  y = x * 2\ntape.gradient(y, 3.0)",
    "with tf.GradientTape() as tape:\n  y = x * 2\ntape.gradient(y, [x, None])",
    "with tf.GradientTape() as tape:\n  tape.watch(5.0)",
    "with tf.GradientTape() as tape:\n  tape.watch(tf.constant([1, 2]))\n  tape.watch(tf.constant(3))",
    "i = tf.Variable(3)\nwith tf.GradientTape() as tape:\n  j = tf.Variable(4)\n  y = tf.cast(i, tf.float32) * 2.0\n"
    "print(tape.gradient(y, i))\nprint([v.name for v in tape.watched_variables()])",
    "with tf.GradientTape() as tape:\n  y = tf.constant(1.0) / tf.constant(0.0)\n  z = tf.math.log(tf.constant(0.0))\n"
    "print(y, z)",
    "tf.constant(1e40)",
    "tf.constant(1e40, dtype=tf.float32)",
    "tf.constant(3.0) ** 200",
    "tf.constant([2 ** 31])",
    "tf.constant(np.float64(1.5))",
    "tf.constant([np.array([1.0, 2.0]), np.array([3.0, 4.0])])",
    "tf.constant([tf.constant(1.0), tf.constant(2.0)])",
    "tf.convert_to_tensor([tf.constant(1.0), tf.constant(2.0)])",
    "tf.constant(1) + tf.constant(1.0)",
    "tf.add(1, 2)",
    "tf.add(1.5, 2)",
    "tf.multiply([1, 2], [3, 4])",
    "tf.keras.layers.Dense(0)",
    "tf.keras.layers.Dense(2)(tf.ones([3]))",
    "tf.keras.optimizers.SGD(learning_rate=0.1, weight_decay=0.1)",
    "tf.keras.optimizers.SGD(0.1).apply_gradients([(None, tf.Variable(1.0))])",
    "tf.keras.optimizers.SGD(0.1).apply_gradients([(tf.constant(1.0), tf.constant(2.0))])",
]


# ---- issue 30: the classes of the third fidelity round, one notebook per class -------------
# (their counts before and after are printed per notebook by record_guides.py --check)

NOTEBOOKS["sparse_gradients"] = [
    # the gradient of a gather (axis 0) is an IndexedSlices: type, printed form, parts
    "v = tf.Variable([[1., 2.], [3., 4.], [5., 6.]])\nwith tf.GradientTape() as tape:\n"
    "    y = tf.reduce_sum(tf.gather(v, [0, 2, 0]) ** 2)\ng = tape.gradient(y, v)\n"
    "print(type(g).__name__)\nprint(g)",
    "print(g.values)\nprint(g.indices)\nprint(g.dense_shape)\nprint(g.shape, g.dtype)",
    "tf.convert_to_tensor(g)",
    "print(isinstance(g, tf.IndexedSlices), isinstance(g, tf.Tensor), tf.is_tensor(g))",
    "g",
    # what it supports: operations densify it, Python operators do not apply, unary minus
    "g * 2",
    "g + g",
    "print(type(-g).__name__)\nprint(-g)",
    "tf.multiply(g, 2.)",
    "tf.add(g, g)",
    "tf.reduce_sum(g)",
    "tf.constant(2.) * g",
    "tf.norm(g)",
    "g.numpy()",
    "g[0]",
    "len(g)",
    "np.asarray(g).dtype",
    "g == g",
    "bool(g)",
    "print(tf.identity(g))",
    "print(tf.cast(g, tf.float64))",
    "print(tf.clip_by_norm(g, 1.))",
    "print(tf.clip_by_value(g, 0., 3.))",
    # which gradients are sparse: watched tensors too; accumulation; axis; identity
    "x = tf.constant([1., 2., 3.])\nwith tf.GradientTape() as tape:\n    tape.watch(x)\n"
    "    y = tf.gather(x, [1, 1])\nprint(tape.gradient(y, x))",
    "with tf.GradientTape() as tape:\n    tape.watch(x)\n    y = tf.reduce_sum(tf.gather(x, [1, 1])) + x[0]\n"
    "tape.gradient(y, x)",
    "with tf.GradientTape() as tape:\n"
    "    y = tf.reduce_sum(tf.gather(v, [1])) + tf.reduce_sum(tf.gather(v, [2, 1]))\n"
    "print(tape.gradient(y, v))",
    "with tf.GradientTape() as tape:\n    y = tf.reduce_sum(tf.gather(v, [1])) + tf.reduce_sum(v)\n"
    "tape.gradient(y, v)",
    "with tf.GradientTape() as tape:\n    y = tf.reduce_sum(tf.gather(v, [1], axis=1))\ntape.gradient(y, v)",
    "with tf.GradientTape() as tape:\n    y = tf.reduce_sum(tf.nn.embedding_lookup(v, [[1, 2], [0, 0]]))\n"
    "print(tape.gradient(y, v))",
    "with tf.GradientTape() as tape:\n    y = tf.reduce_sum(tf.gather(v * 2., [1]))\ntape.gradient(y, v)",
    "with tf.GradientTape() as tape:\n    y = tf.reduce_sum(tf.gather(tf.identity(v), [1]))\n"
    "print(tape.gradient(y, v))",
    "w = tf.Variable(tf.ones([4, 2]))\nwith tf.GradientTape() as tape:\n"
    "    y = tf.reduce_sum(tf.gather(w, tf.constant([3, 1], dtype=tf.int64)))\nprint(tape.gradient(y, w))",
    "with tf.GradientTape() as tape:\n    y = tf.reduce_sum(tf.gather(v, [[0, 1], [2, 2]]))\n"
    "g2 = tape.gradient(y, v)\nprint(g2.indices)\nprint(g2.values.shape)",
    "with tf.GradientTape() as tape:\n    y = tf.gather(v, 1)\nprint(tape.gradient(y, v))",
    "with tf.GradientTape() as tape:\n    y = tf.reduce_sum(tf.gather(v, [2]))\n"
    "tape.gradient(y, v, unconnected_gradients=tf.UnconnectedGradients.ZERO).dense_shape",
    # as a target, and under a second tape
    "with tf.GradientTape(persistent=True) as tape:\n    y = tf.reduce_sum(tf.gather(v, [1]) ** 2)\n"
    "    g = tape.gradient(y, v)\ntape.gradient(g, v)",
    "print(tape.gradient(g.values, v))",
    "with tf.GradientTape() as t2:\n    with tf.GradientTape() as t1:\n"
    "        y = tf.reduce_sum(tf.gather(v, [1]) ** 3)\n    g = t1.gradient(y, v)\n"
    "    z = tf.reduce_sum(g.values)\nprint(t2.gradient(z, v))",
    "with tf.GradientTape() as t2:\n    with tf.GradientTape() as t1:\n"
    "        y = tf.reduce_sum(tf.gather(v, [1]))\n    g = t1.gradient(y, v)\n"
    "    z = tf.reduce_sum(g.values)\nprint(t2.gradient(z, v))",
    "with tf.GradientTape() as t2:\n    with tf.GradientTape() as t1:\n"
    "        y = tf.reduce_sum(tf.gather(v, [1, 0]) ** 3)\n    g = t1.gradient(y, v)\n"
    "    z = tf.reduce_sum(tf.convert_to_tensor(g) ** 2)\nprint(t2.gradient(z, v))",
    # Jacobians are dense (TF warns about densifying inside its vectorized loop)
    "with tf.GradientTape() as tape:\n    y = tf.gather(v, [0])\nprint(tape.jacobian(y, v).shape)",
    # optimizers apply it sparsely (Keras 3: SGD scatters, Adam squares the slices)
    "with tf.GradientTape() as tape:\n    y = tf.reduce_sum(tf.gather(v, [0, 0]) ** 2)\n"
    "g = tape.gradient(y, v)\nopt = tf.keras.optimizers.SGD(0.1)\nopt.apply_gradients([(g, v)])\n"
    "print(v.numpy())",
    "opt = tf.keras.optimizers.SGD(0.1, momentum=0.9)\nopt.apply_gradients([(g, v)])\n"
    "opt.apply_gradients([(g, v)])\nprint(v.numpy())",
    "opt = tf.keras.optimizers.Adam(0.1)\nopt.apply_gradients([(g, v)])\nopt.apply_gradients([(g, v)])\n"
    "print(v.numpy())",
    # made by hand
    "s = tf.IndexedSlices(tf.constant([[1., 2.]]), tf.constant([1]), tf.constant([3, 2]))\nprint(s)\n"
    "tf.convert_to_tensor(s)",
    "tf.convert_to_tensor(tf.IndexedSlices(tf.constant([[1., 2.]]), tf.constant([1])))",
    "w.scatter_sub(tf.IndexedSlices(tf.constant([[1., 2.]]), tf.constant([1])))\nprint(w.numpy())",
    "tf.gather(v, [5])",
]

NOTEBOOKS["printing_digits"] = [
    # compared as exact text (tfdiff.EXACT_TEXT): float32 digits and NumPy's line wrapping
    "print(tf.linspace(0., 1., 11))",
    "tf.linspace(0., 1., 11)",
    "print(tf.linspace(0., 1., 11) * 2.)",
    "tf.linspace(-1., 1., 7)",
    "tf.linspace(0., 10., 4)",
    "print(tf.linspace(0., 1., 1001))",
    "tf.linspace(0., 1., 101)",
    "tf.linspace(tf.constant(0., tf.float64), 1., 11)",
    "v = tf.Variable(tf.linspace(0., 1., 11))\nv",
    "print(v)",
    "print(tf.range(0., 1., 0.1))",
    "tf.range(10.0, 0., -1.5)",
    "print(tf.constant([0.1, 0.2, 0.3]) * 3)",
    "tf.constant([1/3, 2/3])",
    "tf.constant(1/3)",
    "x = tf.constant([1.1, 2.2, 3.3, 4.4, 5.5, 6.6, 7.7, 8.8, 9.9, 10.1, 11.11, 12.12])\nprint(x)\nx",
    # format() of a Variable is object.__format__ (a Tensor formats its NumPy value)
    "format(v, '.2f')",
    "format(tf.Variable(1.5), '.2f')",
    "f'{tf.Variable(1.5):.2f}'",
    "f'{tf.Variable(1.5)}'",
    "format(tf.Variable([1.5, 2.]), '')",
    "format(tf.constant(1.5), '.2f')",
    # a tf.Module shows Python's default repr
    "class Net(tf.Module):\n    def __init__(self):\n        super().__init__()\n"
    "        self.a = Block()\n        self.b = Block(name='b')\n"
    "class Block(tf.Module):\n    pass\nnet = Net()\nprint(net.submodules)\nnet.submodules",
    "net",
    "print(net)",
    # Keras 3 layers show their name and whether they are built
    "d = tf.keras.layers.Dense(2)\nprint(d)\nd(tf.ones([1, 3]))\nd",
    "tf.keras.Sequential([tf.keras.layers.Dense(2)])",
]

NOTEBOOKS["kink_warnings"] = [
    # gradient rules at kinks compute inf/nan silently, as TF does, even when every warning is
    # asked for (a student's own NumPy code still warns)
    "import warnings\nwarnings.simplefilter('always')\nx = tf.constant([-1., 0., 2.])\n"
    "with tf.GradientTape() as t3:\n    t3.watch(x)\n    with tf.GradientTape() as t2:\n"
    "        t2.watch(x)\n        with tf.GradientTape() as t1:\n            t1.watch(x)\n"
    "            y = tf.nn.leaky_relu(x) ** 2\n        g1 = t1.gradient(y, x)\n"
    "    g2 = t2.gradient(g1, x)\nprint(t3.gradient(g2, x))",
    "import warnings\nwarnings.simplefilter('always')\nx = tf.constant([-1., 0., 0.5, 2.])\n"
    "with tf.GradientTape() as t3:\n    t3.watch(x)\n    with tf.GradientTape() as t2:\n"
    "        t2.watch(x)\n        with tf.GradientTape() as t1:\n            t1.watch(x)\n"
    "            y = tf.clip_by_value(x, 0., 1.) ** 2\n        g1 = t1.gradient(y, x)\n"
    "    g2 = t2.gradient(g1, x)\nprint(t3.gradient(g2, x))",
    "import warnings\nwarnings.simplefilter('always')\nx = tf.constant([-2., 1.])\n"
    "p = tf.constant(-1.)\nwith tf.GradientTape() as t:\n    t.watch([x, p])\n    y = x ** p\n"
    "print(t.gradient(y, [x, p]))",
    "import warnings\nwarnings.simplefilter('always')\nx = tf.constant([0., 1.])\n"
    "with tf.GradientTape() as t:\n    t.watch(x)\n    y = tf.norm(x - x)\nprint(t.gradient(y, x))",
    "import warnings\nwarnings.simplefilter('always')\nx = tf.constant([1., 0.])\n"
    "with tf.GradientTape() as t:\n    t.watch(x)\n    y = tf.abs(x) ** 0.5\nprint(t.gradient(y, x))",
    "import warnings\nwarnings.simplefilter('always')\nnp.log(np.array([0.]))",
    # Keras 3 warns about input_shape on a layer
    "model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,), "
    "kernel_initializer='ones')])\nprint(model(tf.ones([1, 3])))",
    "layer = tf.keras.layers.Dense(2, input_shape=(3,))",
    "layer = tf.keras.layers.Dense(2, input_dim=3)",
    # forward mode: an integer primal warns
    "x = tf.constant(2)\nwith tf.autodiff.ForwardAccumulator(x, tf.constant(1)) as acc:\n"
    "    y = x * x\nprint(acc.jvp(y))",
    "v = tf.Variable(3)\nwith tf.autodiff.ForwardAccumulator(v, tf.constant(1)) as acc:\n"
    "    y = v * 2\nprint(acc.jvp(y))",
    "x = tf.constant(1.)\nwith tf.autodiff.ForwardAccumulator(x, tf.constant(1.)) as acc:\n"
    "    y = x * 2\nprint(acc.jvp(y))",
]

NOTEBOOKS["errors_round3"] = [
    "float(tf.constant([1., 2.]))",
    "float(tf.constant([1.]))",
    "int(tf.constant([[3]]))",
    "float(tf.Variable([1., 2.]))",
    "complex(tf.constant([1.]))",
    "bool(tf.constant([1, 2]))",
    "t = tf.constant([[1., 2.], [3., 4.]])\nt[0, 0, 0]",
    "t[..., 0, 0, 0]",
    "t[[0, 1]]",
    "t[[0]]",
    "t[[0, 1, 0]]",
    "tf.constant([1, 2, 3])[[0, 2]]",
    "t[0, [0]]",
    "tf.Variable([1.])[[0]]",
    "tape = tf.GradientTape()\nwith tape:\n    pass\ntape.reset()",
    "with tf.GradientTape(persistent=True) as tp:\n    x = tf.constant(2.)\n    tp.watch(x)\n"
    "    y = x * x\ntp.watch(x)\ntp.reset()",
    "x = tf.constant(0.5)\nwith tf.GradientTape() as t2:\n    t2.watch(x)\n"
    "    with tf.GradientTape() as t1:\n        t1.watch(x)\n        y = tf.nn.softsign(x)\n"
    "    g = t1.gradient(y, x)\nprint(g)\nt2.gradient(g, x)",
    "@tf.custom_gradient\ndef f(x):\n    def grad(dy):\n        return tf.ones([3])\n"
    "    return x * 2., grad\nx = tf.constant([1., 2.])\nwith tf.GradientTape() as tape:\n"
    "    tape.watch(x)\n    y = f(x)\ntape.gradient(y, x)",
    "x = tf.constant([1., 2.])\nwith tf.GradientTape() as tape:\n    tape.watch(x)\n    y = x * x\n"
    "tape.gradient(y, x, output_gradients=[1., 2.])",
    "with tf.GradientTape() as tape:\n    tape.watch(x)\n    y = x * x\n"
    "tape.gradient([y], [x], output_gradients=[[3., 4.]])",
    "tf.constant(2) ** -1",
    "tf.constant([2, 3]) ** -2",
    "tf.pow(tf.constant(2), tf.constant(-1))",
    "tf.constant([2, 3]) ** tf.constant([1, -1])",
    "tf.constant(2) ** 0",
    "hash(tf.constant(1.))",
    "hash(tf.Variable(1.))",
    "{tf.constant(1.): 1}",
    "v = tf.Variable(1., shape=tf.TensorShape(None))\nv.assign([1., 2., 3.])\nprint(v.shape)\nv",
    "v.assign([[1.]])\nprint(v.numpy())",
    "v2 = tf.Variable([1., 2.], shape=tf.TensorShape([None]))\nv2.assign([1., 2., 3.])\nprint(v2.shape)",
    "v2.assign([[1.]])",
]

NOTEBOOKS["dtypes_round3"] = [
    "tf.constant([np.float32(1.5), 2])",
    "tf.constant([np.float64(1.5), 2])",
    "tf.constant([1, np.float32(1.5)])",
    "tf.constant([np.int64(1), 2])",
    "tf.constant([np.int32(1), 2])",
    "tf.constant([np.float16(1), 2])",
    "tf.constant([np.int64(1), 2.5])",
    "tf.constant([np.float32(1), np.float64(2)])",
    "tf.constant([[np.float32(1.5), 2], [3, 4]])",
    "tf.constant([np.int64(2**40), 1])",
    "tf.constant([np.float32(1), 1e40])",
    "tf.constant([np.bool_(True), 1])",
    "tf.convert_to_tensor([np.float32(1.5), 2])",
    "tf.Variable([np.float32(1.5), 2])",
    "tf.constant((np.float32(1), 2))",
]

# --- issue 39: the guides a student reads next (Keras 3's models and training API) ---------

# "Basic training loops", with Keras: a tf.keras.Model subclass, Sequential, compile and fit
NOTEBOOKS["keras_models"] = [
    "x = tf.linspace(-2.0, 2.0, 8)[:, tf.newaxis]\n"
    "y = x * 3.0 + 2.0 + tf.constant([[0.1], [-0.2], [0.05], [0.0], [-0.1], [0.2], [0.0], [-0.05]])\n"
    "print(x.shape, y.shape)",
    "class Linear(tf.keras.Model):\n"
    "  def __init__(self, **kwargs):\n"
    "    super().__init__(**kwargs)\n"
    "    self.dense = tf.keras.layers.Dense(1, kernel_initializer=tf.keras.initializers.Constant(5.0))\n"
    "  def call(self, x):\n"
    "    return self.dense(x)\n"
    "model = Linear()\nprint(model)\nprint(model.built, model.weights)",
    "print(model(x)[:3])\nprint(model.built)",
    "print([v.path for v in model.trainable_variables])\nprint(type(model.trainable_variables).__name__)",
    "print([type(l).__name__ for l in model.layers])\nprint(model.name, model.dense.name)",
    "w = model.dense.kernel\nprint(type(w).__name__, w.name, w.path, w.dtype, w.trainable)\nw",
    "print(w.value)\nprint(hasattr(w, 'device'))",
    "w.dtype == tf.float32",
    "class Holder(tf.Module):\n"
    "  def __init__(self):\n"
    "    super().__init__()\n"
    "    self.inner = tf.keras.layers.Dense(2)\n"
    "    self.scale = tf.Variable(2.0)\n"
    "holder = Holder()\nholder.inner(tf.ones([1, 3]))\n"
    "print(len(holder.trainable_variables), len(holder.inner.trainable_variables))\nprint(holder.submodules)",
    "isinstance(tf.keras.layers.Dense(1), tf.Module)",
    "def mse(y_true, y_pred):\n  return tf.reduce_mean(tf.square(y_true - y_pred))\n"
    "opt = tf.keras.optimizers.SGD(learning_rate=0.1)\n"
    "for step in range(5):\n"
    "  with tf.GradientTape() as tape:\n"
    "    loss = mse(y, model(x))\n"
    "  grads = tape.gradient(loss, model.trainable_variables)\n"
    "  opt.apply_gradients(zip(grads, model.trainable_variables))\n"
    "  print(step, f'{float(loss):.4f}')",
    "print(model.dense.kernel.numpy(), model.dense.bias.numpy())",
    "seq = tf.keras.Sequential([\n"
    "    tf.keras.Input(shape=(1,)),\n"
    "    tf.keras.layers.Dense(4, activation='relu', kernel_initializer='ones', bias_initializer='zeros'),\n"
    "    tf.keras.layers.Dense(1, kernel_initializer='ones'),\n"
    "])\nprint(seq.built, [v.path for v in seq.weights])\nprint(seq.layers)",
    "seq.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=0.01), loss='mse', metrics=['mae'])\n"
    "print([m.name for m in seq.metrics])",
    "history = seq.fit(x, y, batch_size=4, epochs=3, shuffle=False, verbose=0)\n"
    "print(sorted(history.history))\nprint([round(v, 4) for v in history.history['loss']])\n"
    "print(history.epoch, history.params)",
    "history = seq.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=2)",
    "seq.evaluate(x, y, verbose=0)",
    "seq.evaluate(x, y, batch_size=4, verbose=0, return_dict=True)",
    "p = seq.predict(x[:3], verbose=0)\nprint(type(p).__name__, p.dtype, p.shape)\nprint(p.ravel())",
    "seq2 = tf.keras.Sequential(name='stack')\nseq2.add(tf.keras.layers.Dense(2, kernel_initializer='ones', name='first'))\n"
    "print(seq2.built, seq2.weights)\nseq2(tf.ones([1, 3]))\nprint([v.path for v in seq2.weights])",
    "bare = tf.keras.Sequential([tf.keras.layers.Dense(1)])\nbare.fit(x, y, verbose=0)",
    "m3 = tf.keras.Sequential([tf.keras.Input(shape=(1,)), tf.keras.layers.Dense(1, kernel_initializer='zeros')])\n"
    "m3.compile(optimizer='sgd', loss='mse')\nm3.evaluate(x, y, verbose=0)",
    "class Frozen(tf.keras.layers.Layer):\n"
    "  def build(self, input_shape):\n"
    "    self.w = self.add_weight(shape=(input_shape[-1], 2), initializer='ones')\n"
    "    self.count = self.add_weight(shape=(), initializer='zeros', trainable=False, name='count')\n"
    "  def call(self, x):\n"
    "    return x @ self.w\n"
    "f = Frozen()\nprint(f(tf.ones([1, 3])))\n"
    "print([v.path for v in f.weights], [v.path for v in f.non_trainable_weights])\n"
    "f.trainable = False\nprint(len(f.trainable_variables), len(f.non_trainable_variables))",
    "opt4 = tf.keras.optimizers.SGD(0.1)\nwith tf.GradientTape() as tape:\n"
    "  loss = tf.reduce_sum(seq(x)[:, 0] * 0.0 + seq.layers[1].kernel[0, 0])\n"
    "grads = tape.gradient(loss, seq.trainable_variables)\n"
    "opt4.apply_gradients(zip(grads, seq.trainable_variables))",
]

# "Customizing what happens in fit()": a train_step override with GradientTape, metrics
NOTEBOOKS["custom_fit"] = [
    "import os, tempfile\nos.chdir(tempfile.mkdtemp())  # (the weights files go there)\n"
    "x = np.linspace(-1.0, 1.0, 12, dtype='float32').reshape(-1, 1)\ny = 2.0 * x - 0.5\n"
    "print(x.shape, y.dtype)",
    "class CustomModel(tf.keras.Model):\n"
    "  def __init__(self, **kwargs):\n"
    "    super().__init__(**kwargs)\n"
    "    self.dense = tf.keras.layers.Dense(1, kernel_initializer='ones', bias_initializer='zeros')\n"
    "  def call(self, inputs):\n"
    "    return self.dense(inputs)\n"
    "  def train_step(self, data):\n"
    "    x, y = data\n"
    "    with tf.GradientTape() as tape:\n"
    "      y_pred = self(x, training=True)\n"
    "      loss = self.compute_loss(y=y, y_pred=y_pred)\n"
    "    trainable_vars = self.trainable_variables\n"
    "    gradients = tape.gradient(loss, trainable_vars)\n"
    "    self.optimizer.apply(gradients, trainable_vars)\n"
    "    for metric in self.metrics:\n"
    "      if metric.name == 'loss':\n"
    "        metric.update_state(loss)\n"
    "      else:\n"
    "        metric.update_state(y, y_pred)\n"
    "    return {m.name: m.result() for m in self.metrics}\n"
    "model = CustomModel()\nmodel.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss='mse', metrics=['mae'])\n"
    "h = model.fit(x, y, batch_size=4, epochs=3, shuffle=False, verbose=0)\n"
    "print({k: [round(v, 4) for v in vs] for k, vs in h.history.items()})",
    "print(model.dense.kernel.numpy(), model.dense.bias.numpy())",
    "print([m.name for m in model.metrics])",
    "class LowerLevel(tf.keras.Model):\n"
    "  def __init__(self, **kwargs):\n"
    "    super().__init__(**kwargs)\n"
    "    self.dense = tf.keras.layers.Dense(1, kernel_initializer='zeros')\n"
    "    self.loss_tracker = tf.keras.metrics.Mean(name='loss')\n"
    "    self.mae_metric = tf.keras.metrics.MeanAbsoluteError(name='mae')\n"
    "    self.loss_fn = tf.keras.losses.MeanSquaredError()\n"
    "  def call(self, inputs):\n"
    "    return self.dense(inputs)\n"
    "  def train_step(self, data):\n"
    "    x, y = data\n"
    "    with tf.GradientTape() as tape:\n"
    "      y_pred = self(x, training=True)\n"
    "      loss = self.loss_fn(y, y_pred)\n"
    "    grads = tape.gradient(loss, self.trainable_variables)\n"
    "    self.optimizer.apply_gradients(zip(grads, self.trainable_variables))\n"
    "    self.loss_tracker.update_state(loss)\n"
    "    self.mae_metric.update_state(y, y_pred)\n"
    "    return {'loss': self.loss_tracker.result(), 'mae': self.mae_metric.result()}\n"
    "  @property\n"
    "  def metrics(self):\n"
    "    return [self.loss_tracker, self.mae_metric]\n"
    "low = LowerLevel()\nlow.compile(optimizer=tf.keras.optimizers.SGD(0.1))\n"
    "h = low.fit(x, y, batch_size=6, epochs=2, shuffle=False, verbose=0)\n"
    "print({k: [round(v, 4) for v in vs] for k, vs in h.history.items()})",
    "print(low.loss_tracker.result(), low.mae_metric.result())",
    "low.loss_tracker.reset_state()\nprint(low.loss_tracker.result())",
    "class WithTest(CustomModel):\n"
    "  def test_step(self, data):\n"
    "    x, y = data\n"
    "    y_pred = self(x, training=False)\n"
    "    loss = self.compute_loss(y=y, y_pred=y_pred)\n"
    "    for metric in self.metrics:\n"
    "      if metric.name == 'loss':\n"
    "        metric.update_state(loss)\n"
    "      else:\n"
    "        metric.update_state(y, y_pred)\n"
    "    return {m.name: m.result() for m in self.metrics}\n"
    "wt = WithTest()\nwt.compile(optimizer='sgd', loss='mse', metrics=['mae'])\n"
    "wt.evaluate(x, y, batch_size=12, verbose=0)",
    "m = tf.keras.metrics.Mean()\nm.update_state([1.0, 2.0, 3.0])\nprint(m.result())\n"
    "m.update_state(5.0, sample_weight=3.0)\nprint(m.result())\nm.reset_state()\nprint(m.result())",
    "mae = tf.keras.metrics.MeanAbsoluteError()\nmae.update_state([[1.0], [2.0]], [[1.5], [1.0]])\n"
    "print(mae.result())\nprint(mae.name)",
    "acc = tf.keras.metrics.SparseCategoricalAccuracy()\n"
    "acc.update_state([1, 0, 2], [[0.1, 0.8, 0.1], [0.3, 0.3, 0.4], [0.2, 0.2, 0.6]])\n"
    "print(acc.result())\nacc",
    "print([v.path for v in m.variables])",
    "model.save_weights('model.weights.h5')\n"
    "again = CustomModel()\nagain(x[:1])\nagain.load_weights('model.weights.h5')\n"
    "print(again.dense.kernel.numpy(), again.dense.bias.numpy())",
    "model.save_weights('model.h5')",
    "model.load_weights('model.ckpt')",
    "fresh = CustomModel()\nfresh.load_weights('model.weights.h5')",
    "seq = tf.keras.Sequential([tf.keras.Input(shape=(1,)), tf.keras.layers.Dense(2, kernel_initializer='ones'),\n"
    "                           tf.keras.layers.Dense(1, kernel_initializer='ones')])\n"
    "seq.save_weights('seq.weights.h5')\n"
    "seq2 = tf.keras.Sequential([tf.keras.Input(shape=(1,)), tf.keras.layers.Dense(2), tf.keras.layers.Dense(1)])\n"
    "seq2.load_weights('seq.weights.h5')\nprint(seq2.layers[0].kernel.numpy())",
    "import os\nfor f in ('model.weights.h5', 'seq.weights.h5'):\n  os.remove(f)",
]

# "Custom training: walkthrough": Sequential classifier, loss and grad, metrics per epoch
NOTEBOOKS["training_walkthrough"] = [
    "features = tf.constant([[5.1, 3.5, 1.4], [4.9, 3.0, 1.4], [6.2, 2.9, 4.3], [5.9, 3.0, 5.1],\n"
    "                        [6.9, 3.1, 5.4], [5.0, 3.3, 1.4], [6.4, 3.2, 4.5], [6.3, 3.3, 6.0]])\n"
    "labels = tf.constant([0, 0, 1, 2, 2, 0, 1, 2])\nprint(features.shape, labels.dtype)",
    "model = tf.keras.Sequential([\n"
    "  tf.keras.Input(shape=(3,)),\n"
    "  tf.keras.layers.Dense(5, activation=tf.nn.relu, kernel_initializer=tf.keras.initializers.Constant(0.1)),\n"
    "  tf.keras.layers.Dense(3, kernel_initializer='zeros'),\n])\n"
    "predictions = model(features)\npredictions[:2]",
    "loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)\n"
    "def loss(model, x, y, training):\n"
    "  y_ = model(x, training=training)\n"
    "  return loss_object(y_true=y, y_pred=y_)\n"
    "def grad(model, inputs, targets):\n"
    "  with tf.GradientTape() as tape:\n"
    "    loss_value = loss(model, inputs, targets, training=True)\n"
    "  return loss_value, tape.gradient(loss_value, model.trainable_variables)\n"
    "loss_value, grads = grad(model, features, labels)\n"
    "print(f'{float(loss_value):.5f}')\nprint([None if g is None else g.shape for g in grads])",
    "optimizer = tf.keras.optimizers.SGD(learning_rate=0.05)\n"
    "train_loss_results = []\ntrain_accuracy_results = []\n"
    "for epoch in range(4):\n"
    "  epoch_loss_avg = tf.keras.metrics.Mean()\n"
    "  epoch_accuracy = tf.keras.metrics.SparseCategoricalAccuracy()\n"
    "  for start in (0, 4):\n"
    "    x, y = features[start:start + 4], labels[start:start + 4]\n"
    "    loss_value, grads = grad(model, x, y)\n"
    "    optimizer.apply_gradients(zip(grads, model.trainable_variables))\n"
    "    epoch_loss_avg.update_state(loss_value)\n"
    "    epoch_accuracy.update_state(y, model(x, training=True))\n"
    "  train_loss_results.append(epoch_loss_avg.result())\n"
    "  train_accuracy_results.append(epoch_accuracy.result())\n"
    "  print('Epoch {:03d}: Loss: {:.3f}, Accuracy: {:.3%}'.format(epoch, epoch_loss_avg.result(), "
    "epoch_accuracy.result()))",
    "train_loss_results[-1]",
    "test_accuracy = tf.keras.metrics.Accuracy()\n"
    "logits = model(features, training=False)\n"
    "prediction = tf.math.argmax(logits, axis=1, output_type=tf.int64)\n"
    "test_accuracy(prediction, tf.cast(labels, tf.int64))\n"
    "print('Test set accuracy: {:.3%}'.format(test_accuracy.result()))",
    "tf.stack([labels, tf.cast(prediction, tf.int32)], axis=1)[:3]",
    "predict_dataset = tf.convert_to_tensor([[5.1, 3.3, 1.7], [5.9, 3.0, 4.2], [6.9, 3.1, 5.4]])\n"
    "predictions = model(predict_dataset, training=False)\n"
    "for i, logits in enumerate(predictions):\n"
    "  class_idx = tf.math.argmax(logits).numpy()\n"
    "  p = tf.nn.softmax(logits)[class_idx]\n"
    "  print('Example {} prediction: {} ({:4.1f}%)'.format(i, class_idx, 100 * p))",
    "model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss=loss_object, metrics=['accuracy'])\n"
    "h = model.fit(features, labels, batch_size=4, epochs=2, shuffle=False, verbose=0)\n"
    "print(sorted(h.history), [round(v, 4) for v in h.history['loss']])",
    "model.evaluate(features, labels, verbose=0)",
    "model.summary",
    "grads_none = tf.keras.optimizers.SGD(0.1)\n"
    "grads_none.apply_gradients(zip([tf.ones([3, 5]), None, None, tf.ones([3])], model.trainable_variables))",
]
