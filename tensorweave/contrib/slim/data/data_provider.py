"""`slim.data_provider`: a mapping from item names to the tensors that provide them."""

import abc

__all__ = ["DataProvider"]


class DataProvider(abc.ABC):
    """Maps a list of requested data items to tensors from a data source."""

    def __init__(self, items_to_tensors, num_samples):
        """Constructs the Data Provider.

        Args:
          items_to_tensors: a dictionary of names to tensors.
          num_samples: the number of samples in the dataset being provided.
        """
        self._items_to_tensors = items_to_tensors
        self._num_samples = num_samples

    def get(self, items):
        """Returns a list of tensors specified by the given list of items.

        Args:
          items: a list of item names.

        Returns:
          a list of tensors, one per item.

        Raises:
          ValueError: if any of the items cannot be satisfied.
        """
        self._validate_items(items)
        return [self._items_to_tensors[item] for item in items]

    def list_items(self):
        """Returns the list of item names that can be provided by the data provider."""
        return self._items_to_tensors.keys()

    def num_samples(self):
        """Returns the number of data samples in the dataset."""
        return self._num_samples

    def _validate_items(self, items):
        if not isinstance(items, (list, tuple)):
            raise ValueError("items must be a list or tuple")
        valid_items = self.list_items()
        for item in items:
            if item not in valid_items:
                raise ValueError("Item [%s] is invalid. Valid entries include: %s" % (item, valid_items))
