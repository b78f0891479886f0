"""Optimizers: ``SGD`` (with momentum) and ``Adam``; ``apply_gradients(zip(grads, vars))``."""
from __future__ import annotations

import warnings

import numpy as _np

from .._core import Variable, _no_recording
from .._indexed_slices import IndexedSlices
from .. import _ops


# Keras options that would change the update: refused rather than silently ignored.
_UNSUPPORTED = ("weight_decay", "clipnorm", "clipvalue", "global_clipnorm", "use_ema", "amsgrad")
_HARMLESS = ("ema_momentum", "ema_overwrite_frequency", "jit_compile", "loss_scale_factor",
             "gradient_accumulation_steps", "mesh")


def _check_options(kw):
    unknown = {k: v for k, v in kw.items() if k not in _UNSUPPORTED + _HARMLESS}
    if unknown:
        raise ValueError(f"Argument(s) not recognized: {unknown}")
    used = [k for k in _UNSUPPORTED if kw.get(k) not in (None, False, 0)]
    if used:
        raise NotImplementedError(f"minitape's optimizers do not implement {', '.join(used)}")


class Optimizer:
    def __init__(self, learning_rate, name=None, **kw):
        _check_options(kw)
        from .variables import Variable, auto_name
        self.learning_rate = float(learning_rate)
        self.name = auto_name((name or type(self).__name__).lower())
        # Keras 3: a Keras variable, int64, that apply_gradients returns
        self.iterations = Variable(_np.int64(0), trainable=False, name="iteration")
        self.iterations._path = f"{self.name}/iteration"
        self._slots = {}

    def apply_gradients(self, grads_and_vars):
        """Update each variable from its gradient; pairs with a None gradient are skipped."""
        pairs = list(grads_and_vars)
        if not pairs:  # Keras 3 unpacks zip(*pairs) into grads and variables
            raise ValueError("not enough values to unpack (expected 2, got 0)")
        missing = [v for g, v in pairs if g is None]
        pairs = [(g, v) for g, v in pairs if g is not None]
        for g, v in pairs:
            if not isinstance(v, Variable):
                raise TypeError(f"apply_gradients expects (gradient, Variable) pairs; got a "
                                f"{type(v).__name__}. Did you write `x = x - ...` instead of "
                                "`x.assign_sub(...)`?")
        if missing:
            if not pairs:
                raise ValueError("No gradients provided for any variable.")
            # Keras 3 names each variable by its path ("sequential/dense/bias"), a
            # tf.Variable by its name ("v:0")
            warnings.warn("Gradients do not exist for variables "
                          f"{[getattr(v, '_path', None) or v.name for v in missing]} when "
                          "minimizing the loss. If using "
                          "`model.compile()`, did you forget to provide a `loss` argument?",
                          stacklevel=2)
        self.iterations.assign_add(1)
        with _no_recording():
            for g, v in pairs:
                # an IndexedSlices goes on as it is: applied row by row (Keras 3)
                self._update(v, g if type(g) is IndexedSlices else _ops._to_tensor(g))
        return self.iterations

    def apply(self, grads, trainable_variables=None):
        """Keras 3's ``optimizer.apply(grads, variables)``: ``apply_gradients`` of the pairs."""
        return self.apply_gradients(zip(grads, trainable_variables))

    def minimize(self, loss, var_list, tape=None):
        from .._tape import GradientTape
        with GradientTape() as t:
            value = loss() if callable(loss) else loss
        grads = t.gradient(value, var_list)
        return self.apply_gradients(zip(grads, var_list))

    def _slot(self, v, name):
        key = (id(v), name)
        s = self._slots.get(key)
        if s is None:
            s = _ops.zeros_like(v)
            self._slots[key] = s
        return s


class SGD(Optimizer):
    """``v -= lr * g`` (or with momentum: ``m = momentum*m - lr*g; v += m``)."""

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, name="SGD", **kw):
        super().__init__(learning_rate, name, **kw)
        if not 0.0 <= float(momentum) <= 1.0:
            raise ValueError("`momentum` must be a float between [0, 1].")
        self.momentum = float(momentum)
        self.nesterov = nesterov

    def _update(self, v, g):
        lr = self.learning_rate
        if type(g) is IndexedSlices:  # Keras 3: the slices scaled, then scattered or densified
            step = g._with_values(g.values * lr)
            if self.momentum == 0.0:
                v.scatter_sub(step)
                return
            step = _ops._to_tensor(step)
        else:
            step = g * lr
            if self.momentum == 0.0:
                v.assign_sub(step)
                return
        m = self._slot(v, "m")
        m = m * self.momentum - step
        self._slots[(id(v), "m")] = m
        v.assign_add(m * self.momentum - step if self.nesterov else m)


class Adam(Optimizer):
    """Adam (Kingma & Ba), with Keras' defaults."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, name="Adam", **kw):
        super().__init__(learning_rate, name, **kw)
        self.beta_1, self.beta_2, self.epsilon = float(beta_1), float(beta_2), float(epsilon)

    def _update(self, v, g):
        # Keras 3's arithmetic, in the variable's dtype: the step size from float32 powers of
        # the betas (1 - 0.999**t loses digits in float32, and Keras' results show it), the
        # moments updated as m += (g - m) * (1 - beta_1)
        dt = v.dtype._np.type
        t = dt(int(self.iterations.numpy()))
        alpha = (dt(self.learning_rate) * _np.sqrt(dt(1) - dt(self.beta_2) ** t)
                 / (dt(1) - dt(self.beta_1) ** t))
        if type(g) is IndexedSlices:  # Keras 3 squares the slices before summing their rows
            g2 = _ops._to_tensor(g._with_values(_ops.square(g.values)))
            g = _ops._to_tensor(g)
        else:
            g2 = _ops.square(g)
        m = self._slot(v, "m")
        m = m + (g - m) * (1 - self.beta_1)
        s = self._slot(v, "v")
        s = s + (g2 - s) * (1 - self.beta_2)
        self._slots[(id(v), "m")] = m
        self._slots[(id(v), "v")] = s
        v.assign_sub(m * float(alpha) / (_ops.sqrt(s) + self.epsilon))


class RMSprop(Optimizer):
    """RMSprop with Keras 3's defaults (``rho=0.9``, ``epsilon=1e-7``, no momentum)."""

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7, centered=False,
                 name="rmsprop", **kw):
        super().__init__(learning_rate, name, **kw)
        if momentum or centered:
            raise NotImplementedError("minitape's RMSprop does not implement momentum or centered")
        self.rho, self.epsilon = float(rho), float(epsilon)

    def _update(self, v, g):
        if type(g) is IndexedSlices:
            g = _ops._to_tensor(g)
        s = self._slot(v, "v")
        s = s * self.rho + _ops.square(g) * (1 - self.rho)
        self._slots[(id(v), "v")] = s
        v.assign_sub(g * self.learning_rate / _ops.sqrt(s + self.epsilon))  # (Keras 3's form)


_BY_NAME = {"sgd": SGD, "adam": Adam, "rmsprop": RMSprop}


def get(identifier):
    """An optimizer from its name (as ``compile(optimizer="adam")`` takes them) or itself."""
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, str) and identifier.lower() in _BY_NAME:
        return _BY_NAME[identifier.lower()]()
    raise ValueError(f"Could not interpret optimizer identifier: {identifier}")
