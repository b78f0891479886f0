"""``tf.image``: the operation the autodiff guide uses to show a missing gradient."""
from ._ops import adjust_contrast  # noqa: F401
