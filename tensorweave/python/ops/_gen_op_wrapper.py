"""Builds the functions of `tensorweave.python.ops.gen_*_ops`: TF's generated op wrappers.

`wrap(name, spec)` makes `name(<TF's arguments>, name=None)` creating one op of type `spec["op"]`
(tensorweave registers TF's op types, with TF's attribute names), from the op's definition in TF
(`spec`: its inputs, outputs, attributes and the Python signature of TF's wrapper, recorded by
tests/data/make_python_paths_tf.py). As TF's wrappers do, it converts the inputs to tensors (inputs
sharing a type attribute take the first one's dtype), infers the type and length attributes from
them, and returns the output tensor, or a namedtuple of TF's output names for several outputs.
Attributes TF added after 1.x that tensorweave's kernels do not take are left out of the signature.
"""

import collections
import inspect

from ...framework import dtypes, ops
from ...framework.registry import get_op_def

__all__ = ["wrap"]

_NOT_ATTRS = ("xp", "ctx", "op")


def _kernel_attrs(op_type, spec):
    params = inspect.signature(get_op_def(op_type).kernel).parameters
    return [p for p in params if p not in _NOT_ATTRS and p in spec["attrs"]]


def wrap(name, spec):
    """The TF gen wrapper `name` for the op described by `spec` (see the module docstring)."""
    op_type = spec["op"]
    kernel_attrs = set(_kernel_attrs(op_type, spec))
    # TF's wrappers take the inputs first, in the op's order (some renamed: Sum's reduction_indices is axis).
    n_inputs = len(spec["inputs"])
    input_params = [p[0] for p in spec["params"][:n_inputs]]
    params = spec["params"][:n_inputs] + [p for p in spec["params"][n_inputs:] if p[0] in kernel_attrs]
    # A param is [input or attribute name, has a default, the default, (TF's Python name if another)].
    python_name = {p[0]: p[3] if len(p) > 3 else p[0] for p in spec["params"]}
    input_params = [python_name[p] for p in input_params]

    def default(p):
        if not p[1]:
            return inspect.Parameter.empty
        return dtypes.as_dtype(p[2]["dtype"]) if isinstance(p[2], dict) else p[2]

    sig = inspect.Signature(
        [inspect.Parameter(python_name[p[0]], inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default(p))
         for p in params]
        + [inspect.Parameter("name", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None)])
    outputs = spec["outputs"]
    result_type = collections.namedtuple("_%sOutput" % op_type, outputs) if len(outputs) > 1 else None

    def fn(*args, **kwargs):
        bound = sig.bind(*args, **kwargs)
        bound.apply_defaults()
        values = bound.arguments
        inputs, attrs, type_of = [], {}, {}
        for input_param, (_, number_attr, type_list_attr, type_attr) in zip(input_params, spec["inputs"]):
            value = values[input_param]
            if number_attr or type_list_attr:
                dtype = type_of.get(type_attr)
                tensors = [ops.convert_to_tensor(v, dtype=dtype) for v in value]
                if number_attr:
                    attrs[number_attr] = len(tensors)
                if type_attr and tensors:
                    type_of.setdefault(type_attr, tensors[0].dtype)
                if type_list_attr:
                    attrs[type_list_attr] = [t.dtype for t in tensors]
                inputs.extend(tensors)
            else:
                tensor = ops.convert_to_tensor(value, dtype=type_of.get(type_attr) if type_attr else None)
                if type_attr:
                    type_of.setdefault(type_attr, tensor.dtype)
                inputs.append(tensor)
        for attr in kernel_attrs:
            if python_name.get(attr, attr) in values:
                value = values[python_name.get(attr, attr)]
                if spec["attrs"][attr] == "type":
                    value = dtypes.as_dtype(value["dtype"] if isinstance(value, dict) else value)
                elif spec["attrs"][attr] == "string" and isinstance(value, bytes):
                    value = value.decode("utf-8")
                attrs[attr] = value
            elif attr in type_of:
                attrs[attr] = type_of[attr]
        out = ops.apply_op(op_type, inputs, {k: v for k, v in attrs.items() if k in kernel_attrs}, name=values["name"])
        if result_type is not None:
            return result_type(*out)
        return out

    fn.__name__ = fn.__qualname__ = name
    fn.__signature__ = sig
    fn.__doc__ = ("TF's generated wrapper of the `%s` op.\n\n    Args: %s, name (a name for the op).\n\n"
                  "    Returns:\n      %s\n" % (op_type, ", ".join(python_name[p[0]] for p in params),
                                                "The op's output." if result_type is None
                                                else "A namedtuple (%s)." % ", ".join(outputs)))
    return fn
