"""Op-table row of GatherTree (tensorweave/ops/seq2seq_ops.py; see harness.py for the row API).

The reference builds each final beam as a Python list: it walks from the beam's last step back to
step 0 collecting `step_ids` along the parent chain, reverses the path, cuts it after the first
`end_token`, and pads with `end_token` to `max_time`. TF's own documented cases (and the error
for a bad parent id) are in tests/contrib/test_seq2seq_ops.py.
"""

import numpy as np

from tensorweave.ops.seq2seq_ops import gather_tree
from tests.ops.op_table.harness import Row

_END = 5


def _ref(step_ids, parent_ids, max_lengths, end_token):
    max_time, batch, beams = step_ids.shape
    end = int(end_token)
    out = np.empty(step_ids.shape, np.int32)
    for b in range(batch):
        n = max(0, min(max_time, int(max_lengths[b])))
        for k in range(beams):
            path = []
            beam = k
            for t in reversed(range(n)):
                path.append(int(step_ids[t, b, beam]))
                beam = int(parent_ids[t, b, beam])
            path.reverse()
            if end in path:
                path = path[:path.index(end) + 1]
            path += [end] * (max_time - len(path))
            out[:, b, k] = path
    return out


def _inputs(dtype, rng):
    max_time, batch, beams = 6, 4, 3
    step = rng.randint(0, _END + 1, (max_time, batch, beams)).astype(np.int32)
    parent = rng.randint(0, beams, (max_time, batch, beams)).astype(np.int32)
    lengths = np.array([6, 3, 0, 9], np.int32)
    return [step, parent, lengths, np.int32(_END)]


def _special(dtype):
    rng = np.random.RandomState(3)
    cases = []
    for shape, lengths in (((0, 2, 3), [1, 0]), ((4, 0, 2), []), ((3, 2, 0), [2, 3]), ((1, 2, 1), [1, -2])):
        step = rng.randint(0, _END + 1, shape).astype(np.int32)
        parent = rng.randint(0, max(shape[2], 1), shape).astype(np.int32)
        cases.append((step, parent, np.asarray(lengths, np.int32), np.int32(_END)))
    # Every step an end token, and no end token at all.
    step = np.full((3, 1, 2), _END, np.int32)
    cases.append((step, np.zeros((3, 1, 2), np.int32), np.array([3], np.int32), np.int32(_END)))
    cases.append((np.ones((3, 1, 2), np.int32), np.ones((3, 1, 2), np.int32), np.array([2], np.int32),
                  np.int32(_END)))
    return cases


ROWS = [
    Row("GatherTree", gather_tree, _ref, _inputs, dtypes=(np.int32,), special=_special, grad=False),
]
