"""The numerical gradient checker (`tf.test.compute_gradient`, `compute_gradient_error`)."""

import numpy as np

from ..framework import ops
from ..framework.indexed_slices import IndexedSlices
from ..ops import core_ops
from .gradients_impl import gradients


def _session():
    sess = ops.get_default_session()
    if sess is None:
        raise ValueError("compute_gradient needs a default session: use `with tf.Session():`")
    return sess


def _feed_key(x):
    return x._as_graph_element() if hasattr(x, "_as_graph_element") else x


def _theoretical(x, x_shape, x_data, dy, dy_shape, dx, feed):
    x_size = int(np.prod(x_shape))
    dy_size = int(np.prod(dy_shape))
    jac = np.zeros((x_size, dy_size), dtype=x.dtype.real_dtype.as_numpy_dtype)
    if dx is None:
        return jac
    sess = _session()
    dy_data = np.zeros(dy_shape, dtype=dy.dtype.as_numpy_dtype)
    flat = dy_data.reshape(-1)
    for col in range(dy_size):
        flat[col] = 1
        fd = dict(feed)
        fd[_feed_key(x)] = x_data
        fd[dy] = dy_data
        if isinstance(dx, IndexedSlices):
            vals, idx = sess.run([dx.values, dx.indices], fd)
            dense = np.zeros(x_shape, dtype=jac.dtype)
            np.add.at(dense, idx, vals)
            jac[:, col] = dense.reshape(-1)
        else:
            jac[:, col] = np.asarray(sess.run(dx, fd)).reshape(-1)
        flat[col] = 0
    return jac


def _numerical(x, x_shape, x_data, y, y_shape, delta, feed):
    x_size = int(np.prod(x_shape))
    y_size = int(np.prod(y_shape))
    dt = x.dtype.as_numpy_dtype
    jac = np.zeros((x_size, y_size), dtype=x.dtype.real_dtype.as_numpy_dtype)
    sess = _session()
    key = _feed_key(x)
    for row in range(x_size):
        xp = x_data.copy()
        xp.reshape(-1)[row] += delta
        yp = np.asarray(sess.run(y, _with(feed, key, xp)), dtype=dt)
        xn = x_data.copy()
        xn.reshape(-1)[row] -= delta
        yn = np.asarray(sess.run(y, _with(feed, key, xn)), dtype=dt)
        jac[row, :] = ((yp - yn) / (2 * delta)).reshape(-1)
    return jac


def _with(feed, key, value):
    fd = dict(feed)
    fd[key] = value
    return fd


def _compute_dx_and_dy(x, y, y_shape):
    with y.graph.as_default():
        dy_orig = core_ops.placeholder_with_default(
            np.ones(y_shape, dtype=y.dtype.as_numpy_dtype), y_shape, name="dy_orig")
        dy = core_ops.identity(dy_orig)
    (dx,) = gradients(y, x, dy)
    return dx, dy


def compute_gradient(x, x_shape, y, y_shape, x_init_value=None, delta=1e-3, init_targets=None,
                     extra_feed_dict=None):
    """Computes the theoretical and numerical Jacobians of `y` with respect to `x`.

    Both have shape `[x_size, y_size]`: entry `[i, j]` is d y_j / d x_i. Uses the default session.

    Args:
      x: A tensor (or variable), or a list of them.
      x_shape: The shape of `x` (a list of shapes for a list of xs).
      y: The output tensor.
      y_shape: The shape of `y`.
      x_init_value: Value(s) fed for `x` (default: uniform random in [0, 1)).
      delta: The perturbation for central differences.
      init_targets: Ops run once first (e.g. a variable initializer).
      extra_feed_dict: More feeds.

    Returns:
      `(theoretical, numerical)` NumPy arrays, or a list of such pairs for a list of xs.

    Raises:
      ValueError: If there is no default session.
    """
    feed = dict(extra_feed_dict or {})
    if init_targets is not None:
        sess = _session()
        for t in init_targets:
            sess.run(t)
    if isinstance(x, (list, tuple)):
        init = x_init_value or [None] * len(x)
        return [_one(xi, si, y, y_shape, vi, delta, feed) for xi, si, vi in zip(x, x_shape, init)]
    return _one(x, x_shape, y, y_shape, x_init_value, delta, feed)


def _one(x, x_shape, y, y_shape, x_init_value, delta, feed):
    y = ops.convert_to_tensor(y)
    x_shape = tuple(x_shape)
    y_shape = tuple(y_shape)
    dt = x.dtype.as_numpy_dtype
    if x_init_value is not None:
        x_data = np.asarray(x_init_value, dtype=dt)
        if x_data.shape != x_shape:
            raise ValueError("x_init_value has shape %s, expected %s" % (x_data.shape, x_shape))
    else:
        x_data = np.random.random_sample(x_shape).astype(dt)
    dx, dy = _compute_dx_and_dy(x, y, y_shape)
    theoretical = _theoretical(x, x_shape, x_data, dy, y_shape, dx, feed)
    numerical = _numerical(x, x_shape, x_data, y, y_shape, delta, feed)
    return theoretical, numerical


def compute_gradient_error(x, x_shape, y, y_shape, x_init_value=None, delta=1e-3, init_targets=None,
                           extra_feed_dict=None):
    """The largest absolute difference between the theoretical and numerical Jacobians.

    Same arguments as `compute_gradient`; for a list of xs, the maximum over all of them.
    """
    grad = compute_gradient(x, x_shape, y, y_shape, x_init_value, delta, init_targets, extra_feed_dict)
    pairs = grad if isinstance(grad, list) else [grad]
    err = 0.0
    for t, n in pairs:
        if t.size or n.size:
            err = max(err, float(np.fabs(t - n).max()))
    return err
