"""Layering is a test, not a hope: no module imports from a layer above its own.

Every ``.py`` file under ``tensorweave/`` is parsed with ``ast``; every import in it counts,
module-level or inside a function (``import x``, ``from . import y``, ``from ..ops import z``,
relative ones resolved against the importing module's package). Each module belongs to the layer
of the longest entry of ``LAYERS`` that prefixes its name (modules named by no entry are
libraries); an import of a module in a higher layer fails the test, naming file and line.
Modules of one layer may import each other.

``LAYERS``, bottom to top:

0. ``platform``: process utilities that know nothing of graphs (the floating-point error state
   kernels run under, BLAS and intra-op thread counts, `tf.sysconfig`), as TF's
   ``tensorflow/python/platform``.
1. ``framework``: dtypes, shapes, Graph/Operation/Tensor, scopes, the op registry, errors (and how
   a kernel's exception names its op), the default-graph and default-session stacks, function
   graphs, `TensorSpec`, the version. It builds ops by type name and knows no op module.
2. ``backends`` and ``kernels``: the array modules a kernel runs on (NumPy, CuPy) and the helpers a
   kernel is written with (``kernels.shard`` over the intra-op threads, ``kernels.jit``, C builds
   for custom-op libraries). Neither knows an op: built-in op kernels (``ops/nn_conv_ops``), the
   runtime's fused kernels and user custom ops all use ``kernels``, so it sits below them.
3. ``ops``: the op families, each op type registered once, with its public constructor (custom
   ops and C kernel libraries too: ``ops.custom_op``, ``ops.load_library``).
4. ``gradients``: ``tf.gradients``, gradient overrides, the numerical checker.
5. ``runtime``: prune, plan, codegen, passes, placement, and ``KernelContext``, the ``ctx`` stateful
   kernels receive, through which control-flow and dataset kernels compile and run function
   graphs (so ``ops`` never imports the runtime). The runtime is generic: it knows ops only
   through their records, so it may not import ``ops`` or ``gradients`` either (``GENERIC``).
6. ``client`` (Session) and ``eager``: the two ways to run ops.
7. the libraries: every other module (variables and variable scopes, train, nn, layers, losses,
   metrics, data, summary, estimator, autograph, contrib, io, testing, ...), written with the
   layers below.
8. the public namespace: ``tensorweave/__init__.py`` and ``compat/``.

Where a lower layer needs a service of a higher one, the higher one installs it: the session
pushes itself on ``framework.ops``' default-session stack, ``gradients_impl`` fills
``framework.graph_gradients`` (for If/While gradient rules), AutoGraph installs itself as
``tf.function``'s converter, the eager graph implements ``tf.custom_gradient``'s eager path.

A second rule: op types and plan rewrites are registered (``register_op``, ``register_rewrite``)
only by modules under ``tensorweave/ops/``.
"""

import ast
import os

import tensorweave

PACKAGE_DIR = os.path.dirname(os.path.abspath(tensorweave.__file__))

LIBRARIES = None  # the layer of every module named by no other entry

LAYERS = [
    ("platform",),
    ("framework",),
    ("backends", "kernels"),
    ("ops",),
    ("gradients",),
    ("runtime",),
    ("client", "eager"),
    LIBRARIES,
    ("", "compat"),  # "" is tensorweave/__init__.py itself
]

# Entries a layer may not import although they sit below it: the runtime runs ops through their
# records (traits, kernels, registered rewrites), never through an op module.
GENERIC = {
    "runtime": ("ops", "gradients"),
}

# Known edges being removed: (importing module, the LAYERS entry it may import for now). Empty:
# the runtime's passes and the backends' kernel lookup no longer import op modules.
ALLOWED_TODO = set()

REGISTERING_CALLS = ("register_op", "register_rewrite")


def _module_name(path):
    rel = os.path.relpath(path, PACKAGE_DIR)
    parts = rel[: -len(".py")].split(os.sep)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(["tensorweave"] + parts)


def _all_modules():
    """{module name: file path} of every .py file in the package."""
    mods = {}
    for dirpath, dirnames, filenames in os.walk(PACKAGE_DIR):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for fn in sorted(filenames):
            if fn.endswith(".py"):
                path = os.path.join(dirpath, fn)
                mods[_module_name(path)] = path
    return mods


def _parse(path):
    with open(path, encoding="utf-8") as f:
        return ast.parse(f.read(), path)


def _imports(path, module, known):
    """(line, imported module) for every tensorweave import in the file at `path`. `from P import
    name` imports the module `P.name` when there is one, else `P`."""
    is_pkg = os.path.basename(path) == "__init__.py"
    package = module if is_pkg else module.rpartition(".")[0]
    for node in ast.walk(_parse(path)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "tensorweave":
                    yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "tensorweave":
                continue
            for alias in node.names:
                sub = target + "." + alias.name
                yield node.lineno, sub if sub in known else target


def _layer_of(module):
    """(layer index, the LAYERS entry that names the module) of a tensorweave module."""
    rest = module.split(".")[1:]
    best = None
    for index, layer in enumerate(LAYERS):
        for prefix in layer or ():
            parts = prefix.split(".") if prefix else []
            if (parts == rest[: len(parts)] if prefix else not rest) and (best is None or len(parts) > best[2]):
                best = (index, prefix, len(parts))
    if best is None:
        return LAYERS.index(LIBRARIES), "<library>"
    return best[0], best[1]


def _violation(module, target):
    """Why `module` may not import `target`, or None."""
    low, own = _layer_of(module)
    high, entry = _layer_of(target)
    if (module, entry) in ALLOWED_TODO:
        return None
    if high > low:
        return "%s (layer %d) imports %s (layer %d, above it)" % (module, low, target, high)
    if entry in GENERIC.get(own, ()):
        return "%s imports %s (%s is generic: GENERIC)" % (module, target, own)
    return None


def forbidden_edges():
    """'file:line: why' for every import of a higher layer (or of a layer GENERIC rules out)."""
    known = _all_modules()
    found = []
    for module, path in sorted(known.items()):
        for line, target in _imports(path, module, known):
            why = _violation(module, target)
            if why is not None:
                found.append("%s:%d: %s" % (os.path.relpath(path, os.path.dirname(PACKAGE_DIR)), line, why))
    return found


def registrations_outside_ops():
    """'file:line: ...' for every register_op/register_rewrite call outside tensorweave/ops/."""
    found = []
    ops_dir = os.path.join(PACKAGE_DIR, "ops") + os.sep
    for module, path in sorted(_all_modules().items()):
        if path.startswith(ops_dir) or module == "tensorweave.framework.registry":
            continue
        for node in ast.walk(_parse(path)):
            if isinstance(node, ast.Call):
                f = node.func
                name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
                if name in REGISTERING_CALLS:
                    rel = os.path.relpath(path, os.path.dirname(PACKAGE_DIR))
                    found.append("%s:%d: %s() outside tensorweave/ops/" % (rel, node.lineno, name))
    return found


def test_no_module_imports_from_a_higher_layer():
    edges = forbidden_edges()
    assert not edges, "imports against the layering (tests/test_layering.py, LAYERS):\n" + "\n".join(edges)


def test_op_types_are_registered_only_under_ops():
    found = registrations_outside_ops()
    assert not found, "\n".join(found)


def test_every_layer_entry_names_a_module():
    known = _all_modules()
    for layer in LAYERS:
        for prefix in layer or ():
            name = "tensorweave" + ("." + prefix if prefix else "")
            assert name in known, "LAYERS names %s, which does not exist" % name
    for own, entries in GENERIC.items():
        for name in (own,) + entries:
            assert "tensorweave." + name in known, "GENERIC names %s, which does not exist" % name


def test_allowed_todo_entries_are_still_needed():
    """An entry whose edge is gone must be removed, so the list only shrinks."""
    known = _all_modules()
    live = set()
    for module, path in known.items():
        for _, target in _imports(path, module, known):
            live.add((module, _layer_of(target)[1]))
    stale = sorted(e for e in ALLOWED_TODO if e not in live)
    assert not stale, "ALLOWED_TODO entries without an import left: %s" % stale


def test_the_scan_resolves_relative_and_function_level_imports(tmp_path):
    src = tmp_path / "m.py"
    src.write_text("from . import ops\nfrom ..ops import core_ops\n\n\ndef f():\n"
                   "    from ..client.session import Session\n    import tensorweave.runtime.codegen\n")
    known = set(_all_modules())
    got = list(_imports(str(src), "tensorweave.framework.m", known))
    assert got == [(1, "tensorweave.framework.ops"), (2, "tensorweave.ops.core_ops"),
                   (6, "tensorweave.client.session"), (7, "tensorweave.runtime.codegen")]
    assert [_layer_of(t)[0] for _, t in got] == [1, 3, 6, 5]
    assert _layer_of("tensorweave")[0] == len(LAYERS) - 1
    assert _layer_of("tensorweave.train.saver")[1] == "<library>"


def test_what_counts_as_a_violation():
    assert _violation("tensorweave.framework.ops", "tensorweave.client.session")  # upward
    assert _violation("tensorweave.train.meta_graph", "tensorweave")  # a library importing the namespace
    assert _violation("tensorweave.runtime.passes", "tensorweave.ops.nn_conv_ops")  # below, but generic
    assert _violation("tensorweave.runtime.fusion", "tensorweave.kernels.shard") is None
    assert _violation("tensorweave.ops.math_ops", "tensorweave.ops.array_ops") is None  # peers
    assert _violation("tensorweave.client.session", "tensorweave.eager.context") is None  # peers
    assert _violation("tensorweave.variables", "tensorweave.eager.context") is None  # downward


if __name__ == "__main__":
    print("\n".join(forbidden_edges() + registrations_outside_ops()))
