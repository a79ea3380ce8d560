"""Neural-network ops: activations, softmax, bias_add, losses, cross entropies, dropout, moments,
in_top_k.

Kernels are the numerically stable ones TF uses (shift by the max before exponentiating, the
`max(x, 0) - x * z + log(1 + exp(-|x|))` logistic loss), so large logits give exact results.
Gradient kernels (ReluGrad, ...) are ops of their own, differentiable again, as in TF.

The family is split into `nn_activation_ops` (activations, their gradient ops, softmax),
`nn_loss_ops` (losses, cross entropies, moments, batch_normalization) and `nn_layer_ops` (bias_add,
dropout, in_top_k). This module re-exports their public names; importing it registers the whole
family.
"""

from .nn_activation_ops import (  # noqa: F401
    elu,
    leaky_relu,
    log_softmax,
    relu,
    relu6,
    relu_grad_scalar,
    relu_kernel,
    relu_scalar,
    selu,
    softmax,
    softplus,
    softsign,
)
from .nn_layer_ops import bias_add, dropout, in_top_k, relu_layer, xw_plus_b  # noqa: F401
from .nn_loss_ops import (  # noqa: F401
    batch_normalization,
    l2_loss,
    l2_normalize,
    moments,
    sigmoid_cross_entropy_with_logits,
    softmax_cross_entropy_with_logits,
    softmax_cross_entropy_with_logits_v2,
    sparse_softmax_cross_entropy_with_logits,
    weighted_cross_entropy_with_logits,
)
