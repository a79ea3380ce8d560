"""The op families: one module per family, each op type registered once, with its public constructor.

The op types the framework builds by name when it converts its own values (Const for `tf.constant`
and `convert_to_tensor`, IndexedSlicesToDense, SparseToDense) are registered when this package is
imported, whichever op module comes first."""

from . import constant_op, sparse_ops
