"""`tf.contrib.slim.data`: datasets of files decoded item by item (`Dataset`,
`TFExampleDecoder`) and read through queues (`parallel_reader`, `DatasetDataProvider`,
`prefetch_queue`), as TF 1.15's slim."""

from . import (data_decoder, data_provider, dataset, dataset_data_provider, parallel_reader, prefetch_queue,
               tfexample_decoder)

__all__ = ["data_decoder", "data_provider", "dataset", "dataset_data_provider", "parallel_reader", "prefetch_queue",
           "tfexample_decoder"]
