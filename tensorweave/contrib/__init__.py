"""`tf.contrib`: the TF1 contrib modules tensorweave provides, one submodule each."""

from . import layers
from .. import autograph  # the seed-era tf.contrib.autograph
from . import eager
from ..data import contrib_data as data  # noqa: E402
from . import learn, training  # noqa: E402
from . import framework  # noqa: E402
from . import rnn, seq2seq  # noqa: E402
from . import slim  # noqa: E402
from . import crf, distributions, factorization, image, opt  # noqa: E402
from . import legacy_seq2seq  # noqa: E402
from . import tensor_forest  # noqa: E402
# TF 1.x's tf.contrib.losses and tf.contrib.metrics are the modules slim re-exports.
from .slim import losses, metrics  # noqa: E402

__all__ = ["autograph", "crf", "data", "distributions", "eager", "factorization", "framework", "image", "layers",
           "learn", "legacy_seq2seq", "losses", "metrics", "opt", "rnn", "seq2seq", "slim", "tensor_forest", "training"]


def _drop_implementation_modules(namespace):
    """Removes the implementation submodules (factorization_gmm, layers_slim, ...; importable by their
    paths) from `tf.contrib`'s namespace, which holds only the TF 1.15 modules of `__all__`."""
    for name, value in list(namespace.items()):
        if not name.startswith("_") and name not in __all__ and \
                getattr(value, "__name__", "").startswith(__name__ + "."):
            del namespace[name]


_drop_implementation_modules(globals())
