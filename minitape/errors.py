"""Exceptions with TensorFlow's names (``tf.errors.InvalidArgumentError`` ...)."""


class OpError(Exception):
    """Base class of errors raised while running an operation."""

    def __init__(self, node_def=None, op=None, message=""):
        if message == "" and isinstance(node_def, str) and op is None:
            message, node_def = node_def, None
        super().__init__(message)
        self.message = message
        self.op = op
        self.node_def = node_def


class InvalidArgumentError(OpError):
    """An operation received an argument it cannot work with (e.g. mixed dtypes).

    Not a ValueError, as in TensorFlow: ``except ValueError`` does not catch it.
    """


class UnimplementedError(OpError):
    """The operation is not implemented for these inputs."""


class InaccessibleTensorError(ValueError):
    pass
