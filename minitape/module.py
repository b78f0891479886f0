"""``tf.Module``: a container that finds the variables in its attributes."""
from __future__ import annotations

import re

from ._core import Variable

_counters: dict = {}


def _camel_to_snake(name):
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def unique_name(base):
    n = _counters.get(base, 0)
    _counters[base] = n + 1
    return base if n == 0 else f"{base}_{n}"


class Module:
    """Base class for models: collects every Variable held (directly or nested) in attributes.

    ``trainable_variables`` lists those with ``trainable=True``; ``variables`` all of them;
    ``submodules`` the Modules inside.  Order, as in TensorFlow: a module's own attributes in
    name order (inside lists and tuples in order, dicts by sorted key), then, in the order they
    were met, the contents of its submodules.  Each object is listed once.
    """

    def __init__(self, name=None):
        # TensorFlow: the default name is the class name in snake case, not made unique.
        if name is None:
            name = _camel_to_snake(type(self).__name__)
        elif not (isinstance(name, str) and name.isidentifier()):
            raise ValueError(f"{name!r} is not a valid module name. Module names must be valid "
                             "Python 3 identifiers (e.g. a valid class name).")
        self._name = name

    @property
    def name(self):
        return self.__dict__.get("_name") or _camel_to_snake(type(self).__name__)

    @property
    def name_scope(self):
        return self.name

    def _walk(self, predicate, seen=None, want_modules=False):
        """TensorFlow's ``_flatten_module``: direct attributes first, then submodules."""
        from .nest import flatten
        seen = {id(self)}
        out = []
        queue = [self]
        while queue:
            module, queue = queue[0], queue[1:]
            subs = []
            attrs = vars(module)
            for k in sorted(attrs):
                for leaf in flatten(attrs[k]):
                    if id(leaf) in seen or not isinstance(leaf, (Variable, Module)):
                        continue
                    if getattr(type(leaf), "_keras", False):  # a Keras 3 weight is not a tf.Variable: TF skips it
                        continue
                    seen.add(id(leaf))
                    if isinstance(leaf, Module):
                        subs.append(leaf)
                        if want_modules:
                            out.append(leaf)
                    elif not want_modules and predicate(leaf):
                        out.append(leaf)
            queue = subs + queue  # depth first over submodules, each one's own attributes first
        return out

    @property
    def variables(self):
        return tuple(self._walk(lambda v: True))

    @property
    def trainable_variables(self):
        return tuple(self._walk(lambda v: v.trainable))

    @property
    def non_trainable_variables(self):
        return tuple(self._walk(lambda v: not v.trainable))

    @property
    def submodules(self):
        return tuple(self._walk(None, want_modules=True))

    # (no __repr__: TF's modules show Python's default one, <__main__.Net object at 0x...>)
