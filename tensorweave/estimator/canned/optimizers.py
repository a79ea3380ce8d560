"""The optimizer argument of the canned estimators: a name, an `Optimizer` or a callable making one."""

__all__ = ["get_optimizer_instance"]


def _optimizer_classes():
    from ...train import optimizers
    return {"Adagrad": optimizers.AdagradOptimizer, "Adam": optimizers.AdamOptimizer,
            "Ftrl": optimizers.FtrlOptimizer, "RMSProp": optimizers.RMSPropOptimizer,
            "SGD": optimizers.GradientDescentOptimizer}


def get_optimizer_instance(opt, learning_rate=None):
    """Returns an optimizer instance, as TF's canned estimators resolve their `optimizer` argument.

    Args:
      opt: An `Optimizer` instance, a callable returning one, or one of the names 'Adagrad',
        'Adam', 'Ftrl', 'RMSProp', 'SGD' (then the optimizer is built with `learning_rate`).
      learning_rate: The learning rate for a named optimizer.

    Returns:
      A `tf.train.Optimizer`.

    Raises:
      ValueError: For an unknown name, a name without `learning_rate`, or something that is not
        (and does not make) an `Optimizer`.
    """
    from ...train.optimizer import Optimizer
    classes = _optimizer_classes()
    if isinstance(opt, str):
        if opt in classes:
            if not learning_rate:
                raise ValueError("learning_rate must be specified when opt is string.")
            return classes[opt](learning_rate=learning_rate)
        raise ValueError("Unsupported optimizer name: {}. Supported names are: {}".format(opt, tuple(sorted(classes))))
    if callable(opt) and not isinstance(opt, Optimizer):
        opt = opt()
    if not isinstance(opt, Optimizer):
        raise ValueError("The given object is not an Optimizer instance. Given: {}".format(opt))
    return opt
