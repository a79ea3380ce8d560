"""Op-table rows of tensorweave/ops/image_segmentation_contrib_ops.py: ImageConnectedComponents against
a breadth-first flood fill in pure Python (4-neighbours of equal non-zero value; each component labelled
1 + the flat batch index of its first pixel in scan order), BipartiteMatch against a pure-Python greedy
loop over all (distance, row, column) triples sorted with Python's `sorted`."""

import collections

import numpy as np

from tensorweave.ops.image_segmentation_contrib_ops import bipartite_match, image_connected_components
from tests.ops.op_table.harness import Row, rand

_CC_DTYPES = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.float16, np.float32, np.float64,
              np.bool_)


def _cc_ref(images):
    """Flood fill from each unlabelled pixel in scan order, so a label is its component's first pixel;
    NaN pixels (equal to no neighbour) are single-pixel components."""
    n, h, w = images.shape
    out = np.zeros(images.shape, np.int64)
    for b in range(n):
        for y in range(h):
            for x in range(w):
                v = images[b, y, x]
                if not v or out[b, y, x]:  # NaN is non-zero (and equal to nothing, itself included)
                    continue
                label = b * h * w + y * w + x + 1
                out[b, y, x] = label
                queue = collections.deque([(y, x)])
                while queue:
                    cy, cx = queue.popleft()
                    for ny, nx in ((cy - 1, cx), (cy + 1, cx), (cy, cx - 1), (cy, cx + 1)):
                        if 0 <= ny < h and 0 <= nx < w and not out[b, ny, nx] and images[b, ny, nx] == v:
                            out[b, ny, nx] = label
                            queue.append((ny, nx))
    return out


def _cc_inputs(dt, rng):
    if np.dtype(dt).kind == "b":
        return [rand(rng, (2, 5, 6), dt)]
    return [rand(rng, (2, 5, 6), dt, 0, 3)]


def _cc_special(dt):
    cases = [(np.zeros((0, 3, 3), dt),), (np.zeros((2, 0, 4), dt),), (np.ones((1, 1, 1), dt),)]
    if np.dtype(dt).kind == "f":
        img = np.array([[[np.nan, np.nan, 1.0], [np.inf, np.inf, -0.0], [0.0, -np.inf, -np.inf]]], dt)
        cases.append((img,))
    return cases


def _bm_fn(top_k, num_valid):
    return lambda d: list(bipartite_match(d, num_valid, top_k=top_k))


def _bm_ref(top_k, num_valid):
    def ref(d):
        rows, cols = d.shape
        valid = rows if num_valid < 0 else int(num_valid + 0.1)
        limit = valid * cols if top_k <= 0 else top_k
        row_match = [-1] * rows
        col_match = [-1] * cols
        triples = sorted(((float(d[r, c]), r, c) for r in range(valid) for c in range(cols)),
                         key=lambda t: (np.isnan(t[0]), 0.0 if np.isnan(t[0]) else t[0], t[1], t[2]))
        matched = 0
        for _, r, c in triples:
            if matched >= limit:
                break
            if row_match[r] == -1 and col_match[c] == -1:
                row_match[r], col_match[c] = c, r
                matched += 1
        return [np.array(row_match, np.int32), np.array(col_match, np.int32)]
    return ref


def _bm_inputs(dt, rng):
    d = rand(rng, (5, 4), dt, 0, 4).round(1)  # rounding makes ties, taken in row-major order
    return [d]


def _bm_special(dt):
    return [(np.zeros((0, 3), dt),), (np.zeros((3, 0), dt),),
            (np.array([[np.nan, 1.0], [np.inf, -np.inf], [0.5, np.nan]], dt),)]


_BM_NOTE = "integer outputs of a float input: not differentiable"

ROWS = [
    Row("ImageConnectedComponents", image_connected_components, _cc_ref, _cc_inputs, dtypes=_CC_DTYPES,
        special=_cc_special, grad=False),
    Row("BipartiteMatch", _bm_fn(-1, -1.0), _bm_ref(-1, -1.0), _bm_inputs, dtypes=(np.float32,),
        special=_bm_special, grad=False, note=_BM_NOTE),
    Row("BipartiteMatch", _bm_fn(2, 3.0), _bm_ref(2, 3.0), _bm_inputs, dtypes=(np.float32,), special=False,
        grad=False, name="BipartiteMatch-top_k-valid_rows", note=_BM_NOTE),
]
