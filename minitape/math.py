"""``tf.math``: element-wise math and reductions."""
from ._ops import (  # noqa: F401
    abs, acos, add, add_n, argmax, argmin, asin, atan, atan2, ceil, cos, cosh, cumprod, cumsum,
    divide, equal, erf, erfc, exp, expm1, floor, floordiv, floormod, greater, greater_equal, is_finite,
    is_inf, is_nan, less, less_equal, log, log1p, log_softmax, logical_and, logical_not,
    logical_or, logical_xor, maximum, minimum, mod, multiply, negative, not_equal, pow,
    reciprocal, reduce_all, reduce_any, reduce_logsumexp, reduce_max, reduce_mean, reduce_min,
    reduce_prod, reduce_std, reduce_sum, reduce_variance, round, rsqrt, sigmoid, sign, sin, sinh,
    softmax, softplus, sqrt, square, squared_difference, subtract, tan, tanh, truediv,
)
from ._ops import floordiv as floor_div  # noqa: F401
from ._ops import (  # noqa: F401
    acosh, asinh, atanh, count_nonzero, divide_no_nan, log_sigmoid, multiply_no_nan,
    reciprocal_no_nan, softsign, top_k, xdivy, xlogy,
)


def l2_normalize(x, axis=None, epsilon=1e-12, name=None):
    from ._ops import reduce_sum, square, rsqrt, maximum, multiply
    sq = reduce_sum(square(x), axis=axis, keepdims=True)
    return multiply(x, rsqrt(maximum(sq, epsilon)))


def reduce_euclidean_norm(input_tensor, axis=None, keepdims=False, name=None):
    """sqrt(sum(x**2)) over ``axis`` (any number of axes, unlike ``norm``)."""
    from ._ops import reduce_sum, square, sqrt
    return sqrt(reduce_sum(square(input_tensor), axis=axis, keepdims=keepdims))


def polyval(coeffs, x, name=None):
    from ._ops import add, multiply
    r = coeffs[0] * 1
    for c in coeffs[1:]:
        r = add(multiply(r, x), c)
    return r
