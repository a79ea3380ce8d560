"""`tensorflow.examples.tutorials.mnist.input_data` (TF 1.x's module path): MNIST for the tutorials,
`input_data.read_data_sets("/tmp/data/", one_hot=True)`."""

from ....contrib.learn.datasets.base import maybe_download
from ....contrib.learn.datasets.mnist import (
    DataSet,
    dense_to_one_hot,
    extract_images,
    extract_labels,
    read_data_sets,
)

__all__ = ["DataSet", "dense_to_one_hot", "extract_images", "extract_labels", "maybe_download", "read_data_sets"]
