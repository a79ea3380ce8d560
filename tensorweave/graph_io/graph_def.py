"""`Graph` <-> TensorFlow's `GraphDef` protocol buffer.

Writing: each op becomes a `NodeDef` with TF's op type and attributes. TF's OpDef signature of the
type (`ops/tf_op_signatures.py`, generated from TensorFlow) says which type attributes (`T`,
`Tidx`, `N`, ...) its inputs and outputs carry; they are filled from the tensors' dtypes, and the op's
own attributes are written with the attribute types the signature gives. An attribute TF's
signature does not have is kept under `_tw_attr_<name>` (TF ignores attributes starting with "_"),
so tensorweave reads its own GraphDefs back exactly. An op holding values no `AttrValue` can hold
(the function graphs of `tf.cond`/`tf.while_loop`, Python objects) is written as op type
`Tensorweave<type>` with the reason in `_tensorweave_unserializable`: TensorFlow reports it as an
unregistered op, and `import_graph_def` here raises an error naming it (use the meta graph for
such graphs).

Reading (`import_graph_def`): nodes are built through the op registry in dependency order; each
node's attributes, completed with the signature's defaults, are converted back and given to the
op as the attributes its kernel takes. Reading never runs code: attribute names are only compared
with a kernel's parameter names, values only decoded.
"""

import inspect

import numpy as np

from ..framework import dtypes, errors, ops, registry
from ..framework.tensor_shape import TensorShape
from ..framework.versions import GRAPH_DEF_VERSION
from ..ops import tensor_bundle
from ..ops.summary_ops import proto_module
from ..ops.tf_op_signatures import SIGNATURES
from .tensor_proto import make_ndarray, make_tensor_proto

__all__ = ["graph_to_graph_def", "import_graph_def", "write_graph", "GRAPH_DEF_VERSION", "parse_graph_def"]

EXTRA_ATTR_PREFIX = "_tw_attr_"
UNSERIALIZABLE_ATTR = "_tensorweave_unserializable"
UNKNOWN_PREFIX = "Tensorweave"


def _pb(name, feature="tf.GraphDef"):
    return proto_module(name, feature)


class _Unexpressible(Exception):
    pass


# ---- attribute values --------------------------------------------------------------------------
def _shape_proto(shape):
    tensor_shape_pb2 = _pb("tensor_shape_pb2")
    proto = tensor_shape_pb2.TensorShapeProto()
    dims = shape.as_tuple() if isinstance(shape, TensorShape) else shape
    if dims is None:
        proto.unknown_rank = True
        return proto
    for d in dims:
        d = getattr(d, "value", d)
        proto.dim.add(size=-1 if d is None else int(d))
    return proto


def _shape_value(proto):
    if proto.unknown_rank:
        return None
    return tuple(None if d.size < 0 else int(d.size) for d in proto.dim)


def _is_shape(v):
    return isinstance(v, TensorShape) or v is None or (
        isinstance(v, (tuple, list)) and all(d is None or isinstance(d, (int, np.integer)) for d in v))


def _typed_attr(attr_type, value):
    """The `AttrValue` of `value` for a TF attribute of type `attr_type` ("type", "list(int)", ...)."""
    attr_pb2 = _pb("attr_value_pb2")
    base = attr_type[5:-1] if attr_type.startswith("list(") else attr_type
    if attr_type.startswith("list("):
        lst = attr_pb2.AttrValue.ListValue()
        for v in value:
            _list_add(lst, base, v)
        return attr_pb2.AttrValue(list=lst)
    if base == "type":
        return attr_pb2.AttrValue(type=dtypes.as_dtype(value).as_datatype_enum)
    if base == "shape":
        if not _is_shape(value):
            raise _Unexpressible("a %s is not a shape" % type(value).__name__)
        return attr_pb2.AttrValue(shape=_shape_proto(value))
    if base == "tensor":
        arr = np.asarray(value)
        dt = dtypes.string if arr.dtype == object else dtypes.as_dtype(arr.dtype)
        return attr_pb2.AttrValue(tensor=make_tensor_proto(arr, dt))
    if base == "string":
        return attr_pb2.AttrValue(s=value if isinstance(value, bytes) else str(value).encode("utf-8"))
    if base == "int":
        return attr_pb2.AttrValue(i=int(value))
    if base == "float":
        return attr_pb2.AttrValue(f=float(value))
    if base == "bool":
        return attr_pb2.AttrValue(b=bool(value))
    raise _Unexpressible("an attribute of type %s" % attr_type)


def _list_add(lst, base, v):
    if base == "type":
        lst.type.append(dtypes.as_dtype(v).as_datatype_enum)
    elif base == "shape":
        lst.shape.append(_shape_proto(v))
    elif base == "int":
        lst.i.append(int(v))
    elif base == "float":
        lst.f.append(float(v))
    elif base == "bool":
        lst.b.append(bool(v))
    elif base == "string":
        lst.s.append(v if isinstance(v, bytes) else str(v).encode("utf-8"))
    elif base == "tensor":
        arr = np.asarray(v)
        lst.tensor.append(make_tensor_proto(arr, dtypes.string if arr.dtype == object else dtypes.as_dtype(arr.dtype)))
    else:
        raise _Unexpressible("a list attribute of %s" % base)


def _guess_type(value):
    """The TF attribute type that holds `value` (for attributes TF's signature does not have)."""
    if isinstance(value, dtypes.DType):
        return "type"
    if isinstance(value, TensorShape):
        return "shape"
    if isinstance(value, (bool, np.bool_)):
        return "bool"
    if isinstance(value, (int, np.integer)):
        return "int"
    if isinstance(value, (float, np.floating)):
        return "float"
    if isinstance(value, (str, bytes)):
        return "string"
    if isinstance(value, np.ndarray) and (value.dtype != object or all(isinstance(x, bytes)
                                                                       for x in value.reshape(-1))):
        return "tensor"
    if isinstance(value, (list, tuple)):
        kinds = {_guess_type(v) for v in value}
        if not value:
            return "list(int)"
        if kinds == {"int"} or kinds == {"bool"} or kinds == {"float"} or kinds == {"string"} or kinds == {"type"}:
            return "list(%s)" % kinds.pop()
        if kinds <= {"int", "float"}:
            return "list(float)"
        if all(_is_shape(v) for v in value):
            return "list(shape)"
    raise _Unexpressible("a value of type %s" % type(value).__name__)


_ATTR_KIND = {"type": "type", "shape": "shape", "tensor": "tensor", "string": "s", "int": "i", "float": "f",
              "bool": "b", "func": "func"}


def _attr_to_python(av, attr_type=None):
    """The tensorweave value of an `AttrValue` (of TF type `attr_type` when known).

    Raises:
      _Unexpressible: If the value's kind is not the one `attr_type` needs.
    """
    kind = av.WhichOneof("value")
    if attr_type is not None:
        want = "list" if attr_type.startswith("list(") else _ATTR_KIND.get(attr_type)
        if want is not None and kind != want and not (want == "list" and kind is None):
            raise _Unexpressible("expected a value of type %s, got %s" % (attr_type, kind or "none"))
    if kind == "list":
        lst = av.list
        base = attr_type[5:-1] if attr_type and attr_type.startswith("list(") else None
        if base == "type" or lst.type:
            return [dtypes.as_dtype(t) for t in lst.type]
        if base == "shape" or lst.shape:
            return [_shape_value(s) for s in lst.shape]
        if base == "float" or lst.f:
            return [float(x) for x in lst.f]
        if base == "bool" or lst.b:
            return [bool(x) for x in lst.b]
        if base == "string" or lst.s:
            return [_text(x) for x in lst.s]
        if base == "tensor" or lst.tensor:
            return [make_ndarray(t) for t in lst.tensor]
        return [int(x) for x in lst.i]
    if kind == "type":
        return dtypes.as_dtype(av.type)
    if kind == "shape":
        return _shape_value(av.shape)
    if kind == "tensor":
        return make_ndarray(av.tensor)
    if kind == "s":
        return _text(av.s)
    if kind in ("i", "f", "b"):
        return getattr(av, kind)
    if kind is None:
        return [] if attr_type and attr_type.startswith("list(") else None
    raise _Unexpressible("an attribute holding a %s" % kind)


def _text(b):
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        return b


def _default_value(default):
    kind = default[0]
    if kind == "none":
        raise KeyError
    if kind == "list":
        i, f, s, b, t = default[1]
        return [dtypes.as_dtype(x) for x in t] or list(f) or list(s) or list(b) or list(i)
    if kind == "type":
        return dtypes.as_dtype(default[1])
    if kind == "shape":
        return None if default[1] is None else tuple(None if d < 0 else d for d in default[1])
    return default[1]


# ---- export ------------------------------------------------------------------------------------
def _input_name(t):
    """TF's input syntax: "op" for output 0, "op:1" for the others."""
    return t.op.name if t.value_index == 0 else "%s:%d" % (t.op.name, t.value_index)


def _arg_type_attrs(args, tensors, attrs):
    """Fills `attrs` with the type/number attributes that TF's arguments `args` take from `tensors`."""
    pos = 0
    for name, typ, number_attr, is_list, _ in args:
        if is_list:
            n = len(attrs.get(typ, ())) if typ in attrs else len(tensors) - pos - _rest(args, name)
            group = tensors[pos:pos + n]
            attrs.setdefault(typ, [t.dtype.base_dtype for t in group])
            pos += n
        elif number_attr:
            n = attrs.get(number_attr)
            if not isinstance(n, int):
                n = len(tensors) - pos - _rest(args, name)
            attrs[number_attr] = n
            if isinstance(typ, str) and n and pos < len(tensors):
                attrs.setdefault(typ, tensors[pos].dtype.base_dtype)
            pos += n
        else:
            if isinstance(typ, str) and pos < len(tensors):
                attrs.setdefault(typ, tensors[pos].dtype.base_dtype)
            pos += 1


def _rest(args, name):
    """How many tensors the single arguments after `name` take (list arguments come last or alone)."""
    names = [a[0] for a in args]
    return sum(1 for a in args[names.index(name) + 1:] if not a[2] and not a[3])


def _node_def(op, node, add_shapes):
    attrs = {k: v for k, v in op._attrs.items() if not k.startswith("_")}
    sig = SIGNATURES.get(op.type)
    out = {}
    if sig is not None:
        in_args, out_args, tf_attrs = sig
        typed = dict(attrs)
        _arg_type_attrs(in_args, op._inputs, typed)
        _arg_type_attrs(out_args, op._outputs, typed)
        for k, v in typed.items():
            if k in tf_attrs:
                out[k] = _typed_attr(tf_attrs[k][0], v)
            else:
                out[EXTRA_ATTR_PREFIX + k] = _typed_attr(_guess_type(v), v)
    else:
        for k, v in attrs.items():
            out[k] = _typed_attr(_guess_type(v), v)
    for k, av in out.items():
        node.attr[k].CopyFrom(av)
    if add_shapes and op._outputs:
        lst = node.attr["_output_shapes"].list
        lst.shape.extend(_shape_proto(t.shape) for t in op._outputs)


def graph_to_graph_def(graph, from_version=None, add_shapes=False):
    """Describes `graph` as TensorFlow's `GraphDef` protocol buffer (`Graph.as_graph_def`).

    Args:
      graph: A `tf.Graph`.
      from_version: Only ops created after the graph had this version (accepted for TF's signature;
        must be None).
      add_shapes: If true, adds an `_output_shapes` attribute with each node's static output shapes.

    Returns:
      A `GraphDef` (`tensorboard.compat.proto.graph_pb2`).

    Raises:
      ImportError: If the `tensorboard` extra is not installed.
      NotImplementedError: If `from_version` is given.
    """
    if from_version is not None:
        raise NotImplementedError("as_graph_def(from_version=...) is not supported")
    graph_pb2 = _pb("graph_pb2")
    graph_def = graph_pb2.GraphDef()
    graph_def.versions.producer = GRAPH_DEF_VERSION
    for op in graph.get_operations():
        node = graph_def.node.add(name=op.name, op=op.type, device=op.device or "")
        node.input.extend(_input_name(t) for t in op._inputs)
        node.input.extend("^" + c.name for c in op._control_inputs)
        try:
            _node_def(op, node, add_shapes)
        except (_Unexpressible, TypeError, ValueError) as e:
            node.op = UNKNOWN_PREFIX + op.type
            node.ClearField("attr")
            node.attr[UNSERIALIZABLE_ATTR].s = (
                "tensorweave op type %s holds %s, which a GraphDef cannot express; export a meta graph "
                "(tf.train.export_meta_graph) to keep it" % (op.type, _reason(op, e))).encode("utf-8")
            if add_shapes and op._outputs:
                node.attr["_output_shapes"].list.shape.extend(_shape_proto(t.shape) for t in op._outputs)
    return graph_def


def _reason(op, e):
    for k, v in op._attrs.items():
        try:
            _guess_type(v)
        except _Unexpressible:
            return "attribute '%s' (%s)" % (k, type(v).__name__)
    return str(e)


def write_graph(graph_or_graph_def, logdir, name, as_text=True):
    """Writes a graph proto to a file (atomically: a temporary file renamed over `logdir/name`).

    Args:
      graph_or_graph_def: A `Graph` or a `GraphDef` protocol buffer.
      logdir: The directory to write to (created if missing).
      name: The file name.
      as_text: If true, writes the protobuf text format, else the binary wire format.

    Returns:
      The path of the file written.

    Raises:
      TypeError: If `graph_or_graph_def` is neither a `Graph` nor a `GraphDef`.
      ImportError: If the `tensorboard` extra is not installed.
    """
    graph_pb2 = _pb("graph_pb2", "tf.train.write_graph")
    if isinstance(graph_or_graph_def, ops.Graph):
        graph_def = graph_to_graph_def(graph_or_graph_def)
    elif isinstance(graph_or_graph_def, graph_pb2.GraphDef):
        graph_def = graph_or_graph_def
    else:
        raise TypeError("graph_or_graph_def must be a Graph or a GraphDef, got %s" % type(graph_or_graph_def).__name__)
    if as_text:
        from google.protobuf import text_format
        data = text_format.MessageToString(graph_def).encode("utf-8")
    else:
        data = graph_def.SerializeToString(deterministic=True)
    from ..platform import gfile
    gfile.makedirs(logdir)
    path = gfile.join(logdir, name)
    tensor_bundle.atomic_write(path, lambda f: f.write(data))
    return path


def parse_graph_def(data, source="<GraphDef>"):
    """A `GraphDef` from its binary (or, failing that, text) serialization.

    Raises:
      tf.errors.DataLossError: If `data` is neither, naming `source`.
    """
    graph_pb2 = _pb("graph_pb2")
    from google.protobuf import message, text_format
    gd = graph_pb2.GraphDef()
    try:
        gd.ParseFromString(data)
        return gd
    except (message.DecodeError, RuntimeError, ValueError) as e:
        binary_error = e
    try:
        text_format.Parse(data.decode("utf-8"), gd)
        return gd
    except (text_format.ParseError, UnicodeDecodeError, ValueError, RuntimeError):
        pass
    raise errors.DataLossError(None, None, "Unable to parse %s as a GraphDef: %s" % (source, binary_error))


# ---- import ------------------------------------------------------------------------------------
_KERNEL_PARAMS = {}


def _kernel_attr_names(op_type, op_def, n_inputs):
    """The attribute names `op_def`'s kernel takes for `n_inputs` inputs, and whether it takes any
    (`**kwargs`)."""
    key = (op_type, n_inputs)
    found = _KERNEL_PARAMS.get(key)
    if found is None:
        params = list(inspect.signature(op_def.kernel).parameters.values())
        params = params[2 if op_def.stateful else 1:]
        names, var_kw, positional = [], False, 0
        for p in params:
            if p.kind == p.VAR_POSITIONAL:
                positional = n_inputs
            elif p.kind == p.VAR_KEYWORD:
                var_kw = True
            elif p.kind == p.KEYWORD_ONLY:
                names.append((p.name, p.default is p.empty))
            elif positional < n_inputs:
                positional += 1
            else:
                names.append((p.name, p.default is p.empty))
        found = _KERNEL_PARAMS[key] = (names, var_kw)
    return found


def _tensor_name(name):
    name = name[1:] if name.startswith("^") else name
    op_name, sep, idx = name.rpartition(":")
    if sep and idx.isdigit():
        return op_name, int(idx)
    return name, 0


class _GraphDefImporter:
    def __init__(self, graph, graph_def, input_map, source):
        self.graph = graph
        self.graph_def = graph_def
        self.input_map = input_map
        self.source = source
        self.ops = {}
        self.used_keys = set()

    def check_types(self, nodes):
        unknown = {}
        for node in nodes:
            try:
                registry.get_op_def(node.op)
            except LookupError:
                unknown.setdefault(node.op, node.name)
            if UNSERIALIZABLE_ATTR in node.attr:
                raise errors.UnimplementedError(None, None, "Op '%s' of type %s cannot be imported from a GraphDef: %s"
                                                % (node.name, node.op, _text(node.attr[UNSERIALIZABLE_ATTR].s)))
        if unknown:
            raise errors.NotFoundError(None, None, "Op type not registered %s in binary running on tensorweave "
                                       "(needed by %s)" % (", ".join("'%s'" % t for t in sorted(unknown)),
                                                           ", ".join("op '%s'" % unknown[t] for t in sorted(unknown))))

    def order(self, nodes):
        by_name = {}
        for node in nodes:
            if node.name in by_name:
                raise ValueError("GraphDef %s has two nodes named '%s'" % (self.source, node.name))
            by_name[node.name] = node
        order, state = [], {}
        for root in nodes:
            if root.name in state:
                continue
            stack = [(root, False)]
            while stack:
                node, done = stack.pop()
                if done:
                    state[node.name] = 2
                    order.append(node)
                    continue
                if state.get(node.name) == 2:
                    continue
                state[node.name] = 1
                stack.append((node, True))
                for inp in node.input:
                    src, idx = _tensor_name(inp)
                    key = ("^" + src) if inp.startswith("^") else "%s:%d" % (src, idx)
                    if key in self.input_map:
                        continue
                    dep = by_name.get(src)
                    if dep is None:
                        raise ValueError("Node '%s': Unknown input node '%s'" % (node.name, inp))
                    s = state.get(src)
                    if s == 1:
                        raise errors.UnimplementedError(None, None, "GraphDef %s has a cycle through op '%s' (TF's "
                                                        "v1 while loops, NextIteration): not supported"
                                                        % (self.source, src))
                    if s is None:
                        stack.append((dep, False))
        return order

    def tensor(self, inp):
        src, idx = _tensor_name(inp)
        key = "%s:%d" % (src, idx)
        if key in self.input_map:
            self.used_keys.add(key)
            return self.input_map[key]
        op = self.ops[src]
        if idx >= len(op._outputs):
            raise ValueError("Node '%s' has no output %d (it has %d)" % (src, idx, len(op._outputs)))
        return op._outputs[idx]

    def control(self, inp):
        key = inp
        if key in self.input_map:
            self.used_keys.add(key)
            return self.input_map[key]
        return self.ops[inp[1:]]

    def attrs(self, node, n_inputs):
        op_def = registry.get_op_def(node.op)
        sig = SIGNATURES.get(node.op)
        tf_attrs = sig[2] if sig else {}
        type_attrs = set()
        if sig:
            for a in sig[0] + sig[1]:
                if isinstance(a[1], str):
                    type_attrs.add(a[1])
                if a[2]:
                    type_attrs.add(a[2])
        values = {}
        for k, (attr_type, default) in tf_attrs.items():
            if k not in node.attr:
                try:
                    values[k] = _default_value(default)
                except KeyError:
                    pass
        for k, av in node.attr.items():
            if k.startswith(EXTRA_ATTR_PREFIX):
                name, attr_type = k[len(EXTRA_ATTR_PREFIX):], None
            elif k.startswith("_"):
                continue
            else:
                name, attr_type = k, tf_attrs.get(k, (None,))[0]
            try:
                values[name] = _attr_to_python(av, attr_type)
            except (errors.InvalidArgumentError, TypeError, ValueError, _Unexpressible) as e:
                raise errors.InvalidArgumentError(None, None, "GraphDef %s: attr '%s' of node '%s' (op %s) is "
                                                  "invalid: %s" % (self.source, k, node.name, node.op, e)) from None
        names, var_kw = _kernel_attr_names(node.op, op_def, n_inputs)
        out = {}
        for name, required in names:
            if name in values:
                out[name] = values[name]
            elif required:
                raise ValueError("NodeDef '%s' (op %s) is missing attr '%s'" % (node.name, node.op, name))
        if var_kw:
            out.update((k, v) for k, v in values.items() if k not in type_attrs and k not in out)
        return out

    def build(self, nodes):
        for node in nodes:
            inputs = [self.tensor(i) for i in node.input if not i.startswith("^")]
            control = [self.control(i) for i in node.input if i.startswith("^")]
            attrs = self.attrs(node, len(inputs))
            with self.graph.control_dependencies(None):
                op = self.graph._create_op(node.op, inputs, attrs, node.name, control)
            if node.device:
                op._device = node.device
            self.ops[node.name] = op


def import_graph_def(graph_def, input_map=None, return_elements=None, name=None, op_dict=None,
                     producer_op_list=None):
    """Imports the graph from `graph_def` into the current default graph.

    Args:
      graph_def: A `GraphDef` protocol buffer (as TensorFlow or `Graph.as_graph_def` writes it).
      input_map: A dictionary mapping input names in `graph_def` ("op:0", "op" for output 0, "^op"
        for a control input) to `Tensor` (or `Operation`) objects to use instead.
      return_elements: Names of ops ("op") or tensors ("op:0") in `graph_def` to return.
      name: The prefix of the imported names (default "import"; "" for none).
      op_dict: Unused (TF's deprecated argument).
      producer_op_list: Unused (defaults are filled from TF's op signatures).

    Returns:
      The `Operation`s and `Tensor`s named in `return_elements`, in order, or None.

    Raises:
      TypeError: If `graph_def` is not a `GraphDef`, or `input_map`/`return_elements` have the wrong types.
      ValueError: If `input_map` or `return_elements` name something not in `graph_def`, or a node's
        inputs or attributes are invalid.
      tf.errors.NotFoundError: If op types of `graph_def` are not registered (all are named).
      tf.errors.InvalidArgumentError: If an attribute value (a constant) is damaged.
      tf.errors.UnimplementedError: If the GraphDef holds TF v1 control-flow cycles or ops tensorweave
        wrote as unserializable.
    """
    graph_pb2 = _pb("graph_pb2", "tf.import_graph_def")
    if not isinstance(graph_def, graph_pb2.GraphDef):
        if hasattr(graph_def, "SerializeToString") and type(graph_def).__name__ == "GraphDef":
            graph_def = graph_pb2.GraphDef.FromString(graph_def.SerializeToString())
        else:
            raise TypeError("graph_def must be a GraphDef proto.")
    if input_map is not None and not isinstance(input_map, dict):
        raise TypeError("input_map must be a dictionary mapping strings to Tensor objects.")
    if return_elements is not None:
        if isinstance(return_elements, str) or not all(isinstance(x, str) for x in return_elements):
            raise TypeError("return_elements must be a list of strings.")
    imap = {}
    for k, v in (input_map or {}).items():
        if not isinstance(k, str):
            raise TypeError("input_map must be a dictionary mapping strings to Tensor objects.")
        if k.startswith("^"):
            if not isinstance(v, ops.Operation):
                raise ValueError("tf.import_graph_def() requires a non-empty `name` if `input_map` contains "
                                 "non-Tensor values. Try calling tf.convert_to_tensor() on `input_map` values "
                                 "before calling tf.import_graph_def().")
            imap[k] = v
        else:
            src, idx = _tensor_name(k)
            imap["%s:%d" % (src, idx)] = ops.convert_to_tensor(v)
    graph = ops.get_default_graph()
    importer = _GraphDefImporter(graph, graph_def, imap, "graph_def")
    nodes = list(graph_def.node)
    importer.check_types(nodes)
    ordered = importer.order(nodes)
    scope = "import" if name is None else name
    with graph.name_scope(scope) if scope else _null():
        importer.build(ordered)
    missing = sorted(set(imap) - importer.used_keys)
    known = {n.name for n in nodes}
    missing = [k for k in missing if _tensor_name(k)[0] not in known or k.startswith("^")
               and k[1:] not in known]
    if missing:
        raise ValueError("Attempted to map inputs that were not found in graph_def: [%s]" % ", ".join(missing))
    if return_elements is None:
        return None
    result = []
    for r in return_elements:
        if ":" in r:
            src, idx = _tensor_name(r)
            op = importer.ops.get(src)
            if op is None or idx >= len(op._outputs):
                raise ValueError("Requested return_element %r not found in graph_def." % r)
            result.append(op._outputs[idx])
        else:
            op = importer.ops.get(r)
            if op is None:
                raise ValueError("Requested return_element %r not found in graph_def." % r)
            result.append(op)
    return result


class _null:
    def __enter__(self):
        return None

    def __exit__(self, *a):
        return False

