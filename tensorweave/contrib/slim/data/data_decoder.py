"""`slim.data_decoder`: the interface of a decoder from serialized data to tensors."""

import abc

__all__ = ["DataDecoder"]


class DataDecoder(abc.ABC):
    """An abstract class which is used to decode data for a provider."""

    @abc.abstractmethod
    def decode(self, data, items):
        """Decodes the data to returns the tensors specified by the list of items.

        Args:
          data: A possibly encoded data format.
          items: A list of strings, each of which indicate a particular data type.

        Returns:
          A list of `Tensors`, whose length matches the length of `items`, where each `Tensor`
          corresponds to each item.

        Raises:
          ValueError: If any of the items cannot be satisfied.
        """

    @abc.abstractmethod
    def list_items(self):
        """Lists the names of the items that the decoder can decode.

        Returns:
          A list of string names.
        """
