"""Convolution and pooling ops: the plan rewrites of the family (`registry.register_rewrite`:
a convolution's bias/ReLU epilogue, a ReLU folded into MaxPoolGrad, patch matrices shared with the
filter gradient) and the internal ops they produce (`_FusedConv2D`, ...)."""

from ..framework.registry import register_internal_op, register_rewrite
from .nn_conv2d_ops import _conv2d_backprop_filter_kernel, conv2d_bias_relu
from .nn_pool_ops import max_pool_grad


# ---- plan rewrites ------------------------------------------------------------------------------
# Internal ops the rewrites below run instead of several graph ops (never created in a graph), and
# the rules that make them (`registry.register_rewrite`; run by `runtime/passes.py`).
def _fused_conv2d_kernel(xp, x, f, *bias, strides, padding, explicit_paddings, data_format, dilations, relu,
                         keep_patches):
    return conv2d_bias_relu(x, f, bias[0] if bias else None, relu, strides, padding, explicit_paddings, data_format,
                            dilations, keep_patches=keep_patches)


register_internal_op("_FusedConv2D", _fused_conv2d_kernel)


def _conv2d_backprop_filter_with_patches_kernel(xp, x, filter_sizes, dy, patches, **attrs):
    return _conv2d_backprop_filter_kernel(xp, x, filter_sizes, dy, patches=patches, **attrs)


register_internal_op("_Conv2DBackpropFilterWithPatches", _conv2d_backprop_filter_with_patches_kernel)


def _relu_max_pool_grad_kernel(xp, x, y, dy, ksize, strides, padding, data_format):
    return max_pool_grad(x, y, dy, ksize, strides, padding, data_format, relu=True)


register_internal_op("_ReluMaxPoolGrad", _relu_max_pool_grad_kernel)

_BIAS_ADDS = frozenset({"Add", "AddV2", "BiasAdd"})
_CONV_ATTRS = ("strides", "padding", "explicit_paddings", "data_format", "dilations")


def _conv_attr_dict(op):
    return {k: op._attrs[k] for k in _CONV_ATTRS}


@register_rewrite("fuse", "Conv2D")
def _fuse_conv_epilogue(step, plan):
    """Conv2D -> bias add -> Relu, where the convolution's and the add's values feed nothing else,
    becomes one `_FusedConv2D`: the convolution kernel adding the bias and applying ReLU to each
    output block while it is in cache (bitwise the three ops' values; `conv2d_bias_relu`). The bias
    must be a vector over the output channels: `BiasAdd` in the convolution's data format, or
    `Add`/`AddV2` of NHWC outputs."""
    conv = step.op
    if len(step.outs) != 1:
        return False
    add = plan.consumer(step.outs[0])
    if add is None or add.op._type not in _BIAS_ADDS:
        return False
    relu = plan.consumer(add.outs[0])
    if relu is None or relu.op._type != "Relu":
        return False
    bias = _channel_bias(conv, add, step.outs[0])
    if bias is None:
        return False
    attrs = dict(_conv_attr_dict(conv), relu=True, keep_patches=False)
    fused = plan.fused("_FusedConv2D", attrs, [conv, add.op, relu.op], [step.args[0], step.args[1], bias],
                       relu.outs, relu.pos, line_op=conv)
    plan.replace(relu, fused)
    plan.remove(add)
    plan.remove(step)
    return True


def _channel_bias(conv, add, conv_out):
    """The add's other argument if it is a vector over the convolution's output channels."""
    args, op = add.args, add.op
    if op._type == "BiasAdd":
        if args[0] != conv_out or op._attrs["data_format"] != conv._attrs["data_format"]:
            return None
        other, t = args[1], op._inputs[1]
    else:
        if conv._attrs["data_format"] != "NHWC" or conv_out not in args or args[0] == args[1]:
            return None
        k = 1 - args.index(conv_out)
        other, t = args[k], op._inputs[k]
    out = conv._outputs[0]
    shape = out._shape.as_tuple()
    if shape is None or None in shape:
        return None
    if t._shape.as_tuple() != (shape[3 if conv._attrs["data_format"] == "NHWC" else 1],):
        return None
    if t.dtype is not out.dtype or op._outputs[0]._shape.as_tuple() != shape:
        return None
    return other


@register_rewrite("fuse", "ReluGrad")
def _fold_relu_into_pool_grad(step, plan):
    """ReluGrad(MaxPoolGrad(r, y, dy), r), where the pool read the ReLU's output `r`, its windows do
    not overlap and the MaxPoolGrad value feeds nothing else, becomes one `_ReluMaxPoolGrad` that
    routes the gradient with the ReLU mask folded in (`max_pool_grad(relu=True)`; bitwise the two
    ops' values)."""
    if len(step.args) != 2:
        return False
    pool = plan.producer(step.args[0])
    if (pool is None or pool.op._type != "MaxPoolGrad" or plan.uses(step.args[0]) != 1
            or pool.args[0] != step.args[1]):
        return False
    a = pool.op._attrs
    hw = (1, 2) if a["data_format"] == "NHWC" else (2, 3)
    if any(a["strides"][d] < a["ksize"][d] for d in hw):
        return False
    attrs = {k: a[k] for k in ("ksize", "strides", "padding", "data_format")}
    fused = plan.fused("_ReluMaxPoolGrad", attrs, [pool.op, step.op], pool.args, step.outs, step.pos,
                       line_op=pool.op)
    plan.replace(step, fused)
    plan.remove(pool)
    return True


def _conv_key(op, x_arg, filter_shape):
    """What a convolution and a filter gradient must share for one's patch matrices to serve the other."""
    if filter_shape is None or None in filter_shape:
        return None
    return (x_arg, tuple(filter_shape)) + tuple(tuple(v) if isinstance(v, list) else v
                                                for v in _conv_attr_dict(op).values())


def _convolution(step):
    """The Conv2D op of a plain or fused convolution step, else None."""
    op = step.op
    if op._type == "Conv2D" and len(step.args) == 2:
        return op
    if op._type == "_FusedConv2D":
        return op.ops[0]
    return None


@register_rewrite("share", "Conv2DBackpropFilter")
def _share_conv_patches(step, plan):
    """A Conv2DBackpropFilter of the same input, geometry and filter shape as an earlier convolution
    of the plan (plain or with its epilogue fused) reuses the patch matrices the convolution built
    instead of building them again: the convolution also returns them (`Patches`, at most
    `MAX_KEPT_PATCHES` bytes, else nothing is kept), held until the filter gradient ran. Same values
    bitwise (the same matrices, multiplied in the same blocks)."""
    op = step.op
    key = _conv_key(op, step.args[0], op._outputs[0]._shape.as_tuple())
    if key is None:
        return False
    conv_step = None
    for s in plan.steps:
        if s is step:
            break
        conv = _convolution(s) if hasattr(s, "op") else None
        if conv is not None and _conv_key(conv, s.args[0], conv._inputs[1]._shape.as_tuple()) == key:
            conv_step = s
            break
    if conv_step is None:
        return False
    if conv_step.op._type == "_FusedConv2D" and conv_step.op._attrs["keep_patches"]:
        patches = conv_step.outs[1]
    else:
        patches = "t%d_patches" % conv_step.pos
        fused = conv_step.op._type == "_FusedConv2D"
        conv = _convolution(conv_step)
        attrs = dict(_conv_attr_dict(conv), relu=fused, keep_patches=True)
        ops = conv_step.op.ops if fused else [conv]
        plan.replace(conv_step, plan.fused("_FusedConv2D", attrs, ops, conv_step.args, conv_step.outs + [patches],
                                           conv_step.pos, line_op=conv))
    attrs = dict(_conv_attr_dict(op), use_cudnn_on_gpu=op._attrs["use_cudnn_on_gpu"])
    plan.replace(step, plan.fused("_Conv2DBackpropFilterWithPatches", attrs, [op], step.args + [patches], step.outs,
                                  step.pos))
    return True
