"""`slim.dataset_data_provider`: a `DataProvider` reading a `Dataset` through `parallel_read` and
decoding each record with the dataset's decoder."""

from . import data_provider, parallel_reader

__all__ = ["DatasetDataProvider"]


class DatasetDataProvider(data_provider.DataProvider):
    """Reads the records of a `Dataset` with `num_readers` parallel readers (shuffled through a
    common queue unless `shuffle=False`) and provides the decoded items, plus the record key
    under `record_key`."""

    def __init__(self, dataset, num_readers=1, reader_kwargs=None, shuffle=True, num_epochs=None,
                 common_queue_capacity=256, common_queue_min=128, record_key="record_key", seed=None, scope=None):
        """Creates a DatasetDataProvider.

        Note: if `num_epochs` is not `None`, local counter `epochs` will be created by relevant
        function. Use `local_variables_initializer()` to initialize local variables.

        Args:
          dataset: An instance of the Dataset class.
          num_readers: The number of parallel readers to use.
          reader_kwargs: An optional dict of kwargs for the reader.
          shuffle: Whether to shuffle the data sources and common queue when reading.
          num_epochs: The number of times each data source is read. If left as None, the data
            will be cycled through indefinitely.
          common_queue_capacity: The capacity of the common queue.
          common_queue_min: The minimum number of elements in the common queue after a dequeue.
          record_key: The item name to use for the dataset record keys in the provided tensors.
          seed: The seed to use if shuffling.
          scope: Optional name scope for the ops.

        Raises:
          ValueError: If `record_key` matches one of the items in the dataset.
        """
        key, data = parallel_reader.parallel_read(dataset.data_sources, reader_class=dataset.reader,
                                                  num_epochs=num_epochs, num_readers=num_readers,
                                                  reader_kwargs=reader_kwargs, shuffle=shuffle,
                                                  capacity=common_queue_capacity, min_after_dequeue=common_queue_min,
                                                  seed=seed, scope=scope)
        items = dataset.decoder.list_items()
        tensors = dataset.decoder.decode(data, items)
        items_to_tensors = dict(zip(items, tensors))
        if record_key in items_to_tensors:
            raise ValueError("The item name used for `record_key` cannot also be used for a dataset item: %s"
                             % record_key)
        items_to_tensors[record_key] = key
        super().__init__(items_to_tensors=items_to_tensors, num_samples=dataset.num_samples)
