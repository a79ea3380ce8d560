"""`tf.saved_model.signature_def_utils`: `SignatureDef` protocol buffers (the named inputs and
outputs a served model exposes)."""

import numpy as np

from ..framework import dtypes, ops
from . import _protos, signature_constants
from .utils import build_tensor_info, build_tensor_info_from_op, get_element_from_tensor_info

__all__ = ["build_signature_def", "classification_signature_def", "is_valid_signature", "load_op_from_signature_def",
           "op_signature_def", "predict_signature_def", "regression_signature_def",
           "supervised_eval_signature_def", "supervised_train_signature_def"]

_DT_STRING = dtypes.string.as_datatype_enum
_DT_FLOAT = dtypes.float32.as_datatype_enum


def _tensor_proto(value):
    """A `TensorProto` of a NumPy array (numeric in `tensor_content`, strings in `string_val`)."""
    from tensorboard.compat.proto import tensor_pb2
    value = np.asarray(value)
    dtype = dtypes.as_dtype(value.dtype if value.dtype.kind not in "OSU" else dtypes.string)
    proto = tensor_pb2.TensorProto(dtype=dtype.as_datatype_enum)
    for d in value.shape:
        proto.tensor_shape.dim.add(size=d)
    if dtype == dtypes.string:
        proto.string_val.extend(v.encode("utf-8") if isinstance(v, str) else bytes(v) for v in value.reshape(-1))
    else:
        proto.tensor_content = np.ascontiguousarray(value, value.dtype.newbyteorder("<")).tobytes()
    return proto


def build_signature_def(inputs=None, outputs=None, method_name=None, defaults=None):
    """Utility function to build a SignatureDef protocol buffer.

    Args:
      inputs: Inputs of the SignatureDef defined as a proto map of string to tensor info.
      outputs: Outputs of the SignatureDef defined as a proto map of string to tensor info.
      method_name: Method name of the SignatureDef as a string.
      defaults: Defaults of the SignatureDef: a dict of input name to a constant `Tensor`.

    Returns:
      A SignatureDef protocol buffer constructed based on the supplied arguments.

    Raises:
      ValueError: If a default is not the output of a `Const` op.
    """
    signature_def = _protos.meta_graph_pb2.SignatureDef()
    for key in inputs or {}:
        signature_def.inputs[key].CopyFrom(inputs[key])
    for key in outputs or {}:
        signature_def.outputs[key].CopyFrom(outputs[key])
    if method_name is not None:
        signature_def.method_name = method_name
    for arg_name, default in (defaults or {}).items():
        if not isinstance(default, ops.Tensor) or default.op.type != "Const":
            raise ValueError("Unable to convert object %s of type %s to TensorProto." % (default, type(default)))
        signature_def.defaults[arg_name].CopyFrom(_tensor_proto(default.op.get_attr("value")))
    return signature_def


def regression_signature_def(examples, predictions):
    """Creates regression signature from given examples and predictions.

    This function produces signatures intended for use with the TensorFlow Serving Regress API,
    and so constrains the input and output types to those allowed by TensorFlow Serving.

    Args:
      examples: A string `Tensor`, expected to accept serialized tf.Examples.
      predictions: A float `Tensor`.

    Returns:
      A regression-flavored signature_def.

    Raises:
      ValueError: If examples is `None`, not a Tensor or not a string one, or predictions is None
        or not float32.
    """
    if examples is None:
        raise ValueError("Regression `examples` cannot be None.")
    if not isinstance(examples, ops.Tensor):
        raise ValueError("Expected regression `examples` to be of type Tensor. Found `examples` of type %s."
                         % type(examples))
    if predictions is None:
        raise ValueError("Regression `predictions` cannot be None.")
    input_info = build_tensor_info(examples)
    if input_info.dtype != _DT_STRING:
        raise ValueError("Regression input tensors must be of type string. Found tensors with type %s."
                         % input_info.dtype)
    output_info = build_tensor_info(predictions)
    if output_info.dtype != _DT_FLOAT:
        raise ValueError("Regression output tensors must be of type float. Found tensors with type %s."
                         % output_info.dtype)
    return build_signature_def({signature_constants.REGRESS_INPUTS: input_info},
                               {signature_constants.REGRESS_OUTPUTS: output_info},
                               signature_constants.REGRESS_METHOD_NAME)


def classification_signature_def(examples, classes, scores):
    """Creates classification signature from given examples and predictions.

    This function produces signatures intended for use with the TensorFlow Serving Classify API,
    and so constrains the input and output types to those allowed by TensorFlow Serving.

    Args:
      examples: A string `Tensor`, expected to accept serialized tf.Examples.
      classes: A string `Tensor`. Note that the ClassificationResponse message requires that class
        labels are strings, not integers or anything else.
      scores: a float `Tensor`.

    Returns:
      A classification-flavored signature_def.

    Raises:
      ValueError: If examples is `None` or not a string Tensor, both classes and scores are None,
        classes is not a string Tensor or scores not a float one.
    """
    if examples is None:
        raise ValueError("Classification `examples` cannot be None.")
    if not isinstance(examples, ops.Tensor):
        raise ValueError("Classification `examples` must be a string Tensor. Found `examples` of type %s."
                         % type(examples))
    if classes is None and scores is None:
        raise ValueError("Classification `classes` and `scores` cannot both be None.")
    input_info = build_tensor_info(examples)
    if input_info.dtype != _DT_STRING:
        raise ValueError("Classification input tensors must be of type string. Found tensors of type %s"
                         % input_info.dtype)
    outputs = {}
    if classes is not None:
        info = build_tensor_info(classes)
        if info.dtype != _DT_STRING:
            raise ValueError("Classification classes must be of type string Tensor. Found tensors of type %s.`"
                             % info.dtype)
        outputs[signature_constants.CLASSIFY_OUTPUT_CLASSES] = info
    if scores is not None:
        info = build_tensor_info(scores)
        if info.dtype != _DT_FLOAT:
            raise ValueError("Classification scores must be a float Tensor.")
        outputs[signature_constants.CLASSIFY_OUTPUT_SCORES] = info
    return build_signature_def({signature_constants.CLASSIFY_INPUTS: input_info}, outputs,
                               signature_constants.CLASSIFY_METHOD_NAME)


def predict_signature_def(inputs, outputs):
    """Creates prediction signature from given inputs and outputs.

    This function produces signatures intended for use with the TensorFlow Serving Predict API.
    This API imposes no constraints on the input and output types.

    Args:
      inputs: dict of string to `Tensor`.
      outputs: dict of string to `Tensor`.

    Returns:
      A prediction-flavored signature_def.

    Raises:
      ValueError: If inputs or outputs is `None` or empty.
    """
    if not inputs:
        raise ValueError("Prediction `inputs` cannot be None or empty.")
    if not outputs:
        raise ValueError("Prediction `outputs` cannot be None or empty.")
    return build_signature_def({k: build_tensor_info(t) for k, t in inputs.items()},
                               {k: build_tensor_info(t) for k, t in outputs.items()},
                               signature_constants.PREDICT_METHOD_NAME)


def _supervised_signature_def(method_name, inputs, loss=None, predictions=None, metrics=None):
    if not inputs:
        raise ValueError("%s `inputs` cannot be None or empty." % method_name)
    outputs = {}
    for output_set in (loss, predictions, metrics):
        for key, tensor in (output_set or {}).items():
            outputs[key] = build_tensor_info(tensor)
    return build_signature_def({k: build_tensor_info(t) for k, t in inputs.items()}, outputs, method_name)


def supervised_train_signature_def(inputs, loss, predictions=None, metrics=None):
    """Creates a training signature: `inputs`, and the loss, predictions and metrics as outputs.

    Args:
      inputs: dict of string to `Tensor`.
      loss: dict of string to `Tensor` representing computed loss.
      predictions: dict of string to `Tensor` representing the output predictions.
      metrics: dict of string to `Tensor` representing metric ops.

    Returns:
      A train-flavored signature_def.

    Raises:
      ValueError: If inputs is `None` or empty.
    """
    return _supervised_signature_def(signature_constants.SUPERVISED_TRAIN_METHOD_NAME, inputs, loss, predictions,
                                     metrics)


def supervised_eval_signature_def(inputs, loss, predictions=None, metrics=None):
    """Creates an evaluation signature (as `supervised_train_signature_def`, for eval).

    Args:
      inputs: dict of string to `Tensor`.
      loss: dict of string to `Tensor` representing computed loss.
      predictions: dict of string to `Tensor` representing the output predictions.
      metrics: dict of string to `Tensor` representing metric ops.

    Returns:
      An eval-flavored signature_def.

    Raises:
      ValueError: If inputs is `None` or empty.
    """
    return _supervised_signature_def(signature_constants.SUPERVISED_EVAL_METHOD_NAME, inputs, loss, predictions,
                                     metrics)


def is_valid_signature(signature_def):
    """Determine whether a SignatureDef can be served by TensorFlow Serving.

    Args:
      signature_def: A SignatureDef protocol buffer (or None).

    Returns:
      True for a well-formed predict, classify or regress signature.
    """
    if signature_def is None:
        return False
    return (_is_valid_classification_signature(signature_def) or _is_valid_regression_signature(signature_def)
            or _is_valid_predict_signature(signature_def))


def _is_valid_predict_signature(sig):
    return (sig.method_name == signature_constants.PREDICT_METHOD_NAME and bool(sig.inputs.keys())
            and bool(sig.outputs.keys()))


def _is_valid_regression_signature(sig):
    return (sig.method_name == signature_constants.REGRESS_METHOD_NAME
            and set(sig.inputs.keys()) == {signature_constants.REGRESS_INPUTS}
            and sig.inputs[signature_constants.REGRESS_INPUTS].dtype == _DT_STRING
            and set(sig.outputs.keys()) == {signature_constants.REGRESS_OUTPUTS}
            and sig.outputs[signature_constants.REGRESS_OUTPUTS].dtype == _DT_FLOAT)


def _is_valid_classification_signature(sig):
    if sig.method_name != signature_constants.CLASSIFY_METHOD_NAME:
        return False
    if set(sig.inputs.keys()) != {signature_constants.CLASSIFY_INPUTS}:
        return False
    if sig.inputs[signature_constants.CLASSIFY_INPUTS].dtype != _DT_STRING:
        return False
    allowed = {signature_constants.CLASSIFY_OUTPUT_CLASSES, signature_constants.CLASSIFY_OUTPUT_SCORES}
    if not sig.outputs.keys() or set(sig.outputs.keys()) - allowed:
        return False
    classes, scores = signature_constants.CLASSIFY_OUTPUT_CLASSES, signature_constants.CLASSIFY_OUTPUT_SCORES
    if classes in sig.outputs and sig.outputs[classes].dtype != _DT_STRING:
        return False
    if scores in sig.outputs and sig.outputs[scores].dtype != _DT_FLOAT:
        return False
    return True


def op_signature_def(op, key):
    """Creates a signature def with the output `key` pointing to an op (the init and train op
    signatures).

    Args:
      op: An Op (or possibly Tensor).
      key: Key to graph element in the SignatureDef outputs.

    Returns:
      A SignatureDef with a single output pointing to the op.
    """
    return build_signature_def(outputs={key: build_tensor_info_from_op(op)})


def load_op_from_signature_def(signature_def, key, import_scope=None):
    """Loads an Op from a SignatureDef created by `op_signature_def()`.

    Args:
      signature_def: a SignatureDef proto
      key: string key to op in the SignatureDef outputs.
      import_scope: Scope used to import the op

    Returns:
      Op (or possibly Tensor) in the graph with the same name as saved in the SignatureDef.

    Raises:
      NotFoundError: If the op could not be found in the graph.
    """
    from ..framework import errors
    try:
        return get_element_from_tensor_info(signature_def.outputs[key], import_scope=import_scope)
    except KeyError:
        raise errors.NotFoundError(
            None, None, 'The key "%s" could not be found in the graph. Please make sure the SavedModel was created '
            'by the internal _SavedModelBuilder. If you are using the public API, please make sure the SignatureDef '
            'in the SavedModel does not contain the key "%s".' % (key, key)) from None
