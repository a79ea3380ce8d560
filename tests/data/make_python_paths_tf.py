"""Records, for the `tensorflow.python.*` modules tensorweave's `tensorweave/python/` mirrors, which
public names of each module TF exports in its v1 API and under which API names, into
tests/data/python_paths_tf.json: {"tensorflow.python.ops.array_ops": {"gather": ["gather"], ...}, ...}.
A name maps to the API names of the identical object in `tf.compat.v1` (found by walking that
namespace), so `array_ops.gather` is `tf.compat.v1.gather`; names TF does not export map to [];
a module constant (a number or string) maps to {"const": value}. Under "gen_ops", the op definitions
(inputs, outputs, attrs) and Python signatures of the gen_*_ops functions in `GEN_OPS`.
tests/python_paths/test_python_paths.py checks every name tensorweave's modules export against it.

Run with the reference environment: TF_USE_LEGACY_KERAS=1 /work/tfenv/bin/python tests/data/make_python_paths_tf.py
"""

import importlib
import inspect
import json
import os
import types

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
import tensorflow.compat.v1 as tf  # noqa: E402

MODULES = [
    "framework.ops", "framework.dtypes", "framework.tensor_shape", "framework.constant_op", "framework.graph_util",
    "framework.tensor_util", "framework.errors", "framework.errors_impl", "framework.sparse_tensor",
    "framework.random_seed", "framework.importer", "framework.test_util", "framework.function",
    "ops.array_ops", "ops.math_ops", "ops.nn_ops", "ops.nn", "ops.nn_impl", "ops.init_ops", "ops.variable_scope",
    "ops.variables", "ops.control_flow_ops", "ops.rnn_cell_impl", "ops.rnn_cell", "ops.rnn", "ops.state_ops",
    "ops.random_ops", "ops.clip_ops", "ops.embedding_ops", "ops.check_ops", "ops.tensor_array_ops",
    "ops.data_flow_ops", "ops.sparse_ops", "ops.string_ops", "ops.functional_ops", "ops.gradients",
    "ops.gradients_impl", "ops.logging_ops", "ops.image_ops", "ops.partitioned_variables", "ops.special_math_ops",
    "ops.resource_variable_ops", "ops.standard_ops", "ops.template", "ops.linalg_ops", "ops.histogram_ops",
    "ops.lookup_ops", "ops.metrics", "ops.io_ops", "ops.summary_ops_v2", "ops.losses.losses",
    "ops.gen_array_ops", "ops.gen_math_ops", "ops.gen_nn_ops", "ops.resources",
    "training.training_util", "training.moving_averages", "training.optimizer", "training.session_run_hook",
    "training.saver", "training.training", "training.basic_session_run_hooks", "training.monitored_session",
    "training.gradient_descent", "training.adam", "training.momentum", "training.learning_rate_decay",
    "training.checkpoint_utils", "training.queue_runner_impl", "training.coordinator",
    "platform.gfile", "platform.tf_logging", "platform.test", "platform.flags", "platform.app",
    "platform.resource_loader", "platform.sysconfig",
    "client.device_lib", "client.timeline", "client.session",
    "summary.summary", "util.nest", "util.compat", "lib.io.file_io", "lib.io.tf_record",
    "layers.core", "layers.layers", "layers.convolutional", "layers.normalization", "layers.pooling",
    "saved_model.loader", "saved_model.builder", "saved_model.signature_constants", "saved_model.tag_constants",
    "eager.context", "framework.graph_io", "training.input", "ops.parsing_ops", "training.checkpoint_management",
    "pywrap_tensorflow",
]


def _api_names():
    """id(object) -> the tf.compat.v1 API names of that object."""
    names, seen = {}, set()
    stack = [("", tf)]
    while stack:
        prefix, mod = stack.pop()
        if id(mod) in seen:
            continue
        seen.add(id(mod))
        for attr in dir(mod):
            if attr.startswith("_"):
                continue
            try:
                obj = getattr(mod, attr)
            except Exception:  # noqa: BLE001 (lazy loaders of optional parts)
                continue
            path = prefix + attr
            if isinstance(obj, types.ModuleType):
                if obj.__name__.startswith(("tensorflow", "tf_keras", "keras")) and path.count(".") < 4 \
                        and attr not in ("compat", "v2", "v1", "keras", "estimator", "contrib", "lite"):
                    stack.append((path + ".", obj))
                continue
            if obj is None or isinstance(obj, (int, float, str, bool, tuple)) and not inspect.isclass(obj):
                continue  # constants: identity says nothing
            names.setdefault(id(obj), []).append(path)
    return names


# The raw-op wrappers of TF's gen_*_ops modules tensorweave provides (tensorweave/python/ops/gen_*.py).
GEN_OPS = {
    "gen_math_ops": ["MatMul", "BatchMatMulV2", "Cast", "Sum", "Mean", "Max", "Min", "Prod", "ArgMax", "ArgMin",
                     "SigmoidGrad", "TanhGrad", "RsqrtGrad", "SqrtGrad", "Select", "AddV2", "RealDiv", "Neg"],
    "gen_nn_ops": ["ReluGrad", "Relu6Grad", "EluGrad", "SeluGrad", "SoftplusGrad", "MaxPoolGrad", "AvgPoolGrad",
                   "Conv2DBackpropInput", "Conv2DBackpropFilter", "BiasAddGrad", "Conv2D", "MaxPool", "AvgPool",
                   "BiasAdd", "SoftmaxCrossEntropyWithLogits", "SparseSoftmaxCrossEntropyWithLogits",
                   "FusedBatchNorm", "FusedBatchNormGrad", "LRN"],
    "gen_array_ops": ["Identity", "Reshape", "ConcatV2", "Pack", "Unpack", "Shape", "ExpandDims", "Squeeze", "Tile",
                      "Transpose", "Fill", "GatherV2", "BroadcastGradientArgs", "Pad", "Rank", "Size", "Slice",
                      "StopGradient", "ZerosLike", "OnesLike"],
}


def _gen_ops():
    """{module: {snake_name: {"op", "params": [[attr or input name, has_default, default(, Python name when
    it differs)]], "inputs": [[name, number_attr,
    type_list_attr, type_attr]], "outputs": [names], "attrs": {name: type}}}} from TF's op registry."""
    from tensorflow.python.framework import op_def_registry
    out = {}
    for module, op_types in GEN_OPS.items():
        mod = importlib.import_module("tensorflow.python.ops." + module)
        entry = out[module] = {}
        for op_type in op_types:
            snake = getattr(mod, op_type).__name__
            od = op_def_registry.get(op_type)
            params = []
            for p in inspect.signature(getattr(mod, snake)).parameters.values():
                if p.name == "name":
                    continue
                has_default = p.default is not inspect.Parameter.empty
                default = p.default if has_default else None
                if isinstance(default, tf.DType):
                    default = {"dtype": default.name}
                params.append([p.name, has_default, default])
            # TF's wrappers rename some attributes (Squeeze's squeeze_dims is axis): the Python
            # parameters after the inputs that name no attribute take the unnamed attributes in order.
            attr_names = [a.name for a in od.attr if a.type not in ("type", "list(type)") or
                          a.name not in {i.type_attr for i in od.input_arg} | {i.type_list_attr for i in od.input_arg}]
            extra_params = [p[0] for p in params[len(od.input_arg):] if p[0] not in attr_names]
            free_attrs = [a for a in attr_names if a not in [p[0] for p in params] and
                          a not in {i.number_attr for i in od.input_arg}]
            renames = dict(zip(extra_params, free_attrs))
            params = [[renames.get(p[0], p[0])] + p[1:] + ([p[0]] if p[0] in renames else []) for p in params]
            entry[snake] = {"op": op_type, "params": params,
                            "inputs": [[a.name, a.number_attr, a.type_list_attr, a.type_attr] for a in od.input_arg],
                            "outputs": [a.name for a in od.output_arg],
                            "attrs": {a.name: a.type for a in od.attr}}
    return out


def _declared_v1_names(obj):
    """The v1 API names `tf_export` gave `obj` (or an object it wraps: dispatch wrappers hide them)."""
    names = []
    for _ in range(5):
        names.extend(obj.__dict__.get("_tf_api_names_v1", ()) if hasattr(obj, "__dict__") else ())
        obj = getattr(obj, "__wrapped__", None)
        if obj is None:
            break
    return names


def main():
    api = _api_names()
    out = {}
    for m in MODULES:
        full = "tensorflow.python." + m
        try:
            mod = importlib.import_module(full)
        except ImportError as e:
            print("skip", full, e)
            continue
        entry = {}
        for attr in dir(mod):
            if attr.startswith(("_", "TV_")) or attr.endswith("_eager_fallback"):
                continue  # private names, gen modules' type variables and eager fallbacks
            obj = getattr(mod, attr)
            if isinstance(obj, types.ModuleType):
                continue
            if isinstance(obj, (bool, int, float, str)) and not inspect.isclass(obj):
                entry[attr] = {"const": obj}
            elif obj is None:
                continue
            else:
                entry[attr] = sorted(set(api.get(id(obj), [])) | set(_declared_v1_names(obj)))
        out[full] = entry
    out["gen_ops"] = _gen_ops()
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "python_paths_tf.json")
    with open(path + ".tmp", "w") as f:
        json.dump(out, f, indent=0, sort_keys=True)
    os.replace(path + ".tmp", path)
    print("wrote", path, sum(len(v) for v in out.values()), "names")


if __name__ == "__main__":
    main()
