"""minitape's operations, in two layers: forward primitives per family, gradient rules above.

Layers, bottom up (each module imports only from the ones before it):

* ``_adapt``: operand adaptation, the one path that turns arguments into Tensors of one dtype
  (every dtype rule of the operations);
* forward primitives per family, on raw arrays through ``xp(a)`` (NumPy or CuPy):
  ``math_ops`` (element-wise), ``reduce_ops``, ``array_ops`` (shapes, indexing, broadcasting),
  ``creation_ops``, ``linalg_ops``, ``nn_ops``, ``extra_ops`` (more of TensorFlow's API);
* gradient rules, one module per family (``math_grads``...): each attaches the VJPs of its
  family's primitives by name (``REGISTRY["Sin"].defvjps(...)``).  They are written with
  minitape operations of any family, so they come after all the forwards;
* ``raw_grads``: the commonest rules again on raw arrays, which a backward pass that nothing
  records runs instead (first-order gradients build no Tensor per step);
* ``onehot_grads``: the batch rules for a vectorized Jacobian's one-hot seeds
  (:mod:`minitape._onehot`), which such a pass runs while its gradients stay one-hot;
* ``operators``: Tensor's ``+``, ``*``, ``[]``... installed once.

Adding an operation: its forward in the family's ``*_ops.py``, its rule in ``*_grads.py``, and
(when public) its name in ``minitape/__init__.py``.
"""
from __future__ import annotations

from .._core import _to_tensor  # noqa: F401  (used by the modules above)
from ._adapt import _DEVICE_SCALARS  # noqa: F401  (the device constants cache, for tests)
from .math_ops import (_add, add, add_gradients, subtract, multiply, divide, truediv, floordiv, floormod, mod,
                       pow, _maximum, _minimum, maximum, minimum, squared_difference, atan2,
                       negative, neg, abs, sign, sin, cos, tan, asin, acos, atan, sinh, cosh, tanh,
                       exp, expm1, log, log1p, sqrt, rsqrt, square, reciprocal, inv_op, sigmoid,
                       softplus, erf, erfc, relu, elu, leaky_relu, floor, ceil, round, is_nan, is_finite,
                       is_inf, logical_not, equal, not_equal, less, less_equal, greater,
                       greater_equal, logical_and, logical_or, logical_xor, identity,
                       stop_gradient, cast)
from .reduce_ops import (reduce_sum, reduce_mean, reduce_max, reduce_min, reduce_prod,
                         reduce_logsumexp, reduce_variance, reduce_std, reduce_any, reduce_all,
                         cumsum, cumprod, argmax, argmin)
from .array_ops import (unbroadcast, broadcast_to, reshape, transpose, expand_dims, squeeze, shape,
                        size, rank, getitem, concat, stack, unstack, split, gather, where, tile,
                        pad, reverse)
from .creation_ops import (zeros, ones, fill, zeros_like, ones_like, fill_like, one_hot_like,
                           one_hot_batch_like, eye, linspace, range, one_hot)
from .linalg_ops import (matmul, tensordot, einsum, inv, det, solve, norm)
from .nn_ops import (softmax, log_softmax, clip_by_value, clip_by_norm, add_n, adjust_contrast)
from .extra_ops import (asinh, acosh, atanh, divide_no_nan, multiply_no_nan, reciprocal_no_nan,
                        xlogy, xdivy, log_sigmoid, softsign, gelu, selu, count_nonzero, argsort,
                        sort, TopKV2, top_k, boolean_mask, gather_nd, slogdet, logdet, diag)

# the gradient layer: attaches the rules to the primitives defined above
from . import math_grads, reduce_grads, array_grads, linalg_grads, nn_grads, extra_grads  # noqa: E402,F401
from . import raw_grads  # noqa: E402,F401  (the same rules on raw arrays, for unrecorded passes)
from . import onehot_grads  # noqa: E402,F401  (the batch rules for one-hot seeds, issue 42)
from .array_grads import unbroadcast_batch  # noqa: E402,F401  (vectorized Jacobians' passes)
from . import operators  # noqa: E402,F401  (Tensor's operators, installed once)


def _install_sparse_ops():
    """IndexedSlices (a gather's gradient, in the layer below) gets the operations it uses."""
    from .. import _indexed_slices
    from .._core import apply
    from .array_ops import _ScatterAxis

    def scatter(values, indices, shape):   # the rows summed into a dense tensor, recorded
        return apply(_ScatterAxis, (values,), {"indices": indices, "axis": 0, "shape": shape})

    _indexed_slices.install(negative=negative, concat=concat, cast=cast, reshape=reshape, scatter=scatter)


_install_sparse_ops()
