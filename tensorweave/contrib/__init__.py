"""`tf.contrib`: the TF1 contrib modules tensorweave provides, one submodule each."""

from . import layers
from .. import autograph  # [autograph] the seed-era tf.contrib.autograph
from . import eager  # [eager]
from ..data import contrib_data as data  # noqa: E402  [data]
from . import learn, training  # noqa: E402
from . import framework  # noqa: E402

__all__ = ["autograph", "data", "eager", "framework", "layers", "learn", "training"]
