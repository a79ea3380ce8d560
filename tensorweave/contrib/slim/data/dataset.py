"""`slim.dataset`: the description of a dataset (its files, reader, decoder and size)."""

__all__ = ["Dataset"]


class Dataset:
    """Represents a Dataset specification: the attributes `data_sources`, `reader`, `decoder`,
    `num_samples`, `items_to_descriptions` and any extra keyword arguments."""

    def __init__(self, data_sources, reader, decoder, num_samples, items_to_descriptions, **kwargs):
        """Initializes the dataset.

        Args:
          data_sources: A list of files that make up the dataset.
          reader: The reader class, a subclass of BaseReader such as TextLineReader or
            TFRecordReader.
          decoder: An instance of a data_decoder.
          num_samples: The number of samples in the dataset.
          items_to_descriptions: A map from the items that the dataset provides to the
            descriptions of those same items.
          **kwargs: Any remaining dataset-specific fields.
        """
        kwargs["data_sources"] = data_sources
        kwargs["reader"] = reader
        kwargs["decoder"] = decoder
        kwargs["num_samples"] = num_samples
        kwargs["items_to_descriptions"] = items_to_descriptions
        self.__dict__.update(kwargs)
