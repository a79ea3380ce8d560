"""Pruning and ordering: which ops a run needs, in an order that honours data and control edges."""

from ..framework import errors


def prune_and_order(fetch_tensors, target_ops, feed_tensors):
    """Returns the ops needed to compute `fetch_tensors` and run `target_ops`, in execution order.

    Fed tensors cut the graph. Ref inputs (variables being updated) are not dependencies. The order
    is a depth-first post-order that visits control inputs before data inputs, so a read that is
    control-dependent on an update is scheduled after that update, and ties follow creation order
    of the user's fetch list, which makes every run reproducible.
    """
    fed = set(feed_tensors)
    # An op whose every output is fed is replaced by the feed: control edges on it need nothing run.
    fed_ops = {t.op for t in fed if all(o in fed for o in t.op._outputs)}
    order = []
    state = {}  # op -> 1 visiting, 2 done
    roots = [t.op for t in fetch_tensors if t not in fed] + list(target_ops)
    for root in roots:
        if state.get(root) == 2:
            continue
        stack = [(root, iter(_deps(root, fed, fed_ops)))]
        state[root] = 1
        while stack:
            op, it = stack[-1]
            for dep in it:
                s = state.get(dep)
                if s is None:
                    state[dep] = 1
                    stack.append((dep, iter(_deps(dep, fed, fed_ops))))
                    break
                if s == 1:
                    raise errors.InvalidArgumentError(
                        None, dep, "Graph has a cycle through op '%s'" % dep.name)
            else:
                stack.pop()
                state[op] = 2
                order.append(op)
    return order


def _deps(op, fed, fed_ops):
    deps = [c for c in op._control_inputs if c not in fed_ops]
    refs = op._op_def.ref_inputs
    for i, t in enumerate(op._inputs):
        if t in fed or i in refs:
            continue
        deps.append(t._op)
    return deps


def ref_key(op, i):
    """The variable key for ref input `i` of `op`: the name of the variable op it refers to."""
    return op._inputs[i]._op._name


class Step:
    """One step of a compiled plan: `op` (an Operation, an internal fused op, or a runtime-built group
    of steps) run at graph position `pos` on the values named `args`, producing the values named
    `outs`. Value names are the generated function's locals (`t3_0`, fed `f0`) or constants (`C5`);
    "_" is an output nobody reads."""

    __slots__ = ("pos", "op", "args", "outs")

    def __init__(self, pos, op, args, outs):
        self.pos = pos
        self.op = op
        self.args = args
        self.outs = outs

    def __iter__(self):
        return iter((self.pos, self.op, self.args, self.outs))

    def __repr__(self):
        return "<Step %d %s(%s) -> %s>" % (self.pos, getattr(self.op, "_type", None) or type(self.op).__name__,
                                           ", ".join(self.args), ", ".join(self.outs))
