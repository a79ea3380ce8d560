"""The "DatasetCardinality" op (TF's `gen_dataset_ops.dataset_cardinality`): the number of elements of a
dataset, computed when the op runs from the values of the dataset's captured tensors (so a dataset
sliced from a placeholder has the fed length), or -1 (infinite) / -2 (unknown).

The op knows datasets only through its `cardinality` attribute, a function from the capture values
(in the order of the op's inputs) to the count, which `tensorweave.data` provides; so this module
imports nothing from `tensorweave.data`.
"""

import numpy as np

from ..framework import dtypes, ops
from ..framework.registry import NO_GRADIENT, register_op

__all__ = ["dataset_cardinality"]


def _infer(op):
    return [(dtypes.int64, ())]


def _kernel(ctx, op, *capture_values, cardinality):
    return np.array(cardinality(list(capture_values)), np.int64)


# Stateful: a dataset of `list_files` counts the files present when it runs, never a folded constant.
register_op("DatasetCardinality", infer=_infer, kernel=_kernel, grad=NO_GRADIENT, stateful=True)


def dataset_cardinality(captures, cardinality, name=None):
    """The cardinality of a dataset as a scalar `tf.int64` tensor.

    Args:
      captures: The dataset's captured tensors (the op's inputs).
      cardinality: A function from their values (a list of arrays) to the number of elements.
      name: Op name.

    Returns:
      A scalar `tf.int64` tensor.
    """
    with ops.name_scope(name, "DatasetCardinality", list(captures)) as scope:
        return ops.apply_op("DatasetCardinality", list(captures), {"cardinality": cardinality}, name=scope)
