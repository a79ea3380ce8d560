"""TF1's queue-based input pipeline (TF's `training/input.py`): `limit_epochs`, the input producers
(`input_producer`, `string_input_producer`, `range_input_producer`, `slice_input_producer`) and the
batching functions (`batch`, `batch_join`, `shuffle_batch`, `shuffle_batch_join` and their
`maybe_*` forms). Each builds a queue, its enqueue ops and a `QueueRunner` (in the
`GraphKeys.QUEUE_RUNNERS` collection, started by `tf.train.start_queue_runners`)."""

import itertools

from .. import variables
from ..framework import dtypes, ops, tensor_util
from ..framework.ops import GraphKeys
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor_shape import TensorShape, as_shape
from ..ops import (
    array_ops,
    core_ops,
    data_flow_ops,
    data_flow_sparse_map_ops,
    logging_ops,
    math_ops,
    partition_ops,
    random_ops,
    state_count_ops,
    summary_ops,
)
from . import queue_runner

__all__ = ["batch", "batch_join", "input_producer", "limit_epochs", "maybe_batch", "maybe_batch_join",
           "maybe_shuffle_batch", "maybe_shuffle_batch_join", "range_input_producer", "shuffle_batch",
           "shuffle_batch_join", "slice_input_producer", "string_input_producer"]


def _check_graph_mode():
    if ops.get_default_graph()._eager:
        raise ValueError("Input pipelines based on Queues are not supported when eager execution is enabled. "
                         "Please use tf.data to ingest data into your model instead.")


def limit_epochs(tensor, num_epochs=None, name=None):
    """Returns tensor `num_epochs` times and then raises an `OutOfRange` error.

    Note: creates a local counter `epochs`. Use `local_variables_initializer()` to initialize local
    variables.

    Args:
      tensor: Any `Tensor`.
      num_epochs: A positive integer (optional). If specified, limits the number of steps the
        output tensor may be evaluated.
      name: A name for the operations (optional).

    Returns:
      tensor or `OutOfRange`.

    Raises:
      ValueError: if `num_epochs` is invalid.
    """
    if num_epochs is None:
        return tensor
    if num_epochs <= 0:
        raise ValueError("num_epochs must be > 0 not %d." % num_epochs)
    with ops.name_scope(name, "limit_epochs", [tensor]) as name:
        zero64 = ops.convert_to_tensor(0, dtype=dtypes.int64)
        epochs = variables.Variable(zero64, name="epochs", trainable=False, collections=[GraphKeys.LOCAL_VARIABLES])
        counter = state_count_ops.count_up_to(epochs, num_epochs)
        with ops.control_dependencies([counter]):
            return core_ops.identity(tensor, name=name)


def input_producer(input_tensor, element_shape=None, num_epochs=None, shuffle=True, seed=None, capacity=32,
                   shared_name=None, summary_name=None, name=None, cancel_op=None):
    """Output the rows of `input_tensor` to a queue for an input pipeline.

    Note: if `num_epochs` is not `None`, this function creates local counter `epochs`. Use
    `local_variables_initializer()` to initialize local variables.

    Args:
      input_tensor: A tensor with the rows to produce. Must be at least one-dimensional. Must either
        have a fully-defined shape, or `element_shape` must be defined.
      element_shape: (Optional.) A `TensorShape` representing the shape of a row of `input_tensor`.
      num_epochs: (Optional.) An integer. If specified `input_producer` produces each row of
        `input_tensor` `num_epochs` times before generating an `OutOfRange` error.
      shuffle: (Optional.) A boolean. If true, the rows are randomly shuffled within each epoch.
      seed: (Optional.) An integer. The seed to use if `shuffle` is true.
      capacity: (Optional.) The capacity of the queue to be used for buffering the input.
      shared_name: (Optional.) If set, this queue will be shared under the given name.
      summary_name: (Optional.) If set, a scalar summary for the current queue size will be generated.
      name: (Optional.) A name for queue.
      cancel_op: (Optional.) Cancel op for the queue.

    Returns:
      A queue with the output rows. A `QueueRunner` for the queue is added to the current
      `QUEUE_RUNNER` collection of the current graph.

    Raises:
      ValueError: If the shape of the input cannot be inferred from the arguments.
    """
    _check_graph_mode()
    with ops.name_scope(name, "input_producer", [input_tensor]):
        input_tensor = ops.convert_to_tensor(input_tensor, name="input_tensor")
        element_shape = TensorShape(input_tensor.shape.as_list()[1:] if input_tensor.shape.ndims is not None
                                    else None).merge_with(as_shape(element_shape) if element_shape is not None
                                                          else TensorShape(None))
        if not element_shape.is_fully_defined():
            raise ValueError("Either `input_tensor` must have a fully defined shape or `element_shape` must be "
                             "specified")
        if shuffle:
            input_tensor = random_ops.random_shuffle(input_tensor, seed=seed)
        input_tensor = limit_epochs(input_tensor, num_epochs)
        q = data_flow_ops.FIFOQueue(capacity=capacity, dtypes=[input_tensor.dtype], shapes=[element_shape],
                                    shared_name=shared_name, name=name)
        enq = q.enqueue_many([input_tensor])
        queue_runner.add_queue_runner(queue_runner.QueueRunner(q, [enq], cancel_op=cancel_op))
        if summary_name is not None:
            summary_ops.scalar(summary_name, math_ops.cast(q.size(), dtypes.float32) * (1.0 / capacity))
        return q


def string_input_producer(string_tensor, num_epochs=None, shuffle=True, seed=None, capacity=32, shared_name=None,
                          name=None, cancel_op=None):
    """Output strings (e.g. filenames) to a queue for an input pipeline.

    Note: if `num_epochs` is not `None`, this function creates local counter `epochs`. Use
    `local_variables_initializer()` to initialize local variables.

    Args:
      string_tensor: A 1-D string tensor with the strings to produce.
      num_epochs: An integer (optional). If specified, `string_input_producer` produces each
        string from `string_tensor` `num_epochs` times before generating an `OutOfRange` error.
      shuffle: Boolean. If true, the strings are randomly shuffled within each epoch.
      seed: An integer (optional). Seed used if shuffle == True.
      capacity: An integer. Sets the queue capacity.
      shared_name: (optional). If set, this queue will be shared under the given name.
      name: A name for the operations (optional).
      cancel_op: Cancel op for the queue (optional).

    Returns:
      A queue with the output strings. A `QueueRunner` for the Queue is added to the current
      `Graph`'s `QUEUE_RUNNER` collection.

    Raises:
      ValueError: If the string_tensor is a null Python list. At runtime, will fail with an
        assertion if string_tensor becomes a null tensor.
    """
    not_null_err = "string_input_producer requires a non-null input tensor"
    if not isinstance(string_tensor, ops.Tensor) and not len(string_tensor):
        raise ValueError(not_null_err)
    with ops.name_scope(name, "input_producer", [string_tensor]) as name:
        string_tensor = ops.convert_to_tensor(string_tensor, dtype=dtypes.string)
        with ops.control_dependencies([logging_ops.Assert(math_ops.greater(array_ops.size(string_tensor), 0),
                                                          [not_null_err])]):
            string_tensor = core_ops.identity(string_tensor)
        return input_producer(input_tensor=string_tensor, shuffle=shuffle, seed=seed, num_epochs=num_epochs,
                              capacity=capacity, shared_name=shared_name, name=name,
                              summary_name="fraction_of_%d_full" % capacity, cancel_op=cancel_op)


def range_input_producer(limit, num_epochs=None, shuffle=True, seed=None, capacity=32, shared_name=None, name=None):
    """Produces the integers from 0 to limit-1 in a queue.

    Note: if `num_epochs` is not `None`, this function creates local counter `epochs`. Use
    `local_variables_initializer()` to initialize local variables.

    Args:
      limit: An int32 scalar tensor.
      num_epochs: An integer (optional). If specified, `range_input_producer` produces each
        integer `num_epochs` times before generating an OutOfRange error.
      shuffle: Boolean. If true, the integers are randomly shuffled within each epoch.
      seed: An integer (optional). Seed used if shuffle == True.
      capacity: An integer. Sets the queue capacity.
      shared_name: (optional). If set, this queue will be shared under the given name.
      name: A name for the operations (optional).

    Returns:
      A Queue with the output integers. A `QueueRunner` for the Queue is added to the current
      `Graph`'s `QUEUE_RUNNER` collection.
    """
    with ops.name_scope(name, "input_producer", [limit]) as name:
        range_tensor = array_ops.range(limit)
        return input_producer(range_tensor, [], num_epochs, shuffle, seed, capacity, shared_name,
                              "fraction_of_%d_full" % capacity, name)


def slice_input_producer(tensor_list, num_epochs=None, shuffle=True, seed=None, capacity=32, shared_name=None,
                         name=None):
    """Produces a slice of each `Tensor` in `tensor_list`.

    Implemented using a Queue -- a `QueueRunner` for the Queue is added to the current `Graph`'s
    `QUEUE_RUNNER` collection.

    Args:
      tensor_list: A list of `Tensor` objects. Every `Tensor` in `tensor_list` must have the same
        size in the first dimension.
      num_epochs: An integer (optional). If specified, `slice_input_producer` produces each slice
        `num_epochs` times before generating an `OutOfRange` error.
      shuffle: Boolean. If true, the integers are randomly shuffled within each epoch.
      seed: An integer (optional). Seed used if shuffle == True.
      capacity: An integer. Sets the queue capacity.
      shared_name: (optional). If set, this queue will be shared under the given name.
      name: A name for the operations (optional).

    Returns:
      A list of tensors, one for each element of `tensor_list`. If the tensor in `tensor_list` has
      shape `[N, a, b, .., z]`, then the corresponding output tensor will have shape `[a, b, ..., z]`.

    Raises:
      ValueError: if `slice_input_producer` produces nothing from `tensor_list`.
    """
    with ops.name_scope(name, "input_producer", list(tensor_list)):
        tensor_list = [ops.convert_to_tensor(t) for t in tensor_list]
        if not tensor_list:
            raise ValueError("Expected at least one tensor in slice_input_producer().")
        range_size = core_ops.shape(tensor_list[0])[0]
        queue = range_input_producer(range_size, num_epochs=num_epochs, shuffle=shuffle, seed=seed,
                                     capacity=capacity, shared_name=shared_name)
        index = queue.dequeue()
        return [array_ops.gather(t, index) for t in tensor_list]


# ---- batching -------------------------------------------------------------------------------------------
def _flatten(tensor_list_list):
    return list(itertools.chain.from_iterable(tensor_list_list))


def _as_tensor_list(tensors):
    if isinstance(tensors, dict):
        return [tensors[k] for k in sorted(tensors, key=str)]
    return tensors


def _as_tensor_list_list(tensors_list):
    if not tensors_list:
        raise ValueError("Expected at least one set of tensors")
    if isinstance(tensors_list[0], dict):
        expected_keys = set(tensors_list[0].keys())
        for tensors in tensors_list[1:]:
            if set(tensors.keys()) != expected_keys:
                raise ValueError("All dictionaries in tensors_list must have the same keys")
        return [_as_tensor_list(tensors) for tensors in tensors_list]
    return tensors_list


def _as_original_type(original_tensors, tensor_list):
    if isinstance(original_tensors, dict):
        if len(original_tensors) == 1:
            # The queue returns a single tensor when one tensor was enqueued: make it a list again.
            tensor_list = [tensor_list]
        return {k: tensor_list[i] for i, k in enumerate(sorted(original_tensors, key=str))}
    return tensor_list


def _convert(tensor_list, what):
    out = []
    for t in tensor_list:
        if isinstance(t, SparseTensor) or type(t).__name__ == "SparseTensorValue":
            out.append(SparseTensor.from_value(t) if not isinstance(t, SparseTensor) else t)
        else:
            out.append(ops.convert_to_tensor(t))
    return out


def _store_sparse_tensors(tensor_list, enqueue_many, shared_map_ops=None):
    """Replaces each SparseTensor by the int64 handle(s) of its copy in a SparseTensorsMap (TF's
    `_store_sparse_tensors`); returns the list and, per item, (map op, rank of one element) or None."""
    out, info = [], []
    for i, t in enumerate(tensor_list):
        if not isinstance(t, SparseTensor):
            out.append(t)
            info.append(None)
            continue
        shared = shared_map_ops[i].name if shared_map_ops and shared_map_ops[i] is not None else None
        rank = t.dense_shape.shape.as_list()[0] if t.dense_shape.shape.ndims == 1 else None
        if enqueue_many:
            handles = data_flow_sparse_map_ops.add_many_sparse_to_tensors_map(t, shared_name=shared)
            rank = None if rank is None else rank - 1
        else:
            handles = data_flow_sparse_map_ops.add_sparse_to_tensors_map(t, shared_name=shared)
        out.append(handles)
        info.append((handles.op, rank))
    return out, info


def _store_sparse_tensors_join(tensor_list_list, enqueue_many):
    first, info = _store_sparse_tensors(tensor_list_list[0], enqueue_many)
    map_ops = [i[0] if i else None for i in info]
    rest = [_store_sparse_tensors(tl, enqueue_many, map_ops)[0] for tl in tensor_list_list[1:]]
    return [first] + rest, info


def _restore_sparse_tensors(dequeued, info):
    """The dequeued handles taken back out of their maps as batched SparseTensors."""
    if all(i is None for i in info):
        return dequeued
    single = isinstance(dequeued, ops.Tensor)
    items = [dequeued] if single else list(dequeued)
    items = [t if i is None else data_flow_sparse_map_ops.take_many_sparse_from_tensors_map(i[0], t, rank=i[1])
             for t, i in zip(items, info)]
    return items[0] if single else items


def _validate(tensor_list):
    tensor_list = _convert(tensor_list, "batch()")
    if not tensor_list:
        raise ValueError("Expected at least one tensor in batch().")
    return tensor_list


def _validate_join(tensor_list_list):
    tensor_list_list = [_convert(tl, "batch_join()") for tl in tensor_list_list]
    if not tensor_list_list:
        raise ValueError("Expected at least one input in batch_join().")
    return tensor_list_list


def _validate_keep_input(keep_input, enqueue_many):
    keep_input = ops.convert_to_tensor(keep_input)
    if keep_input.shape.ndims is None:
        raise ValueError("`keep_input` dimensions must be known at graph construction.")
    if not enqueue_many and keep_input.shape.ndims == 1:
        raise ValueError("`keep_input` cannot be a vector when `enqueue_many=False`.")
    if keep_input.shape.ndims > 1:
        raise ValueError("`keep_input` must be 0 or 1 dimensions.")
    return keep_input


def _dtypes(tensor_list_list):
    all_types = [[t.dtype for t in tl] for tl in tensor_list_list]
    types = all_types[0]
    for other_types in all_types[1:]:
        if other_types != types:
            raise TypeError("Expected types to be consistent: %s vs. %s." % (
                ", ".join(x.name for x in types), ", ".join(x.name for x in other_types)))
    return types


def _merge_shapes(shape_list, enqueue_many):
    shape_list = [as_shape(s) for s in shape_list]
    if enqueue_many:
        # We want the shapes without the leading batch dimension.
        shape_list = [TensorShape(s.with_rank_at_least(1).as_list()[1:]) for s in shape_list]
    merged_shape = shape_list[0]
    for s in shape_list[1:]:
        merged_shape.merge_with(s)  # (TF checks compatibility only, keeping the first shape)
    return merged_shape.as_list()


def _shapes(tensor_list_list, shapes, enqueue_many):
    if shapes is None:
        len0 = len(tensor_list_list[0])
        for tl in tensor_list_list:
            for i in range(len0):
                if tl[i].shape.ndims is None:
                    raise ValueError("Cannot infer Tensor's rank: %s" % tl[i])
        shapes = [_merge_shapes([tl[i].shape.as_list() for tl in tensor_list_list], enqueue_many)
                  for i in range(len0)]
    return shapes


def _select_which_to_enqueue(tensor_list, keep_input):
    select_i = math_ops.cast(keep_input, dtypes.int32)
    return [partition_ops.dynamic_partition(x, select_i, num_partitions=2)[1] for x in tensor_list]


def _enqueue_fn(queue, tensor_list, enqueue_many, keep_input):
    """The enqueue op of `tensor_list`, keeping only what `keep_input` says (TF's smart_cond)."""
    enqueue_fn = queue.enqueue_many if enqueue_many else queue.enqueue
    if keep_input.shape.ndims == 1:
        return enqueue_fn(_select_which_to_enqueue(tensor_list, keep_input))
    keep = tensor_util.constant_value(keep_input)
    if keep is not None:
        return enqueue_fn(tensor_list) if bool(keep) else core_ops.no_op()
    # A scalar decided at run time: enqueue zero or all of the elements.
    if enqueue_many:
        n = core_ops.shape(tensor_list[0])[0]
        keep_vec = array_ops.fill(array_ops.expand_dims(n, 0), keep_input)
        return queue.enqueue_many(_select_which_to_enqueue(tensor_list, keep_vec))
    batched = [array_ops.expand_dims(t, 0) for t in tensor_list]
    return queue.enqueue_many(_select_which_to_enqueue(batched, array_ops.expand_dims(keep_input, 0)))


def _enqueue_join(queue, tensor_list_list, enqueue_many, keep_input):
    enqueue_ops = [_enqueue_fn(queue, tl, enqueue_many, keep_input) for tl in tensor_list_list]
    queue_runner.add_queue_runner(queue_runner.QueueRunner(queue, enqueue_ops))


def _enqueue(queue, tensor_list, threads, enqueue_many, keep_input):
    enqueue_ops = [_enqueue_fn(queue, tensor_list, enqueue_many, keep_input)] * threads
    queue_runner.add_queue_runner(queue_runner.QueueRunner(queue, enqueue_ops))


def _which_queue(dynamic_pad):
    return data_flow_ops.PaddingFIFOQueue if dynamic_pad else data_flow_ops.FIFOQueue


def _dequeue(queue, batch_size, allow_smaller_final_batch, name):
    if allow_smaller_final_batch:
        return queue.dequeue_up_to(batch_size, name=name)
    return queue.dequeue_many(batch_size, name=name)


def _batch(tensors, batch_size, keep_input, num_threads=1, capacity=32, enqueue_many=False, shapes=None,
           dynamic_pad=False, allow_smaller_final_batch=False, shared_name=None, name=None):
    _check_graph_mode()
    tensor_list = _as_tensor_list(tensors)
    with ops.name_scope(name, "batch", list(tensor_list) + [keep_input]) as name:
        tensor_list = _validate(tensor_list)
        keep_input = _validate_keep_input(keep_input, enqueue_many)
        tensor_list, sparse_info = _store_sparse_tensors(tensor_list, enqueue_many)
        types = _dtypes([tensor_list])
        shapes = _shapes([tensor_list], shapes, enqueue_many)
        queue = _which_queue(dynamic_pad)(capacity=capacity, dtypes=types, shapes=shapes, shared_name=shared_name)
        _enqueue(queue, tensor_list, num_threads, enqueue_many, keep_input)
        summary_ops.scalar("fraction_of_%d_full" % capacity,
                           math_ops.cast(queue.size(), dtypes.float32) * (1.0 / capacity))
        dequeued = _restore_sparse_tensors(_dequeue(queue, batch_size, allow_smaller_final_batch, name), sparse_info)
        return _as_original_type(tensors, dequeued)


def _batch_join(tensors_list, batch_size, keep_input, capacity=32, enqueue_many=False, shapes=None,
                dynamic_pad=False, allow_smaller_final_batch=False, shared_name=None, name=None):
    _check_graph_mode()
    tensor_list_list = _as_tensor_list_list(tensors_list)
    with ops.name_scope(name, "batch_join", _flatten(tensor_list_list) + [keep_input]) as name:
        tensor_list_list = _validate_join(tensor_list_list)
        keep_input = _validate_keep_input(keep_input, enqueue_many)
        tensor_list_list, sparse_info = _store_sparse_tensors_join(tensor_list_list, enqueue_many)
        types = _dtypes(tensor_list_list)
        shapes = _shapes(tensor_list_list, shapes, enqueue_many)
        queue = _which_queue(dynamic_pad)(capacity=capacity, dtypes=types, shapes=shapes, shared_name=shared_name)
        _enqueue_join(queue, tensor_list_list, enqueue_many, keep_input)
        summary_ops.scalar("fraction_of_%d_full" % capacity,
                           math_ops.cast(queue.size(), dtypes.float32) * (1.0 / capacity))
        dequeued = _restore_sparse_tensors(_dequeue(queue, batch_size, allow_smaller_final_batch, name), sparse_info)
        return _as_original_type(tensors_list[0], dequeued)


def _shuffle_summary(queue, capacity, min_after_dequeue):
    full = math_ops.cast(math_ops.maximum(0, queue.size() - min_after_dequeue), dtypes.float32) * \
        (1.0 / (capacity - min_after_dequeue))
    summary_ops.scalar("fraction_over_%d_of_%d_full" % (min_after_dequeue, capacity - min_after_dequeue), full)


def _shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, keep_input, num_threads=1, seed=None,
                   enqueue_many=False, shapes=None, allow_smaller_final_batch=False, shared_name=None, name=None):
    _check_graph_mode()
    tensor_list = _as_tensor_list(tensors)
    with ops.name_scope(name, "shuffle_batch", list(tensor_list) + [keep_input]) as name:
        if capacity <= min_after_dequeue:
            raise ValueError("capacity %d must be bigger than min_after_dequeue %d." % (capacity, min_after_dequeue))
        tensor_list = _validate(tensor_list)
        keep_input = _validate_keep_input(keep_input, enqueue_many)
        tensor_list, sparse_info = _store_sparse_tensors(tensor_list, enqueue_many)
        types = _dtypes([tensor_list])
        shapes = _shapes([tensor_list], shapes, enqueue_many)
        queue = data_flow_ops.RandomShuffleQueue(capacity=capacity, min_after_dequeue=min_after_dequeue, seed=seed,
                                                 dtypes=types, shapes=shapes, shared_name=shared_name)
        _enqueue(queue, tensor_list, num_threads, enqueue_many, keep_input)
        _shuffle_summary(queue, capacity, min_after_dequeue)
        dequeued = _restore_sparse_tensors(_dequeue(queue, batch_size, allow_smaller_final_batch, name), sparse_info)
        return _as_original_type(tensors, dequeued)


def _shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue, keep_input, seed=None,
                        enqueue_many=False, shapes=None, allow_smaller_final_batch=False, shared_name=None, name=None):
    _check_graph_mode()
    tensor_list_list = _as_tensor_list_list(tensors_list)
    with ops.name_scope(name, "shuffle_batch_join", _flatten(tensor_list_list) + [keep_input]) as name:
        tensor_list_list = _validate_join(tensor_list_list)
        keep_input = _validate_keep_input(keep_input, enqueue_many)
        tensor_list_list, sparse_info = _store_sparse_tensors_join(tensor_list_list, enqueue_many)
        types = _dtypes(tensor_list_list)
        shapes = _shapes(tensor_list_list, shapes, enqueue_many)
        queue = data_flow_ops.RandomShuffleQueue(capacity=capacity, min_after_dequeue=min_after_dequeue, seed=seed,
                                                 dtypes=types, shapes=shapes, shared_name=shared_name)
        _enqueue_join(queue, tensor_list_list, enqueue_many, keep_input)
        _shuffle_summary(queue, capacity, min_after_dequeue)
        dequeued = _restore_sparse_tensors(_dequeue(queue, batch_size, allow_smaller_final_batch, name), sparse_info)
        return _as_original_type(tensors_list[0], dequeued)


_BATCH_ARGS = """
    Args:
      tensors: The list or dictionary of tensors to enqueue.
      batch_size: The new batch size pulled from the queue.
      num_threads: The number of threads enqueuing `tensors`.
      capacity: An integer. The maximum number of elements in the queue.
      enqueue_many: Whether each tensor in `tensors` is a single example (False) or a batch of
        examples along dimension 0 (True).
      shapes: (Optional) The shapes for each example. Defaults to the inferred shapes for `tensors`.
      dynamic_pad: Boolean. Allow variable dimensions in input shapes: they are padded on dequeue
        so that tensors within a batch have the same shapes.
      allow_smaller_final_batch: (Optional) Boolean. If `True`, allow the final batch to be smaller
        if there are insufficient items left in the queue.
      shared_name: (Optional). If set, this queue will be shared under the given name.
      name: (Optional) A name for the operations.

    Returns:
      A list or dictionary of tensors with the same types as `tensors` (except if the input is a
      list of one element, then it returns a tensor, not a list).

    Raises:
      ValueError: If the `shapes` are not specified, and cannot be inferred from the elements of `tensors`.
"""


def batch(tensors, batch_size, num_threads=1, capacity=32, enqueue_many=False, shapes=None, dynamic_pad=False,
          allow_smaller_final_batch=False, shared_name=None, name=None):
    return _batch(tensors, batch_size, keep_input=True, num_threads=num_threads, capacity=capacity,
                  enqueue_many=enqueue_many, shapes=shapes, dynamic_pad=dynamic_pad,
                  allow_smaller_final_batch=allow_smaller_final_batch, shared_name=shared_name, name=name)


batch.__doc__ = """Creates batches of tensors in `tensors`.

    The argument `tensors` can be a list or a dictionary of tensors. The value returned by the
    function will be of the same type as `tensors`. This function is implemented using a queue. A
    `QueueRunner` for the queue is added to the current `Graph`'s `QUEUE_RUNNER` collection.
    If `enqueue_many` is `False`, `tensors` is assumed to represent a single example: an input
    tensor with shape `[x, y, z]` will be output as a tensor with shape `[batch_size, x, y, z]`.
    If `enqueue_many` is `True`, `tensors` is assumed to represent a batch of examples, where the
    first dimension is indexed by example.
""" + _BATCH_ARGS


def maybe_batch(tensors, keep_input, batch_size, num_threads=1, capacity=32, enqueue_many=False, shapes=None,
                dynamic_pad=False, allow_smaller_final_batch=False, shared_name=None, name=None):
    return _batch(tensors, batch_size, keep_input, num_threads=num_threads, capacity=capacity,
                  enqueue_many=enqueue_many, shapes=shapes, dynamic_pad=dynamic_pad,
                  allow_smaller_final_batch=allow_smaller_final_batch, shared_name=shared_name, name=name)


maybe_batch.__doc__ = """Conditionally creates batches of tensors based on `keep_input`.

    See docstring in `batch` for more details. `keep_input`: a `bool` Tensor. This tensor controls
    whether the input is added to the queue or not. If it is a scalar and evaluates `True`, then
    `tensors` are all added to the queue. If it is a vector and `enqueue_many` is `True`, then each
    example is added to the queue only if the corresponding value in `keep_input` is `True`.
""" + _BATCH_ARGS


def batch_join(tensors_list, batch_size, capacity=32, enqueue_many=False, shapes=None, dynamic_pad=False,
               allow_smaller_final_batch=False, shared_name=None, name=None):
    return _batch_join(tensors_list, batch_size, keep_input=True, capacity=capacity, enqueue_many=enqueue_many,
                       shapes=shapes, dynamic_pad=dynamic_pad, allow_smaller_final_batch=allow_smaller_final_batch,
                       shared_name=shared_name, name=name)


batch_join.__doc__ = """Runs a list of tensors to fill a queue to create batches of examples.

    `tensors_list` is a list of tuples (or dictionaries) of tensors; one thread enqueues each of
    them (so `len(tensors_list)` threads run), all into one queue, and the result is batched as in
    `batch`. The tensors of each element of `tensors_list` must have the same types and shapes.
""" + _BATCH_ARGS.replace("tensors: The list or dictionary of tensors to enqueue.",
                          "tensors_list: A list of tuples or dictionaries of tensors to enqueue.")


def maybe_batch_join(tensors_list, keep_input, batch_size, capacity=32, enqueue_many=False, shapes=None,
                     dynamic_pad=False, allow_smaller_final_batch=False, shared_name=None, name=None):
    return _batch_join(tensors_list, batch_size, keep_input, capacity=capacity, enqueue_many=enqueue_many,
                       shapes=shapes, dynamic_pad=dynamic_pad, allow_smaller_final_batch=allow_smaller_final_batch,
                       shared_name=shared_name, name=name)


maybe_batch_join.__doc__ = """Runs a list of tensors to conditionally fill a queue to create batches.

    See `batch_join`; `keep_input` (a `bool` scalar, or a vector with `enqueue_many`) decides
    which inputs are enqueued.
""" + _BATCH_ARGS


def shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, num_threads=1, seed=None, enqueue_many=False,
                  shapes=None, allow_smaller_final_batch=False, shared_name=None, name=None):
    return _shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, keep_input=True,
                          num_threads=num_threads, seed=seed, enqueue_many=enqueue_many, shapes=shapes,
                          allow_smaller_final_batch=allow_smaller_final_batch, shared_name=shared_name, name=name)


_SHUFFLE_ARGS = _BATCH_ARGS.replace(
    "      dynamic_pad: Boolean. Allow variable dimensions in input shapes: they are padded on dequeue\n"
    "        so that tensors within a batch have the same shapes.\n",
    "      min_after_dequeue: Minimum number elements in the queue after a dequeue, used to ensure a\n"
    "        level of mixing of elements.\n"
    "      seed: Seed for the random shuffling within the queue.\n")

shuffle_batch.__doc__ = """Creates batches by randomly shuffling tensors.

    This function adds to the current `Graph` a shuffling queue into which tensors from `tensors`
    are enqueued, a `dequeue_many` op to create batches from the queue, and a `QueueRunner` to
    enqueue the tensors. Dequeues wait while the queue holds `min_after_dequeue` elements or fewer,
    until it is closed; `capacity` must be bigger than `min_after_dequeue`.
""" + _SHUFFLE_ARGS


def maybe_shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, keep_input, num_threads=1, seed=None,
                        enqueue_many=False, shapes=None, allow_smaller_final_batch=False, shared_name=None,
                        name=None):
    return _shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, keep_input, num_threads=num_threads,
                          seed=seed, enqueue_many=enqueue_many, shapes=shapes,
                          allow_smaller_final_batch=allow_smaller_final_batch, shared_name=shared_name, name=name)


maybe_shuffle_batch.__doc__ = """Creates batches by randomly shuffling conditionally-enqueued tensors.

    See `shuffle_batch`; `keep_input` (a `bool` scalar, or a vector with `enqueue_many`) decides
    which inputs are enqueued.
""" + _SHUFFLE_ARGS


def shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue, seed=None, enqueue_many=False,
                       shapes=None, allow_smaller_final_batch=False, shared_name=None, name=None):
    return _shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue, keep_input=True, seed=seed,
                               enqueue_many=enqueue_many, shapes=shapes,
                               allow_smaller_final_batch=allow_smaller_final_batch, shared_name=shared_name,
                               name=name)


shuffle_batch_join.__doc__ = """Create batches by randomly shuffling tensors, one enqueuing thread per input.

    See `shuffle_batch` and `batch_join`.
""" + _SHUFFLE_ARGS


def maybe_shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue, keep_input, seed=None,
                             enqueue_many=False, shapes=None, allow_smaller_final_batch=False, shared_name=None,
                             name=None):
    return _shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue, keep_input, seed=seed,
                               enqueue_many=enqueue_many, shapes=shapes,
                               allow_smaller_final_batch=allow_smaller_final_batch, shared_name=shared_name,
                               name=name)


maybe_shuffle_batch_join.__doc__ = """Create batches by randomly shuffling conditionally-enqueued tensors.

    See `shuffle_batch_join`; `keep_input` decides which inputs are enqueued.
""" + _SHUFFLE_ARGS
