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
    ``submodules`` the Modules inside.  Order: attribute name order, as in TensorFlow.
    """

    def __init__(self, name=None):
        self._name = name if name is not None else unique_name(_camel_to_snake(type(self).__name__))

    @property
    def name(self):
        return self.__dict__.get("_name") or _camel_to_snake(type(self).__name__)

    @property
    def name_scope(self):
        return self.name

    def _walk(self, predicate, seen=None, want_modules=False):
        seen = set() if seen is None else seen
        out = []

        def visit(obj):
            if id(obj) in seen:
                return
            if isinstance(obj, Variable):
                seen.add(id(obj))
                if not want_modules and predicate(obj):
                    out.append(obj)
            elif isinstance(obj, Module):
                seen.add(id(obj))
                if want_modules:
                    out.append(obj)
                for k in sorted(vars(obj)):
                    visit(vars(obj)[k])
            elif isinstance(obj, dict):
                for k in sorted(obj, key=str):
                    visit(obj[k])
            elif isinstance(obj, (list, tuple)):
                for v in obj:
                    visit(v)

        seen.add(id(self))
        for k in sorted(vars(self)):
            visit(vars(self)[k])
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

    def __repr__(self):
        return f"<{type(self).__module__}.{type(self).__name__} object '{self.name}'>"
