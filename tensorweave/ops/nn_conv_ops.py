"""Convolution, pooling and fused batch normalization: `tf.nn.conv2d` (and its two backprops),
`conv2d_transpose`, `conv1d`, `depthwise_conv2d`, `max_pool`, `avg_pool`, `fused_batch_norm`.

Kernels work in NHWC (an NCHW tensor is handled as a transposed view). A convolution is im2col
(the padded input seen through a strided view with one row per output pixel, copied once into a
`(N*OH*OW, KH*KW*C)` matrix) times the filter as a `(KH*KW*C, O)` matrix: one BLAS call. Its
input backprop is one matmul per filter tap (the output gradient times that tap's filter slice)
added where the tap reads the input; its filter backprop is one matmul of the transposed columns
with the output gradient (the compiler can hand it the forward's columns: `Patches`). Pooling
reduces over the taps of the window, one vectorised op per tap, or with numba installed (the
`[jit]` extra) one loop over the windows (`_conv_jit`, same values bitwise); so does MaxPoolGrad,
which, like TF's, gives each window's gradient to its first max and +0 to every other input.
Large convolutions split the batch over the intra-op threads (`tensorweave.kernels.shard`; NumPy
releases the GIL in im2col copies and BLAS calls); the filter backprop then adds the blocks'
partial sums, which may round differently from one big matmul (as TF's own sharded kernels do).
Window geometry is TF's: SAME gives `ceil(in / stride)` outputs and puts the odd padding unit at
the end; VALID gives `ceil((in - (k - 1) * dilation) / stride)`.
Gradient kernels (Conv2DBackpropInput, MaxPoolGrad, ...) are ops of their own, differentiable
again, as in TF.

The family is split into `nn_conv_geometry` (attribute checks, window geometry, pooling
windows), `nn_conv2d_ops` (Conv2D and its backprops, conv2d_transpose/conv1d/atrous_conv2d, the
accelerator kernels), `nn_depthwise_ops` (depthwise and separable convolutions), `nn_pool_ops`
(max and average pooling), `nn_batch_norm_ops` (fused batch normalization) and `nn_conv_rewrites`
(plan rewrites). This module re-exports their public names; importing it registers the whole family.
"""

from . import nn_conv_rewrites  # noqa: F401 (registers the family's plan rewrites and their internal ops)
from .nn_batch_norm_ops import fused_batch_norm  # noqa: F401
from .nn_conv2d_ops import (  # noqa: F401
    Patches,
    atrous_conv2d,
    conv1d,
    conv2d,
    conv2d_backprop_filter,
    conv2d_backprop_input,
    conv2d_bias_relu,
    conv2d_transpose,
)
from .nn_depthwise_ops import (  # noqa: F401
    depthwise_conv2d,
    depthwise_conv2d_native,
    depthwise_conv2d_native_backprop_filter,
    depthwise_conv2d_native_backprop_input,
    separable_conv2d,
)
from .nn_pool_ops import avg_pool, avg_pool2d, max_pool, max_pool2d, max_pool_grad  # noqa: F401
