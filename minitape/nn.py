"""``tf.nn``: activations and friends."""
from ._ops import (elu, leaky_relu, log_softmax, relu, sigmoid, softmax, softplus,  # noqa: F401
                   tanh)
from ._ops import gelu, selu, softsign  # noqa: F401
from .math import l2_normalize  # noqa: F401
from ._ops import minimum as _minimum, maximum as _maximum, multiply as _multiply, \
    subtract as _subtract, reduce_mean as _reduce_mean, reduce_sum as _reduce_sum, \
    cast as _cast, _to_tensor


from ._ops.math_ops import relu6  # noqa: E402,F401  (a primitive: TF's Relu6Grad at the kinks)


def silu(features, beta=1.0):
    return _multiply(features, sigmoid(_multiply(features, beta)))


swish = silu


from ._ops.nn_ops import softmax_cross_entropy_with_logits  # noqa: E402,F401


def sparse_softmax_cross_entropy_with_logits(labels, logits, name=None):
    from ._ops import one_hot
    from . import _backend as B
    from .errors import InvalidArgumentError
    logits = _to_tensor(logits)
    depth = logits.shape[-1]
    lab = B.to_host(_to_tensor(labels)._value)
    if lab.dtype.kind not in "iu":
        raise TypeError(f"labels must be integer class indices, got {lab.dtype}")
    if lab.size and (lab.min() < 0 or lab.max() >= depth):
        bad = lab[(lab < 0) | (lab >= depth)][0]
        raise InvalidArgumentError(
            f"Received a label value of {bad} which is outside the valid range of [0, {depth}).  "
            f"Label values: {' '.join(str(v) for v in lab.reshape(-1))} "
            "[Op:SparseSoftmaxCrossEntropyWithLogits]")
    return softmax_cross_entropy_with_logits(one_hot(labels, depth, dtype=logits.dtype), logits)


def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    from ._ops import abs as _abs, exp as _exp, log1p as _log1p, add as _add
    logits = _to_tensor(logits)
    labels = _cast(_to_tensor(labels), logits.dtype)
    # max(x, 0) - x * z + log(1 + exp(-|x|)), TensorFlow's stable form
    return _add(_subtract(_maximum(logits, 0), _multiply(logits, labels)),
                _log1p(_exp(-_abs(logits))))


def l2_loss(t, name=None):
    from ._ops import square
    return _multiply(_reduce_sum(square(t)), 0.5)


def moments(x, axes, keepdims=False, name=None):
    from ._ops import square
    mean = _reduce_mean(x, axis=axes, keepdims=True)
    var = _reduce_mean(square(_subtract(x, mean)), axis=axes, keepdims=keepdims)
    if not keepdims:
        from ._ops import squeeze
        mean = squeeze(mean, axis=axes)
    return mean, var


def embedding_lookup(params, ids, max_norm=None, name=None):
    """Rows ``ids`` of ``params`` (``tf.gather(params, ids)``): its gradient is an IndexedSlices.

    A list of several ``params`` tensors (TF's sharded embeddings) and ``max_norm`` are not
    supported."""
    if isinstance(params, (list, tuple)):
        if len(params) != 1:
            raise NotImplementedError("minitape's embedding_lookup takes one params tensor")
        params = params[0]
    if max_norm is not None:
        raise NotImplementedError("minitape's embedding_lookup does not implement max_norm")
    from ._ops import gather, identity
    # TF's embedding_lookup is an identity over the gather: its sparse gradient reaches the
    # params one step later in the backward pass (the order of concatenated pieces shows it)
    return identity(gather(params, ids))
