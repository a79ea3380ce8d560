"""`tf.contrib.slim.summaries`: helpers adding scalar, histogram, image and zero-fraction
summaries named "<prefix>/<tensor op name>" (TF 1.15)."""

from ...framework import ops

__all__ = ["add_histogram_summaries", "add_histogram_summary", "add_image_summaries", "add_image_summary",
           "add_scalar_summaries", "add_scalar_summary", "add_zero_fraction_summaries", "add_zero_fraction_summary"]


def _get_summary_name(tensor, name=None, prefix=None, postfix=None):
    if not name:
        name = tensor.op.name
    if prefix:
        name = prefix + "/" + name
    if postfix:
        name = name + "/" + postfix
    return name


def _summary(kind, tensor, name, prefix, print_summary):
    """The `tf.summary.<kind>` of `tensor`, wrapped in a `Print` of it (then in SUMMARIES) if `print_summary`."""
    from ... import summary
    from ...ops.logging_ops import Print
    summary_name = _get_summary_name(tensor, name, prefix)
    op = getattr(summary, kind)(name=summary_name, tensor=tensor, collections=[] if print_summary else None)
    if not print_summary:
        return op
    op = Print(op, [tensor], summary_name)
    ops.add_to_collection(ops.GraphKeys.SUMMARIES, op)
    return op


def add_histogram_summary(tensor, name=None, prefix=None):
    """Adds a histogram summary for the given tensor.

    Args:
      tensor: A variable or op tensor.
      name: The optional name for the summary.
      prefix: An optional prefix for the summary names.

    Returns:
      A scalar `Tensor` of type `string` whose contents are the serialized `Summary` protocol
      buffer.
    """
    from ... import summary
    return summary.histogram(_get_summary_name(tensor, name, prefix), tensor)


def add_image_summary(tensor, name=None, prefix=None, print_summary=False):
    """Adds an image summary for the given tensor.

    Args:
      tensor: a variable or op tensor with shape [batch,height,width,channels]
      name: the optional name for the summary.
      prefix: An optional prefix for the summary names.
      print_summary: If `True`, the summary is printed to stdout when the summary is computed.

    Returns:
      An image `Tensor` of type `string` whose contents are the serialized `Summary` protocol
      buffer.
    """
    return _summary("image", tensor, name, prefix, print_summary)


def add_scalar_summary(tensor, name=None, prefix=None, print_summary=False):
    """Adds a scalar summary for the given tensor.

    Args:
      tensor: a variable or op tensor.
      name: the optional name for the summary.
      prefix: An optional prefix for the summary names.
      print_summary: If `True`, the summary is printed to stdout when the summary is computed.

    Returns:
      A scalar `Tensor` of type `string` whose contents are the serialized `Summary` protocol
      buffer.
    """
    return _summary("scalar", tensor, name, prefix, print_summary)


def add_zero_fraction_summary(tensor, name=None, prefix=None, print_summary=False):
    """Adds a summary for the percentage of zero values in the given tensor
    ("<name>/Fraction_of_Zero_Values").

    Args:
      tensor: a variable or op tensor.
      name: the optional name for the summary.
      prefix: An optional prefix for the summary names.
      print_summary: If `True`, the summary is printed to stdout when the summary is computed.

    Returns:
      A scalar `Tensor` of type `string` whose contents are the serialized `Summary` protocol
      buffer.
    """
    from ... import nn
    name = _get_summary_name(tensor, name, prefix, "Fraction_of_Zero_Values")
    return add_scalar_summary(nn.zero_fraction(tensor), name, print_summary=print_summary)


def add_histogram_summaries(tensors, prefix=None):
    """Adds a histogram summary for each of the given tensors.

    Args:
      tensors: A list of variable or op tensors.
      prefix: An optional prefix for the summary names.

    Returns:
      A list of scalar `Tensors` of type `string` whose contents are the serialized `Summary`
      protocol buffer.
    """
    return [add_histogram_summary(t, prefix=prefix) for t in tensors]


def add_image_summaries(tensors, prefix=None):
    """Adds an image summary for each of the given tensors.

    Args:
      tensors: A list of variable or op tensors.
      prefix: An optional prefix for the summary names.

    Returns:
      A list of scalar `Tensors` of type `string` whose contents are the serialized `Summary`
      protocol buffer.
    """
    return [add_image_summary(t, prefix=prefix) for t in tensors]


def add_scalar_summaries(tensors, prefix=None, print_summary=False):
    """Adds a scalar summary for each of the given tensors.

    Args:
      tensors: a list of variable or op tensors.
      prefix: An optional prefix for the summary names.
      print_summary: If `True`, the summary is printed to stdout when the summary is computed.

    Returns:
      A list of scalar `Tensors` of type `string` whose contents are the serialized `Summary`
      protocol buffer.
    """
    return [add_scalar_summary(t, prefix=prefix, print_summary=print_summary) for t in tensors]


def add_zero_fraction_summaries(tensors, prefix=None):
    """Adds a scalar zero-fraction summary for each of the given tensors.

    Args:
      tensors: a list of variable or op tensors.
      prefix: An optional prefix for the summary names.

    Returns:
      A list of scalar `Tensors` of type `string` whose contents are the serialized `Summary`
      protocol buffer.
    """
    return [add_zero_fraction_summary(t, prefix=prefix) for t in tensors]
