"""Lists: `z.append(x)` becomes `z = ag__.list_append(z, x)` (a TensorArray write when `z` is a
TensorArray, Python's append otherwise), and the directive `set_element_type(z, dtype)` becomes
`z = ag__.typed_list(z, dtype)`, which turns the list into a TensorArray. Subscripts of such a
list read and write the TensorArray.

Only names local to the converted function (its parameters and the names it binds, as Python
decides: not those it declares `global` or `nonlocal`) are rewritten: rebinding any other name
would make it a local of the converted function. A list defined outside the function (a module
global, a closure variable, an attribute such as `self.x`) keeps Python's semantics: `append`
appends to it in place, and `set_element_type` on it does nothing, as in TensorFlow."""

import ast

from ..core import converter
from ..pyct import templates


def _is_directive(ctx, func, name):
    """Whether the callee expression `func` is the AutoGraph directive `name`."""
    last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    if last != name:
        return False
    value = ctx.resolve(func)
    if value is None:
        return True
    from ..lang import directives
    return value is getattr(directives, name)


def local_names(fn):
    """The names local to the Python function `fn`: its parameters and the variables it binds
    (those its nested functions capture included), not the ones it declares global or nonlocal."""
    code = fn.__code__
    return frozenset(code.co_varnames) | frozenset(code.co_cellvars)


class ListTransformer(converter.Base):

    def __init__(self, ctx, local):
        super().__init__(ctx)
        self.local = local

    def visit_Expr(self, node):
        call = node.value
        if isinstance(call, ast.Call) and call.args and isinstance(call.args[0], ast.Name):
            target = call.args[0].id
            if target in self.local and _is_directive(self.ctx, call.func, "set_element_type"):
                self.generic_visit(node)
                self.ctx.typed_lists.add(target)
                new = templates.replace("target = ag__.typed_list(target)", location=node, target=target)
                new[0].value.args = call.args
                new[0].value.keywords = call.keywords
                return new
        if (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "append"
                and isinstance(call.func.value, ast.Name) and call.func.value.id in self.local
                and len(call.args) == 1 and not call.keywords
                and not isinstance(call.args[0], ast.Starred)):
            self.generic_visit(node)
            return templates.replace("target = ag__.list_append(target, x)", location=node,
                                     target=call.func.value.id, x=call.args[0])
        return self.generic_visit(node)

    def visit_Assign(self, node):
        self.generic_visit(node)
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Subscript):
            t = node.targets[0]
            if isinstance(t.value, ast.Name) and t.value.id in self.ctx.typed_lists:
                return templates.replace("target = ag__.set_item(target, key, value)", location=node,
                                         target=t.value.id, key=t.slice, value=node.value)
        return node

    def visit_Subscript(self, node):
        self.generic_visit(node)
        if (isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.Name)
                and node.value.id in self.ctx.typed_lists):
            return templates.replace_as_expression("ag__.get_item(target, key)", location=node,
                                                   target=node.value.id, key=node.slice)
        return node


def transform(node, ctx):
    """Converts the list operations of the function `node`."""
    local = local_names(ctx.fn)
    # Names marked anywhere in the function are typed lists everywhere (the directive usually
    # follows the list's creation).
    for n in ast.walk(node):
        if (isinstance(n, ast.Call) and n.args and isinstance(n.args[0], ast.Name) and n.args[0].id in local
                and _is_directive(ctx, n.func, "set_element_type")):
            ctx.typed_lists.add(n.args[0].id)
    return ListTransformer(ctx, local).apply(node)
