"""The global step: an int64 scalar variable counting training steps (`tf.train.get_global_step` ...)."""

from ..framework import dtypes, ops
from ..framework.ops import GraphKeys
from ..variables import Variable


def global_step(sess, global_step_tensor):
    """Returns the value of the global step in `sess` as a Python int.

    Args:
      sess: A `Session`.
      global_step_tensor: The global step `Tensor`/`Variable`, or its name.

    Returns:
      The global step value.
    """
    return int(sess.run(global_step_tensor))


def get_global_step(graph=None):
    """Returns the global step of `graph` (default: the default graph), or None.

    It is the single variable of the GLOBAL_STEP collection, or else the tensor named "global_step:0".

    Raises:
      TypeError: If the global step found is not an integer scalar variable or tensor.
    """
    graph = graph or ops.get_default_graph()
    found = graph.get_collection(GraphKeys.GLOBAL_STEP)
    if len(found) == 1:
        step = found[0]
    elif not found:
        try:
            step = graph.get_tensor_by_name("global_step:0")
        except KeyError:
            return None
    else:
        return None
    assert_global_step(step)
    return step


def create_global_step(graph=None):
    """Creates the global step variable in `graph`: "global_step", int64, shape [], initial value 0,
    not trainable, in the GLOBAL_VARIABLES and GLOBAL_STEP collections.

    Returns:
      The global step `Variable`.

    Raises:
      ValueError: If the global step already exists.
    """
    graph = graph or ops.get_default_graph()
    if get_global_step(graph) is not None:
        raise ValueError('"global_step" already exists.')
    from ..ops import init_ops
    from ..variable_scopes import get_variable
    with graph.as_default() as g, g.name_scope(None):
        return get_variable(GraphKeys.GLOBAL_STEP, shape=[], dtype=dtypes.int64,
                            initializer=init_ops.zeros_initializer(), trainable=False,
                            collections=[GraphKeys.GLOBAL_VARIABLES, GraphKeys.GLOBAL_STEP])


def get_or_create_global_step(graph=None):
    """Returns the global step of `graph`, creating it first if there is none.

    Raises:
      TypeError: If an existing global step is not an integer scalar.
    """
    graph = graph or ops.get_default_graph()
    step = get_global_step(graph)
    if step is None:
        step = create_global_step(graph)
    return step


def assert_global_step(global_step_tensor):
    """Asserts `global_step_tensor` is an integer scalar `Variable` or `Tensor`.

    Raises:
      TypeError: If it is not a Variable/Tensor, not of integer type, or has a known non-scalar shape.
    """
    if not isinstance(global_step_tensor, (Variable, ops.Tensor)):
        raise TypeError('Existing "global_step" must be a Variable or Tensor: %s.' % (global_step_tensor,))
    if not global_step_tensor.dtype.is_integer:
        raise TypeError('Existing "global_step" does not have integer type: %s' % global_step_tensor.dtype)
    shape = global_step_tensor.get_shape()
    if shape.ndims != 0 and shape.is_fully_defined():
        raise TypeError('Existing "global_step" is not scalar: %s' % shape)
