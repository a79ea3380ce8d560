"""`tf.compat`: `tf.compat.v1` is this API itself (tensorweave implements TF1), plus string helpers.

`import tensorweave.compat.v1 as tf` gives the `tensorweave` module, and a submodule imported
through it (`from tensorweave.compat.v1.nn import relu`, `import tensorweave.compat.v1.train`) is
the same module object as `tensorweave.nn` or `tensorweave.train`, never a second copy of the
package: an import hook maps the names under `tensorweave.compat.v1.` onto `tensorweave.`.
"""

import importlib
import importlib.util
import sys

import tensorweave as _tw
from ..eager.context import disable_eager_execution

v1 = _tw
_V1 = __name__ + ".v1"
_ROOT = _tw.__name__
sys.modules[_V1] = _tw


class _V1AliasFinder:
    """Imports `tensorweave.compat.v1.<name>` as the module `tensorweave.<name>` itself (a meta path
    finder and loader by protocol; `importlib.abc` is not imported for it: ~1 ms of import time)."""

    @staticmethod
    def _target(fullname):
        """The module `tensorweave.compat.v1.<name>` stands for: `tensorweave.<name>`, or a module
        attribute of its parent (`tensorweave.compat.v1.math` is `tf.math`); None if there is none."""
        real = _ROOT + fullname[len(_V1):]
        try:
            if importlib.util.find_spec(real) is not None:
                return importlib.import_module(real)
            parent, _, attr = real.rpartition(".")
            value = getattr(importlib.import_module(parent), attr, None)
        except ImportError:
            return None
        return value if isinstance(value, type(sys)) else None

    def find_spec(self, fullname, path=None, target=None):
        if not fullname.startswith(_V1 + ".") or self._target(fullname) is None:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec):
        return None  # a placeholder; exec_module puts the real module in its place

    def exec_module(self, module):
        name = module.__spec__.name
        # The import system returns what sys.modules holds under `name` once this returns.
        sys.modules[name] = self._target(name)


if not any(isinstance(f, _V1AliasFinder) for f in sys.meta_path):
    sys.meta_path.insert(0, _V1AliasFinder())


def disable_v2_behavior():
    """Disables TensorFlow 2.x behaviours, as `tf.compat.v1.disable_v2_behavior`.

    tensorweave implements TensorFlow 1.x, so the only 2.x behaviour that can be on is eager
    execution (after `tf.enable_eager_execution()`): this disables it, as
    `tf.disable_eager_execution()`. Call it at program startup.
    """
    disable_eager_execution()


def as_bytes(bytes_or_text, encoding="utf-8"):
    """Converts str to bytes (bytes pass through).

    Raises:
      TypeError: For other types.
    """
    if isinstance(bytes_or_text, bytearray):
        return bytes(bytes_or_text)
    if isinstance(bytes_or_text, str):
        return bytes_or_text.encode(encoding)
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text
    raise TypeError("Expected binary or unicode string, got %r" % (bytes_or_text,))


def as_text(bytes_or_text, encoding="utf-8"):
    """Converts bytes to str (str passes through).

    Raises:
      TypeError: For other types.
    """
    if isinstance(bytes_or_text, str):
        return bytes_or_text
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text.decode(encoding)
    raise TypeError("Expected binary or unicode string, got %r" % (bytes_or_text,))


as_str = as_text
as_bytes_or_str = as_text
