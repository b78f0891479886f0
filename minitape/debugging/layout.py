"""Graph layout: topological layers, barycentre ordering, dummy nodes for long edges.
"""
from __future__ import annotations

import itertools




_CW = 7.3     # width of one character at 12px in a monospace font


_CW_S = 6.1   # ... at 10px


_LINE = 15


class _Box:
    __slots__ = ("key", "w", "h", "layer", "x", "y", "dummy")

    def __init__(self, key, w, h, dummy=False):
        self.key, self.w, self.h, self.dummy = key, w, h, dummy
        self.layer = 0
        self.x = self.y = 0.0


def _layout(boxes, edges, direction="TB", gap_layer=34, gap_node=22):
    """Place ``boxes`` (dict key -> _Box) for directed acyclic ``edges`` (list of (u, v)).

    Returns the dummy chains: {(u, v): [dummy keys]} and the total (width, height).
    """
    preds = {k: [] for k in boxes}
    succs = {k: [] for k in boxes}
    for u, v in edges:
        preds[v].append(u)
        succs[u].append(v)
    # longest-path layers (keys are given in a topological order)
    for k in boxes:
        b = boxes[k]
        b.layer = max((boxes[p].layer + 1 for p in preds[k]), default=0)
    # pull leaves (no predecessors) down next to their first consumer
    for k in boxes:
        if not preds[k] and succs[k]:
            boxes[k].layer = min(boxes[s].layer for s in succs[k]) - 1
    # dummy nodes on edges that span several layers
    chains = {}
    dpreds = {k: list(v) for k, v in preds.items()}
    dsuccs = {k: list(v) for k, v in succs.items()}
    n_dummy = itertools.count()
    for u, v in edges:
        lu, lv = boxes[u].layer, boxes[v].layer
        if lv - lu <= 1:
            continue
        chain = []
        prev = u
        dsuccs[u].remove(v)
        dpreds[v].remove(u)
        for layer in range(lu + 1, lv):
            d = ("dummy", next(n_dummy))
            b = boxes[d] = _Box(d, 2, 2, dummy=True)
            b.layer = layer
            dpreds[d] = [prev]
            dsuccs[d] = []
            dsuccs[prev].append(d)
            chain.append(d)
            prev = d
        dsuccs[prev].append(v)
        dpreds[v].append(prev)
        chains[(u, v)] = chain
    n_layers = max((b.layer for b in boxes.values()), default=0) + 1
    layers = [[] for _ in range(n_layers)]
    for k, b in boxes.items():
        layers[b.layer].append(k)
    # barycentre ordering, a few sweeps down and up
    pos = {}
    for layer in layers:
        for i, k in enumerate(layer):
            pos[k] = i
    for sweep in range(6):
        rng = range(1, n_layers) if sweep % 2 == 0 else range(n_layers - 2, -1, -1)
        for li in rng:
            nb = dpreds if sweep % 2 == 0 else dsuccs
            layer = layers[li]

            def bary(k, nb=nb):
                ps = nb[k]
                return sum(pos[p] for p in ps) / len(ps) if ps else pos[k]

            layer.sort(key=lambda k: (bary(k), pos[k]))
            for i, k in enumerate(layer):
                pos[k] = i
    tb = direction == "TB"

    def cross(b):
        return b.w if tb else b.h

    def main(b):
        return b.h if tb else b.w

    # cross-axis coordinates (centres): pack, then pull towards neighbours' centres
    c = {}
    for layer in layers:
        x = 0.0
        for k in layer:
            w = cross(boxes[k])
            c[k] = x + w / 2
            x += w + gap_node
        shift = -(x - gap_node) / 2
        for k in layer:
            c[k] += shift
    for sweep in range(8):
        down = sweep % 2 == 0
        rng = range(1, n_layers) if down else range(n_layers - 2, -1, -1)
        for li in rng:
            layer = layers[li]
            want = {}
            for k in layer:
                ns = (dpreds[k] if down else dsuccs[k]) or (dsuccs[k] if down else dpreds[k])
                want[k] = sum(c[n] for n in ns) / len(ns) if ns else c[k]
            # place left to right at the wanted centres without overlaps, then centre the
            # whole layer on the average wish
            placed = []
            right = -1e18
            for k in layer:
                w = cross(boxes[k])
                x = max(want[k], right + gap_node + w / 2)
                placed.append(x)
                right = x + w / 2
            off = sum(want[k] - x for k, x in zip(layer, placed)) / max(len(layer), 1)
            for k, x in zip(layer, placed):
                c[k] = x + off
    # main-axis coordinates (layer by layer)
    sizes = [max((main(boxes[k]) for k in layer), default=0) for layer in layers]
    m = []
    acc = 0.0
    for s in sizes:
        m.append(acc + s / 2)
        acc += s + gap_layer
    lo = min((c[k] - cross(boxes[k]) / 2 for k in boxes), default=0)
    hi = max((c[k] + cross(boxes[k]) / 2 for k in boxes), default=0)
    for k, b in boxes.items():
        if tb:
            b.x, b.y = c[k] - lo, m[b.layer]
        else:
            b.x, b.y = m[b.layer], c[k] - lo
    extent_main = acc - gap_layer if layers else 0
    size = (hi - lo, extent_main) if tb else (extent_main, hi - lo)
    return chains, size
