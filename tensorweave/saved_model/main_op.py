"""`tf.saved_model.main_op`: the usual op a SavedModel runs when it is loaded."""

from ..framework import ops

__all__ = ["main_op", "main_op_with_restore"]


def main_op():
    """Returns a main op to init variables and tables.

    Returns the main op including the group of ops that initializes all variables, initializes
    local variables and initialize all tables.

    Returns:
      The set of ops to be run as part of the main op upon the load operation.
    """
    from ..ops.core_ops import group
    from ..variables import global_variables_initializer, local_variables_initializer
    tables = ops.get_collection(ops.GraphKeys.TABLE_INITIALIZERS)
    return group(global_variables_initializer(), local_variables_initializer(), *tables)


def main_op_with_restore(restore_op_name):
    """Returns a main op to init variables, tables and restore the graph.

    Args:
      restore_op_name: Name of the op to use to restore the graph.

    Returns:
      The set of ops to be run as part of the main op upon the load operation.

    Raises:
      KeyError: If there is no op called `restore_op_name`.
    """
    from ..ops.core_ops import group
    restore_op = ops.get_default_graph().as_graph_element(restore_op_name)
    with ops.control_dependencies([main_op()]):
        return group(restore_op)
