"""`slim.parallel_reader`: several readers filling one common queue (`ParallelReader`,
`parallel_read`), and `single_pass_read`."""

from ....framework import dtypes as tf_dtypes
from ....framework import ops
from ....ops.reader_ops import ReaderBase

__all__ = ["ParallelReader", "get_data_files", "parallel_read", "single_pass_read"]


class ParallelReader(ReaderBase):
    """Reader class that uses multiple readers in parallel to improve speed: each reader's
    `(key, value)` records are enqueued into `common_queue` (by a queue runner added to the
    QUEUE_RUNNERS collection) and `read` dequeues from it."""

    def __init__(self, reader_class, common_queue, num_readers=4, reader_kwargs=None):
        """ParallelReader creates num_readers instances of the reader_class.

        Args:
          reader_class: one of the io_ops.ReaderBase subclasses ex: TFRecordReader
          common_queue: a Queue to hold (key, value pairs) with `dtypes` equal to [tf.string,
            tf.string]. Must be one of the data_flow_ops.Queues.
          num_readers: a integer, number of instances of reader_class to create.
          reader_kwargs: an optional dict of kwargs to create the readers.

        Raises:
          TypeError: if `common_queue.dtypes` is not [tf.string, tf.string].
        """
        if len(common_queue.dtypes) != 2:
            raise TypeError("common_queue.dtypes must be [tf.string, tf.string]")
        for dtype in common_queue.dtypes:
            if not dtype.is_compatible_with(tf_dtypes.string):
                raise TypeError("common_queue.dtypes must be [tf.string, tf.string]")
        reader_kwargs = reader_kwargs or {}
        self._readers = [reader_class(**reader_kwargs) for _ in range(num_readers)]
        self._common_queue = common_queue

    @property
    def num_readers(self):
        """The number of readers."""
        return len(self._readers)

    @property
    def common_queue(self):
        """The common queue the readers fill."""
        return self._common_queue

    def read(self, queue, name=None):
        """Returns the next record (key, value pair) produced by the reader.

        Args:
          queue: A Queue or a mutable string Tensor representing a handle to a Queue, with string
            work items.
          name: A name for the operation (optional).

        Returns:
          The next record (i.e. (key, value pair)) from the common_queue.
        """
        self._configure_readers_by(queue)
        return self._common_queue.dequeue(name=name)

    def read_up_to(self, queue, num_records, name=None):
        """Returns up to num_records (key, value pairs) produced by a reader.

        Args:
          queue: A Queue or a mutable string Tensor representing a handle to a Queue, with string
            work items.
          num_records: Number of records to read.
          name: A name for the operation (optional).

        Returns:
          A tuple of Tensors (keys, values) from common_queue.
        """
        self._configure_readers_by(queue)
        return self._common_queue.dequeue_up_to(num_records, name)

    def _configure_readers_by(self, queue):
        from ....train.queue_runner import QueueRunner, add_queue_runner
        enqueue_ops = [self._common_queue.enqueue(reader.read(queue)) for reader in self._readers]
        add_queue_runner(QueueRunner(self._common_queue, enqueue_ops))

    def num_records_produced(self, name=None):
        """Returns the number of records this reader has produced (summed over the readers)."""
        from ....ops.core_ops import add_n
        return add_n([r.num_records_produced() for r in self._readers], name=name)

    def num_work_units_completed(self, name=None):
        """Returns the number of work units this reader has finished processing."""
        from ....ops.core_ops import add_n
        return add_n([r.num_work_units_completed() for r in self._readers], name=name)


def parallel_read(data_sources, reader_class, num_epochs=None, num_readers=4, reader_kwargs=None, shuffle=True,
                  dtypes=None, capacity=256, min_after_dequeue=128, seed=None, scope=None):
    """Reads multiple records in parallel from data_sources using n readers.

    The files are listed by a `string_input_producer` ("filenames", shuffled if `shuffle`), read
    by `num_readers` readers into a common queue ("common_queue", a `RandomShuffleQueue` if
    `shuffle` else a `FIFOQueue`) whose fill fraction is summarized.

    Args:
      data_sources: a list/tuple of files or the location of the data, i.e.
        /path/to/train@128, /path/to/train* or /tmp/.../train*
      reader_class: one of the io_ops.ReaderBase subclasses ex: TFRecordReader
      num_epochs: The number of times each data source is read. If left as None, the data will
        be cycled through indefinitely.
      num_readers: a integer, number of Readers to create.
      reader_kwargs: an optional dict, of kwargs for the reader.
      shuffle: boolean, whether should shuffle the files and the records by using
        RandomShuffleQueue as common_queue.
      dtypes: A list of types. The length of dtypes must equal the number of elements in each
        record. If it is None it will default to [tf.string, tf.string] for (key, value).
      capacity: integer, capacity of the common_queue.
      min_after_dequeue: integer, minimum number of records in the common_queue after dequeue.
        Needed for a good shuffle.
      seed: A seed for RandomShuffleQueue.
      scope: Optional name scope for the ops.

    Returns:
      key, value: a tuple of keys and values from the data_source.
    """
    from .... import summary
    from ....ops import math_ops
    from ....ops.data_flow_ops import FIFOQueue, RandomShuffleQueue
    from ....train.input import string_input_producer
    data_files = get_data_files(data_sources)
    with ops.name_scope(scope, "parallel_read"):
        filename_queue = string_input_producer(data_files, num_epochs=num_epochs, shuffle=shuffle, seed=seed,
                                               name="filenames")
        dtypes = dtypes or [tf_dtypes.string, tf_dtypes.string]
        if shuffle:
            common_queue = RandomShuffleQueue(capacity=capacity, min_after_dequeue=min_after_dequeue, dtypes=dtypes,
                                              seed=seed, name="common_queue")
        else:
            common_queue = FIFOQueue(capacity=capacity, dtypes=dtypes, name="common_queue")
        summary.scalar("fraction_of_%d_full" % capacity,
                       math_ops.cast(common_queue.size(), tf_dtypes.float32) * (1. / capacity))
        return ParallelReader(reader_class, common_queue, num_readers=num_readers,
                              reader_kwargs=reader_kwargs).read(filename_queue)


def single_pass_read(data_sources, reader_class, reader_kwargs=None, scope=None):
    """Reads sequentially the data_sources using the reader, doing a single pass.

    Args:
      data_sources: a list/tuple of files or the location of the data, i.e.
        /path/to/train@128, /path/to/train* or /tmp/.../train*
      reader_class: one of the io_ops.ReaderBase subclasses ex: TFRecordReader.
      reader_kwargs: an optional dict, of kwargs for the reader.
      scope: Optional name scope for the ops.

    Returns:
      key, value: a tuple of keys and values from the data_source.
    """
    from ....train.input import string_input_producer
    data_files = get_data_files(data_sources)
    with ops.name_scope(scope, "single_pass_read"):
        filename_queue = string_input_producer(data_files, num_epochs=1, shuffle=False, capacity=1,
                                               name="filenames")
        return reader_class(**(reader_kwargs or {})).read(filename_queue)


def get_data_files(data_sources):
    """Get data_files from data_sources (file names or glob patterns, or lists of them).

    Args:
      data_sources: a list/tuple of files or the location of the data, i.e.
        /path/to/train@128, /path/to/train* or /tmp/.../train*

    Returns:
      a list of data_files.

    Raises:
      ValueError: if data files are not found
    """
    from ....gfile import Glob
    if isinstance(data_sources, (list, tuple)):
        data_files = []
        for source in data_sources:
            data_files += get_data_files(source)
    else:
        if "*" in data_sources or "?" in data_sources or "[" in data_sources:
            data_files = Glob(data_sources)
        else:
            data_files = [data_sources]
    if not data_files:
        raise ValueError("No data files found in %s" % (data_sources,))
    return data_files
