"""`tf.function` and `tf.contrib.eager.defun`: a Python function traced into a graph (through
AutoGraph when it is available) once per input signature, then run by the compiled-plan executor.

A call in eager mode finds (or traces) the `ConcreteFunction` for its arguments: tensors are keyed
by dtype and shape, Python values by value, variables by identity. The trace is a `FuncGraph` whose
placeholders stand for the tensor arguments; eager tensors the body uses are captured as extra
placeholders, fed with their values at each call; eager variables are read and updated through
their handles, so the plan sees their current values. Stateful ops run in program order (automatic
control dependencies) even when nothing returned depends on them. While a GradientTape records, the
traced graph is interpreted op by op in eager mode, so the tape records each op (and higher-order
gradients work). Called while building a graph, the function's ops are added to that graph.
"""

import functools
import inspect
import itertools
import types
import warnings
import weakref

import numpy as np

from ..framework import errors, ops
from ..framework.func_graph import FuncGraph
from ..framework.indexed_slices import IndexedSlices
from ..framework.tensor_spec import TensorSpec
from ..ops import core_ops, nest
from ..platform import fpstate
from ..runtime import codegen, plan
from . import context, execute, tape
from .tensor import EagerTensor, VariableHandle

__all__ = ["ConcreteFunction", "Function", "defun", "function", "functions_run_eagerly", "run_functions_eagerly"]

_run_eagerly = False


def run_functions_eagerly(run_eagerly):
    """Makes every `tf.function` run its Python function eagerly, op by op, instead of its trace
    (`tf.config.run_functions_eagerly`), for debugging; graph building is unaffected.

    Args:
      run_eagerly: True to run functions eagerly, False to trace them again.
    """
    global _run_eagerly
    _run_eagerly = bool(run_eagerly)


def functions_run_eagerly():
    """Whether `run_functions_eagerly(True)` is in effect."""
    return _run_eagerly

_trace_ids = itertools.count()


def _is_tensor_leaf(x):
    return isinstance(x, (EagerTensor, TensorSpec)) and not isinstance(x, VariableHandle)


def _encode(x):
    """The cache key of an argument structure: tensors by dtype and shape, variables by identity,
    other Python values by value.

    Raises:
      TypeError: If a Python value is not hashable.
    """
    if _is_tensor_leaf(x):
        return ("T", x.dtype, x.shape.as_tuple())
    if isinstance(x, dict):
        return ("dict", type(x), tuple((k, _encode(x[k])) for k in sorted(x)))
    if isinstance(x, (list, tuple)):
        return (type(x), tuple(_encode(v) for v in x))
    uid = getattr(x, "_unique_id", None)
    if uid is not None:
        return ("V", uid)
    try:
        hash(x)
    except TypeError:
        raise TypeError("Arguments to a tf.function must be tensors, variables, nests of them or hashable Python "
                        "values; got %r." % (x,)) from None
    return ("P", type(x), x)


# What `autograph=True` applies before tracing: AutoGraph's `to_graph`, which `tensorweave.autograph` (a
# library above this layer) installs when it is imported. Without it a function is traced as written.
_autograph_converter = [None]


def set_autograph_converter(convert):
    """Makes `convert(fn) -> converted fn` the AutoGraph step of `tf.function` (None: none)."""
    _autograph_converter[0] = convert


def _autograph_convert(fn):
    """`fn` converted by AutoGraph when it is installed, else `fn` itself."""
    convert = _autograph_converter[0]
    if convert is None:
        return fn
    try:
        return convert(fn)
    except Exception as e:
        warnings.warn("AutoGraph could not transform %r and will run it as is: %s" % (fn, e), stacklevel=4)
        return fn


def _chain_stateful_ops(graph):
    """Makes the graph's stateful ops run in creation order (TF's automatic control dependencies) and
    returns them: they run at every call, whether or not a result depends on them."""
    prev = None
    found = []
    for op in graph._ops:
        d = op._op_def
        if d.stateful and not d.placeholder and not d.variable_read:
            if prev is not None:
                op._add_control_input(prev)
            prev = op
            found.append(op)
    return found


class ConcreteFunction:
    """One trace: a graph, the placeholders fed at each call, the tensors returned.

    Attributes:
      graph: The `FuncGraph`.
      inputs: Placeholders: one per tensor argument, then one per captured eager tensor.
      captured_inputs: The eager tensors the body captured (fed to the last placeholders).
      outputs: The graph tensors the call returns (flattened).
    """

    def __init__(self, graph, arg_placeholders, result):
        self.graph = graph
        self._structure = result
        self.outputs = []
        self._leaves = []  # per result leaf: index into outputs, or (None, python value)
        targets = []
        with graph.as_default():
            for leaf in nest.flatten(result):
                if leaf is None or isinstance(leaf, ops.Operation):
                    if leaf is not None:
                        targets.append(leaf)
                    self._leaves.append((None, None))
                elif isinstance(leaf, (ops.Tensor, IndexedSlices)) or hasattr(leaf, "_as_graph_element"):
                    if nest.is_tensor_array(leaf):
                        raise TypeError("A tf.function cannot return a TensorArray; return its stack() instead.")
                    t = ops.convert_to_tensor(leaf)
                    if t.graph is not graph:
                        t = graph.capture(t)
                    self._leaves.append(len(self.outputs))
                    self.outputs.append(t)
                else:
                    self._leaves.append((None, leaf))
        self.captured_inputs = list(graph.captures.keys())
        self.inputs = list(arg_placeholders) + list(graph.captures.values())
        self._n_args = len(arg_placeholders)
        self._targets = _chain_stateful_ops(graph) + targets
        handles = {}
        for op in graph._ops:
            for t in op._inputs:
                if isinstance(t, VariableHandle):
                    handles[t._id] = t
        self._handles = list(handles.values())
        # The variables the graph uses stay alive as long as it does (those it created included).
        self._variables = [v for v in (h.variable() for h in self._handles) if v is not None]
        self._order = None
        self._plan = None
        self._state = context.KernelState(context.context().variables)

    @property
    def structured_outputs(self):
        return self._structure

    def _ordered(self):
        if self._order is None:
            self._order = plan.prune_and_order(self.outputs, self._targets, self.inputs)
        return self._order

    def _compiled(self):
        if self._plan is None:
            self._plan = codegen.compile_plan(self._ordered(), self.outputs, self.inputs, self._state)
        return self._plan

    def __call__(self, *args, **kwargs):
        """Calls the trace with tensors for its tensor arguments (in flattened order).

        Raises:
          TypeError: If the number of tensors is wrong.
        """
        flat = [ops.convert_to_tensor(a) for a in nest.flatten([args, kwargs])]
        if len(flat) != self._n_args:
            raise TypeError("This concrete function takes %d tensor arguments, got %d." % (self._n_args, len(flat)))
        return self._call_flat(flat)

    def _call_flat(self, arg_tensors):
        inputs = list(arg_tensors) + self.captured_inputs if self.captured_inputs else list(arg_tensors)
        if tape._stack and self._taped(inputs):
            values = self._interpret(inputs)
        else:
            raw = self._run([t._value for t in inputs])
            values = [execute._wrap(v, (t._dtype, t._shape.as_tuple())) for v, t in zip(raw, self.outputs)]
        if self._leaves == [0] and self._structure is self.outputs[0]:  # one tensor returned as it is
            return values[0]
        flat = [values[i] if isinstance(i, int) else i[1] for i in self._leaves]
        return nest.pack_sequence_as(self._structure, flat)

    def _run(self, feeds):
        cp = self._plan or self._compiled()
        try:
            return fpstate.run_quiet(cp.fn, feeds)
        except Exception as e:
            err = errors.wrap_kernel_error(e, cp.op_for_traceback(e.__traceback__))
            if err is e:
                raise
            raise err from errors.cause_of(e)

    def _taped(self, inputs):
        """Whether a recording tape watches an input or a variable the graph uses."""
        for tp in tape._stack:
            tracked = tp.tracked
            if any(t._id in tracked for t in inputs):
                return True
            for h in self._handles:
                if h._id in tracked:
                    return True
                var = h.variable()
                if tp.watch_accessed_variables and var is not None and var.trainable:
                    return True
        return False

    def _interpret(self, inputs):
        """Runs the graph's ops one by one in eager mode, so the tapes record each of them."""
        for h in self._handles:
            var = h.variable()
            if var is not None:
                tape.variable_accessed(var)
        values = dict(zip(self.inputs, inputs))
        eager_graph = ops.get_default_graph()
        for op in self._ordered():
            if op._type in ("PyFunc", "PyFuncStateless"):
                token = op._attrs["token"]
                eager_graph._py_funcs[token] = op._graph._py_funcs[token]
            rec = execute.execute_like(op, [values.get(t, t) for t in op._inputs])
            for t, v in zip(op._outputs, rec._outputs):
                values[t] = v
        return [values[t] for t in self.outputs]


class Function:
    """A Python function run as traced graphs (see the module docstring); made by `tf.function`.

    Args:
      python_function: The function.
      name: Its name.
      input_signature: Optional nest of `TensorSpec`s: one trace that accepts every argument
        compatible with it.
      autograph: Convert Python control flow on tensors with AutoGraph before tracing.
    """

    def __init__(self, python_function, name, input_signature=None, autograph=True):
        self._python_function = python_function
        self._name = name
        self._input_signature = None if input_signature is None else list(input_signature)
        self._autograph = autograph
        self._converted = None
        self._cache = {}
        self._fast_cache = {}  # (n, dtype, shape, ...) of positional eager tensors -> trace
        self._tracing_count = 0
        self._instances = weakref.WeakKeyDictionary()
        try:
            self._signature = inspect.signature(python_function)
        except (TypeError, ValueError):
            self._signature = None
        functools.update_wrapper(self, python_function, updated=())

    @property
    def python_function(self):
        return self._python_function

    @property
    def input_signature(self):
        return None if self._input_signature is None else tuple(self._input_signature)

    def experimental_get_tracing_count(self):
        """How many times the Python function was traced (one per new input signature)."""
        return self._tracing_count

    _get_tracing_count = experimental_get_tracing_count

    def __get__(self, instance, owner):
        if instance is None:
            return self
        try:
            return self._instances[instance]
        except (KeyError, TypeError):
            pass
        bound = Function(types.MethodType(self._python_function, instance), self._name,
                         self._input_signature, self._autograph)
        try:
            self._instances[instance] = bound
        except TypeError:
            pass
        return bound

    def _python_callable(self):
        if self._converted is None:
            self._converted = _autograph_convert(self._python_function) if self._autograph else self._python_function
        return self._converted

    def __call__(self, *args, **kwargs):
        """Runs the function: eagerly through its trace for these arguments, or, while a graph is
        being built, by adding its ops to that graph.

        Raises:
          TypeError, ValueError: If the arguments do not fit the function or its input_signature.
          ValueError: If a trace other than the first creates variables.
        """
        if not ops.get_default_graph()._eager:
            return self._python_callable()(*args, **kwargs)
        if _run_eagerly:
            return self._python_function(*args, **kwargs)
        if not kwargs and self._input_signature is None:
            # Positional eager tensors: the trace is found by their dtypes and shapes alone (the
            # key `_concrete` would build from the same arguments, whose defaults never change).
            key = [len(args)]
            for a in args:
                if type(a) is not EagerTensor:
                    break
                key.append(a._dtype._enum)
                key.append(a._value.shape)
            else:
                key = tuple(key)
                concrete = self._fast_cache.get(key)
                if concrete is None:
                    concrete, tensors = self._concrete(args, kwargs)
                    if len(tensors) == len(args):
                        self._fast_cache[key] = concrete
                    return concrete._call_flat(tensors)
                return concrete._call_flat(args)
        concrete, tensors = self._concrete(args, kwargs)
        return concrete._call_flat(tensors)

    def get_concrete_function(self, *args, **kwargs):
        """The trace for these arguments (tensors, `TensorSpec`s, Python values), made if needed;
        with an input_signature and no arguments, the signature's trace."""
        if self._input_signature is not None and not args and not kwargs:
            args = tuple(self._input_signature)
        return self._concrete(args, kwargs)[0]

    # ---- tracing -----------------------------------------------------------------------------
    def _concrete(self, args, kwargs):
        if self._input_signature is not None:
            return self._concrete_for_signature(args, kwargs)
        bound = None
        if self._signature is not None:
            bound = self._signature.bind(*args, **kwargs)
            bound.apply_defaults()
            values = list(bound.arguments.values())
        else:
            values = [list(args), dict(kwargs)]
        leaves = [ops.convert_to_tensor(x) if isinstance(x, np.ndarray) else x for x in nest.flatten(values)]
        values = nest.pack_sequence_as(values, leaves)
        key = _encode(values)
        concrete = self._cache.get(key)
        if concrete is None:
            concrete = self._trace(values, bound)
            self._cache[key] = concrete
        return concrete, [x for x in leaves if isinstance(x, EagerTensor) and not isinstance(x, VariableHandle)]

    def _concrete_for_signature(self, args, kwargs):
        sig = self._input_signature
        if kwargs and self._signature is not None:
            args = self._signature.bind(*args, **kwargs).args
        if len(args) != len(sig):
            raise TypeError("%s takes %d argument(s) covered by its input_signature, got %d."
                            % (self._name, len(sig), len(args)))
        specs = nest.flatten(sig)
        try:
            flat = nest.flatten_up_to(sig, list(args))
        except (TypeError, ValueError) as e:
            raise ValueError("Python inputs incompatible with input_signature: %s" % e) from None
        if all(isinstance(a, TensorSpec) for a in flat):
            tensors = []
        else:
            tensors = []
            for spec, a in zip(specs, flat):
                try:
                    t = ops.convert_to_tensor(a, dtype=spec.dtype)
                except (TypeError, ValueError):
                    t = None
                if t is None or not spec.shape.is_compatible_with(t.shape):
                    raise ValueError("Python inputs incompatible with input_signature:\n  inputs: (%s)\n  "
                                     "input_signature: (%s)" % (", ".join(map(repr, args)),
                                                                ", ".join(map(repr, sig))))
                tensors.append(t)
        concrete = self._cache.get("signature")
        if concrete is None:
            concrete = self._trace(list(sig), None)
            self._cache["signature"] = concrete
        return concrete, tensors

    def _trace(self, values, bound):
        """Traces the Python function for the arguments `values` (tensor leaves become placeholders).

        Raises:
          ValueError: If this is not the first trace and it created variables.
        """
        self._tracing_count += 1
        ctx = context.context()
        created = ctx.variables_created
        fn = self._python_callable()
        g = FuncGraph("__inference_%s_%d" % (self._name, next(_trace_ids)), ops.get_default_graph())
        new_variables = []
        ctx.variable_creation_scopes.append(new_variables)
        try:
            concrete = self._trace_in(g, fn, values, bound)
        finally:
            ctx.variable_creation_scopes.remove(new_variables)
        concrete._variables.extend(new_variables)
        if self._tracing_count > 1 and ctx.variables_created != created:
            raise ValueError("tf.function-decorated function tried to create variables on non-first call.")
        return concrete

    def _trace_in(self, g, fn, values, bound):
        with g.as_default():
            placeholders = []
            leaves = []
            for x in nest.flatten(values):
                if _is_tensor_leaf(x):
                    name = x.name if isinstance(x, TensorSpec) and x.name else "args_%d" % len(placeholders)
                    x = core_ops.placeholder(x.dtype, x.shape, name=name)
                    placeholders.append(x)
                leaves.append(x)
            values = nest.pack_sequence_as(values, leaves)
            if bound is not None:
                for name, value in zip(list(bound.arguments), values):
                    bound.arguments[name] = value
                result = fn(*bound.args, **bound.kwargs)
            elif self._input_signature is not None:
                result = fn(*values)
            else:
                result = fn(*values[0], **values[1])
            return ConcreteFunction(g, placeholders, result)

    def __repr__(self):
        return "<tf.function %s>" % self._name


def function(func=None, input_signature=None, autograph=True, experimental_autograph_options=None,
             experimental_relax_shapes=False, experimental_compile=None):
    """Compiles a Python function into a callable that runs it as a traced graph, as `tf.function`.

    Usable as `@tf.function` or `@tf.function(input_signature=[...])`.

    Args:
      func: The function (None when used with arguments as a decorator).
      input_signature: Optional list of `tf.TensorSpec` (nests allowed), one per positional
        argument: the function is traced once, for these dtypes and (partial) shapes.
      autograph: Convert Python `if`/`while`/`for` on tensors with AutoGraph before tracing.
      experimental_autograph_options, experimental_relax_shapes, experimental_compile: Accepted for
        compatibility.

    Returns:
      A `Function` (or a decorator making one).
    """
    def decorate(f):
        return Function(f, getattr(f, "__name__", "function"), input_signature, autograph)

    return decorate if func is None else decorate(func)


def defun(func=None, input_signature=None, autograph=True, experimental_autograph_options=None,
          experimental_relax_shapes=False):
    """`tf.contrib.eager.defun`: the same as `tf.function`.

    Returns:
      A `Function` (or a decorator making one).
    """
    return function(func, input_signature=input_signature, autograph=autograph)
