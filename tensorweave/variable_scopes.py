"""`tf.variable_scope`, `tf.get_variable` and `tf.make_template`: variables named by variable scope
(not name scope), shared by explicit reuse."""

import contextlib
import functools
import inspect

from .framework import dtypes, ops
from .framework.func_graph import outermost_graph
from .framework.tensor_shape import as_shape
from .ops import init_ops
from .variables import Variable, global_variables, trainable_variables


class _ReuseMode:
    def __repr__(self):
        return "tf.AUTO_REUSE"


AUTO_REUSE = _ReuseMode()


class VariableScope:
    """A variable scope: a name prefix for `get_variable` plus defaults (reuse, initializer, dtype...)."""

    def __init__(self, reuse, name="", initializer=None, regularizer=None, caching_device=None,
                 partitioner=None, custom_getter=None, name_scope="", dtype=dtypes.float32, use_resource=None,
                 constraint=None):
        self._name = name
        self._reuse = reuse
        self._initializer = initializer
        self._regularizer = regularizer
        self._caching_device = caching_device
        self._partitioner = partitioner
        self._custom_getter = custom_getter
        self._name_scope = name_scope
        self._dtype = dtypes.as_dtype(dtype)
        self._use_resource = use_resource
        self._constraint = constraint

    @property
    def name(self):
        return self._name

    @property
    def original_name_scope(self):
        return self._name_scope

    @property
    def reuse(self):
        return self._reuse

    @property
    def initializer(self):
        return self._initializer

    @property
    def regularizer(self):
        return self._regularizer

    @property
    def dtype(self):
        return self._dtype

    @property
    def custom_getter(self):
        return self._custom_getter

    @property
    def caching_device(self):
        return self._caching_device

    @property
    def partitioner(self):
        return self._partitioner

    @property
    def use_resource(self):
        return self._use_resource

    @property
    def constraint(self):
        return self._constraint

    def reuse_variables(self):
        """Sets reuse to True for the rest of this scope."""
        self._reuse = True

    def set_initializer(self, initializer):
        self._initializer = initializer

    def set_regularizer(self, regularizer):
        self._regularizer = regularizer

    def set_dtype(self, dtype):
        self._dtype = dtypes.as_dtype(dtype)

    def set_custom_getter(self, custom_getter):
        self._custom_getter = custom_getter

    def set_caching_device(self, caching_device):
        self._caching_device = caching_device

    def set_partitioner(self, partitioner):
        self._partitioner = partitioner

    def set_use_resource(self, use_resource):
        self._use_resource = use_resource

    def get_variable(self, var_store, name, shape=None, dtype=None, initializer=None, regularizer=None,
                     reuse=None, trainable=None, collections=None, caching_device=None, partitioner=None,
                     validate_shape=True, use_resource=None, custom_getter=None, constraint=None, **kwargs):
        full_name = self._name + "/" + name if self._name else name
        if reuse is None:
            reuse = self._reuse
        if dtype is not None and initializer is not None and not callable(initializer):
            init_dtype = ops.convert_to_tensor(initializer).dtype
            if init_dtype is not dtypes.as_dtype(dtype):
                raise ValueError("Initializer type '%s' and explicit dtype '%s' don't match."
                                 % (init_dtype.name, dtypes.as_dtype(dtype).name))
        if initializer is None:
            initializer = self._initializer
        if regularizer is None:
            regularizer = self._regularizer
        if dtype is None:
            dtype = self._dtype
        getter = custom_getter or self._custom_getter
        with ops.name_scope(None):
            if getter is not None:
                return getter(functools.partial(var_store.get_variable, reuse=reuse), full_name, shape=shape,
                              dtype=dtype, initializer=initializer, regularizer=regularizer,
                              trainable=trainable, collections=collections, validate_shape=validate_shape,
                              constraint=constraint)
            return var_store.get_variable(full_name, shape=shape, dtype=dtype, initializer=initializer,
                                          regularizer=regularizer, reuse=reuse, trainable=trainable,
                                          collections=collections, validate_shape=validate_shape,
                                          constraint=constraint)


class _VariableStore:
    """The variables a graph created through `get_variable`, by full name."""

    def __init__(self):
        self.vars = {}
        self.scope_counts = {}

    def get_variable(self, name, shape=None, dtype=dtypes.float32, initializer=None, regularizer=None,
                     reuse=None, trainable=None, collections=None, validate_shape=True, constraint=None,
                     **kwargs):
        from_value = initializer is not None and not callable(initializer)
        if from_value and shape is not None:
            raise ValueError("If initializer is a constant, do not specify shape.")
        dtype = dtypes.as_dtype(dtype)
        if shape is not None:
            shape = as_shape(shape)
        if name in self.vars:
            if reuse is None or reuse is False:
                raise ValueError("Variable %s already exists, disallowed. Did you mean to set reuse=True or "
                                 "reuse=tf.AUTO_REUSE in VarScope? Originally defined at:\n\n  %s"
                                 % (name, self.vars[name].op.creation_site))
            v = self.vars[name]
            if shape is not None and not shape.is_compatible_with(v.shape):
                raise ValueError("Trying to share variable %s, but specified shape %s and found shape %s."
                                 % (name, shape, v.shape))
            if dtype is not v.dtype:
                raise ValueError("Trying to share variable %s, but specified dtype %s and found dtype %s."
                                 % (name, dtype.name, v.dtype.name))
            return v
        if reuse is True:
            raise ValueError("Variable %s does not exist, or was not created with tf.get_variable(). Did you "
                             "mean to set reuse=tf.AUTO_REUSE in VarScope?" % name)
        if trainable is None:
            trainable = True
        if initializer is None:
            initializer = _default_initializer(name, dtype)
        var_dtype = dtype
        if from_value:
            init_val = initializer
            var_dtype = None  # the value decides
        else:
            if isinstance(initializer, type):
                initializer = initializer(dtype=dtype)
            if shape is not None and shape.is_fully_defined():
                init_shape = shape.as_list()

                def init_val():
                    return initializer(init_shape, dtype=dtype, partition_info=None)
            elif _takes_no_arguments(initializer):
                init_val = initializer
                var_dtype = None
            else:
                raise ValueError("Shape of a new variable (%s) must be fully defined, but instead was %s."
                                 % (name, shape if shape is not None else "<unknown>"))
        v = Variable(initial_value=init_val, name=name, trainable=trainable, collections=collections,
                     validate_shape=validate_shape, dtype=var_dtype, constraint=constraint)
        self.vars[name] = v
        if regularizer is not None:
            with ops.name_scope(name + "/Regularizer/"):
                loss = regularizer(v)
            if loss is not None:
                ops.add_to_collection(ops.GraphKeys.REGULARIZATION_LOSSES, loss)
        return v


def _takes_no_arguments(fn):
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return False
    return all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params)


def _default_initializer(name, dtype):
    if dtype.is_floating:
        return init_ops.glorot_uniform_initializer()
    if dtype.is_integer or dtype.is_bool or dtype.is_unsigned:
        return init_ops.zeros_initializer()
    raise ValueError("An initializer for variable %s of %s is required" % (name, dtype.base_dtype))


class _EagerVariableStore(_VariableStore):
    """`get_variable` in eager mode creates a new variable at each call and never reuses, as TF
    without an EagerVariableStore."""

    def get_variable(self, name, *args, reuse=None, **kwargs):
        if reuse:
            raise RuntimeError("When eager execution is enabled variable reuse is only supported when an "
                               "EagerVariableStore is active. See the documentation on EagerVariableStore "
                               "for example usage.")
        v = super().get_variable(name, *args, reuse=reuse, **kwargs)
        self.vars.pop(name, None)
        return v


def _store(graph=None):
    """The variable store of the graph where variables are created (the eager graph's reuses none)."""
    g = outermost_graph(graph)
    if g._var_store is None:
        g._var_store = _EagerVariableStore() if g._eager else _VariableStore()
    return g._var_store


def get_variable_scope():
    """The current `VariableScope` (the root scope has name "")."""
    g = ops.get_default_graph()
    if not g._var_scope_stack:
        g._var_scope_stack.append(VariableScope(False))
    return g._var_scope_stack[-1]


def get_variable(name, shape=None, dtype=None, initializer=None, regularizer=None, trainable=None,
                 collections=None, caching_device=None, partitioner=None, validate_shape=True,
                 use_resource=None, custom_getter=None, constraint=None, synchronization=None,
                 aggregation=None):
    """Gets an existing variable (when reusing) or creates a new one named by the variable scope.

    Args:
      name: The variable's name within the current variable scope.
      shape: Its shape (required unless `initializer` is a value).
      dtype: Its type (default: the scope's, float32).
      initializer: An initializer, a callable `(shape, dtype, partition_info)`, a tensor or a value
        (default: the scope's, else glorot_uniform for floats and zeros for ints).
      regularizer: `variable -> loss`, added to REGULARIZATION_LOSSES.
      trainable: Add to TRAINABLE_VARIABLES (default True).
      collections: Collections (default GLOBAL_VARIABLES).
      validate_shape, custom_getter, constraint, ...: As in TF.

    Returns:
      The `Variable`.

    Raises:
      ValueError: When creating a variable that exists without reuse, reusing one that does not
        exist, sharing with a different shape or dtype, or creating with an undefined shape.
    """
    return get_variable_scope().get_variable(
        _store(), name, shape=shape, dtype=dtype, initializer=initializer, regularizer=regularizer,
        trainable=trainable, collections=collections, validate_shape=validate_shape, custom_getter=custom_getter,
        constraint=constraint)


def get_local_variable(name, shape=None, dtype=None, initializer=None, regularizer=None, trainable=False,
                       collections=None, **kwargs):
    """`get_variable` into LOCAL_VARIABLES (not trainable)."""
    collections = list(collections or []) + [ops.GraphKeys.LOCAL_VARIABLES]
    return get_variable(name, shape=shape, dtype=dtype, initializer=initializer, regularizer=regularizer,
                        trainable=False, collections=collections, **kwargs)


@contextlib.contextmanager
def variable_scope(name_or_scope, default_name=None, values=None, initializer=None, regularizer=None,
                   caching_device=None, partitioner=None, custom_getter=None, reuse=None, dtype=None,
                   use_resource=None, constraint=None, auxiliary_name_scope=True):
    """Opens a variable scope (and a matching name scope), as `tf.variable_scope`.

    Args:
      name_or_scope: A name or a `VariableScope` to re-enter.
      default_name: Made unique when `name_or_scope` is None.
      values: Tensors deciding the graph.
      reuse: True, tf.AUTO_REUSE, or None to inherit.
      initializer, regularizer, dtype, custom_getter, ...: Defaults for variables inside.

    Raises:
      ValueError: If both `name_or_scope` and `default_name` are None, or `reuse` is invalid.
    """
    if name_or_scope is None and default_name is None:
        raise ValueError("If default_name is None then name_or_scope is required")
    if reuse not in (None, True, False) and reuse is not AUTO_REUSE:
        raise ValueError("The reuse parameter must be True or False or None.")
    if reuse is False:
        reuse = None
    g = ops._graph_of(values)
    with g.as_default():
        store = _store(g)
        parent = get_variable_scope()
        if isinstance(name_or_scope, VariableScope):
            full = name_or_scope.name
            # Re-entering a scope object opens a fresh name scope named after its last component.
            last = full.rsplit("/", 1)[-1]
            name_ctx = g.name_scope(last) if auxiliary_name_scope and last else contextlib.nullcontext("")
            base = name_or_scope
        else:
            if name_or_scope is not None:
                if not isinstance(name_or_scope, str):
                    raise TypeError("VariableScope: name_or_scope must be a string or VariableScope.")
                full = parent.name + "/" + name_or_scope if parent.name else name_or_scope
                ns = name_or_scope
            else:
                base_name = parent.name + "/" + default_name if parent.name else default_name
                full = base_name
                if store.scope_counts.get(base_name, 0):
                    idx = 1
                    while store.scope_counts.get("%s_%d" % (base_name, idx), 0):
                        idx += 1
                    full = "%s_%d" % (base_name, idx)
                ns = full[len(parent.name) + 1:] if parent.name else full  # "a/b" stays "a/b", as TF
            name_ctx = g.name_scope(ns) if auxiliary_name_scope else contextlib.nullcontext("")
            base = parent
        store.scope_counts[full] = store.scope_counts.get(full, 0) + 1
        saved_counts = dict(store.scope_counts) if isinstance(name_or_scope, VariableScope) else None
        with name_ctx as ns_str:
            if reuse is None:
                new_reuse = True if parent.reuse is True or (isinstance(name_or_scope, VariableScope) and
                                                              name_or_scope.reuse is True) else parent.reuse
                if new_reuse is None:
                    new_reuse = False
            else:
                new_reuse = reuse
            scope = VariableScope(
                new_reuse, name=full,
                initializer=initializer if initializer is not None else base.initializer,
                regularizer=regularizer if regularizer is not None else base.regularizer,
                caching_device=caching_device or base.caching_device,
                partitioner=partitioner or base.partitioner,
                custom_getter=_compose_getters(custom_getter, base.custom_getter),
                name_scope=name_or_scope.original_name_scope if isinstance(name_or_scope, VariableScope)
                else ns_str,
                dtype=dtype if dtype is not None else base.dtype,
                use_resource=use_resource, constraint=constraint or base.constraint)
            g._var_scope_stack.append(scope)
            try:
                yield scope
            finally:
                g._var_scope_stack.pop()
                # Leaving a named scope resets the unique-name counts of its sub-scopes, so
                # re-entering it names unnamed layers `dense`, ... again (TF's close_variable_subscopes).
                if saved_counts is not None:
                    store.scope_counts = saved_counts
                else:
                    prefix = full + "/"
                    for k in store.scope_counts:
                        if k.startswith(prefix):
                            store.scope_counts[k] = 0


def _compose_getters(inner, outer):
    if inner is None:
        return outer
    if outer is None:
        return inner

    def composed(getter, *args, **kwargs):
        return inner(functools.partial(outer, getter), *args, **kwargs)
    return composed


def variable_op_scope(values, name_or_scope, default_name=None, **kwargs):
    return variable_scope(name_or_scope, default_name=default_name, values=values, **kwargs)


class Template:
    """A function wrapped so its first call creates variables and later calls reuse them."""

    def __init__(self, name, func, create_scope_now=False, unique_name=None, custom_getter=None):
        self._name = name
        self._func = func
        self._unique_name = unique_name
        self._custom_getter = custom_getter
        self._variable_scope = None
        self._variables_created = False
        if create_scope_now:
            with variable_scope(self._unique_name, default_name=self._name,
                                custom_getter=custom_getter) as vs:
                self._variable_scope = vs

    def __call__(self, *args, **kwargs):
        if self._variable_scope is not None:
            reuse = True if self._variables_created else None
            with variable_scope(self._variable_scope, reuse=reuse, custom_getter=self._custom_getter):
                out = self._func(*args, **kwargs)
        else:
            with variable_scope(self._unique_name, default_name=self._name,
                                custom_getter=self._custom_getter) as vs:
                self._variable_scope = vs
                out = self._func(*args, **kwargs)
        self._variables_created = True
        return out

    @property
    def name(self):
        return self._name

    @property
    def variable_scope(self):
        return self._variable_scope

    @property
    def variable_scope_name(self):
        return self._variable_scope.name if self._variable_scope else None

    @property
    def variables(self):
        return self.global_variables

    @property
    def global_variables(self):
        if self._variable_scope is None:
            return []
        return global_variables(self._variable_scope.name + "/")

    @property
    def trainable_variables(self):
        if self._variable_scope is None:
            return []
        return trainable_variables(self._variable_scope.name + "/")


def make_template(name_, func_, create_scope_now_=False, unique_name_=None, custom_getter_=None, **kwargs):
    """Wraps `func_` so that all calls share the variables its first call created.

    Returns:
      A `Template` callable.
    """
    if kwargs:
        func_ = functools.partial(func_, **kwargs)
    return Template(name_, func_, create_scope_now=create_scope_now_, unique_name=unique_name_,
                    custom_getter=custom_getter_)
