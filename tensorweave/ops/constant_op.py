"""The "Const" op's record: its output is its `value` attribute. Its constructor is
`framework/constant_op.constant` (`tf.constant`), which `convert_to_tensor` calls for Python and
NumPy values, so the framework builds Const ops by type name and never imports this module."""

from ..framework.registry import NO_GRADIENT, register_op


def _const_infer(op):
    v = op._attrs["value"]
    return [(op._attrs["dtype"], v.shape)]


def _const_kernel(xp, value, dtype):
    return value


register_op("Const", infer=_const_infer, kernel=_const_kernel, grad=NO_GRADIENT, gpu=True, value_attr="value")
