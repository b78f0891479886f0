"""The recording state: the one leaf module every layer of the engine may read.

Nothing here imports anything from minitape, so that the layers above (tensors, operations,
the tape, forward mode, debugging) can all share this state without importing each other.
The lists are mutated in place, never rebound: modules import them by name and keep reading
the same objects.
"""
from __future__ import annotations

import itertools

# Tensor ids (and time stamps of debugging notes, comparable with them): they only grow.
next_id = itertools.count(1).__next__

# Active recorders, innermost last.  Every operation looks at these two lists.
tapes: list = []           # GradientTape objects that are recording
accumulators: list = []    # ForwardAccumulator objects that are active

# Collectors of the trainable Variables read while a custom_gradient function runs (dicts,
# id -> Variable): that function's gradient must cover them too.
variable_reads: list = []

# [True] once a second array module (CuPy, or the strict test backend) is registered: from
# then on every operation decides where it runs (_core._place); until then nobody looks.
multi_device = [False]
