"""Writes tensorweave/python/**: the `tensorflow.python.*` module paths TF 1.x programs import.

For each module recorded in tests/data/python_paths_tf.json (by tests/data/make_python_paths_tf.py
from TF's own modules), each public name TF exports in its v1 API (as `tf.compat.v1.<path>`) is
re-exported when tensorweave has that API path (`tensorweave.<path>`): the module imports the very
object from the tensorweave module defining it (never `tensorweave` itself: tests/test_layering.py).
Number and string constants are kept when tensorweave's namespace of the module (the API prefix most
of its functions share) holds the same value under the same name. `EXTRA` adds names TF does not
export but programs import from these modules, each taken from a named tensorweave module.

Run from the repository root: .venv/bin/python tests/python_paths/generate_modules.py
"""

import collections
import importlib
import json
import os
import sys
import types

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

import tensorweave  # noqa: E402

# TF module -> {name: "tensorweave.module:attr"} for names TF 1.15 programs import that are not in
# TF's v1 API (the same objects as TF's in meaning: checked by tests/python_paths/test_python_paths.py).
EXTRA = {
    "framework.ops": {"Tensor": "tensorweave.framework.ops:Tensor", "Operation": "tensorweave.framework.ops:Operation",
                      "Graph": "tensorweave.framework.ops:Graph"},
    "framework.tensor_util": {"constant_value": "tensorweave.framework.tensor_util:constant_value",
                              "constant_value_as_shape": "tensorweave.framework.tensor_util:constant_value_as_shape"},
    "client.timeline": {"Timeline": "tensorweave.client.timeline:Timeline"},
    # TF 1.x's variables.Variable (TF 2.x's v1 `tf.Variable` is VariableV1; in TF 1.x programs both
    # construct the graph's variable).
    "ops.variables": {"Variable": "tensorweave.variables:Variable"},
    # TF 1.x's control_flow_ops held cond, while_loop, case and Assert (TF 2.x moved them out).
    "ops.control_flow_ops": {"cond": "tensorweave.ops.control_flow_ops:cond",
                             "while_loop": "tensorweave.ops.control_flow_ops:while_loop",
                             "case": "tensorweave.ops.control_flow_ops:case",
                             "Assert": "tensorweave.ops.logging_ops:Assert"},
    "framework.graph_util": {
        "convert_variables_to_constants": "tensorweave.graph_io.graph_util:convert_variables_to_constants"},
    # TF 1.x's math_ops.reduce_* (TF's v2-signature functions: axis, keepdims, name; tensorweave's take
    # the v1 arguments too).
    "ops.math_ops": {n: "tensorweave.ops.math_reduce_ops:" + n for n in (
        "reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "reduce_all", "reduce_any",
        "reduce_logsumexp")},
    # TF 1.x's checkpoint reader (TF 2.x moved it to training.py_checkpoint_reader).
    "pywrap_tensorflow": {"NewCheckpointReader": "tensorweave.train.checkpoint_utils:NewCheckpointReader"},
    "client.session": {"Session": "tensorweave.client.session:Session",
                       "InteractiveSession": "tensorweave.client.session:InteractiveSession"},
}

# TF module -> the tensorweave namespace holding its names (where TF's own v1 API objects are other
# objects than the module's, e.g. TF 2.x's tf.compat.v1.layers comes from tf_keras): every name of the
# TF module found in that namespace is re-exported; constants are looked up there too.
NAMESPACE = {"ops.rnn_cell_impl": "nn.rnn_cell", "ops.rnn_cell": "nn.rnn_cell", "layers.core": "layers",
             "layers.layers": "layers", "layers.convolutional": "layers", "layers.pooling": "layers",
             "saved_model.signature_constants": "saved_model.signature_constants",
             "saved_model.tag_constants": "saved_model.tag_constants"}
EXTRA.update({
    "ops.rnn_cell_impl": {"assert_like_rnncell": "tensorweave.nn.rnn_cell_impl:assert_like_rnncell"},
    "layers.normalization": {"BatchNormalization": "tensorweave.layers.normalization:BatchNormalization",
                             "batch_normalization": "tensorweave.layers.normalization:batch_normalization"},
    "layers.base": {"Layer": "tensorweave.layers.base:Layer", "InputSpec": "tensorweave.layers.base:InputSpec"},
})

# TF module -> the tensorweave module implementing it: names of TF's module that TF does not export
# (`moving_averages.assign_moving_average`) are re-exported when that module defines them.
MIRROR = {"training.moving_averages": "tensorweave.train.moving_averages",
          "training.training_util": "tensorweave.train.training_util",
          "training.optimizer": "tensorweave.train.optimizer",
          "training.session_run_hook": "tensorweave.train.session_run_hook",
          "training.basic_session_run_hooks": "tensorweave.train.basic_session_run_hooks",
          "training.monitored_session": "tensorweave.train.monitored_session",
          "training.saver": "tensorweave.train.saver", "training.coordinator": "tensorweave.train.coordinator",
          "training.checkpoint_utils": "tensorweave.train.checkpoint_utils",
          "training.queue_runner_impl": "tensorweave.train.queue_runner",
          "framework.ops": "tensorweave.framework.ops", "framework.dtypes": "tensorweave.framework.dtypes",
          "framework.tensor_shape": "tensorweave.framework.tensor_shape",
          "framework.tensor_util": "tensorweave.framework.tensor_util",
          "framework.constant_op": "tensorweave.framework.constant_op",
          "framework.sparse_tensor": "tensorweave.framework.sparse_tensor",
          "framework.errors_impl": "tensorweave.framework.errors",
          "ops.rnn": "tensorweave.nn.rnn", "ops.rnn_cell_impl": "tensorweave.nn.rnn_cell_impl",
          "ops.init_ops": "tensorweave.ops.init_ops", "ops.control_flow_ops": "tensorweave.ops.control_flow_ops",
          "ops.state_ops": "tensorweave.ops.state_ops", "ops.clip_ops": "tensorweave.ops.clip_ops",
          "ops.embedding_ops": "tensorweave.ops.embedding_ops", "ops.variable_scope": "tensorweave.variable_scopes",
          "ops.variables": "tensorweave.variables", "platform.tf_logging": "tensorweave.tf_logging",
          "client.timeline": "tensorweave.client.timeline"}

# Modules written with hand-made content on top of the generated names (see those files).
HANDWRITTEN = {"client.device_lib"}


def _index():
    """id(object) -> [(module name, attribute)] over tensorweave's loaded library modules."""
    index = collections.defaultdict(list)
    for name, mod in sorted(sys.modules.items()):
        if not name.startswith("tensorweave.") or name.startswith(("tensorweave.compat", "tensorweave.python")):
            continue
        if not isinstance(mod, types.ModuleType):
            continue
        for attr, value in list(vars(mod).items()):
            if attr.startswith("__") or isinstance(value, (types.ModuleType, bool, int, float, str, bytes, type(None))):
                continue
            index[id(value)].append((name, attr))
    return index


def _resolve(path):
    obj = tensorweave
    for part in path.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            return None
    return obj


def _source(obj, index, wanted):
    places = index.get(id(obj), [])
    if not places:
        return None
    home = getattr(obj, "__module__", None)

    def rank(place):
        mod, attr = place
        return (mod != home, attr != getattr(obj, "__name__", None), attr != wanted, mod.endswith("_ns"),
                len(mod), mod, attr)
    return min(places, key=rank)


def _relative(from_module, target_module):
    depth = from_module.count(".")  # tensorweave.python.ops.array_ops -> 3 levels up to tensorweave
    return "." * depth + target_module[len("tensorweave."):]


def _gen_compatible(spec):
    """Whether tensorweave's kernel of `spec["op"]` takes TF's inputs and only TF's attributes."""
    import inspect

    from tensorweave.framework.registry import get_op_def
    try:
        kernel = get_op_def(spec["op"]).kernel
    except KeyError:
        return False
    params = [p for p in inspect.signature(kernel).parameters.values() if p.name not in ("xp", "ctx", "op")]
    inputs = [p for p in params if p.name not in spec["attrs"]]
    if any(p.kind == p.VAR_POSITIONAL for p in inputs):
        return len([p for p in inputs if p.kind != p.VAR_POSITIONAL]) < len(spec["inputs"])
    return len(inputs) == len(spec["inputs"])


def _gen_lines(gen_specs, taken):
    lines, names = [], []
    for snake, spec in sorted(gen_specs.items()):
        if snake in taken:
            continue
        if not _gen_compatible(spec):
            print("gen wrapper not compatible:", snake)
            continue
        lines.append("%s = wrap(%r, %r)" % (snake, snake, spec))
        names.append(snake)
    return lines, names


def generate(tf_json):
    index = _index()
    written = {}
    gen_ops = tf_json.pop("gen_ops")
    for extra in EXTRA:
        tf_json.setdefault("tensorflow.python." + extra, {})
    for tf_module, names in sorted(tf_json.items()):
        short = tf_module[len("tensorflow.python."):]
        tw_module = "tensorweave.python." + short
        imports, consts, prefixes = collections.defaultdict(list), {}, collections.Counter()
        chosen = {}
        for name, api in sorted(names.items()):
            if isinstance(api, dict):
                continue
            for path in sorted(api, key=lambda p: (p.rsplit(".", 1)[-1] != name, p.count("."), p)):
                obj = _resolve(path)
                if obj is None:
                    continue
                src = _source(obj, index, path.rsplit(".", 1)[-1])
                if src is None:
                    continue
                chosen[name] = src
                prefixes[path.rsplit(".", 1)[0] if "." in path else ""] += 1
                break
        ns = _resolve(NAMESPACE[short]) if short in NAMESPACE else None
        for name, api in sorted(names.items()):
            if ns is None or name in chosen or isinstance(api, dict) or not hasattr(ns, name):
                continue
            src = _source(getattr(ns, name), index, name)
            if src is not None:
                chosen[name] = src
        mirror = importlib.import_module(MIRROR[short]) if short in MIRROR else None
        for name, api in sorted(names.items()):
            value = getattr(mirror, name, None)
            if mirror is None or name in chosen or isinstance(api, dict) or value is None:
                continue
            if getattr(value, "__module__", None) == mirror.__name__ and not isinstance(value, types.ModuleType):
                chosen[name] = (mirror.__name__, name)
                print("mirror:", short, name)
        for name, spec in EXTRA.get(short, {}).items():
            mod, attr = spec.split(":")
            getattr(importlib.import_module(mod), attr)
            chosen[name] = (mod, attr)
        if prefixes or ns is not None:
            namespace = ns if ns is not None else (
                _resolve(prefixes.most_common(1)[0][0]) if prefixes.most_common(1)[0][0] else tensorweave)
            for name, api in sorted(names.items()):
                if isinstance(api, dict) and namespace is not None and name not in chosen:
                    value = getattr(namespace, name, None)
                    if type(value) is type(api["const"]) and value == api["const"]:
                        consts[name] = value
        gen_lines, gen_names = _gen_lines(gen_ops.get(short.rsplit(".", 1)[-1], {}), chosen)
        if not chosen and not consts and not gen_lines:
            continue
        for name, (mod, attr) in chosen.items():
            imports[mod].append((attr, name))
        lines = ['"""`%s` (TF 1.x\'s module path):' % tf_module,
                 "the names of TF's module that tensorweave implements.",
                 "",
                 "Generated by tests/python_paths/generate_modules.py from tests/data/python_paths_tf.json.",
                 '"""', ""]
        for mod in sorted(imports):
            rel = _relative(tw_module, mod)
            parts = sorted("%s as %s" % (a, n) if a != n else a for a, n in imports[mod])
            line = "from %s import " % rel
            body = ", ".join(parts)
            if len(line) + len(body) <= 120:
                lines.append(line + body)
            else:
                lines.append(line + "(")
                cur = "    "
                for p in parts:
                    if len(cur) + len(p) + 2 > 120:
                        lines.append(cur.rstrip())
                        cur = "    "
                    cur += p + ", "
                lines.append(cur.rstrip())
                lines.append(")")
        if gen_lines:
            lines.append("from ._gen_op_wrapper import wrap")
            lines.append("")
            lines.append("# TF's raw wrappers of these ops (not in TF's API), built from TF's op definitions:")
            for line in gen_lines:
                lines.append(line + "  # noqa: E501")
        if consts:
            lines.append("")
            for name, value in sorted(consts.items()):
                lines.append("%s = %r" % (name, value))
        all_names = sorted(set(chosen) | set(consts) | set(gen_names))
        lines.append("")
        lines.append("__all__ = [")
        cur = "    "
        for n in all_names:
            item = '"%s", ' % n
            if len(cur) + len(item) > 120:
                lines.append(cur.rstrip())
                cur = "    "
            cur += item
        lines.append(cur.rstrip())
        lines.append("]")
        written[short] = "\n".join(lines) + "\n"
    return written


def main():
    with open(os.path.join(ROOT, "tests", "data", "python_paths_tf.json")) as f:
        tf_json = json.load(f)
    written = generate(tf_json)
    base = os.path.join(ROOT, "tensorweave", "python")
    packages = set()
    for short, text in written.items():
        if short in HANDWRITTEN:
            continue
        parts = short.split(".")
        for i in range(1, len(parts)):
            packages.add(tuple(parts[:i]))
        path = os.path.join(base, *parts) + ".py"
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path + ".tmp", "w") as f:
            f.write(text)
        os.replace(path + ".tmp", path)
    for pkg in sorted(packages):
        init = os.path.join(base, *pkg, "__init__.py")
        if not os.path.exists(init):
            with open(init, "w") as f:
                f.write('"""`tensorflow.python.%s` (TF 1.x\'s package path); its modules load on import."""\n'
                        % ".".join(pkg))
    import subprocess
    subprocess.run([os.path.join(ROOT, ".venv", "bin", "ruff"), "check", "-q", "--fix", base], check=False)
    print("wrote %d modules: %s" % (len(written), " ".join(sorted(written))))
    recorded = {k[len("tensorflow.python."):] for k in tf_json}
    skipped = sorted("tensorflow.python." + s for s in recorded - set(written))
    print("no tensorweave names for:", skipped)


if __name__ == "__main__":
    main()
