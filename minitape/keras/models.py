"""Keras 3's ``Model`` (subclass it, write ``call``) and ``Sequential``, with the training API of
TensorFlow's guides: ``compile``, ``fit``, ``evaluate``, ``predict``, a ``train_step`` /
``test_step`` to override, ``save_weights`` / ``load_weights`` (``.weights.h5``, h5py).

Everything runs eagerly (as under ``run_eagerly=True``): there is no graph to compile.  The
functional API (``keras.Model(inputs, outputs)``) is not provided.
"""
from __future__ import annotations

import time

import numpy as np

from .. import _ops
from .._core import Tensor, _to_tensor
from .. import nest as _nest
from . import losses as _losses, metrics as _metrics, optimizers as _optimizers
from .layers import Layer, InputSpec, _takes_training


class History:
    """What ``fit`` returns: ``history`` (metric name -> one value per epoch), ``epoch``,
    ``params``."""

    def __init__(self):
        self.history = {}
        self.epoch = []
        self.params = {}
        self.model = None

    def __repr__(self):
        return f"<keras.src.callbacks.history.History object at {hex(id(self))}>"


def _unpack(data):
    """``(x, y, sample_weight)`` from a batch: ``x``, ``(x,)``, ``(x, y)`` or ``(x, y, w)``."""
    if isinstance(data, (list, tuple)):
        if len(data) == 1:
            return data[0], None, None
        if len(data) == 2:
            return data[0], data[1], None
        if len(data) == 3:
            return data
        raise ValueError("Data is expected to be in format `x`, `(x,)`, `(x, y)`, or "
                         f"`(x, y, sample_weight)`, found: {data}")
    return data, None, None


def _rows(a):
    return a.shape[0] if hasattr(a, "shape") else len(a)


def _slice(a, lo, hi):
    if a is None:
        return None
    if isinstance(a, Tensor):
        return _ops.getitem(a, slice(lo, hi))
    return _to_tensor(np.asarray(a)[lo:hi])


def _batches(x, y, sample_weight, batch_size):
    """The batches of arrays or tensors, in order (a dataset's own batches as they are)."""
    if hasattr(x, "_minitape_dataset"):
        yield from x
        return
    n = _rows(_nest.flatten(x)[0])
    for lo in range(0, n, batch_size):
        hi = min(n, lo + batch_size)
        xb = _nest.map_structure(lambda a: _slice(a, lo, hi), x)
        batch = (xb,) if y is None else (xb, _slice(y, lo, hi))
        if sample_weight is not None:
            batch = batch + (_slice(sample_weight, lo, hi),)
        yield batch


def _number(v):
    return float(np.asarray(v.numpy() if hasattr(v, "numpy") else v))


def _step_logs(model, logs):
    """What an epoch reports of a step's returned dict, as Keras 3 takes it: the metrics'
    results when it names the same metrics, else the dict itself with its keys sorted (Keras
    passes it through a structure that sorts them) and nested dicts flattened."""
    results = model.get_metrics_result()
    if isinstance(logs, dict) and set(logs) == set(results):
        return results
    def ordered(d):
        return {k: ordered(v) if isinstance(v, dict) else v for k, v in sorted(d.items())}
    return _flat_logs(ordered(dict(logs)))


def _flat_logs(logs):
    """A step's returned dict, nested dicts (``compile_metrics``) flattened."""
    out = {}
    for k, v in logs.items():
        if isinstance(v, dict):
            out.update(_flat_logs(v))
        else:
            out[k] = v
    return out


def _progress(steps, seconds, logs, verbose):
    per = seconds / max(steps, 1)
    step = f"{per * 1000:.0f}ms/step" if per < 1 else f"{per:.0f}s/step"
    values = "".join(f" - {k}: {_number(v):.4f}" if abs(_number(v)) > 1e-3
                     else f" - {k}: {_number(v):.4e}" for k, v in logs.items())
    if verbose == 2:
        return f"{steps}/{steps} - {seconds:.0f}s - {step}{values}"
    return (f"\x1b[1m{steps}/{steps}\x1b[0m \x1b[32m{'━' * 20}\x1b[0m\x1b[37m\x1b[0m "
            f"\x1b[1m{seconds:.0f}s\x1b[0m {step}{values}")


class Model(Layer):
    """Subclass it: create layers in ``__init__``, compute in ``call(inputs, training=None)``."""

    def __init__(self, *args, **kwargs):
        if args or "inputs" in kwargs or "outputs" in kwargs:
            raise NotImplementedError(
                "minitape's keras.Model has no functional API (keras.Model(inputs, outputs)): "
                "subclass keras.Model and write call(), or use keras.Sequential")
        kwargs.pop("trainable", None)
        super().__init__(**kwargs)
        self._compiled = False
        self.optimizer = None
        self.loss = None
        self._loss_fn = None
        self._loss_tracker = None
        self._compile_metrics = None
        self.stop_training = False

    @property
    def layers(self):
        return self._tracked(Layer)

    def __call__(self, inputs, *args, **kwargs):
        out = super().__call__(inputs, *args, **kwargs)
        self.built = True
        return out

    # --- compile and the steps ------------------------------------------------------------
    @property
    def compiled(self):
        return self._compiled

    def compile(self, optimizer="rmsprop", loss=None, loss_weights=None, metrics=None,
                weighted_metrics=None, run_eagerly=False, steps_per_execution=1,
                jit_compile="auto", auto_scale_loss=True):
        """The optimizer, loss and metrics ``fit`` and ``evaluate`` use (names or objects)."""
        self.optimizer = _optimizers.get(optimizer)
        self.loss = loss
        self._loss_fn = _losses.get(loss) if loss is not None else None
        self._loss_tracker = _metrics.Mean(name="loss")
        self._compile_metrics = _metrics.CompileMetrics(metrics) if metrics else None
        self._compiled = True

    @property
    def metrics(self):
        """The loss tracker and the compiled metrics, then the metrics held in attributes."""
        out = []
        if self._compiled:
            out.append(self._loss_tracker)
            if self._compile_metrics is not None:
                out.append(self._compile_metrics)
        out += self._tracked(_metrics.Metric)
        return out

    @property
    def metrics_names(self):
        return [m.name for m in self.metrics]

    def reset_metrics(self):
        for m in self.metrics:
            m.reset_state()

    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        """The compiled loss of ``y`` and ``y_pred`` (``None`` without one)."""
        if self._loss_fn is None:
            return None
        if sample_weight is not None and isinstance(self._loss_fn, _losses.SparseCategoricalCrossentropy):
            return self._loss_fn(y, y_pred, sample_weight=sample_weight)
        return self._loss_fn(y, y_pred)

    def compute_metrics(self, x, y, y_pred, sample_weight=None):
        if self._compile_metrics is not None:
            self._compile_metrics.update_state(y, y_pred, sample_weight)
        return self.get_metrics_result()

    def get_metrics_result(self):
        return _flat_logs({m.name: m.result() for m in self.metrics})

    def _call(self, x, training):
        return self(x, training=training) if _takes_training(type(self)) else self(x)

    def train_step(self, data):
        """One step of ``fit``: forward under a GradientTape, the optimizer's update, the
        metrics' update; returns the metrics' results (override it to train your way)."""
        from .._tape import GradientTape
        x, y, sample_weight = _unpack(data)
        with GradientTape() as tape:
            y_pred = self._call(x, True)
            loss = self.compute_loss(x=x, y=y, y_pred=y_pred, sample_weight=sample_weight)
        if loss is None:
            raise ValueError("No loss to compute. Provide a `loss` argument in `compile()`.")
        self._loss_tracker.update_state(loss, sample_weight=_rows(_nest.flatten(x)[0]))
        variables = self.trainable_variables
        if variables:
            self.optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
        else:
            import warnings
            warnings.warn("The model does not have any trainable weights.", stacklevel=2)
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def test_step(self, data):
        x, y, sample_weight = _unpack(data)
        y_pred = self._call(x, False)
        loss = self.compute_loss(x=x, y=y, y_pred=y_pred, sample_weight=sample_weight,
                                 training=False)
        if loss is not None:
            self._loss_tracker.update_state(loss, sample_weight=_rows(_nest.flatten(x)[0]))
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def predict_step(self, data):
        x, _, _ = _unpack(data)
        return self._call(x, False)

    # --- the loops ------------------------------------------------------------------------
    def _need_compiled(self, what):
        if not self._compiled:
            raise ValueError("You must call `compile()` before using the model.")

    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose="auto", callbacks=None,
            validation_split=0.0, validation_data=None, shuffle=True, class_weight=None,
            sample_weight=None, initial_epoch=0, steps_per_epoch=None, **kwargs):
        """Train for ``epochs`` passes over the data, in batches of ``batch_size`` (32); prints
        one line per epoch (``verbose=1`` or ``2``); returns a :class:`History`.
        ``shuffle=True`` reorders the examples each epoch with NumPy's generator (TF's order
        is its own)."""
        self._need_compiled("fit")
        verbose = 1 if verbose == "auto" else int(verbose)
        batch_size = 32 if batch_size is None else int(batch_size)
        history = History()
        history.model = self
        self.stop_training = False
        order_x, order_y, order_w = x, y, sample_weight
        for epoch in range(initial_epoch, epochs):
            if shuffle and not hasattr(x, "_minitape_dataset") and shuffle != "batch":
                perm = np.random.permutation(_rows(_nest.flatten(x)[0]))
                pick = lambda a: None if a is None else _ops.gather(_to_tensor(a), perm)  # noqa: E731
                order_x = _nest.map_structure(pick, x)
                order_y, order_w = pick(y), pick(sample_weight)
            self.reset_metrics()
            if verbose:
                print(f"Epoch {epoch + 1}/{epochs}")
            start = time.perf_counter()
            logs, steps = {}, 0
            for batch in _batches(order_x, order_y, order_w, batch_size):
                logs = self.train_step(batch)
                steps += 1
                if steps_per_epoch and steps >= steps_per_epoch:
                    break
            logs = _step_logs(self, logs)
            if validation_data is not None:
                val = self.evaluate(*validation_data, batch_size=batch_size, verbose=0,
                                    return_dict=True)
                logs.update({f"val_{k}": v for k, v in val.items()})
            if verbose:
                print(_progress(steps, time.perf_counter() - start, logs, verbose))
            for k, v in logs.items():
                history.history.setdefault(k, []).append(_number(v))
            history.epoch.append(epoch)
            history.params = {"verbose": verbose, "epochs": epochs, "steps": steps}
            if self.stop_training:
                break
        return history

    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto", sample_weight=None,
                 steps=None, callbacks=None, return_dict=False, **kwargs):
        """The loss and metrics over the data: a number, a list (loss first), or a dict."""
        self._need_compiled("evaluate")
        verbose = 1 if verbose == "auto" else int(verbose)
        self.reset_metrics()
        start = time.perf_counter()
        logs, n = {}, 0
        for batch in _batches(x, y, sample_weight, 32 if batch_size is None else int(batch_size)):
            logs = self.test_step(batch)
            n += 1
        logs = {k: _number(v) for k, v in _step_logs(self, logs).items()}
        if verbose:
            print(_progress(n, time.perf_counter() - start, logs, verbose))
        if return_dict:
            return logs
        # as a list: the metrics' order (the compiled ones by their own names), then the rest
        names = []
        for m in self.metrics:
            names += ([s.name for s in m._metrics or ()] if isinstance(m, _metrics.CompileMetrics)
                      else [m.name])
        values = [logs[n] for n in names if n in logs]
        values += [logs[k] for k in sorted(logs) if k not in names]
        return values[0] if len(values) == 1 else values

    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None):
        """The model's outputs for ``x``, batch by batch, as one NumPy array."""
        verbose = 1 if verbose == "auto" else int(verbose)
        start = time.perf_counter()
        outs, n = [], 0
        for batch in _batches(x, None, None, 32 if batch_size is None else int(batch_size)):
            outs.append(self.predict_step(batch))
            n += 1
        if verbose:
            print(_progress(n, time.perf_counter() - start, {}, verbose))
        return _nest.map_structure(lambda *parts: np.concatenate([p.numpy() for p in parts]),
                                   *outs)

    # --- weights files ----------------------------------------------------------------------
    def save_weights(self, filepath, overwrite=True):
        """The weights into ``filepath`` (``*.weights.h5``, Keras 3's layout: one group per
        layer, its own weights as datasets ``vars/0``, ``vars/1``...)."""
        filepath = str(filepath)
        if not filepath.endswith(".weights.h5"):
            raise ValueError("The filename must end in `.weights.h5`. "
                             f"Received: filepath={filepath}")
        h5py = _h5py()
        with h5py.File(filepath, "w") as f:
            _write_layer(f, self)

    def load_weights(self, filepath, skip_mismatch=False, **kwargs):
        """The weights that :meth:`save_weights` wrote (the model built first)."""
        filepath = str(filepath)
        if not filepath.endswith(".weights.h5"):
            if filepath.endswith(".h5") or filepath.endswith(".keras"):
                raise NotImplementedError(
                    f"minitape reads `.weights.h5` files only. Received: filepath={filepath}")
            raise ValueError(f"File format not supported: filepath={filepath}. Keras 3 only "
                             "supports V3 `.keras` files, `.weights.h5` files, legacy H5 format "
                             "files (`.h5` extension), or Orbax checkpoints.")
        h5py = _h5py()
        with h5py.File(filepath, "r") as f:
            if not self.built:
                raise ValueError("You are loading weights into a model that has not yet been "
                                 "built. Try building the model first by calling it on some data "
                                 "or by using `build()`.")
            errors = []
            _read_layer(f, self, errors)
        if errors and not skip_mismatch:
            obj, msg = errors[0]
            raise ValueError(f"A total of {len(errors)} objects could not be loaded. Example "
                             f"error message for object {obj!r}:\n\n{msg}")

    def summary(self):
        rows = [(f"{layer.name} ({type(layer).__name__})", layer.count_params())
                for layer in self.layers]
        print(f'Model: "{self.name}"')
        for name, n in rows:
            print(f"  {name:<40} {n:>10,}")
        total = self.count_params()
        print(f" Total params: {total:,}")


def _h5py():
    try:
        import h5py
    except ImportError:
        raise ImportError("save_weights/load_weights need h5py: pip install h5py "
                          "(from a checkout: pip install -e '.[keras]')") from None
    return h5py


def _children(layer):
    """The named sub-layers of a layer, as Keras 3 names them in a weights file."""
    if isinstance(layer, Sequential):
        names, out = {}, []
        for sub in layer.layers:
            base = _camel_snake(type(sub).__name__)
            n = names.get(base, 0)
            names[base] = n + 1
            out.append(("layers/" + (base if n == 0 else f"{base}_{n}"), sub))
        return out
    out, seen = [], set()
    for k, v in layer.__dict__.items():
        if k.startswith("_"):
            continue
        if isinstance(v, Layer) and id(v) not in seen:
            seen.add(id(v))
            out.append((k, v))
        elif isinstance(v, (list, tuple)):
            for i, sub in enumerate(v):
                if isinstance(sub, Layer) and id(sub) not in seen:
                    seen.add(id(sub))
                    out.append((f"{k}/{type(sub).__name__.lower()}" if i == 0 else
                                f"{k}/{type(sub).__name__.lower()}_{i}", sub))
    return out


def _camel_snake(name):
    from ..module import _camel_to_snake
    return _camel_to_snake(name)


def _write_layer(group, layer):
    own = group.create_group("vars")
    own.attrs["name"] = layer.name
    for i, w in enumerate(layer._own()):
        own.create_dataset(str(i), data=w.numpy())
    for key, sub in _children(layer):
        _write_layer(group.require_group(key), sub)


def _read_layer(group, layer, errors):
    own = group.get("vars")
    mine = layer._own()
    if own is not None:
        for i, w in enumerate(mine):
            if str(i) not in own:
                errors.append((layer, f"Layer '{layer.name}' expected {len(mine)} variables, "
                                      f"but received {len(own)} variables during loading."))
                return
            value = own[str(i)][()]
            if tuple(value.shape) != tuple(w.shape):
                errors.append((layer, "The shape of the target variable and the shape of the "
                                      "target value in `variable.assign(value)` must match. "
                                      f"variable.shape={tuple(w.shape)}, Received: "
                                      f"value.shape={tuple(value.shape)}. Target variable: {w!r}"))
                return
        for i, w in enumerate(mine):
            w.assign(own[str(i)][()])
    for key, sub in _children(layer):
        if key in group:
            _read_layer(group[key], sub, errors)


class Sequential(Model):
    """Layers applied in order; ``keras.Input(shape=...)`` first builds it at once."""

    def __init__(self, layers=None, trainable=True, name=None):
        super().__init__(name=name)
        self._trainable = bool(trainable)
        self._layers = []
        self._input = None
        for layer in layers or []:
            self.add(layer)

    def add(self, layer):
        if isinstance(layer, InputSpec):
            self._input = layer
            self._build_from_input()
            return
        if not isinstance(layer, Layer):
            raise ValueError("Only instances of `keras.Layer` can be added to a Sequential "
                             f"model. Received: {layer} (of type {type(layer)})")
        self._layers.append(layer)
        if self._input is not None:
            self.built = False
            self._build_from_input()

    def pop(self):
        return self._layers.pop()

    @property
    def layers(self):
        return list(self._layers)

    def _build_from_input(self):
        if self._layers:
            from .._core import _no_recording
            shape = tuple(1 if d is None else d for d in self._input.shape)
            with _no_recording():
                self(_ops.zeros(shape, dtype=self._input.dtype))

    @property
    def inputs(self):
        return [self._input] if self._input is not None else None

    @property
    def input_shape(self):
        if self._input is None:
            raise AttributeError("The layer sequential has never been called and thus has no "
                                 "defined input.")
        return self._input.shape

    def build(self, input_shape=None):
        self.built = True

    def call(self, inputs, training=None):
        x = inputs
        for layer in self._layers:
            x = layer(x, training=training) if training is not None else layer(x)
        return x
