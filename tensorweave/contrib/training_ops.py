"""`tf.contrib.training`'s queue bucketing (`bucket`, `bucket_by_sequence_length`) and
`create_train_op`, as TF 1.15's `bucket_ops.py` and `training.py`."""

import functools

import numpy as np

from ..framework import dtypes, errors, ops, tensor_util
from ..framework.tensor_shape import TensorShape
from ..ops import (
    array_ops,
    check_ops,
    control_flow_ops,
    core_ops,
    data_flow_ops,
    logging_ops,
    math_ops,
    random_ops,
    summary_ops,
)
from ..train import input as _input
from ..train import queue_runner
from .slim.learning import _create_train_op, add_gradients_summaries, clip_gradient_norms, multiply_gradients

__all__ = ["add_gradients_summaries", "bucket", "bucket_by_sequence_length", "clip_gradient_norms",
           "create_train_op", "multiply_gradients", "stratified_sample"]

_USE_GLOBAL_STEP = 0
_CLOSED = (errors.OutOfRangeError, errors.CancelledError)


def _smart_cond(pred, if_true, if_false):
    """`if_true()` or `if_false()` when `pred` is a constant, else a `cond` of them."""
    value = tensor_util.constant_value(pred)
    if value is not None:
        return if_true() if bool(value) else if_false()
    return control_flow_ops.cond(pred, if_true, if_false)


def bucket(tensors, which_bucket, batch_size, num_buckets, num_threads=1, capacity=32, bucket_capacities=None,
           shapes=None, dynamic_pad=False, allow_smaller_final_batch=False, keep_input=True, shared_name=None,
           name=None):
    """Lazy bucketing of input tensors according to `which_bucket`, as TF 1.15.

    Each element of `tensors` goes to the queue of bucket `which_bucket`; whenever a bucket holds
    `batch_size` elements, they are moved as one batch to a top queue, which the returned tensors
    dequeue. It adds `num_buckets + 1` `QueueRunner`s to the `QUEUE_RUNNERS` collection: one that
    runs the bucket enqueues (`num_threads` threads, closing the top queue when the input ends) and
    one per bucket that moves its batches to the top queue.

    As in TF, when the input ends the top queue is closed: elements still in the bucket queues
    (partial batches, or batches not yet moved) are not returned.

    Args:
      tensors: The list or dictionary of tensors of one element.
      which_bucket: An `int32` scalar, the bucket of the element in `[0, num_buckets)`.
      batch_size: The batch size, or a list of one batch size per bucket.
      num_buckets: The number of buckets.
      num_threads: The number of threads enqueuing `tensors`.
      capacity: The capacity of the top queue, and of each bucket queue unless
        `bucket_capacities` is given.
      bucket_capacities: An optional list of `num_buckets` capacities of the bucket queues.
      shapes: Optional shapes of the elements (default: the shapes of `tensors`).
      dynamic_pad: Whether to pad the unknown dimensions to the largest in each batch.
      allow_smaller_final_batch: Whether a bucket's last batch may be smaller (the batch dimension
        of the results is then unknown).
      keep_input: A `bool` scalar: whether to enqueue this element.
      shared_name: If set, the queues are shared under this name (bucket `i`: "name_i").
      name: A name for the operations.

    Returns:
      A tuple `(bucket, outputs)`: the `int32` bucket of the batch, and the batch in the structure
      of `tensors`.

    Raises:
      ValueError: If `batch_size` is a list without `num_buckets` elements, or
        `bucket_capacities` has not `num_buckets` elements, or the shapes can't be inferred.
    """
    _input._check_graph_mode()
    batch_size_per_bucket = isinstance(batch_size, (list, tuple))
    if batch_size_per_bucket:
        if len(batch_size) != num_buckets:
            raise ValueError("If batch_size is a list it must have num_buckets elements")
        batch_size = list(batch_size)
    else:
        batch_size = [batch_size] * num_buckets
    if bucket_capacities is None:
        bucket_capacities = [capacity] * num_buckets
    if len(bucket_capacities) != num_buckets:
        raise ValueError("The list bucket_capacities (%s) must have exactly num_buckets (%d) elements."
                         % (str(bucket_capacities), num_buckets))

    tensor_list = _input._as_tensor_list(tensors)
    with ops.name_scope(name, "bucket", list(tensor_list)) as name:
        tensor_list = _input._validate(tensor_list)
        keep_input = _input._validate_keep_input(keep_input, enqueue_many=False)
        tensor_list, sparse_info = _input._store_sparse_tensors(tensor_list, enqueue_many=False)

        static_batch_size = None
        for i, bucket_batch_size in enumerate(batch_size):
            bucket_batch_size = ops.convert_to_tensor(bucket_batch_size, dtype=dtypes.int32, name="batch_size")
            static_batch_size = tensor_util.constant_value(bucket_batch_size)
            batch_size[i] = int(static_batch_size) if static_batch_size is not None else bucket_batch_size

        types = _input._dtypes([tensor_list])
        shapes = _input._shapes([tensor_list], shapes, enqueue_many=False)
        which_bucket = ops.convert_to_tensor(which_bucket, dtype=dtypes.int32, name="which_bucket")

        queue_creator = _input._which_queue(dynamic_pad)
        bucket_queues = [queue_creator(capacity=bucket_capacities[i], dtypes=types, shapes=shapes,
                                       shared_name=None if shared_name is None else "%s_%d" % (shared_name, i),
                                       name="bucket_queue_%d" % i)
                         for i in range(num_buckets)]

        maybe_static_batch_size = (None if (allow_smaller_final_batch or batch_size_per_bucket)
                                   else (int(static_batch_size) if static_batch_size is not None else None))
        bucket_shapes = [TensorShape([maybe_static_batch_size]).concatenate(s) for s in bucket_queues[0].shapes]
        # A PaddingFIFOQueue even without dynamic_pad: the batch dimension may be unknown.
        top_queue = data_flow_ops.PaddingFIFOQueue(capacity=capacity, dtypes=[dtypes.int32] + types,
                                                   shapes=[TensorShape([])] + bucket_shapes,
                                                   shared_name=shared_name, name="top_queue")

        def enqueue_which():
            def enqueue_single(i):
                return bucket_queues[i].enqueue(tensor_list)

            enqueues = [control_flow_ops.cond(math_ops.equal(which_bucket, i), functools.partial(enqueue_single, i),
                                              core_ops.no_op)
                        for i in range(num_buckets)]
            return core_ops.group(*enqueues, name="group_enqueues")

        maybe_enqueue = _smart_cond(keep_input, enqueue_which, core_ops.no_op)
        bucket_enqueue_ops = [maybe_enqueue] * num_threads

        def read_bucket(i, q, bs):
            if allow_smaller_final_batch:
                out = q.dequeue_up_to(bs, name="read_bucket_%d" % i)
            else:
                out = q.dequeue_many(bs, name="read_bucket_%d" % i)
            return list(out) if isinstance(out, (list, tuple)) else [out]

        enqueues_to_top = [top_queue.enqueue([ops.convert_to_tensor(np.int32(i))] + read_bucket(i, q, bs),
                                             name="enqueue_from_bucket_%d" % i)
                           for i, (q, bs) in enumerate(zip(bucket_queues, batch_size))]

        for i, q in enumerate(bucket_queues):
            queue_runner.add_queue_runner(queue_runner.QueueRunner(q, [enqueues_to_top[i]],
                                                                   queue_closed_exception_types=_CLOSED))
        queue_runner.add_queue_runner(queue_runner.QueueRunner(top_queue, bucket_enqueue_ops,
                                                               queue_closed_exception_types=_CLOSED))

        for q in bucket_queues:
            summary_ops.scalar("bucket/%s/size" % q.name, math_ops.cast(top_queue.size(), dtypes.float32))
        summary_ops.scalar("bucket/%s/fraction_of_%d_full" % (top_queue.name, capacity),
                           math_ops.cast(top_queue.size(), dtypes.float32) * (1.0 / capacity))

        dequeued = top_queue.dequeue(name="dequeue_top")
        which_bucket_dequeued = dequeued[0]
        dequeued = list(dequeued[1:])
        if len(dequeued) == 1:
            dequeued = dequeued[0]
        dequeued = _input._restore_sparse_tensors(dequeued, sparse_info)
        return which_bucket_dequeued, _input._as_original_type(tensors, dequeued)


def bucket_by_sequence_length(input_length, tensors, batch_size, bucket_boundaries, num_threads=1, capacity=32,
                              bucket_capacities=None, shapes=None, dynamic_pad=False,
                              allow_smaller_final_batch=False, keep_input=True, shared_name=None, name=None):
    """Lazy bucketing of inputs by their length, as TF 1.15 (see `bucket`).

    An element of length `l` goes to bucket 0 if `l < bucket_boundaries[0]`, to bucket `i` if
    `bucket_boundaries[i-1] <= l < bucket_boundaries[i]`, and to the last bucket if
    `l >= bucket_boundaries[-1]`.

    Args:
      input_length: An `int32` scalar, the length of the element.
      tensors: The list or dictionary of tensors of one element.
      batch_size: The batch size, or a list of `len(bucket_boundaries) + 1` batch sizes.
      bucket_boundaries: Increasing integers, the boundaries between buckets.
      num_threads, capacity, bucket_capacities, dynamic_pad, allow_smaller_final_batch,
        keep_input, shared_name, name: As `bucket`.
      shapes: Optional shapes of the elements of `tensors` (not of `input_length`).

    Returns:
      A tuple `(lengths, outputs)`: the `int32` lengths of the batch, and the batch in the
      structure of `tensors`.

    Raises:
      TypeError: If `bucket_boundaries` is not a list or tuple of integers.
      ValueError: If `bucket_boundaries` is empty or not increasing.
    """
    tensor_list = _input._as_tensor_list(tensors)
    if not isinstance(bucket_boundaries, (list, tuple)):
        raise TypeError("bucket_boundaries must be a list or tuple, but received: %s" % (bucket_boundaries,))
    if not bucket_boundaries:
        raise ValueError("bucket_boundaries must not be empty")
    for s, e in zip(bucket_boundaries[:-1], bucket_boundaries[1:]):
        if not isinstance(s, int) or not isinstance(e, int):
            raise TypeError("bucket boundaries must be integers, but saw: %s and %s" % (s, e))
        if s >= e:
            raise ValueError("Buckets must contain sequential increasing lengths, but saw: %d before %d" % (s, e))

    with ops.name_scope(name, "bucket_by_sequence_length", [input_length] + list(tensor_list)) as name:
        input_length = ops.convert_to_tensor(input_length, dtype=dtypes.int32, name="input_length")
        # Bucket i holds the lengths l with lows[i] <= l < highs[i].
        lows = np.array([np.iinfo(np.int32).min] + list(bucket_boundaries), np.int32)
        highs = np.array(list(bucket_boundaries) + [np.iinfo(np.int32).max], np.int32)
        conditions = math_ops.logical_and(math_ops.less_equal(lows, input_length), math_ops.less(input_length, highs))
        which_bucket = math_ops.reduce_min(array_ops.where(conditions))
        which_bucket = math_ops.cast(which_bucket, dtypes.int32)
        if shapes is not None:
            shapes = [TensorShape([])] + list(shapes)
        _, dequeued = bucket(tensors=[input_length] + list(tensor_list), which_bucket=which_bucket,
                             batch_size=batch_size, num_buckets=len(bucket_boundaries) + 1, num_threads=num_threads,
                             capacity=capacity, bucket_capacities=bucket_capacities, shapes=shapes,
                             dynamic_pad=dynamic_pad, allow_smaller_final_batch=allow_smaller_final_batch,
                             keep_input=keep_input, shared_name=shared_name, name=name)
        return dequeued[0], _input._as_original_type(tensors, dequeued[1:])


def create_train_op(total_loss, optimizer, global_step=_USE_GLOBAL_STEP, update_ops=None, variables_to_train=None,
                    transform_grads_fn=None, summarize_gradients=False, gate_gradients=1, aggregation_method=None,
                    colocate_gradients_with_ops=False, check_numerics=True):
    """Creates an operation that computes the gradients, applies them, and returns the loss.

    The returned tensor is `total_loss` (checked for inf/nan) computed after the `update_ops`
    and after one `optimizer.apply_gradients` step on `variables_to_train`; it is added to the
    `TRAIN_OP` collection. (`tf.contrib.slim.learning.create_train_op` is the same with gradient
    clipping and multipliers in place of `transform_grads_fn`.)

    Args:
      total_loss: A `Tensor` representing the total loss.
      optimizer: A tf.Optimizer to use for computing the gradients.
      global_step: A `Tensor` representing the global step variable. If left as
        `_USE_GLOBAL_STEP`, then `tf.train.get_or_create_global_step()` is used.
      update_ops: An optional list of updates to execute (default: the `tf.GraphKeys.UPDATE_OPS`
        collection).
      variables_to_train: An optional list of variables to train (default: all trainable ones).
      transform_grads_fn: A function which takes a single argument, a list of gradient to variable
        pairs (tuples), performs any requested gradient updates, such as gradient clipping or
        multipliers, and returns the updated list.
      summarize_gradients: Whether or not add summaries for each gradient.
      gate_gradients: How to gate the computation of gradients. See tf.Optimizer.
      aggregation_method: Specifies the method used to combine gradient terms.
      colocate_gradients_with_ops: Whether or not to try colocating the gradients with the ops
        that generated them.
      check_numerics: Whether or not we apply check_numerics.

    Returns:
      A `Tensor` that when evaluated, computes the gradients and returns the total loss value.

    Raises:
      ValueError: If there are no variables to train, or one is not trainable.
    """
    return _create_train_op(total_loss, optimizer, global_step, update_ops, variables_to_train, transform_grads_fn,
                            summarize_gradients, gate_gradients, aggregation_method, colocate_gradients_with_ops,
                            check_numerics)


def _with_dependencies(dependencies, tensor):
    with ops.control_dependencies(dependencies):
        return core_ops.identity(tensor)


def _estimate_data_distribution(labels, num_classes, smoothing_constant=10):
    """The running class frequencies of `labels`, each count starting at `smoothing_constant`."""
    from ..variables import Variable
    counts = Variable(np.full([num_classes], smoothing_constant, np.int64), trainable=False, name="class_count")
    counts = counts.assign_add(math_ops.reduce_sum(array_ops.one_hot(labels, num_classes, dtype=dtypes.int64), 0))
    counts = counts + 0  # a snapshot: other threads may update the variable meanwhile
    return math_ops.cast(math_ops.truediv(counts, math_ops.reduce_sum(counts)), dtypes.float32)


def _verify_input(data, labels, probs_list):
    """Checks the shapes, and adds run-time checks of the probabilities and the batch size."""
    checked_probs_list = []
    for probs in probs_list:
        probs.shape.assert_is_fully_defined()
        probs.shape.assert_has_rank(1)
        tol = 1e-6
        prob_sum = math_ops.reduce_sum(probs)
        checked_probs_list.append(_with_dependencies([check_ops.assert_non_negative(probs),
                                                      check_ops.assert_less(prob_sum, 1.0 + tol),
                                                      check_ops.assert_less(1.0 - tol, prob_sum)], probs))
    prob_length = checked_probs_list[0].shape.num_elements()
    for checked_prob in checked_probs_list:
        if checked_prob.shape.num_elements() != prob_length:
            raise ValueError("Probability parameters must have the same length.")
    labels.shape.assert_has_rank(1)
    for tensor in data:
        tensor.shape.with_rank_at_least(1)[0].assert_is_compatible_with(labels.shape[0])
    labels = _with_dependencies([check_ops.assert_positive(array_ops.shape(labels)[0])], labels)
    return data, labels, checked_probs_list


def _calculate_acceptance_probabilities(init_probs, target_probs):
    """Per class, target/init scaled so the largest is 1 (0 where init is 0)."""
    ratio = target_probs / init_probs
    ratio = array_ops.where_v2(math_ops.is_finite(ratio), ratio, core_ops.zeros_like(ratio))
    return ratio / math_ops.reduce_max(ratio)


def stratified_sample(tensors, labels, target_probs, batch_size, init_probs=None, enqueue_many=False,
                      queue_capacity=16, threads_per_queue=1, name=None):
    """Batches of examples whose classes follow `target_probs`, by rejection sampling (TF 1.15).

    Each example is kept with probability `accept[label]`, where `accept` is
    `target_probs / init_probs` scaled so its largest entry is 1; kept examples are batched. When
    `init_probs` is None, the class distribution is estimated as the examples go by (a
    non-trainable `class_count` variable, so run `tf.global_variables_initializer()`). It adds
    two `QueueRunner`s (an example queue and the batch queue). Random: seed the graph
    (`tf.set_random_seed`) for repeatable runs.

    Args:
      tensors: A list of tensors of one example (or a batch of them with `enqueue_many`).
      labels: The `int` class of the example (or a vector of them with `enqueue_many`).
      target_probs: The wanted class distribution, a vector with a known number of classes.
      batch_size: The size of the batches.
      init_probs: The class distribution of the input (default: estimated online).
      enqueue_many: Whether `tensors` and `labels` are batches of examples.
      queue_capacity: The capacity of the example queue.
      threads_per_queue: The number of threads of each queue.
      name: A name for the operations.

    Returns:
      `(data_batch, label_batch)`: the list of batched `tensors`, and the batched labels.

    Raises:
      ValueError: If the probabilities are not vectors of one known length, `labels` is not a
        scalar (a vector with `enqueue_many`), or the tensors' batch dimension does not match it.
        At run time, `InvalidArgumentError` if the probabilities are negative or don't sum to 1,
        or a class of initial probability 0 has a nonzero target probability.
    """
    tensor_list = list(tensors)
    with ops.name_scope(name, "stratified_sample", tensor_list + [labels]):
        tensor_list = [ops.convert_to_tensor(t) for t in tensor_list]
        labels = ops.convert_to_tensor(labels)
        target_probs = ops.convert_to_tensor(target_probs, dtype=dtypes.float32)
        if not enqueue_many:
            tensor_list = [array_ops.expand_dims(t, 0) for t in tensor_list]
            labels = array_ops.expand_dims(labels, 0)
        if init_probs is None:
            target_probs.shape.assert_is_fully_defined()
            init_probs = _estimate_data_distribution(labels, target_probs.shape.num_elements())
        else:
            init_probs = ops.convert_to_tensor(init_probs, dtype=dtypes.float32)
        tensor_list, labels, (init_probs, target_probs) = _verify_input(tensor_list, labels,
                                                                        [init_probs, target_probs])
        assert_op = logging_ops.Assert(
            math_ops.reduce_all(math_ops.logical_or(math_ops.not_equal(init_probs, 0),
                                                    math_ops.equal(target_probs, 0))),
            ["All classes with zero initial probability must also have zero target probability: ", init_probs,
             target_probs])
        init_probs = _with_dependencies([assert_op], init_probs)

        accept_probs = _calculate_acceptance_probabilities(init_probs, target_probs)
        proportion_rejected = math_ops.reduce_sum((1 - accept_probs) * init_probs)
        accept_probs = control_flow_ops.cond(
            math_ops.less(proportion_rejected, 0.5), lambda: accept_probs,
            lambda: logging_ops.Print(accept_probs, [accept_probs],
                                      message="Proportion of examples rejected by sampler is high.", first_n=10))

        batched = _input.batch(tensor_list + [labels], batch_size=1, num_threads=threads_per_queue,
                               capacity=queue_capacity, enqueue_many=True)
        val_list = [array_ops.squeeze(x, [0]) for x in batched[:-1]]
        label = array_ops.squeeze(batched[-1], [0])

        cur_prob = array_ops.gather(accept_probs, label)
        batched = _input.maybe_batch(val_list + [label], keep_input=random_ops.random_uniform([]) < cur_prob,
                                     batch_size=batch_size, num_threads=threads_per_queue)
        return batched[:-1], batched[-1]
