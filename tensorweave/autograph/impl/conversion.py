"""The conversion pipeline: parse a function, apply the converters, compile the result with the
user's file name and line numbers, and bind it to the function's globals and closure."""

import ast
import threading
import types
import weakref

from ..converters import (
    asserts,
    break_statements,
    call_trees,
    conditional_expressions,
    continue_statements,
    control_flow,
    directives,
    function_scopes,
    lists,
    logical_expressions,
    print_statements,
    return_statements,
)
from ..core import converter
from ..pyct import blocks, origin_info, parser, static_analysis, templates


class ConversionError(Exception):
    """Raised when AutoGraph cannot convert a function; the message names the source location."""


_lock = threading.RLock()
_code_cache = {}  # (code object, options key) -> _Entry
_fn_cache = weakref.WeakKeyDictionary()  # function -> {options key: converted function}
_ag_module = None


class _Entry:
    __slots__ = ("factory", "node", "name")

    def __init__(self, factory, node, name):
        self.factory = factory
        self.node = node
        self.name = name


def ag_module():
    """The namespace generated code calls `ag__`."""
    global _ag_module
    if _ag_module is None:
        from .. import operators
        from ..core.function_wrappers import FunctionScope
        from . import api
        ns = {k: getattr(operators, k) for k in operators.__all__}
        ns.update(FunctionScope=FunctionScope, ConversionOptions=converter.ConversionOptions,
                  converted_call=api.converted_call)
        _ag_module = types.SimpleNamespace(**ns)
    return _ag_module


def _unsupported(node):
    """Raises NotImplementedError (with `ag_lineno`) for constructs AutoGraph cannot convert."""
    def fail(n, msg):
        e = NotImplementedError(msg)
        e.ag_lineno = getattr(n, "lineno", node.lineno)
        raise e

    stack = list(node.body)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(n, (ast.Yield, ast.YieldFrom)):
            fail(n, "generators are not supported (line %d yields)" % n.lineno)
        if isinstance(n, (ast.Await, ast.AsyncFor, ast.AsyncWith)):
            fail(n, "async code is not supported")
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "super" and not n.args:
            fail(n, "super() without arguments is not supported; use super(Class, self)")
        if isinstance(n, ast.Name) and n.id == "ag__" or isinstance(n, ast.arg) and n.arg == "ag__":
            fail(n, "the name 'ag__' is reserved for AutoGraph")
        stack.extend(ast.iter_child_nodes(n))


def _hoist_declarations(node, ctx):
    """Removes the function's `global`/`nonlocal` statements; returns them for the top of the body."""
    decls = []

    def visit(stmts):
        kept = []
        for s in stmts:
            if isinstance(s, ast.Global):
                ctx.globals.update(s.names)
                decls.append(s)
                continue
            if isinstance(s, ast.Nonlocal):
                ctx.nonlocals.update(s.names)
                decls.append(s)
                continue
            for b in blocks.sub_blocks(s):
                if b:
                    b[:] = visit(b) or [ast.Pass()]
            kept.append(s)
        return kept

    node.body = visit(node.body) or [ast.Pass()]
    return decls


def transform(fn, options):
    """Converts the function `fn`.

    Returns:
      `(node, ctx)`: the converted `ast.FunctionDef` (named `tf__<name>`) and its `Context`.

    Raises:
      ValueError, NotImplementedError: If the function cannot be converted.
    """
    node, info = parser.parse_entity(fn)
    ctx = converter.Context(fn, node, info, options)
    _unsupported(node)
    for n in ast.walk(node):
        if n is not node and isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            n._ag_user_def = True
            ctx.closure_reads |= {static_analysis.root(s) for s in static_analysis.function_free_reads(n)}
    node.decorator_list = []
    node.returns = None
    a = node.args
    for arg in a.posonlyargs + a.args + a.kwonlyargs + [x for x in (a.vararg, a.kwarg) if x is not None]:
        arg.annotation = None
    # Defaults come from the function object, not from re-evaluating their expressions.
    a.defaults = []
    a.kw_defaults = [None] * len(a.kwonlyargs)
    docstring = None
    if (node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
            and isinstance(node.body[0].value.value, str)):
        docstring = node.body.pop(0)
        if not node.body:
            node.body = [ast.copy_location(ast.Pass(), docstring)]
    decls = _hoist_declarations(node, ctx)
    node.name = "tf__" + ctx.name

    lists.transform(node, ctx)
    directives.transform(node, ctx)
    break_statements.transform(node, ctx)
    asserts.transform(node, ctx)
    continue_statements.transform(node, ctx)
    return_statements.transform(node, ctx)
    print_statements.transform(node, ctx)
    call_trees.transform(node, ctx)
    static_analysis.analyze(node)
    control_flow.transform(node, ctx)
    conditional_expressions.transform(node, ctx)
    logical_expressions.transform(node, ctx)
    function_scopes.transform(node, ctx, docstring, decls)
    ast.fix_missing_locations(node)
    return node, ctx


def _compile(fn, node, ctx):
    """Compiles the converted function inside a factory taking `ag__` and the closure's names."""
    factory = templates.replace("""
        def ag__factory(ag__):
            fn_def
            return fn_name
    """, location=node, fn_def=node, fn_name=node.name)[0]
    factory.args.args += [ast.arg(arg=v) for v in fn.__code__.co_freevars]
    module = ast.Module(body=[factory], type_ignores=[])
    ast.fix_missing_locations(module)
    code = compile(module, ctx.source_info.filename, "exec", dont_inherit=True)
    origin_info.register(code, ctx.name)
    namespace = {}
    exec(code, fn.__globals__, namespace)  # the user's own function, converted; not file data
    return namespace["ag__factory"]


def _entry(fn, options):
    key = (fn.__code__, options.key)
    with _lock:
        entry = _code_cache.get(key)
    if entry is not None:
        return entry
    try:
        node, ctx = transform(fn, options)
        factory = _compile(fn, node, ctx)
    except Exception as e:
        lineno = getattr(e, "ag_lineno", None) or fn.__code__.co_firstlineno
        filename = fn.__code__.co_filename
        err = ConversionError('converting %r: %s: %s\n  File "%s", line %d' % (fn, type(e).__name__, e, filename,
                                                                                lineno))
        err.__cause__ = e
        origin_info.raise_at(err, filename, lineno)
    entry = _Entry(factory, node, ctx.name)
    with _lock:
        _code_cache[key] = entry
    return entry


def convert_function(fn, options):
    """The converted version of the Python function `fn` (cached).

    Raises:
      ConversionError: If `fn` cannot be converted.
    """
    with _lock:
        per_fn = _fn_cache.get(fn)
        if per_fn is not None and options.key in per_fn:
            return per_fn[options.key]
    entry = _entry(fn, options)
    ag = ag_module()
    code = fn.__code__
    inner = entry.factory(ag, *([None] * len(code.co_freevars)))
    closure = []
    for name in inner.__code__.co_freevars:
        if name == "ag__":
            closure.append(types.CellType(ag))
        else:
            closure.append(fn.__closure__[code.co_freevars.index(name)])
    new = types.FunctionType(inner.__code__, fn.__globals__, inner.__name__, fn.__defaults__,
                             tuple(closure) if closure else None)
    new.__kwdefaults__ = dict(fn.__kwdefaults__) if fn.__kwdefaults__ else None
    new.__dict__.update(fn.__dict__)
    new.__doc__ = fn.__doc__
    new.__module__ = fn.__module__
    new.__qualname__ = fn.__qualname__
    new._ag_converted = True
    new.ag_source_node = entry.node
    with _lock:
        _fn_cache.setdefault(fn, {})[options.key] = new
    return new


def source_of(fn, options, indentation="  "):
    """The source code of the converted `fn` (a string)."""
    return parser.unparse(_entry(fn, options).node, indentation)


def clear_cache():
    """Forgets every conversion (the next call of a converted function converts it again)."""
    with _lock:
        _code_cache.clear()
        _fn_cache.clear()
