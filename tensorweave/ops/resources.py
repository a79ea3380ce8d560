"""Resource bookkeeping (TF 1.x's `tensorflow.python.ops.resources`).

A resource (a lookup table, a TensorForest tree, ...) is registered as a `(handle, create,
is_initialized)` triple in the graph's `GraphKeys.RESOURCES` (shared) or `GraphKeys.LOCAL_RESOURCES`
collection; `initialize_resources` groups the create ops of a list of them and
`report_uninitialized_resources` names those whose `is_initialized` op says false.
"""

import collections

import numpy as np

from ..framework import dtypes, ops
from ..framework.constant_op import constant
from . import array_ops, core_ops, math_ops

__all__ = ["initialize_resources", "local_resources", "register_resource", "report_uninitialized_resources",
           "shared_resources"]

_Resource = collections.namedtuple("_Resource", ["handle", "create", "is_initialized"])


def register_resource(handle, create_op, is_initialized_op, is_shared=True):
    """Registers a resource into the appropriate collections.

    This makes the resource findable in either the shared or local resources collection.

    Args:
      handle: op which returns a handle for the resource.
      create_op: op which initializes the resource.
      is_initialized_op: op which returns a scalar boolean tensor of whether the resource has been
        initialized.
      is_shared: if True, the resource gets added to the shared resources collection; otherwise it
        gets added to the local resources collection.
    """
    resource = _Resource(handle, create_op, is_initialized_op)
    ops.add_to_collection(ops.GraphKeys.RESOURCES if is_shared else ops.GraphKeys.LOCAL_RESOURCES, resource)


def shared_resources():
    """Returns resources visible to all tasks in the cluster."""
    return ops.get_collection(ops.GraphKeys.RESOURCES)


def local_resources():
    """Returns resources intended to be local to this session."""
    return ops.get_collection(ops.GraphKeys.LOCAL_RESOURCES)


def report_uninitialized_resources(resource_list=None, name="report_uninitialized_resources"):
    """Returns the names of all uninitialized resources in resource_list.

    If the returned tensor is empty then all resources have been initialized.

    Args:
      resource_list: resources to check. If None, will use shared_resources() + local_resources().
      name: name for the resource-checking op.

    Returns:
      Tensor containing names of the handles of all resources which have not yet been initialized.
    """
    if resource_list is None:
        resource_list = shared_resources() + local_resources()
    with ops.name_scope(name):
        if not resource_list:
            return constant([], dtype=dtypes.string)
        mask = math_ops.logical_not(array_ops.stack([r.is_initialized for r in resource_list]))
        names = constant([r.handle.name for r in resource_list])
        return array_ops.boolean_mask(names, mask)


def initialize_resources(resource_list, name="init"):
    """Initializes the resources in the given list.

    Args:
      resource_list: list of resources to initialize.
      name: name of the initialization op.

    Returns:
      op responsible for initializing all resources.
    """
    if resource_list:
        return core_ops.group(*[r.create for r in resource_list], name=name)
    return core_ops.no_op(name=name)


def _string_scalar(value):
    """A 0-d string (object) array holding `value`: how a resource's serialize kernel returns the
    bytes it wrote (tensor forests, boosted-trees ensembles)."""
    out = np.empty((), dtype=object)
    out[()] = value
    return out
