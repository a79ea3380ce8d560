"""`save_weights` / `load_weights` in the TensorFlow checkpoint format, with tf.keras' object-based keys.

tf.keras (TF 1.15 and tf-keras 2.x, also in graph mode) saves a model's weights as an object-based
checkpoint: each variable under the path of attribute names leading to it from the model, e.g.
`layer_with_weights-0/kernel/.ATTRIBUTES/VARIABLE_VALUE` (the i-th layer that has weights, then the
name the layer gave the weight; nested models repeat the scheme), plus `_CHECKPOINTABLE_OBJECT_GRAPH`,
a serialized `TrackableObjectGraph` protocol buffer describing those objects, which TensorFlow needs
to restore the checkpoint. tensorweave writes the same keys and object graph (TF's V2 bundle layout,
through the Saver's bundle writer), so tf-keras' `load_weights` reads its checkpoints and tensorweave
reads tf-keras'. The state of a Keras optimizer that has made its variables is saved as tf-keras does
(`optimizer/iter/...`, the hyperparameters, and each slot under its variable:
`layer_with_weights-0/kernel/.OPTIMIZER_SLOT/optimizer/m/.ATTRIBUTES/VARIABLE_VALUE`); on load it is
restored into a compiled model (its training function is built to create the slots), while an
uncompiled model ignores it (tf-keras would restore it later, when the slots are created).
Checkpoints keyed by variable names (`dense/kernel`, as `tf.train.Saver` writes them) load too.
"""

import os

import numpy as np

from ...framework import errors
from ...ops import tensor_bundle
from ...train import checkpoint_management
from .. import backend as K

__all__ = ["load_weights_from_checkpoint", "save_weights_to_checkpoint"]

OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"
_SUFFIX = "/.ATTRIBUTES/VARIABLE_VALUE"


def _escape(name):
    return name.replace(".", "..").replace("/", ".S")


def _weight_name(layer, w):
    name = w.op.name if getattr(w, "op", None) is not None else w.name.split(":")[0]
    prefix = layer.name + "/"
    return name[len(prefix):] if name.startswith(prefix) else name.rsplit("/", 1)[-1]


def _checkpointed_optimizer(model):
    """The model's optimizer if it is a Keras optimizer that has made its variables (else None)."""
    optimizer = getattr(model, "optimizer", None)
    if optimizer is None or not hasattr(optimizer, "_slots") or getattr(optimizer, "_iterations", None) is None:
        return None
    return optimizer


def _children(obj, root=None):
    """The tracked children of a model, layer or optimizer as Keras names them: `[(local_name, child)]`,
    where a child is a layer, an optimizer or a variable."""
    from ..engine.network import Network
    out = []
    if isinstance(obj, Network):
        index = 0
        for i, layer in enumerate(obj.layers):
            if layer.weights:
                out.append(("layer_with_weights-%d" % index, layer))
                index += 1
            out.append(("layer-%d" % i, layer))
        if obj is root and _checkpointed_optimizer(obj) is not None:
            out.append(("optimizer", obj.optimizer))
        return out
    if hasattr(obj, "_slots"):
        return [("iter", obj._iterations)] + sorted(obj._hyper_vars.items())
    for w in list(obj._trainable_weights) + list(obj._non_trainable_weights):
        out.append((_weight_name(obj, w), w))
    for sub in obj._layers:
        names = [k for k, v in vars(obj).items() if v is sub and not k.startswith("_")]
        if names:
            out.append((names[0], sub))
    return out


def _is_variable(x):
    from ..engine.base_layer import Layer
    return not isinstance(x, Layer) and not hasattr(x, "_slots")


def _walk(model):
    """Breadth-first over the object graph (as TF numbers it): returns `(nodes, keys, slots)` where `nodes`
    is `[(object, [(local_name, node_id)])]`, `keys` maps `id(variable)` to `(variable, checkpoint key)` for
    the model's and the optimizer's own variables, and `slots` lists the optimizer's slot variables as
    `(slot, checkpoint key, original variable's node id, slot name, slot's node id)`."""
    nodes = [(model, [])]
    ids = {id(model): 0}
    paths = {id(model): ""}
    keys = {}
    queue = [model]
    while queue:
        obj = queue.pop(0)
        if _is_variable(obj):
            continue
        refs = nodes[ids[id(obj)]][1]
        for local_name, child in _children(obj, model):
            if id(child) not in ids:
                ids[id(child)] = len(nodes)
                nodes.append((child, []))
                paths[id(child)] = paths[id(obj)] + ("/" if paths[id(obj)] else "") + _escape(local_name)
                queue.append(child)
                if _is_variable(child):
                    keys[id(child)] = (child, paths[id(child)] + _SUFFIX)
            refs.append((local_name, ids[id(child)]))
    slots = []
    optimizer = _checkpointed_optimizer(model)
    if optimizer is not None:
        for (var_id, slot_name), slot in optimizer._slots.items():
            if var_id not in ids:
                continue
            key = paths[var_id] + "/.OPTIMIZER_SLOT/" + paths[id(optimizer)] + "/" + _escape(slot_name) + _SUFFIX
            slots.append((slot, key, ids[var_id], slot_name, len(nodes)))
            nodes.append((slot, []))
            keys[id(slot)] = (slot, key)
    return nodes, keys, slots


def _varint(n):
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _field(number, value):
    if isinstance(value, int):
        return _varint(number << 3) + _varint(value) if value else b""
    if isinstance(value, str):
        value = value.encode("utf-8")
    return _varint((number << 3) | 2) + _varint(len(value)) + value


def _object_graph(nodes, keys, slots):
    """The serialized `tensorflow.TrackableObjectGraph` (trackable_object_graph.proto) of `nodes`."""
    graph = b""
    for obj, refs in nodes:
        body = b""
        for local_name, node_id in refs:
            body += _field(1, _field(1, node_id) + _field(2, local_name))
        if hasattr(obj, "_slots"):
            for _, _, original_id, slot_name, slot_id in slots:
                body += _field(3, _field(1, original_id) + _field(2, slot_name) + _field(3, slot_id))
        if _is_variable(obj):
            full_name = obj.op.name if getattr(obj, "op", None) is not None else obj.name.split(":")[0]
            body += _field(2, _field(1, "VARIABLE_VALUE") + _field(2, full_name) + _field(3, keys[id(obj)][1]))
        body += _field(5, _field(1, 1))  # has_checkpoint_values: BoolValue(true)
        graph += _field(1, body)
    return graph


def save_weights_to_checkpoint(model, filepath):
    """Writes the model's weights as a TF checkpoint with object-based keys, and the `checkpoint` file.

    Args:
      model: A built model.
      filepath: The checkpoint prefix.

    Raises:
      ImportError: Without protobuf/crc32c (the `data` extra).
      OSError: If a file cannot be written (the previous checkpoint is kept).
    """
    nodes, keys, slots = _walk(model)
    variables = [v for v, _ in keys.values()]
    values = K.batch_get_value(variables)
    names = [key for _, key in keys.values()] + [OBJECT_GRAPH_KEY]
    arrays = [np.asarray(v) for v in values] + [np.array(_object_graph(nodes, keys, slots), dtype=object)]
    filepath = os.fspath(filepath)
    tensor_bundle.write_bundle(filepath, names, arrays)
    save_dir = os.path.dirname(filepath) or "."
    checkpoint_management.update_checkpoint_state_internal(save_dir=save_dir, model_checkpoint_path=filepath,
                                                           all_model_checkpoint_paths=[filepath],
                                                           save_relative_paths=True)


class CheckpointLoadStatus:
    """What a TF-format `load_weights` matched (the values are already assigned).

    `unmatched` lists the model's variables the checkpoint had no value for; `unused` the checkpoint's
    model keys (optimizer entries and the object graph aside) that no variable took.
    """

    def __init__(self, matched, unmatched, unused):
        self.matched = matched
        self.unmatched = unmatched
        self.unused = unused

    def assert_consumed(self):
        """Raises AssertionError unless every model variable and every checkpoint value matched."""
        if self.unmatched or self.unused:
            raise AssertionError("Unresolved object in checkpoint: model variables without a value: %s; "
                                 "checkpoint values not used: %s" % ([v.name for v in self.unmatched],
                                                                     sorted(self.unused)))
        return self

    def assert_existing_objects_matched(self):
        """Raises AssertionError if a model variable got no value."""
        if self.unmatched:
            raise AssertionError("Unresolved object in checkpoint: %s" % ([v.name for v in self.unmatched],))
        return self

    def assert_nontrivial_match(self):
        """Raises AssertionError if nothing matched."""
        if not self.matched:
            raise AssertionError("Nothing except the root object matched a checkpointed value. Typically this "
                                 "means that the checkpoint does not match the Python program.")
        return self

    def expect_partial(self):
        """Returns self (no warnings are printed for unused values)."""
        return self

    def run_restore_ops(self, session=None):
        """Nothing to run: the values were assigned by `load_weights`."""

    def initialize_or_restore(self, session=None):
        """Nothing to run: the values were assigned by `load_weights`."""


def _is_optimizer_key(key):
    return key.startswith("optimizer/") or "/.OPTIMIZER_SLOT/" in key or key == "save_counter" + _SUFFIX


def load_weights_from_checkpoint(model, filepath, reader):
    """Assigns the model's weights from the TF checkpoint `reader` (object-based keys, else variable names).

    Args:
      model: A built model.
      filepath: The checkpoint prefix (for messages).
      reader: A `CheckpointReader` open on it.

    Returns:
      A `CheckpointLoadStatus`.

    Raises:
      AssertionError: If no variable of the model is in the checkpoint.
      InvalidArgumentError: If a saved value's shape differs from its variable's.
    """
    names = set(reader.get_variable_to_shape_map())
    optimizer = getattr(model, "optimizer", None)
    if getattr(model, "_compiled", False) and hasattr(optimizer, "_slots") and \
            any(_is_optimizer_key(key) for key in names):
        # The slots exist once the training function is built; then the optimizer state is restored.
        model._make_train_function()
    _, keys, _ = _walk(model)
    pairs = [(v, key) for v, key in keys.values() if key in names]
    candidates = {key for key in names if key.endswith(_SUFFIX) and not _is_optimizer_key(key)}
    model_keys = {key for _, key in keys.values() if not _is_optimizer_key(key)}
    if not pairs and OBJECT_GRAPH_KEY not in names:
        pairs = [(v, v.op.name) for v, key in keys.values() if key in model_keys and v.op.name in names]
        candidates = names
    if not pairs:
        raise AssertionError("Nothing except the root object matched a checkpointed value. Typically this means "
                             "that the checkpoint does not match the Python program. Checkpoint: " + str(filepath))
    tuples = []
    for v, key in pairs:
        value = reader.get_tensor(key)
        if K.int_shape(v) != np.shape(value):
            raise errors.InvalidArgumentError(None, None, "Assign requires shapes of both tensors to match. lhs "
                                              "shape= " + str(list(K.int_shape(v))) + " rhs shape= " +
                                              str(list(np.shape(value))) + " (variable " + v.op.name +
                                              ", checkpoint key " + key + ")")
        tuples.append((v, value))
    K.batch_set_value(tuples)
    used = {key for _, key in pairs}
    matched = [v for v, _ in pairs]
    unmatched = [v for v, key in keys.values() if key in model_keys and all(v is not m for m in matched)]
    return CheckpointLoadStatus(matched, unmatched, candidates - used)
