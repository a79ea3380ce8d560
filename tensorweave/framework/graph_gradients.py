"""`gradients(ys, xs, grad_ys=None, **kwargs)` for gradient rules that differentiate a sub-computation
themselves: an If branch or a While body (`ops/control_flow_ops.py`), a composite op's second-order
rule. Gradient rules live with their ops, below the gradients layer, so they reach `tf.gradients`
through this slot, which `gradients/gradients_impl.py` fills when it is imported (always, by
`import tensorweave`); the rules only run from inside it or from a GradientTape."""

__all__ = ["gradients", "install"]

_impl = [None]


def install(fn):
    """Makes `fn` (with `tf.gradients`' signature) the implementation of `gradients`."""
    _impl[0] = fn


def gradients(ys, xs, grad_ys=None, **kwargs):
    """`tf.gradients(ys, xs, grad_ys, **kwargs)`.

    Raises:
      RuntimeError: If no implementation was installed (`tensorweave.gradients` not imported).
    """
    impl = _impl[0]
    if impl is None:
        raise RuntimeError("No gradients implementation is installed: import tensorweave.gradients.gradients_impl")
    return impl(ys, xs, grad_ys=grad_ys, **kwargs)
