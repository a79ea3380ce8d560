"""`slim.prefetch_queue`: a queue prefetching tensors (e.g. batches) with queue-runner threads."""

from ....framework import dtypes as _dtypes
from ....framework import ops

__all__ = ["prefetch_queue"]


def prefetch_queue(tensors, capacity=8, num_threads=1, dynamic_pad=False, shared_name=None, name=None):
    """Creates a queue to prefetch tensors from `tensors`.

    A queue runner for enqueuing tensors into the prefetch_queue is automatically added to the
    TF QueueRunners collection, and the queue's fill fraction is summarized.

    Args:
      tensors: A list or dictionary of `Tensors` to enqueue in the buffer.
      capacity: An integer. The maximum number of elements in the queue.
      num_threads: An integer. Number of threads running the enqueue op.
      dynamic_pad: Boolean. Whether to allow variable dimensions in input shapes.
      shared_name: (optional). If set, this queue will be shared under the given name across
        multiple sessions.
      name: (Optional) A name for the operations.

    Returns:
      A queue from which you can dequeue tensors with the same type and shape as `tensors`.
    """
    from .... import summary
    from ....ops import math_ops
    from ....ops.data_flow_ops import FIFOQueue, PaddingFIFOQueue
    from ....train.queue_runner import QueueRunner, add_queue_runner
    if isinstance(tensors, dict):
        names = list(sorted(tensors.keys()))
        tensor_list = [tensors[n] for n in names]
    else:
        names = None
        tensor_list = tensors
    with ops.name_scope(name, "prefetch_queue", tensor_list) as name:
        queue_class = PaddingFIFOQueue if dynamic_pad else FIFOQueue
        queue = queue_class(capacity=capacity, dtypes=[t.dtype for t in tensor_list],
                            shapes=[t.get_shape() for t in tensor_list], names=names, shared_name=shared_name)
        enqueue_op = queue.enqueue(tensors)
        add_queue_runner(QueueRunner(queue, [enqueue_op] * num_threads))
        summary.scalar("fraction_of_%d_full" % capacity,
                       math_ops.cast(queue.size(), _dtypes.float32) * (1. / capacity))
        return queue
