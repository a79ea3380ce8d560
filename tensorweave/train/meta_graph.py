"""Meta graphs: TensorFlow's `MetaGraphDef` protocol buffer (`tf.train.export_meta_graph`,
`tf.train.import_meta_graph`, the `.meta` file `Saver.save` writes), read and written as TF does.

A `MetaGraphDef` holds:

- `meta_info_def`: tags, `tensorflow_version` (the TF API tensorweave implements) and
  `tensorflow_git_version` (`tensorweave-<version>`);
- `graph_def`: the graph as `Graph.as_graph_def(add_shapes=True)` writes it (`graph_io`);
- `saver_def`: the `SaverDef` of the saver (save/restore op names, max_to_keep, sharded, V2);
- `collection_def`: variables (`VariableDef`s as bytes in the variable collections and
  `global_step`), savers (`SaverDef` bytes), tensors and ops (`node_list`), Python ints, floats
  and strings (`int64_list`, `float_list`, `bytes_list`) and `Any` protos (`any_list`). A collection
  holding anything else is skipped with TF's warning.

tensorweave-only ops. An op a `GraphDef` cannot express (the function graphs of `tf.cond` /
`tf.while_loop`, Python objects) is written by `graph_io` as op type `Tensorweave<type>`, so
TensorFlow refuses it as an unregistered op; its full description is kept in the node's attribute
`_tensorweave_node` (JSON data: inputs, attributes as tagged values, the function graphs it holds,
never code) and tensorweave rebuilds it. A py_func records its function's `module:qualname` in
`_tensorweave_py_func`, a `tf.custom_op` node its declaring module in `_tensorweave_custom_op`,
a gradient override its type in `_tensorweave_grad_type` (TF ignores attributes starting with "_").

Reading never runs code the file names: importing a module runs it, and a py_func calls its
function. So a py_func's function is resolved again, and the module of a custom op type that is
not registered imported, only for modules the caller trusts (`trusted_modules`); any other module
named by the file makes the import fail with an error naming the op and the module, before anything
is imported. A trusted module gives only functions defined in it, by their own qualified name (not
`os.system` reached through its globals). Ops whose attrs cannot be written (Python objects such as
a dataset) are recorded with the reason; importing rebuilds each as an "Unrestorable" op with the
same name, outputs and control inputs, which raises UnimplementedError naming the op and the reason
if it runs. A damaged file raises `DataLossError` naming it.
"""

import base64
import contextlib
import importlib
import inspect
import json
import math
import re

import numpy as np

from .. import tf_logging as logging
from ..framework import dtypes, errors, ops, registry, versions
from ..framework.tensor_shape import TensorShape
from ..graph_io import graph_def as _gd
from ..ops import custom_op, io_ops, tensor_bundle
from ..ops.summary_ops import proto_module
from ..ops.tf_op_signatures import SIGNATURES
from ..platform import gfile
from ..summary.messages import LazyMessageClass

__all__ = ["MetaGraphDef", "SaverDef", "TensorInfo", "export_scoped_meta_graph", "import_scoped_meta_graph",
           "read_meta_graph_file", "parse_meta_graph"]

MetaGraphDef = LazyMessageClass("meta_graph_pb2", "MetaGraphDef")
SaverDef = LazyMessageClass("saver_pb2", "SaverDef")
TensorInfo = LazyMessageClass("meta_graph_pb2", "TensorInfo")

_PY_FUNC_OPS = ("PyFunc", "PyFuncStateless", "EagerPyFunc")
_ATTR_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*\Z")
NODE_ATTR = "_tensorweave_node"
PY_FUNC_ATTR = "_tensorweave_py_func"
CUSTOM_OP_ATTR = "_tensorweave_custom_op"
GRAD_TYPE_ATTR = "_tensorweave_grad_type"
FUNCTIONS_KEY = "_tensorweave_function_graphs"
_VARIABLE_KEYS = frozenset([ops.GraphKeys.GLOBAL_VARIABLES, ops.GraphKeys.LOCAL_VARIABLES,
                            ops.GraphKeys.MODEL_VARIABLES, ops.GraphKeys.TRAINABLE_VARIABLES,
                            ops.GraphKeys.MOVING_AVERAGE_VARIABLES, ops.GraphKeys.CONCATENATED_VARIABLES,
                            ops.GraphKeys.TRAINABLE_RESOURCE_VARIABLES, ops.GraphKeys.METRIC_VARIABLES,
                            ops.GraphKeys.GLOBAL_STEP])


def _pb(name, feature="tf.train.export_meta_graph"):
    return proto_module(name, feature)


# ---- values ------------------------------------------------------------------------------------
class _Unserializable(Exception):
    pass


def _b64(b):
    return base64.b64encode(bytes(b)).decode("ascii")


def _unb64(s):
    return base64.b64decode(s.encode("ascii"))


def _encode_array(a):
    if a.dtype == object:
        items = []
        for x in a.reshape(-1):
            if isinstance(x, str):
                x = x.encode("utf-8")
            if not isinstance(x, bytes):
                raise _Unserializable("an object array holding %s" % type(x).__name__)
            items.append(_b64(x))
        return {"dtype": "string", "shape": list(a.shape), "items": items}
    a = np.asarray(a, order="C")
    if a.dtype.byteorder == ">":
        a = a.astype(a.dtype.newbyteorder("<"))
    return {"dtype": a.dtype.str, "shape": list(a.shape), "data": _b64(a.reshape(-1).view(np.uint8))}


class _Damaged(Exception):
    """What is wrong with a value of a meta graph (the importer names the file and the op)."""


_MAX_RANK = 254  # TF's TensorShape limit


def _decode_array(d):
    """The array an `$ndarray`/`$np` value holds, read-only.

    Raises:
      _Damaged: If its dtype is not a plain numeric/bool one or "string", its shape is not a list of
        non-negative sizes, or the shape disagrees with the data (checked before anything of the
        size the shape claims is allocated).
    """
    if not isinstance(d, dict):
        raise _Damaged("holds no valid array")
    shape = d.get("shape")
    if (not isinstance(shape, list) or len(shape) > _MAX_RANK
            or not all(type(n) is int and n >= 0 for n in shape)):
        raise _Damaged("has an invalid shape %s" % json.dumps(shape))
    count = math.prod(shape)
    if d.get("dtype") == "string":
        items = d.get("items")
        if not isinstance(items, list) or not all(isinstance(s, str) for s in items):
            raise _Damaged("holds no valid strings")
        if len(items) != count:
            raise _Damaged("has shape %s of string but holds %d strings" % (shape, len(items)))
        a = np.empty(len(items), dtype=object)
        for i, s in enumerate(items):
            a[i] = _unb64(s)
        a = a.reshape(shape)
    else:
        try:
            dt = np.dtype(d["dtype"]) if isinstance(d.get("dtype"), str) else None
            name = dtypes.as_dtype(dt).name if dt is not None and dt.kind in "biufc" else None
        except (TypeError, ValueError):
            name = None
        if name is None:
            raise _Damaged("has an invalid dtype %s" % json.dumps(d.get("dtype")))
        data = d.get("data")
        if not isinstance(data, str):
            raise _Damaged("holds no valid data")
        try:
            raw = _unb64(data)
        except (ValueError, UnicodeEncodeError) as e:
            raise _Damaged("holds data that is not base64 (%s)" % e) from None
        if count * dt.itemsize != len(raw):
            raise _Damaged("has shape %s of %s (%d bytes) but holds %d bytes" % (shape, name, count * dt.itemsize,
                                                                               len(raw)))
        a = np.frombuffer(raw, dtype=dt).reshape(shape)
        if dt.byteorder == "<" and not dt.isnative:
            a = a.astype(dt.newbyteorder("="))
        a = a.copy()
    a.flags.writeable = False
    return a


class _Exporter:
    """Serializes a graph, the function graphs its ops hold, and tensor references between them."""

    def __init__(self, graph, clear_devices=False, export_scope=None):
        self.root = graph
        self.clear_devices = clear_devices
        self.scope = export_scope.rstrip("/") + "/" if export_scope else None
        self.graphs = {}  # FuncGraph -> id
        self.graph_defs = {}
        self.functions = {}  # Function -> id
        self.function_defs = {}
        self.op_types = set()

    # -- names --
    def _name(self, name):
        if self.scope is None:
            return name
        if not name.startswith(self.scope):
            raise _Unserializable("'%s' is outside the export scope '%s'" % (name, self.scope[:-1]))
        return name[len(self.scope):]

    def ref(self, t, graph):
        """A tensor or op of `graph` or of a graph enclosing it, as seen from `graph`."""
        depth, g = 0, graph
        while g is not t.graph:
            g = getattr(g, "outer_graph", None)
            depth += 1
            if g is None:
                raise _Unserializable("input %s is from an unrelated graph" % t.name)
        name = self._name(t.name) if g is self.root else t.name
        return name if depth == 0 else [depth, name]

    def graph_id(self, g):
        if g is self.root:
            return "0"
        gid = self.graphs.get(g)
        if gid is None:
            gid = self.graphs[g] = str(len(self.graphs) + 1)
            self.graph_defs[gid] = None  # reserve the id before recursing
            outer = g.outer_graph
            self.graph_defs[gid] = {
                "name": g.name, "outer": self.graph_id(outer),
                "node": self.nodes(g),
                "inputs": [self.ref(t, g) for t in g.inputs],
                "outputs": [self.ref(t, g) for t in g.outputs],
                "captures": [[self.ref(o, outer), self.ref(i, g)] for o, i in g.captures.items()],
                "by_original": [[self.ref(o, outer), self.ref(i, g)] for o, i in g._by_original.items()],
            }
        return gid

    def function_id(self, fn):
        fid = self.functions.get(fn)
        if fid is None:
            fid = self.functions[fn] = str(len(self.functions))
            g = fn.graph
            self.function_defs[fid] = {"graph": self.graph_id(g), "inputs": [self.ref(t, g) for t in fn.inputs],
                                       "outputs": [self.ref(t, g) for t in fn.outputs]}
        return fid

    # -- attrs --
    def value(self, v):
        if v is None or isinstance(v, (bool, str)):
            return v
        if isinstance(v, int) and type(v) is int:
            return v
        if type(v) is float:
            return v if math.isfinite(v) else {"$float": repr(v)}
        if isinstance(v, dtypes.DType):
            return {"$dtype": v.name}
        if isinstance(v, TensorShape):
            return {"$shape": None if v.ndims is None else [d for d in v.as_list()]}
        if isinstance(v, np.ndarray):
            return {"$ndarray": _encode_array(v)}
        if isinstance(v, np.generic):
            return {"$np": _encode_array(np.asarray(v))}
        if isinstance(v, bytes):
            return {"$bytes": _b64(v)}
        if isinstance(v, list):
            return [self.value(x) for x in v]
        if isinstance(v, tuple) and not hasattr(v, "_fields"):
            return {"$tuple": [self.value(x) for x in v]}
        if isinstance(v, dict):
            return {"$dict": [[self.value(k), self.value(x)] for k, x in v.items()]}
        from ..ops.control_flow_ops import Function
        if isinstance(v, Function):
            return {"$function": self.function_id(v)}
        raise _Unserializable("a value of type %s.%s" % (type(v).__module__, type(v).__qualname__))

    # -- nodes --
    def nodes(self, g):
        out = []
        for op in g._ops:
            if self.scope is not None and g is self.root and not op.name.startswith(self.scope):
                continue
            out.append(self.node(op, g))
        return out

    def node(self, op, g):
        self.op_types.add(op.type)
        node = {"name": self._name(op.name) if g is self.root else op.name, "op": op.type,
                "output": [[t.dtype.name, self.value(t.shape)["$shape"]] for t in op._outputs]}
        try:
            node["input"] = [self.ref(t, g) for t in op._inputs]
            node["control_input"] = [self.ref(c, g) for c in op._control_inputs]
            attrs = {}
            for k, v in op._attrs.items():
                try:
                    attrs[k] = self.value(v)
                except _Unserializable as e:
                    raise _Unserializable("attr '%s' holds %s" % (k, e)) from None
            node["attr"] = attrs
            if op.type in _PY_FUNC_OPS:
                node["py_func"] = _py_func_record(op)
            module = custom_op.declaring_module(op.type)
            if module is not None:
                node["custom_op"] = module
        except _Unserializable as e:
            node["unserializable"] = str(e)
            node.pop("attr", None)
            node.pop("input", None)
            node.setdefault("control_input", [])
            return node
        if op._device and not self.clear_devices:
            node["device"] = op._device
        if op._grad_type:
            node["grad_type"] = op._grad_type
        return node


def _py_func_record(op):
    """`{"name": "module:qualname", "error": reason or None}` for the function of a py_func op."""
    func = op._graph._py_funcs.get(op._attrs.get("token"))
    if func is None:
        return {"name": "<missing>", "error": "the function is not registered in the graph"}
    module = getattr(func, "__module__", None)
    qualname = getattr(func, "__qualname__", None)
    name = "%s:%s" % (module, qualname) if module and qualname else repr(func)
    if not module or not qualname:
        return {"name": name, "error": "%s has no module-level qualified name" % type(func).__name__}
    if "<" in qualname:
        return {"name": name, "error": "lambdas and nested functions cannot be imported by name"}
    try:
        found = _resolve(module, qualname)
    except (ImportError, AttributeError) as e:
        return {"name": name, "error": "%s: %s" % (type(e).__name__, e)}
    if found is not func and not (inspect.ismethod(func) and found == func):
        return {"name": name, "error": "the name refers to another object"}
    return {"name": name, "error": None}


def _resolve(module, qualname):
    obj = importlib.import_module(module)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def _trusted_set(trusted_modules):
    """`trusted_modules` (None, a module name, or an iterable of them) as a tuple of names.

    Raises:
      TypeError: If an entry is not a string.
    """
    if trusted_modules is None:
        return ()
    if isinstance(trusted_modules, str):
        trusted_modules = [trusted_modules]
    out = tuple(trusted_modules)
    for m in out:
        if not isinstance(m, str) or not m:
            raise TypeError("trusted_modules must hold module names (non-empty strings), got %r" % (m,))
    return out


def _is_trusted(module, trusted):
    """Whether `module` is one of `trusted` or a submodule of one."""
    return isinstance(module, str) and any(module == t or module.startswith(t + ".") for t in trusted)


def _resolve_trusted(module, qualname):
    """The function `module:qualname` of a trusted module: an object defined in `module` under that
    qualified name (not one it imported, nor an attribute reached through dunder names).

    Raises:
      ImportError: If the module cannot be imported.
      AttributeError: If the name does not lead to such a function.
    """
    parts = qualname.split(".")
    if not all(p.isidentifier() and not p.startswith("__") for p in parts):
        raise AttributeError("%s:%s is not a function defined in module %s" % (module, qualname, module))
    obj = _resolve(module, qualname)
    if (not callable(obj) or getattr(obj, "__module__", None) != module
            or getattr(obj, "__qualname__", None) != qualname):
        raise AttributeError("%s:%s is not a function defined in module %s" % (module, qualname, module))
    return obj


class _UntrustedCode(ValueError):
    """The meta graph needs Python code from a module the caller did not trust (a ValueError: the
    caller decides with `trusted_modules`; the file itself may be fine)."""


@contextlib.contextmanager
def _trust_errors():
    """Marks the ValueErrors of `custom_op.import_declaring_module` as `_UntrustedCode`."""
    try:
        yield
    except _UntrustedCode:
        raise
    except ValueError as e:
        raise _UntrustedCode(str(e)) from e


def _error_text(e):
    return str(e.args[0]) if isinstance(e, KeyError) and len(e.args) == 1 else str(e)


@contextlib.contextmanager
def _content_errors(source):
    """Turns what a meta graph that parses but is damaged or inconsistent (an unknown input, a
    missing attr, shapes an op refuses, a name that is not in the graph) makes the import code
    raise into `InvalidArgumentError` naming `source`. TF's error classes and the refusal to run
    untrusted code pass unchanged."""
    try:
        yield
    except (errors.OpError, _UntrustedCode):
        raise
    except (ValueError, TypeError, LookupError, AttributeError, ArithmeticError, UnicodeError, RecursionError) as e:
        raise errors.InvalidArgumentError(None, None, "Meta graph %s cannot be imported: %s" % (
            source, _error_text(e))) from e


def _untrusted_py_func(node, module, name):
    return _UntrustedCode("Op '%s' (type %s) calls the Python function %s: importing a meta graph imports and calls "
                      "Python code only from modules the caller trusts. If this file is yours, pass "
                      "trusted_modules=['%s'] to tf.train.import_meta_graph" % (node["name"], node["op"], name, module))


def _py_func_stub(name, reason, op_name):
    def missing(*args):
        raise LookupError("py_func %s of op '%s' could not be restored from the meta graph: %s. A py_func is "
                          "restored only when its function is importable by qualified name (a module-level "
                          "function or a class attribute)." % (name, op_name, reason))
    return missing


# ---- export ------------------------------------------------------------------------------------
def _scoped(name, scope):
    """`name` ("op", "op:0" or "^op") with `scope` stripped, or None if it is outside it."""
    if scope is None:
        return name
    ctrl = "^" if name.startswith("^") else ""
    bare = name[len(ctrl):]
    return ctrl + bare[len(scope):] if bare.startswith(scope) else None


def _strip_default_attrs(node):
    sig = SIGNATURES.get(node.op)
    if sig is None:
        return
    for k, (attr_type, default) in sig[2].items():
        if k not in node.attr:
            continue
        try:
            d = _gd._default_value(default)
            v = _gd._attr_to_python(node.attr[k], attr_type)
        except (KeyError, TypeError, ValueError, _gd._Unexpressible, errors.OpError):
            continue
        if type(v) is type(d) and v == d:
            del node.attr[k]


def _export_graph_def(graph, exporter, clear_devices, strip_default_attrs):
    gd = _gd.graph_to_graph_def(graph, add_shapes=True)
    by_name = {op.name: op for op in graph.get_operations()}
    scope = exporter.scope
    keep = []
    for node in gd.node:
        op = by_name[node.name]
        if scope is not None:
            if not node.name.startswith(scope):
                continue
            inputs = []
            for inp in node.input:
                s = _scoped(inp, scope)
                if s is None:
                    raise ValueError("Op '%s' reads %s, which is outside the export scope '%s'"
                                     % (node.name, inp.lstrip("^"), scope[:-1]))
                inputs.append(s)
            node.name = node.name[len(scope):]
            del node.input[:]
            node.input.extend(inputs)
        if clear_devices:
            node.device = ""
        if node.op.startswith(_gd.UNKNOWN_PREFIX) and _gd.UNSERIALIZABLE_ATTR in node.attr:
            node.attr[NODE_ATTR].s = json.dumps(exporter.node(op, graph), allow_nan=False,
                                                separators=(",", ":")).encode("utf-8")
        else:
            if op.type in _PY_FUNC_OPS:
                node.attr[PY_FUNC_ATTR].s = json.dumps(_py_func_record(op)).encode("utf-8")
            module = custom_op.declaring_module(op.type)
            if module is not None:
                node.attr[CUSTOM_OP_ATTR].s = module.encode("utf-8")
            if op._grad_type:
                node.attr[GRAD_TYPE_ATTR].s = op._grad_type.encode("utf-8")
            if strip_default_attrs:
                _strip_default_attrs(node)
        keep.append(node)
    del gd.node[:]
    gd.node.extend(keep)
    return gd


def _variable_def(v, scope):
    variable_pb2 = _pb("variable_pb2")
    names = [_scoped(n, scope) for n in (v._variable.name, v.initializer.name, v.value().name)]
    if None in names:
        return None
    vd = variable_pb2.VariableDef(variable_name=names[0], initializer_name=names[1], snapshot_name=names[2],
                                  trainable=bool(v.trainable))
    if v.initial_value is not None:
        vd.initial_value_name = _scoped(v.initial_value.name, scope) or ""
    return vd.SerializeToString()


def _collection_def(graph, key, scope):
    """TF's `CollectionDef` of collection `key`, or None when nothing in it is in `scope`.

    Raises:
      _Unserializable: If an item has no CollectionDef representation, or items differ in kind.
    """
    from ..variables import Variable
    from .queue_runner import QueueRunner
    from .saver import Saver
    meta_graph_pb2 = _pb("meta_graph_pb2")
    from google.protobuf import any_pb2
    cd = meta_graph_pb2.CollectionDef()
    items = graph.get_collection(key)
    if key in _VARIABLE_KEYS and all(isinstance(v, Variable) for v in items):
        for v in items:
            b = _variable_def(v, scope)
            if b is not None:
                cd.bytes_list.value.append(b)
    elif key == ops.GraphKeys.QUEUE_RUNNERS and all(isinstance(q, QueueRunner) for q in items):
        for q in items:
            qd = q.to_proto(scope[:-1] if scope else None)
            if qd is not None:
                cd.bytes_list.value.append(qd.SerializeToString())
    elif key == ops.GraphKeys.SAVERS and all(isinstance(s, Saver) for s in items):
        for s in items:
            sd = s.to_proto(scope[:-1] if scope else None) if s.saver_def is not None else None
            if sd is not None:
                cd.bytes_list.value.append(sd.SerializeToString())
    else:
        kinds = set()
        for v in items:
            if isinstance(v, (Variable, ops.Tensor, ops.Operation)):
                kinds.add("node_list")
                name = _scoped(v.name, scope)
                if name is not None:
                    cd.node_list.value.append(name)
            elif isinstance(v, (bool, int, np.integer)) and not isinstance(v, np.bool_):
                kinds.add("int64_list")
                cd.int64_list.value.append(int(v))
            elif isinstance(v, (float, np.floating)):
                kinds.add("float_list")
                cd.float_list.value.append(float(v))
            elif isinstance(v, (str, bytes)):
                kinds.add("bytes_list")
                cd.bytes_list.value.append(v.encode("utf-8") if isinstance(v, str) else v)
            elif isinstance(v, any_pb2.Any):
                kinds.add("any_list")
                cd.any_list.value.add().CopyFrom(v)
            else:
                raise _Unserializable("an item of type %s" % type(v).__name__)
        if len(kinds) > 1:
            raise _Unserializable("items of different kinds (%s)" % ", ".join(sorted(kinds)))
    return cd if cd.WhichOneof("kind") is not None else None


_warned = set()


def export_scoped_meta_graph(filename=None, graph_def=None, graph=None, export_scope=None, as_text=False,
                             saver_def=None, clear_devices=False, collection_list=None, meta_info_def=None,
                             strip_default_attrs=False, **kwargs):
    """Builds the `MetaGraphDef` of `graph` (default: the default graph), its collections and
    `saver_def`, and writes it to `filename` if given (atomically).

    Args:
      filename: The file to write (binary, or protobuf text format if `as_text`).
      graph_def: A `GraphDef` to write instead of `graph`'s.
      graph: The graph (default: the default graph).
      export_scope: Export only ops under this name scope, with it stripped from names.
      as_text: Write the text format.
      saver_def: The `SaverDef` to record.
      clear_devices: Drop the ops' devices.
      collection_list: The collection keys to record (default: all).
      meta_info_def: A `MetaInfoDef` (or a dict of its fields) to start from.
      strip_default_attrs: Leave out attributes whose value is TF's default for the op.

    Returns:
      `(MetaGraphDef, var_list)`: `var_list` maps the exported variables' names to them.

    Raises:
      ValueError: If an op in `export_scope` reads a tensor outside it.
      ImportError: If the `tensorboard` extra is not installed.
    """
    from ..variables import Variable
    meta_graph_pb2 = _pb("meta_graph_pb2")
    graph = graph or ops.get_default_graph()
    exporter = _Exporter(graph, clear_devices, export_scope)
    meta = meta_graph_pb2.MetaGraphDef()
    if isinstance(meta_info_def, meta_graph_pb2.MetaGraphDef.MetaInfoDef):
        meta.meta_info_def.CopyFrom(meta_info_def)
    elif meta_info_def:
        for k, v in dict(meta_info_def).items():
            if k == "tags":
                meta.meta_info_def.tags.extend(v)
            elif k in ("meta_graph_version", "tensorflow_version", "tensorflow_git_version"):
                setattr(meta.meta_info_def, k, v)
    if not meta.meta_info_def.tensorflow_version:
        meta.meta_info_def.tensorflow_version = versions.VERSION
    if not meta.meta_info_def.tensorflow_git_version:
        meta.meta_info_def.tensorflow_git_version = versions.GIT_VERSION
    if graph_def is None:
        meta.graph_def.CopyFrom(_export_graph_def(graph, exporter, clear_devices, strip_default_attrs))
    else:
        meta.graph_def.MergeFromString(graph_def.SerializeToString())
    if exporter.graph_defs or exporter.function_defs:
        meta.collection_def[FUNCTIONS_KEY].bytes_list.value.append(json.dumps(
            {"graphs": exporter.graph_defs, "functions": exporter.function_defs}, allow_nan=False,
            separators=(",", ":")).encode("utf-8"))
    if saver_def is not None:
        meta.saver_def.CopyFrom(saver_def)
    keys = graph.get_all_collection_keys() if collection_list is None else list(collection_list)
    for key in sorted(keys):
        if key == FUNCTIONS_KEY:
            continue
        try:
            cd = _collection_def(graph, key, exporter.scope)
        except _Unserializable as e:
            if (key, str(e)) not in _warned:  # once per collection, not on every checkpoint
                _warned.add((key, str(e)))
                logging.warning("Issue encountered when serializing %s.\nType is unsupported, or the types of the "
                                "items don't match field type in CollectionDef.\n%s", key, e)
            continue
        if cd is not None:
            meta.collection_def[key].CopyFrom(cd)
    if filename:
        if as_text:
            from google.protobuf import text_format
            data = text_format.MessageToString(meta).encode("utf-8")
        else:
            data = meta.SerializeToString(deterministic=True)
        tensor_bundle.atomic_write(filename, lambda f: f.write(data))
    var_list = {}
    for v in graph.get_collection(ops.GraphKeys.GLOBAL_VARIABLES):
        if isinstance(v, Variable) and (exporter.scope is None or v.op.name.startswith(exporter.scope)):
            var_list[exporter._name(v.op.name)] = v
    return meta, var_list


# ---- import ------------------------------------------------------------------------------------
class _Importer:
    """Rebuilds the graph of a `MetaGraphDef` into `graph`: ops through the registry, function
    graphs on demand, names (possibly made unique or scoped) mapped from old to new."""

    def __init__(self, graph, graph_def, clear_devices, input_map, trusted_modules=(), source=None):
        self.root = graph
        self.trusted = trusted_modules
        self.source = source or "<MetaGraphDef>"
        self.graph_def = graph_def
        self.clear_devices = clear_devices
        self.input_map = dict(input_map or {})
        self.maps = {graph: {}}  # graph -> {old op name: new op}
        self.graphs = {"0": graph}
        self.functions = {}

    def _resolve_op(self, graph, name):
        try:
            return self.maps[graph][name]
        except KeyError:
            raise errors.DataLossError(None, None, "Meta graph %s is damaged: it references an op '%s' that is not "
                                       "defined before its use" % (self.source, name)) from None

    def tensor(self, ref, graph):
        depth, name = (0, ref) if isinstance(ref, str) else ref
        g = graph
        for _ in range(depth):
            g = g.outer_graph
        if g is self.root and depth == 0 and name in self.input_map:
            return self.input_map[name]
        op_name, sep, idx = name.rpartition(":")
        if not sep:
            return self._resolve_op(g, name)
        return self._resolve_op(g, op_name)._outputs[int(idx)]

    def op(self, ref, graph):
        depth, name = (0, ref) if isinstance(ref, str) else ref
        g = graph
        for _ in range(depth):
            g = g.outer_graph
        return self._resolve_op(g, name)

    def value(self, v):
        if isinstance(v, list):
            return [self.value(x) for x in v]
        if not isinstance(v, dict):
            return v
        (tag, x), = v.items()
        if tag == "$float":
            return float(x)
        if tag == "$dtype":
            return dtypes.as_dtype(x)
        if tag == "$shape":
            return TensorShape(x)
        if tag == "$ndarray":
            return _decode_array(x)
        if tag == "$np":
            return _decode_array(x)[()]
        if tag == "$bytes":
            return _unb64(x)
        if tag == "$tuple":
            return tuple(self.value(y) for y in x)
        if tag == "$dict":
            return {_hashable(self.value(k)): self.value(y) for k, y in x}
        if tag == "$function":
            return self.function(x)
        raise _Damaged("holds an unknown value tag %r" % (tag,))

    def function(self, fid):
        fn = self.functions.get(fid)
        if fn is None:
            from ..ops.control_flow_ops import Function
            d = self.graph_def["functions"][fid]
            g = self.func_graph(d["graph"])
            fn = self.functions[fid] = Function(g, [self.tensor(r, g) for r in d["inputs"]],
                                                [self.tensor(r, g) for r in d["outputs"]])
        return fn

    def func_graph(self, gid):
        g = self.graphs.get(gid)
        if g is not None:
            return g
        from ..framework.func_graph import FuncGraph
        d = self.graph_def["graphs"][gid]
        outer = self.func_graph(d["outer"])
        g = self.graphs[gid] = FuncGraph(d["name"], outer)
        self.maps[g] = {}
        with g.as_default():
            self.build_nodes(g, d["node"])
        g.inputs = [self.tensor(r, g) for r in d["inputs"]]
        g.outputs = [self.tensor(r, g) for r in d["outputs"]]
        for o, i in d["captures"]:
            g.captures[self.tensor(o, outer)] = self.tensor(i, g)
        for o, i in d["by_original"]:
            g._by_original[self.tensor(o, outer)] = self.tensor(i, g)
        return g

    def build_nodes(self, g, nodes):
        from ..ops import script_ops
        with g.control_dependencies(None):
            for node in nodes:
                if not isinstance(node, dict) or not isinstance(node.get("name"), str) \
                        or not isinstance(node.get("op"), str) or not isinstance(node.get("attr", {}), dict):
                    raise errors.DataLossError(None, None, "Meta graph %s holds a malformed node: %s"
                                               % (self.source, str(node)[:200]))
                if "unserializable" in node:
                    self.maps[g][node["name"]] = _unrestorable(g, node, [self.op(r, g) for r in node["control_input"]])
                    continue
                try:
                    registry.get_op_def(node["op"])
                except LookupError:
                    if "custom_op" not in node:
                        raise errors.NotFoundError(None, None, "Op type not registered '%s' in binary (needed by op "
                                                   "'%s')" % (node["op"], node["name"])) from None
                    module = node["custom_op"]
                    with _trust_errors():
                        custom_op.import_declaring_module(node["op"], module, node["name"],
                                                          trusted=_is_trusted(module, self.trusted))
                inputs = [self.tensor(r, g) for r in node["input"]]
                control = [self.op(r, g) for r in node["control_input"]]
                for k in node["attr"]:
                    if not _ATTR_NAME.match(k):
                        raise ValueError("Op '%s' (type %s) in the meta graph has an attr named %s, which is not a "
                                         "valid attr name" % (node["name"], node["op"], json.dumps(k)))
                attrs = {k: self.attr(node, k, v) for k, v in node["attr"].items()}
                if node["op"] in _PY_FUNC_OPS:
                    # Always a fresh token: one from the file could name a function of the target graph.
                    attrs["token"] = token = "pyfunc_%d" % next(script_ops._tokens)
                    g._py_funcs[token] = self.py_func(node)
                op = g._create_op(node["op"], inputs, attrs, node["name"], control)
                if not self.clear_devices and node.get("device"):
                    op._device = node["device"]
                if node.get("grad_type"):
                    op._grad_type = node["grad_type"]
                for t, (dt, shape) in zip(op._outputs, node.get("output", [])):
                    if shape is not None:
                        t.set_shape(TensorShape(shape))
                self.maps[g][node["name"]] = op

    def damaged(self, what, err):
        return errors.DataLossError(None, None, "Meta graph %s is damaged: %s %s" % (self.source, what, err))

    def attr(self, node, name, v):
        try:
            return self.value(v)
        except _Damaged as e:
            raise self.damaged("attr '%s' of op '%s'" % (name, node["name"]), e) from None

    def py_func(self, node):
        """The function of a py_func node: resolved by name in a trusted module, else a stub raising
        when run (the function could not be recorded or found).

        Raises:
          ValueError: If the node names a function of a module the caller does not trust.
        """
        record = node.get("py_func")
        if not isinstance(record, dict):
            record = {"name": "<missing>", "error": "the meta graph records no function for it"}
        name, error = str(record.get("name")), record.get("error")
        if error is None:
            module, _, qualname = name.partition(":")
            if not _is_trusted(module, self.trusted):
                raise _untrusted_py_func(node, module, name)
            try:
                return _resolve_trusted(module, qualname)
            except (ImportError, AttributeError) as e:
                error = "%s: %s" % (type(e).__name__, e)
        logging.warning("py_func %s of op '%s' cannot be restored: %s", name, node["name"], error)
        return _py_func_stub(name, error, node["name"])


# ---- Unrestorable: what stands for an op that could not be serialized ----------------------------
def _unrestorable(g, node, control_inputs):
    """An op named like the one that could not be serialized, with its output dtypes and shapes, that
    raises UnimplementedError naming it and the reason when it runs."""
    logging.warning("Op '%s' (type %s) cannot be restored from the meta graph and will fail if run: %s",
                    node["name"], node["op"], node["unserializable"])
    specs = [(dtypes.as_dtype(dt), None if shape is None else tuple(shape)) for dt, shape in node["output"]]
    return io_ops.unrestorable(g, node["name"], node["op"], node["unserializable"], specs, control_inputs)


def _hashable(v):
    return tuple(_hashable(x) for x in v) if isinstance(v, list) else v


# ---- reading -----------------------------------------------------------------------------------
_MAX_META_GRAPH_BYTES = 2 ** 31  # protobuf's limit on one message


def parse_meta_graph(data, source="<MetaGraphDef>"):
    """A `MetaGraphDef` from its binary serialization or, failing that, its text format (as TF's
    `read_meta_graph_file`).

    Raises:
      tf.errors.DataLossError: If `data` is neither, naming `source`.
    """
    from google.protobuf import message, text_format
    meta = _pb("meta_graph_pb2", "tf.train.import_meta_graph").MetaGraphDef()
    if len(data) >= _MAX_META_GRAPH_BYTES:
        raise errors.DataLossError(None, None, "Unable to parse %s as a MetaGraphDef: %d bytes is more than a "
                                   "protocol buffer holds" % (source, len(data)))
    try:
        meta.ParseFromString(data)
        return meta
    except (message.DecodeError, RuntimeError, ValueError, OverflowError) as e:
        binary_error = e
    meta.Clear()
    try:
        text_format.Parse(data.decode("utf-8"), meta)
        return meta
    except (text_format.ParseError, UnicodeDecodeError, ValueError, RuntimeError, OverflowError):
        pass
    if data.lstrip()[:40].startswith(b'{"format": "tensorweave-meta-graph"'):
        raise errors.DataLossError(None, None, "%s is a meta graph in the JSON format of earlier tensorweave "
                                   "versions: import it with such a version and export it again" % source)
    raise errors.DataLossError(None, None, "Unable to parse %s as a MetaGraphDef: %s" % (source, binary_error))


def read_meta_graph_file(filename):
    """Reads a `.meta` file: a binary or text `MetaGraphDef` (written by TensorFlow or tensorweave).

    Raises:
      OSError: If the file cannot be read.
      tf.errors.DataLossError: If it is not a MetaGraphDef (the message names the file).
    """
    with gfile.open_raw(filename, "rb", os_errors=True) as f:
        data = f.read()
    return parse_meta_graph(data, filename)


def _as_meta_graph(meta_graph_or_file):
    """`(MetaGraphDef, source)` of a message or a path."""
    meta_graph_pb2 = _pb("meta_graph_pb2", "tf.train.import_meta_graph")
    if isinstance(meta_graph_or_file, meta_graph_pb2.MetaGraphDef):
        return meta_graph_or_file, "<MetaGraphDef>"
    if type(meta_graph_or_file).__name__ == "MetaGraphDef" and hasattr(meta_graph_or_file, "SerializeToString"):
        return parse_meta_graph(meta_graph_or_file.SerializeToString()), "<MetaGraphDef>"
    if isinstance(meta_graph_or_file, (str, bytes)) or hasattr(meta_graph_or_file, "__fspath__"):
        return read_meta_graph_file(meta_graph_or_file), str(meta_graph_or_file)
    raise TypeError("meta_graph_or_file must be a MetaGraphDef or the path of a .meta file, got %s"
                    % type(meta_graph_or_file).__name__)


# ---- import ------------------------------------------------------------------------------------
class _NodeImporter(_gd._GraphDefImporter):
    """graph_io's GraphDef importer, with tensorweave's own records: Tensorweave<type> nodes rebuilt
    from their JSON description, py_funcs and custom op types (trusted modules only), gradient
    overrides and the static shapes of `_output_shapes`."""

    def __init__(self, graph, graph_def, input_map, source, tw, clear_devices):
        super().__init__(graph, graph_def, input_map, source)
        self.tw = tw
        self.clear_devices = clear_devices

    def check_types(self, nodes):
        unknown = {}
        for node in nodes:
            if NODE_ATTR in node.attr:
                continue
            if _gd.UNSERIALIZABLE_ATTR in node.attr:
                raise ValueError("Op '%s' of type %s in %s cannot be imported: %s" % (
                    node.name, node.op, self.source, _gd._text(node.attr[_gd.UNSERIALIZABLE_ATTR].s)))
            try:
                registry.get_op_def(node.op)
            except LookupError:
                if CUSTOM_OP_ATTR in node.attr:
                    module = _gd._text(node.attr[CUSTOM_OP_ATTR].s)
                    with _trust_errors():
                        custom_op.import_declaring_module(node.op, module, node.name,
                                                          trusted=_is_trusted(module, self.tw.trusted))
                else:
                    unknown.setdefault(node.op, node.name)
        if unknown:
            raise errors.NotFoundError(None, None, "Op type not registered %s in binary running on tensorweave "
                                       "(needed by %s)" % (", ".join("'%s'" % t for t in sorted(unknown)),
                                ", ".join("op '%s'" % unknown[t] for t in sorted(unknown))))

    def _record(self, node):
        try:
            record = json.loads(node.attr[NODE_ATTR].s.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            raise errors.DataLossError(None, None, "Meta graph %s is damaged: attr %s of op '%s' is not JSON (%s)"
                                       % (self.source, NODE_ATTR, node.name, e)) from None
        if not isinstance(record, dict) or record.get("name") != node.name:
            raise errors.DataLossError(None, None, "Meta graph %s holds a malformed node: %s"
                                       % (self.source, str(record)[:200]))
        return record

    def build(self, nodes):
        maps = self.tw.maps[self.graph]
        for node in nodes:
            if NODE_ATTR in node.attr:
                self.tw.build_nodes(self.graph, [self._record(node)])
                self.ops[node.name] = maps[node.name]
                continue
            inputs = [self.tensor(i) for i in node.input if not i.startswith("^")]
            control = [self.control(i) for i in node.input if i.startswith("^")]
            try:
                attrs = self.attrs(node, len(inputs))
            except errors.InvalidArgumentError as e:
                raise errors.DataLossError(None, None, "Meta graph %s is damaged: %s" % (self.source, e.message)) \
                    from None
            if node.op in _PY_FUNC_OPS:
                record = None
                if PY_FUNC_ATTR in node.attr:
                    try:
                        record = json.loads(node.attr[PY_FUNC_ATTR].s.decode("utf-8"))
                    except (UnicodeDecodeError, ValueError):
                        record = None
                # Always a fresh token: one from the file could name a function of the target graph.
                attrs["token"] = token = "pyfunc_%d" % next(_script_tokens())
                self.graph._py_funcs[token] = self.tw.py_func({"name": node.name, "op": node.op, "py_func": record})
            with self.graph.control_dependencies(None):
                op = self.graph._create_op(node.op, inputs, attrs, node.name, control)
            if node.device and not self.clear_devices:
                op._device = node.device
            if GRAD_TYPE_ATTR in node.attr:
                op._grad_type = _gd._text(node.attr[GRAD_TYPE_ATTR].s)
            shapes = node.attr["_output_shapes"].list.shape if "_output_shapes" in node.attr else ()
            for t, shape in zip(op._outputs, shapes):
                try:
                    t.set_shape(TensorShape(_gd._shape_value(shape)))
                except (ValueError, TypeError):
                    pass
            self.ops[node.name] = maps[node.name] = op


def _script_tokens():
    from ..ops import script_ops
    return script_ops._tokens


def _function_graphs(meta, source):
    if FUNCTIONS_KEY not in meta.collection_def:
        return {"graphs": {}, "functions": {}}
    values = meta.collection_def[FUNCTIONS_KEY].bytes_list.value
    try:
        d = json.loads(values[0].decode("utf-8")) if len(values) == 1 else None
    except (UnicodeDecodeError, ValueError):
        d = None
    if not isinstance(d, dict) or not isinstance(d.get("graphs"), dict) or not isinstance(d.get("functions"), dict):
        raise errors.DataLossError(None, None, "Meta graph %s is damaged: collection %s holds no valid function "
                                   "graphs" % (source, FUNCTIONS_KEY))
    return d


def import_scoped_meta_graph(meta_graph_or_file, clear_devices=False, graph=None, import_scope=None, input_map=None,
                             trusted_modules=None, **kwargs):
    """Adds the ops and collections of a meta graph to `graph` (default: the default graph).

    Args:
      meta_graph_or_file: A `MetaGraphDef` or the path of a binary or text `.meta` file.
      clear_devices: Drop the recorded devices.
      graph: The graph to import into.
      import_scope: A name scope to put the imported ops under.
      input_map: {name of a tensor in the meta graph: tensor of `graph` to use instead}.
      trusted_modules: Names of modules (a name covers its submodules) whose Python code the meta
        graph may use: the functions of py_funcs, and the modules declaring custom op types that
        are not registered yet (imported). Default: none.

    Returns:
      `(var_list, name_map)`: the imported variables by their original names, and a function
      mapping an original op or tensor name to the imported one.

    Raises:
      ValueError: If an op needs Python code from a module that is not trusted.
      TypeError: If `trusted_modules` holds something other than module names.
      tf.errors.NotFoundError: If an op type is not registered.
      tf.errors.DataLossError: If the file or a value in it (a constant, a tensorweave record, a
        collection item, a name) is damaged (checked before anything of a claimed size is
        allocated); the message names the file.
      tf.errors.InvalidArgumentError: If the graph it holds is inconsistent (an unknown input, a
        missing attr, shapes an op refuses); the message names the file.
    """
    meta, source = _as_meta_graph(meta_graph_or_file)
    source = kwargs.get("source") or source
    graph = graph or ops.get_default_graph()
    imap = {}
    for k, v in (input_map or {}).items():
        src, idx = _gd._tensor_name(k)
        imap["%s:%d" % (src, idx)] = ops.convert_to_tensor(v)
    trusted = _trusted_set(trusted_modules)
    with _content_errors(source):
        tw = _Importer(graph, _function_graphs(meta, source), clear_devices, imap, trusted, source)
        importer = _NodeImporter(graph, meta.graph_def, imap, source, tw, clear_devices)
        nodes = list(meta.graph_def.node)
        importer.check_types(nodes)
        ordered = importer.order(nodes)
        with graph.as_default(), graph.name_scope(import_scope) if import_scope else contextlib.nullcontext():
            importer.build(ordered)

    def mapped(name):
        op_name, sep, idx = name.partition(":")
        op = tw.maps[graph].get(op_name)
        if op is None:
            raise errors.DataLossError(None, None, "Meta graph %s is damaged: it names '%s', which is not in its "
                                       "graph" % (source, name))
        return op.name + sep + idx

    with _content_errors(source):
        var_list = _import_collections(graph, meta, mapped, source)
    return var_list, mapped


def _import_collections(graph, meta, mapped, source):
    from google.protobuf import message

    from ..variables import Variable
    from .saver import Saver
    variable_pb2 = _pb("variable_pb2", "tf.train.import_meta_graph")
    variables = {}
    var_list = {}
    for key in sorted(meta.collection_def):
        if key == FUNCTIONS_KEY:
            continue
        col = meta.collection_def[key]
        kind = col.WhichOneof("kind")
        if kind is None:
            logging.error("Cannot identify data type for collection %s. Skipping.", key)
            continue
        try:
            if kind == "bytes_list" and key in _VARIABLE_KEYS:
                for value in col.bytes_list.value:
                    v = variables.get(value)
                    if v is None:
                        vd = variable_pb2.VariableDef.FromString(value)
                        if vd.is_resource:
                            raise errors.UnimplementedError(None, None, "Meta graph %s holds resource variable %s: "
                                                            "tensorweave has reference variables only"
                                                            % (source, vd.variable_name))
                        v = variables[value] = _variable_from_def(graph, vd, mapped, Variable)
                        var_list[vd.variable_name.partition(":")[0]] = v
                    graph.add_to_collection(key, v)
            elif kind == "bytes_list" and key == ops.GraphKeys.QUEUE_RUNNERS:
                from .queue_runner import QueueRunner
                from .queue_runner_proto import message_class
                for value in col.bytes_list.value:
                    qd = message_class().FromString(value)
                    for field in ("queue_name", "close_op_name", "cancel_op_name"):
                        setattr(qd, field, mapped(getattr(qd, field)))
                    names = [mapped(n) for n in qd.enqueue_op_name]
                    del qd.enqueue_op_name[:]
                    qd.enqueue_op_name.extend(names)
                    with graph.as_default():
                        graph.add_to_collection(key, QueueRunner(queue_runner_def=qd))
            elif kind == "bytes_list" and key == ops.GraphKeys.SAVERS:
                for value in col.bytes_list.value:
                    sd = _pb("saver_pb2").SaverDef.FromString(value)
                    graph.add_to_collection(key, Saver(saver_def=_mapped_saver_def(sd, mapped)))
            elif kind == "node_list":
                for name in col.node_list.value:
                    graph.add_to_collection(key, graph.as_graph_element(mapped(name)))
            elif kind == "int64_list":
                for value in col.int64_list.value:
                    graph.add_to_collection(key, int(value))
            elif kind == "float_list":
                for value in col.float_list.value:
                    graph.add_to_collection(key, float(value))
            elif kind == "bytes_list":
                for value in col.bytes_list.value:
                    graph.add_to_collection(key, value)
            else:  # any_list: the Any messages themselves (e.g. saved_model_assets)
                for value in col.any_list.value:
                    graph.add_to_collection(key, value)
        except message.DecodeError as e:
            raise errors.DataLossError(None, None, "Meta graph %s is damaged: an item of collection '%s' cannot be "
                                       "parsed (%s)" % (source, key, e)) from None
    return var_list


def _mapped_saver_def(sd, mapped):
    sd.filename_tensor_name = mapped(sd.filename_tensor_name)
    sd.save_tensor_name = mapped(sd.save_tensor_name)
    sd.restore_op_name = mapped(sd.restore_op_name)
    return sd


def _variable_from_def(graph, vd, mapped, cls):
    """A `Variable` object over the imported ops of one variable (TF's `Variable(variable_def=...)`)."""
    def tensor(name):
        name = mapped(name)
        return graph.get_tensor_by_name(name if ":" in name else name + ":0")

    v = cls.__new__(cls)
    v._variable = tensor(vd.variable_name)
    v._initializer_op = graph.get_operation_by_name(mapped(vd.initializer_name))
    v._snapshot = tensor(vd.snapshot_name)
    v._initial_value = tensor(vd.initial_value_name) if vd.initial_value_name else None
    v._trainable = vd.trainable
    v._constraint = None
    v._save_slice_info = None
    return v
