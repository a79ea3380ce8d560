"""`tf.contrib.slim.model_analyzer`: print and count the sizes of a graph's ops and variables."""

__all__ = ["analyze_ops", "analyze_vars", "tensor_description"]


def tensor_description(var):
    """Returns a compact description of a tensor or variable: "(dtype d0xd1x...)".

    Args:
      var: tensor or variable.

    Returns:
      a string describing the tensor's dtype and shape.
    """
    sizes = var.get_shape()
    return "(" + str(var.dtype.name) + " " + "x".join(str(size) for size in sizes) + ")"


def analyze_ops(graph, print_info=False):
    """Compute the estimated size of the ops.outputs in the graph.

    Args:
      graph: the graph containing the operations.
      print_info: Optional, if true print ops and their outputs.

    Returns:
      total size of the ops.outputs
    """
    if print_info:
        print("---------")
        print("Operations: name -> (type shapes) [size]")
        print("---------")
    total_size = 0
    for op in graph.get_operations():
        op_size = 0
        shapes = []
        for output in op.outputs:
            output_size = output.get_shape().num_elements() or 0
            if output.get_shape():
                shapes.append(tensor_description(output))
            op_size += output_size
        if print_info:
            print(op.name, "\t->", ", ".join(shapes), "[" + str(op_size) + "]")
        total_size += op_size
    return total_size


def analyze_vars(variables, print_info=False):
    """Prints the names and shapes of the variables.

    Args:
      variables: list of variables, for example tf.compat.v1.global_variables().
      print_info: Optional, if true print variables and their shape.

    Returns:
      (total size of the variables, total bytes of the variables)
    """
    if print_info:
        print("---------")
        print("Variables: name (type shape) [size]")
        print("---------")
    total_size = 0
    total_bytes = 0
    for var in variables:
        var_size = var.get_shape().num_elements() or 0
        var_bytes = var_size * var.dtype.size
        total_size += var_size
        total_bytes += var_bytes
        if print_info:
            print(var.name, tensor_description(var), "[%d, bytes: %d]" % (var_size, var_bytes))
    if print_info:
        print("Total size of variables: %d" % total_size)
        print("Total bytes of variables: %d" % total_bytes)
    return total_size, total_bytes
