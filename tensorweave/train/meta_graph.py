"""Meta graphs: a graph of registered ops, its collections and its saver, written to a `.meta` file
and rebuilt by `tf.train.import_meta_graph`.

The `.meta` file is UTF-8 JSON:

    {"format": "tensorweave-meta-graph", "version": 1,
     "meta_info_def": {"tensorweave_version": ..., "stripped_op_list": [op types]},
     "graph_def": {"node": [node, ...], "graphs": {id: function graph}, "functions": {id: function}},
     "saver_def": {...} or null, "collection_def": {key: [item, ...]}}

A node is `{"name", "op", "input", "control_input", "device", "attr", "output"}`: inputs name
tensors "op:index" (or `[depth, "op:index"]` for a tensor of the graph `depth` levels out, from
a cond/while function graph), `output` holds each output's dtype and static shape (refined
shapes survive), attrs are JSON with tagged values (`{"$dtype": "float32"}`, `{"$tuple": [...]}`,
`{"$ndarray": {...}}`, `{"$function": id}` for the traced bodies of cond/while_loop, ...).
A py_func records its function's qualified name `module:qualname`; a `tf.custom_op` node records
the module that declared its type (`"custom_op": module`).

Reading a meta graph never runs code the file names: importing a module runs it, and a py_func
calls its function. So a py_func's function is resolved again, and the module of a custom op type
that is not registered imported, only for modules the caller trusts (`trusted_modules`); any other
module named by the file makes the import fail with an error naming the op and the module, before
anything is imported. A trusted module gives only functions defined in it, by their own qualified
name (not `os.system` reached through its globals).
Ops whose attrs cannot be written (Python objects such as a dataset) are recorded with the reason;
importing rebuilds each as an "Unrestorable" op with the same name, outputs and control inputs,
which raises UnimplementedError naming the op and the reason if it runs, so the rest of the graph
stays usable.
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
from ..framework import dtypes, errors, ops, registry
from ..framework.tensor_shape import TensorShape
from ..framework.versions import __version__
from ..ops import custom_op, io_ops, tensor_bundle

__all__ = ["MetaGraphDef", "SaverDef", "export_scoped_meta_graph", "import_scoped_meta_graph",
           "read_meta_graph_file"]

FORMAT = "tensorweave-meta-graph"
VERSION = 1
_PY_FUNC_OPS = ("PyFunc", "PyFuncStateless", "EagerPyFunc")
_ATTR_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*\Z")


class SaverDef:
    """TF's `SaverDef` message: the names a `Saver` runs, and its settings."""

    V1 = 1
    V2 = 2

    def __init__(self, filename_tensor_name="", save_tensor_name="", restore_op_name="", max_to_keep=0,
                 sharded=False, keep_checkpoint_every_n_hours=0.0, version=2):
        self.filename_tensor_name = filename_tensor_name
        self.save_tensor_name = save_tensor_name
        self.restore_op_name = restore_op_name
        self.max_to_keep = max_to_keep
        self.sharded = sharded
        self.keep_checkpoint_every_n_hours = keep_checkpoint_every_n_hours
        self.version = version

    def to_dict(self):
        return dict(vars(self))

    @classmethod
    def from_dict(cls, d):
        return cls(**d)

    def CopyFrom(self, other):  # noqa: N802 (protobuf's name)
        self.__dict__.update(vars(other))

    def __eq__(self, other):
        return isinstance(other, SaverDef) and vars(self) == vars(other)

    def __repr__(self):
        return "SaverDef(%s)" % ", ".join("%s=%r" % kv for kv in vars(self).items())


class MetaGraphDef:
    """TF's `MetaGraphDef`, as plain data: `meta_info_def`, `graph_def` and `collection_def` dicts
    and a `SaverDef` (or None)."""

    def __init__(self, meta_info_def=None, graph_def=None, saver_def=None, collection_def=None):
        self.source = None  # the file it was read from, for messages
        self.meta_info_def = meta_info_def or {}
        self.graph_def = graph_def or {"node": [], "graphs": {}, "functions": {}}
        self.saver_def = saver_def
        self.collection_def = collection_def or {}

    def HasField(self, name):  # noqa: N802 (protobuf's name)
        return getattr(self, name, None) not in (None, {}, [])

    def to_dict(self):
        return {"format": FORMAT, "version": VERSION, "meta_info_def": self.meta_info_def,
                "graph_def": self.graph_def, "saver_def": self.saver_def.to_dict() if self.saver_def else None,
                "collection_def": self.collection_def}

    def SerializeToString(self, as_text=False):  # noqa: N802 (protobuf's name)
        return json.dumps(self.to_dict(), indent=1 if as_text else None, sort_keys=False,
                          allow_nan=False).encode("utf-8")

    @classmethod
    def FromString(cls, data):  # noqa: N802 (protobuf's name)
        """Parses a serialized meta graph.

        Raises:
          ValueError: If `data` is not a tensorweave meta graph.
        """
        try:
            d = json.loads(data.decode("utf-8") if isinstance(data, bytes) else data)
        except (ValueError, UnicodeDecodeError) as e:
            raise ValueError("Not a tensorweave meta graph (%s); MetaGraphDefs written by TensorFlow itself cannot "
                             "be read." % e) from None
        if not isinstance(d, dict) or d.get("format") != FORMAT:
            raise ValueError("Not a tensorweave meta graph; MetaGraphDefs written by TensorFlow itself cannot be "
                             "read.")
        if d.get("version", 0) > VERSION:
            raise ValueError("Meta graph format version %s is newer than this reader (%d)" % (d["version"], VERSION))
        saver = d.get("saver_def")
        return cls(d.get("meta_info_def"), d.get("graph_def"), SaverDef.from_dict(saver) if saver else None,
                   d.get("collection_def"))


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


def _untrusted_py_func(node, module, name):
    return ValueError("Op '%s' (type %s) calls the Python function %s: importing a meta graph imports and calls "
                      "Python code only from modules the caller trusts. If this file is yours, pass "
                      "trusted_modules=['%s'] to tf.train.import_meta_graph" % (node["name"], node["op"], name, module))


def _py_func_stub(name, reason, op_name):
    def missing(*args):
        raise LookupError("py_func %s of op '%s' could not be restored from the meta graph: %s. A py_func is "
                          "restored only when its function is importable by qualified name (a module-level "
                          "function or a class attribute)." % (name, op_name, reason))
    return missing


def _collection_items(graph, key, exporter):
    from ..variables import Variable
    from .saver import Saver
    items = []
    for v in graph.get_collection(key):
        if isinstance(v, Variable):
            items.append({"variable": {"variable_name": exporter._name(v.op.name),
                                       "initializer_name": exporter._name(v.initializer.name),
                                       "snapshot_name": exporter._name(v.value().name),
                                       "initial_value_name": exporter._name(v.initial_value.name),
                                       "trainable": bool(v.trainable)}})
        elif isinstance(v, ops.Tensor):
            items.append({"tensor": exporter._name(v.name)})
        elif isinstance(v, ops.Operation):
            items.append({"operation": exporter._name(v.name)})
        elif isinstance(v, Saver):
            sd = v.saver_def
            if sd is None:
                continue
            items.append({"saver": {**sd.to_dict(), "filename_tensor_name": exporter._name(sd.filename_tensor_name),
                                    "save_tensor_name": exporter._name(sd.save_tensor_name),
                                    "restore_op_name": exporter._name(sd.restore_op_name)}})
        elif isinstance(v, (bool, int, float, str, bytes, np.generic)):
            items.append({"value": exporter.value(v)})
        else:
            raise _Unserializable("an item of type %s" % type(v).__name__)
    return items


_warned = set()


def export_scoped_meta_graph(filename=None, graph_def=None, graph=None, export_scope=None, as_text=False,
                             saver_def=None, clear_devices=False, collection_list=None, meta_info_def=None,
                             **kwargs):
    """Serializes `graph` (default: the default graph) with its collections and `saver_def`.

    Returns:
      `(MetaGraphDef, var_list)`: `var_list` maps the exported variables' names to them.

    Raises:
      ValueError: If an op in `export_scope` reads a tensor outside it.
    """
    from ..variables import Variable
    graph = graph or ops.get_default_graph()
    exporter = _Exporter(graph, clear_devices, export_scope)
    if graph_def is None:
        nodes = exporter.nodes(graph)
        bad = [n for n in nodes if "unserializable" in n and "outside the export scope" in n["unserializable"]]
        if bad:
            raise ValueError("Op '%s%s' reads %s" % (exporter.scope, bad[0]["name"], bad[0]["unserializable"]))
        graph_def = {"node": nodes, "graphs": exporter.graph_defs, "functions": exporter.function_defs}
    collection_def = {}
    keys = graph.get_all_collection_keys() if collection_list is None else list(collection_list)
    for key in keys:
        try:
            items = _collection_items(graph, key, exporter)
        except _Unserializable as e:
            if (key, str(e)) not in _warned:  # once per collection, not on every checkpoint
                _warned.add((key, str(e)))
                logging.warning("Issue encountered when serializing %s.\nType is unsupported, or the types of the "
                                "items don't match field type in CollectionDef.\n%s", key, e)
            continue
        if items:
            collection_def[key] = items
    info = {"tensorweave_version": __version__, "stripped_op_list": sorted(exporter.op_types),
            "any_info": None, "tags": []}
    info.update(meta_info_def or {})
    meta = MetaGraphDef(info, graph_def, saver_def, collection_def)
    if filename:
        data = meta.SerializeToString(as_text=as_text)
        tensor_bundle.atomic_write(filename, lambda f: f.write(data))
    var_list = {}
    for v in graph.get_collection(ops.GraphKeys.GLOBAL_VARIABLES):
        if isinstance(v, Variable) and (exporter.scope is None or v.op.name.startswith(exporter.scope)):
            var_list[exporter._name(v.op.name)] = v
    return meta, var_list


def read_meta_graph_file(filename):
    """Reads a `.meta` file written by `export_meta_graph`.

    Raises:
      OSError: If the file cannot be read.
      ValueError: If it is not a tensorweave meta graph.
    """
    with open(filename, "rb") as f:
        meta = MetaGraphDef.FromString(f.read())
    meta.source = filename
    return meta


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
            raise ValueError("Meta graph references an op '%s' that is not defined before its use" % name) from None

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
        raise ValueError("Unknown attr value tag %r in meta graph" % tag)

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
                    raise ValueError("Meta graph %s holds a malformed node: %s" % (self.source, str(node)[:200]))
                if "unserializable" in node:
                    self.maps[g][node["name"]] = _unrestorable(g, node, [self.op(r, g) for r in node["control_input"]])
                    continue
                try:
                    registry.get_op_def(node["op"])
                except LookupError:
                    if "custom_op" not in node:
                        raise ValueError("Op type not registered '%s' in binary (needed by op '%s')"
                                         % (node["op"], node["name"])) from None
                    module = node["custom_op"]
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


def import_scoped_meta_graph(meta_graph_or_file, clear_devices=False, graph=None, import_scope=None, input_map=None,
                             trusted_modules=None, **kwargs):
    """Adds the ops and collections of a meta graph to `graph` (default: the default graph).

    Args:
      meta_graph_or_file: A `MetaGraphDef` or the path of a `.meta` file.
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
      ValueError: If an op type is not registered, a node is malformed, or an op needs Python code
        from a module that is not trusted.
      TypeError: If `trusted_modules` holds something other than module names.
      tf.errors.DataLossError: If a value (a constant) is damaged: an invalid dtype, or a shape
        that disagrees with its data (checked before anything of that size is allocated).
    """
    meta = meta_graph_or_file if isinstance(meta_graph_or_file, MetaGraphDef) else \
        read_meta_graph_file(meta_graph_or_file)
    graph = graph or ops.get_default_graph()
    importer = _Importer(graph, meta.graph_def, clear_devices, input_map, _trusted_set(trusted_modules),
                         getattr(meta, "source", None))
    with graph.as_default(), graph.name_scope(import_scope) if import_scope else contextlib.nullcontext():
        importer.build_nodes(graph, meta.graph_def.get("node", []))

    def mapped(name):
        op_name, sep, idx = name.partition(":")
        op = importer.maps[graph][op_name]
        return op.name + sep + idx

    var_list = _import_collections(graph, meta.collection_def, mapped, importer)
    return var_list, mapped


def _import_collections(graph, collection_def, mapped, importer):
    from ..variables import Variable
    from .saver import Saver
    variables = {}
    var_list = {}
    for key, items in collection_def.items():
        for item in items:
            (kind, value), = item.items()
            if kind == "variable":
                name = value["variable_name"]
                v = variables.get(name)
                if v is None:
                    v = variables[name] = _variable_from_def(graph, value, mapped, Variable)
                    var_list[name] = v
                graph.add_to_collection(key, v)
            elif kind == "tensor":
                graph.add_to_collection(key, graph.get_tensor_by_name(mapped(value)))
            elif kind == "operation":
                graph.add_to_collection(key, graph.get_operation_by_name(mapped(value)))
            elif kind == "saver":
                graph.add_to_collection(key, Saver(saver_def=_mapped_saver_def(SaverDef.from_dict(value), mapped)))
            elif kind == "value":
                try:
                    graph.add_to_collection(key, importer.value(value))
                except _Damaged as e:
                    raise importer.damaged("an item of collection '%s'" % key, e) from None
    return var_list


def _mapped_saver_def(sd, mapped):
    sd.filename_tensor_name = mapped(sd.filename_tensor_name)
    sd.save_tensor_name = mapped(sd.save_tensor_name)
    sd.restore_op_name = mapped(sd.restore_op_name)
    return sd


def _variable_from_def(graph, d, mapped, cls):
    """A `Variable` object over the imported ops of one variable (TF's `Variable(variable_def=...)`)."""
    v = cls.__new__(cls)
    v._variable = graph.get_operation_by_name(mapped(d["variable_name"]))._outputs[0]
    v._initializer_op = graph.get_operation_by_name(mapped(d["initializer_name"]))
    v._snapshot = graph.get_tensor_by_name(mapped(d["snapshot_name"]))
    v._initial_value = graph.get_tensor_by_name(mapped(d["initial_value_name"]))
    v._trainable = d["trainable"]
    v._constraint = None
    v._save_slice_info = None
    return v
