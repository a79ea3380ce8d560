"""`tf.estimator.export`: serving input receivers and export outputs, and the SavedModel export
behind `Estimator.export_saved_model` / `export_savedmodel`.

A serving input receiver function builds, in a fresh graph, the placeholders a served model is fed
(`receiver_tensors`) and the features the `model_fn` receives from them (parsed `tf.Example`s,
or the placeholders themselves). The export calls the `model_fn` in PREDICT mode on those features,
turns its `export_outputs` (default: a `PredictOutput` of its predictions) into signatures,
restores the latest checkpoint and writes a SavedModel tagged "serve" under
`export_dir_base/<timestamp>` (first to `temp-<timestamp>`, then renamed).
"""

import collections
import os
import time

from .. import tf_logging as logging
from ..framework import dtypes, ops
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor_shape import TensorShape

__all__ = ["ClassificationOutput", "ExportOutput", "PredictOutput", "RegressionOutput", "ServingInputReceiver",
           "TensorServingInputReceiver", "build_parsing_serving_input_receiver_fn",
           "build_raw_serving_input_receiver_fn"]

_SINGLE_TENSOR_DEFAULT_NAMES = {"feature": "feature", "label": "label", "receiver_tensor": "input",
                                "receiver_tensors_alternative": "input"}
SINGLE_RECEIVER_DEFAULT_NAME = "input"


def _check_tensor(tensor, name, error_label="feature"):
    if not isinstance(tensor, (ops.Tensor, SparseTensor)):
        fmt_name = " {}".format(name) if name else ""
        raise ValueError("{}{} must be a Tensor, SparseTensor, or RaggedTensor.".format(error_label, fmt_name))


def _check_tensor_key(name, error_label="feature", allow_ints=False):
    valid = (str, int) if allow_ints else (str,)
    if not isinstance(name, valid):
        raise ValueError("{} keys must be strings{}: {}.".format(error_label, " or ints" if allow_ints else "", name))


def _wrap_and_check_input_tensors(tensors, field_name, allow_int_keys=False):
    if tensors is None:
        raise ValueError("{}s must be defined.".format(field_name))
    if not isinstance(tensors, dict):
        tensors = {_SINGLE_TENSOR_DEFAULT_NAMES[field_name]: tensors}
    for name, tensor in tensors.items():
        _check_tensor_key(name, error_label=field_name, allow_ints=allow_int_keys)
        _check_tensor(tensor, name, error_label=field_name)
    return tensors


class ServingInputReceiver(collections.namedtuple(
        "ServingInputReceiver", ["features", "receiver_tensors", "receiver_tensors_alternatives"])):
    """A return type for a serving_input_receiver_fn.

    Args:
      features: A `Tensor`, `SparseTensor`, or dict of string or int to `Tensor` or
        `SparseTensor`, specifying the features to be passed to the model. Note: if `features`
        passed is not a dict, it will be wrapped in a dict with a single entry, using 'feature' as
        the key.
      receiver_tensors: A `Tensor`, `SparseTensor`, or dict of string to `Tensor` or
        `SparseTensor`, specifying input nodes where this receiver expects to be fed by default.
        Typically, this is a single placeholder expecting serialized `tf.Example` protos.
      receiver_tensors_alternatives: a dict of string to additional groups of receiver tensors,
        each of which may be a `Tensor`, `SparseTensor`, or dict of string to `Tensor` or
        `SparseTensor`. These named receiver tensor alternatives generate additional serving
        signatures, which may be used to feed inputs at different points within the input
        receiver subgraph.

    Raises:
      ValueError: If features or receiver tensors are missing, not tensors, or keyed by
        something other than strings, or `receiver_tensors_alternatives` is not a dict.
    """

    def __new__(cls, features, receiver_tensors, receiver_tensors_alternatives=None):
        features = _wrap_and_check_input_tensors(features, "feature", allow_int_keys=True)
        receiver_tensors = _wrap_and_check_input_tensors(receiver_tensors, "receiver_tensor")
        if receiver_tensors_alternatives is not None:
            if not isinstance(receiver_tensors_alternatives, dict):
                raise ValueError("receiver_tensors_alternatives must be a dict: {}.".format(
                    receiver_tensors_alternatives))
            for name, alt in list(receiver_tensors_alternatives.items()):
                receiver_tensors_alternatives[name] = _wrap_and_check_input_tensors(
                    alt, "receiver_tensors_alternative")
        return super().__new__(cls, features=features, receiver_tensors=receiver_tensors,
                               receiver_tensors_alternatives=receiver_tensors_alternatives)


class TensorServingInputReceiver(collections.namedtuple(
        "TensorServingInputReceiver", ["features", "receiver_tensors", "receiver_tensors_alternatives"])):
    """A return type for a serving_input_receiver_fn whose features are one `Tensor` (passed to the
    `model_fn` as it is, not in a dict).

    Args:
      features: A single `Tensor` or `SparseTensor`, representing the feature to be passed to the
        model.
      receiver_tensors: A `Tensor`, `SparseTensor`, or dict of string to `Tensor` or
        `SparseTensor`, specifying input nodes where this receiver expects to be fed by default.
      receiver_tensors_alternatives: As for `ServingInputReceiver`.

    Raises:
      ValueError: If `features` is not a single Tensor or SparseTensor, or as `ServingInputReceiver`.
    """

    def __new__(cls, features, receiver_tensors, receiver_tensors_alternatives=None):
        if features is None:
            raise ValueError("features must be defined.")
        _check_tensor(features, None)
        receiver = ServingInputReceiver(features, receiver_tensors, receiver_tensors_alternatives)
        return super().__new__(cls, features=receiver.features[_SINGLE_TENSOR_DEFAULT_NAMES["feature"]],
                               receiver_tensors=receiver.receiver_tensors,
                               receiver_tensors_alternatives=receiver.receiver_tensors_alternatives)


def build_parsing_serving_input_receiver_fn(feature_spec, default_batch_size=None):
    """Build a serving_input_receiver_fn expecting fed tf.Examples.

    Creates a serving_input_receiver_fn that expects a serialized tf.Example fed into a string
    placeholder. The function parses the tf.Example according to the provided feature_spec, and
    returns all parsed Tensors as features.

    Args:
      feature_spec: a dict of string to `VarLenFeature`/`FixedLenFeature`.
      default_batch_size: the number of query examples expected per batch. Leave unset for
        variable batch size (recommended).

    Returns:
      A serving_input_receiver_fn suitable for use in serving.
    """
    def serving_input_receiver_fn():
        from ..ops.core_ops import placeholder
        from ..ops.parsing_ops import parse_example
        serialized_tf_example = placeholder(dtype=dtypes.string, shape=[default_batch_size],
                                            name="input_example_tensor")
        receiver_tensors = {"examples": serialized_tf_example}
        features = parse_example(serialized_tf_example, feature_spec)
        return ServingInputReceiver(features, receiver_tensors)
    return serving_input_receiver_fn


def build_raw_serving_input_receiver_fn(features, default_batch_size=None):
    """Build a serving_input_receiver_fn expecting feature Tensors.

    Creates an serving_input_receiver_fn that expects all features to be fed directly: a
    placeholder of each feature's dtype and shape (the first dimension replaced by
    `default_batch_size`), named after the feature tensor's op.

    Args:
      features: a dict of string to `Tensor`.
      default_batch_size: the number of query examples expected per batch. Leave unset for
        variable batch size (recommended).

    Returns:
      A serving_input_receiver_fn.

    Raises:
      ValueError: (when the function is called) If a feature has unknown rank or is a scalar.
    """
    def serving_input_receiver_fn():
        from ..ops.core_ops import placeholder
        receiver_tensors = {}
        for name, t in features.items():
            shape = t.get_shape()
            if shape.ndims is None or shape.ndims == 0:
                raise ValueError("Feature {} must have a known rank of at least 1 (the batch dimension) to build a "
                                 "raw serving input placeholder; its shape is {}.".format(name, shape))
            shape_list = shape.as_list()
            shape_list[0] = default_batch_size
            receiver_tensors[name] = placeholder(dtype=t.dtype, shape=TensorShape(shape_list), name=t.op.name)
        return ServingInputReceiver(receiver_tensors, receiver_tensors.copy())
    return serving_input_receiver_fn


# ---- export outputs --------------------------------------------------------------------------------
class ExportOutput:
    """Represents an output of a model that can be served.

    These typically correspond to model heads.
    """

    _SEPARATOR_CHAR = "/"

    def as_signature_def(self, receiver_tensors):
        """Generate a SignatureDef proto for inclusion in a MetaGraphDef.

        Args:
          receiver_tensors: a `Tensor`, or a dict of string to `Tensor`, specifying input nodes
            that will be fed.

        Returns:
          A `SignatureDef`.
        """
        raise NotImplementedError("%s does not define a signature" % type(self).__name__)

    def _check_output_key(self, key, error_label):
        if isinstance(key, tuple):
            key = self._SEPARATOR_CHAR.join(key)
        if not isinstance(key, str):
            raise ValueError("{} output key must be a string; got {}.".format(error_label, key))
        return key

    def _wrap_and_check_outputs(self, outputs, single_output_default_name, error_label=None):
        if not isinstance(outputs, dict):
            outputs = {single_output_default_name: outputs}
        output_dict = {}
        for key, value in outputs.items():
            error_name = error_label or single_output_default_name
            key = self._check_output_key(key, error_name)
            if not isinstance(value, ops.Tensor):
                raise ValueError("{} output value must be a Tensor; got {}.".format(error_name, value))
            output_dict[key] = value
        return output_dict


def _single_string_input(receiver_tensors, what):
    if len(receiver_tensors) != 1:
        raise ValueError("{} input must be a single string Tensor; got {}".format(what, receiver_tensors))
    (_, examples), = receiver_tensors.items()
    if examples.dtype != dtypes.string:
        raise ValueError("{} input must be a single string Tensor; got {}".format(what, receiver_tensors))
    return examples


class ClassificationOutput(ExportOutput):
    """Represents the output of a classification head (TensorFlow Serving's Classify API).

    Args:
      scores: A float `Tensor` giving scores (sometimes but not always interpretable as
        probabilities) for each class. May be `None`, but only if `classes` is set.
      classes: A string `Tensor` giving predicted class labels. May be `None`, but only if
        `scores` is set.

    Raises:
      ValueError: if neither classes nor scores is set, or one of them is not a `Tensor` with the
        correct dtype.
    """

    def __init__(self, scores=None, classes=None):
        if scores is not None and not (isinstance(scores, ops.Tensor) and scores.dtype.is_floating):
            raise ValueError("Classification scores must be a float32 Tensor; got {}".format(scores))
        if classes is not None and not (isinstance(classes, ops.Tensor) and classes.dtype == dtypes.string):
            raise ValueError("Classification classes must be a string Tensor; got {}".format(classes))
        if scores is None and classes is None:
            raise ValueError("At least one of scores and classes must be set.")
        self._scores = scores
        self._classes = classes

    @property
    def scores(self):
        return self._scores

    @property
    def classes(self):
        return self._classes

    def as_signature_def(self, receiver_tensors):
        """A classify SignatureDef over the single string receiver tensor.

        Raises:
          ValueError: If the receiver tensors are not one string Tensor.
        """
        from ..saved_model import signature_def_utils
        examples = _single_string_input(receiver_tensors, "Classification")
        return signature_def_utils.classification_signature_def(examples, self.classes, self.scores)


class RegressionOutput(ExportOutput):
    """Represents the output of a regression head (TensorFlow Serving's Regress API).

    Args:
      value: a float `Tensor` giving the predicted values. Required.

    Raises:
      ValueError: if the value is not a `Tensor` with dtype tf.float32.
    """

    def __init__(self, value):
        if not (isinstance(value, ops.Tensor) and value.dtype.is_floating):
            raise ValueError("Regression output value must be a float32 Tensor; got {}".format(value))
        self._value = value

    @property
    def value(self):
        return self._value

    def as_signature_def(self, receiver_tensors):
        """A regress SignatureDef over the single string receiver tensor.

        Raises:
          ValueError: If the receiver tensors are not one string Tensor.
        """
        from ..saved_model import signature_def_utils
        examples = _single_string_input(receiver_tensors, "Regression")
        return signature_def_utils.regression_signature_def(examples, self.value)


class PredictOutput(ExportOutput):
    """Represents the output of a generic prediction head (TensorFlow Serving's Predict API).

    Args:
      outputs: A `Tensor` or a dict of string to `Tensor` representing the predictions.

    Raises:
      ValueError: if the outputs is not dict, or any of its keys are not strings, or any of its
        values are not `Tensor`s.
    """

    _SINGLE_OUTPUT_DEFAULT_NAME = "output"

    def __init__(self, outputs):
        self._outputs = self._wrap_and_check_outputs(outputs, self._SINGLE_OUTPUT_DEFAULT_NAME,
                                                     error_label="Prediction")

    @property
    def outputs(self):
        return self._outputs

    def as_signature_def(self, receiver_tensors):
        """A predict SignatureDef from the receiver tensors to the outputs."""
        from ..saved_model import signature_def_utils
        return signature_def_utils.predict_signature_def(receiver_tensors, self.outputs)


def get_export_outputs(export_outputs, predictions):
    """The `export_outputs` of an `EstimatorSpec`, defaulted and checked.

    Raises:
      TypeError: If `export_outputs` is not a dict of `ExportOutput`s.
      ValueError: If several are given and none is the default serving key.
    """
    from ..saved_model import signature_constants
    default_key = signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY
    if export_outputs is None:
        export_outputs = {default_key: PredictOutput(predictions)}
    if not isinstance(export_outputs, dict):
        raise TypeError("export_outputs must be dict, given: {}".format(export_outputs))
    for v in export_outputs.values():
        if not isinstance(v, ExportOutput):
            raise TypeError("Values in export_outputs must be ExportOutput objects. Given: {}".format(export_outputs))
    export_outputs = dict(export_outputs)
    if len(export_outputs) == 1:
        (key, value), = export_outputs.items()
        if key != default_key:
            export_outputs[default_key] = value
    if len(export_outputs) > 1 and default_key not in export_outputs:
        raise ValueError("Multiple export_outputs were provided, but none of them is specified as the default.  Do "
                         "this by naming one of them with signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY.")
    return export_outputs


def build_all_signature_defs(receiver_tensors, export_outputs, receiver_tensors_alternatives=None,
                             serving_only=True):
    """SignatureDefs for every pair of receiver tensors and export output (servable ones only
    with `serving_only`); an export output that cannot serve the receiver is left out with a log line.

    Raises:
      ValueError: If `export_outputs` is not a dict.
    """
    from ..saved_model import signature_def_utils
    if not isinstance(receiver_tensors, dict):
        receiver_tensors = {SINGLE_RECEIVER_DEFAULT_NAME: receiver_tensors}
    if export_outputs is None or not isinstance(export_outputs, dict):
        raise ValueError("export_outputs must be a dict and not {}".format(type(export_outputs)))
    signature_def_map = {}
    excluded = {}
    for output_key, export_output in export_outputs.items():
        name = "{}".format(output_key or "None")
        try:
            signature_def_map[name] = export_output.as_signature_def(receiver_tensors)
        except ValueError as e:
            excluded[name] = str(e)
    for receiver_name, alt in (receiver_tensors_alternatives or {}).items():
        if not isinstance(alt, dict):
            alt = {SINGLE_RECEIVER_DEFAULT_NAME: alt}
        for output_key, export_output in export_outputs.items():
            name = "{}:{}".format(receiver_name or "None", output_key or "None")
            try:
                signature_def_map[name] = export_output.as_signature_def(alt)
            except ValueError as e:
                excluded[name] = str(e)
    for name, why in sorted(excluded.items()):
        logging.warning("Export includes no signature %r: %s", name, why)
    if serving_only:
        signature_def_map = {k: v for k, v in signature_def_map.items() if signature_def_utils.is_valid_signature(v)}
    return signature_def_map


def get_timestamped_export_dir(export_dir_base):
    """`export_dir_base/<seconds since the epoch>` (bytes), a name not yet taken.

    Raises:
      RuntimeError: If ten tries in ten seconds found the name taken.
    """
    export_dir_base = os.fspath(export_dir_base)
    if isinstance(export_dir_base, str):
        export_dir_base = export_dir_base.encode("utf-8")
    for attempt in range(10):
        export_dir = os.path.join(export_dir_base, str(int(time.time())).encode("ascii"))
        if not os.path.exists(export_dir):
            return export_dir
        if attempt < 9:
            time.sleep(1)
            logging.warning("Directory {} already exists; retrying (attempt {}/{})".format(
                export_dir.decode("utf-8"), attempt + 1, 10))
    raise RuntimeError("Failed to obtain a unique export directory name after {} attempts.".format(10))


def _temp_export_dir(timestamped_export_dir):
    head, tail = os.path.split(timestamped_export_dir)
    return os.path.join(head, b"temp-" + tail)


def _default_local_init_op():
    from ..ops.core_ops import group
    from ..variables import local_variables_initializer
    return group(local_variables_initializer(), *ops.get_collection(ops.GraphKeys.TABLE_INITIALIZERS))


def export_saved_model(estimator, export_dir_base, serving_input_receiver_fn, assets_extra=None, as_text=False,
                       checkpoint_path=None, strip_default_attrs=False):
    """The export of `Estimator.export_saved_model` (PREDICT mode, tag "serve"); see there."""
    from ..ops.random_ops import set_random_seed
    from ..saved_model import tag_constants
    from ..saved_model.builder import SavedModelBuilder
    from ..train import training_util
    from ..train.saver import Saver
    from .model_fn import ModeKeys
    if serving_input_receiver_fn is None:
        raise ValueError("An input_receiver_fn must be defined.")
    if not checkpoint_path:
        checkpoint_path = estimator.latest_checkpoint()
    if not checkpoint_path:
        raise ValueError("Couldn't find trained model at {}.".format(estimator.model_dir))
    export_dir = get_timestamped_export_dir(export_dir_base)
    temp_export_dir = _temp_export_dir(export_dir)
    builder = SavedModelBuilder(temp_export_dir.decode("utf-8"))
    with ops.Graph().as_default() as g:
        if estimator.config.tf_random_seed is not None:
            set_random_seed(estimator.config.tf_random_seed)
        training_util.create_global_step(g)
        receiver = serving_input_receiver_fn()
        if not isinstance(receiver, (ServingInputReceiver, TensorServingInputReceiver)):
            raise TypeError("serving_input_receiver_fn must return a ServingInputReceiver or "
                            "TensorServingInputReceiver, got {}".format(type(receiver).__name__))
        spec = estimator._call_model_fn(receiver.features, None, ModeKeys.PREDICT, estimator.config)
        export_outputs = get_export_outputs(spec.export_outputs, spec.predictions)
        signature_def_map = build_all_signature_defs(receiver.receiver_tensors, export_outputs,
                                                     receiver.receiver_tensors_alternatives, serving_only=True)
        from ..client.session import Session
        with Session(graph=g, config=estimator.config.session_config) as session:
            saver_for_restore = spec.scaffold.saver or Saver(sharded=True)
            saver_for_restore.restore(session, checkpoint_path)
            local_init_op = spec.scaffold.local_init_op or _default_local_init_op()
            graph_saver = spec.scaffold.saver or Saver(sharded=True)
            builder.add_meta_graph_and_variables(session, [tag_constants.SERVING],
                                                 signature_def_map=signature_def_map,
                                                 assets_collection=ops.get_collection(ops.GraphKeys.ASSET_FILEPATHS),
                                                 main_op=local_init_op, saver=graph_saver,
                                                 strip_default_attrs=strip_default_attrs)
    builder.save(as_text)
    if assets_extra:
        from ..saved_model import constants
        extra_dir = os.path.join(temp_export_dir, constants.EXTRA_ASSETS_DIRECTORY.encode("utf-8"))
        for dest_relative, source in assets_extra.items():
            dest = os.path.join(extra_dir, os.fsencode(dest_relative))
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with open(source, "rb") as src, open(dest, "wb") as out:
                out.write(src.read())
    os.rename(temp_export_dir, export_dir)
    return export_dir
