"""Graph passes on a pruned plan, between constant folding and code generation.

The plan is a list of `plan.Step`s. A pass returns the steps to keep and records in `rename` which
value names now stand for which (an alias costs nothing at run time).

The passes here know no op by name. Rewrites that involve particular ops are registered by the op
families that own them (`registry.register_rewrite`), keyed by the root op type, and run here by
stage (`run_stage`); a fused result is an internal registered op (`FusedOp`), so every step still
runs a registered kernel.

- `simplify_and_cse`: the "simplify" rules (algebraic identities such as `x * 1` -> `x`) and
  common-subexpression elimination: two pure ops of one type with the same inputs and attributes
  compute the same value once.
- `run_stage(stage, ...)`: the rules of the "fuse", "share" and "late" stages.
"""

import numpy as np

from ..framework import registry
from . import fusion
from .plan import Step

__all__ = ["FusedOp", "PlanView", "simplify_and_cse", "run_stage"]


class FusedOp:
    """An op of an internal registered type that a rewrite made of graph ops `ops` (never added to a
    graph). Its outputs' static dtypes and shapes are those of `outputs` (by default the last op's);
    errors its kernel raises are reported against `line_op`, one of `ops`."""

    __slots__ = ("_type", "_op_def", "_attrs", "_inputs", "_outputs", "_name", "ops", "line_op")

    def __init__(self, op_type, attrs, ops, line_op=None, outputs=None):
        self._type = op_type
        self._op_def = registry.get_op_def(op_type)
        self._attrs = attrs
        self.ops = list(ops)
        self.line_op = line_op if line_op is not None else self.ops[-1]
        self._outputs = list(outputs) if outputs is not None else list(self.ops[-1]._outputs)
        self._inputs = ()
        self._name = self.line_op._name

    @property
    def type(self):
        return self._type

    def __repr__(self):
        return "<FusedOp %s of %s>" % (self._type, ", ".join(op._name for op in self.ops))


class PlanView:
    """What a rewrite rule may ask about the plan and do to it.

    `steps` holds `Step`s and, in the "late" stage, elementwise groups (`fusion.FusedGroup`), in
    execution order; `results` the fetched value names; `env` the plan's constants by name.
    """

    def __init__(self, steps, results=(), env=None):
        self.steps = steps
        self.results = results
        self.env = env if env is not None else {}
        self._alive = {id(s) for s in steps}
        self._index = None

    # ---- questions --------------------------------------------------------------------------------
    def const(self, name):
        """The constant value named `name` (an array), or None when `name` is not a constant."""
        if name[0] != "C":
            return None
        v = self.env.get(name)
        return np.asarray(v) if isinstance(v, np.generic) else v

    def uses(self, name):
        """How many times the steps and the fetches read `name`."""
        return self._indexes()[0].get(name, 0)

    def producer(self, name):
        """The `Step` producing `name` (None for feeds, constants and values of elementwise groups)."""
        return self._indexes()[1].get(name)

    def consumer(self, name):
        """The one `Step` that reads `name` when nothing else (no other step, no fetch) does, else None."""
        uses, _, consumer = self._indexes()
        return consumer.get(name) if uses.get(name) == 1 else None

    def alive(self, step):
        return id(step) in self._alive

    def index(self, step):
        for k, s in enumerate(self.steps):
            if s is step:
                return k
        raise ValueError("step not in the plan: %r" % (step,))

    # ---- changes ----------------------------------------------------------------------------------
    def fused(self, op_type, attrs, ops, args, outs, pos, line_op=None, outputs=None):
        """A new step running internal op `op_type` (with `attrs`) in place of graph ops `ops`."""
        return Step(pos, FusedOp(op_type, attrs, ops, line_op, outputs), list(args), list(outs))

    def replace(self, old, new):
        """Puts step `new` where step `old` is."""
        self.steps[self.index(old)] = new
        self._alive.discard(id(old))
        self._alive.add(id(new))
        self._index = None

    def remove(self, step):
        del self.steps[self.index(step)]
        self._alive.discard(id(step))
        self._index = None

    def _indexes(self):
        if self._index is None:
            uses, producer, consumer = {}, {}, {}
            for s in self.steps:
                if isinstance(s, Step):
                    args = s.args
                    for o in s.outs:
                        producer[o] = s
                else:
                    args = fusion.group_inputs(s)
                for a in args:
                    uses[a] = uses.get(a, 0) + 1
                    if isinstance(s, Step):
                        consumer[a] = s
            for r in self.results:
                uses[r] = uses.get(r, 0) + 1
            self._index = uses, producer, consumer
        return self._index


def simplify_and_cse(steps, env, rename, simplify=True, cse=True):
    """Runs the "simplify" rules and CSE in one walk over `steps` (in execution order)."""
    rules = registry.rewrites("simplify") if simplify else {}
    view = PlanView([], (), env)
    seen = {}
    kept = []
    for step in steps:
        op, args, outs = step.op, step.args, step.outs
        if rename:
            args = step.args = [rename.get(a, a) for a in args]
        alias = None
        for _, rule in rules.get(op._type, ()):
            alias = rule(step, view)
            if alias is not None:
                break
        if alias is not None:
            rename[outs[0]] = alias
            continue
        if cse and not op._op_def.stateful and op._inputs and outs:
            key = _cse_key(op, args)
            if key is not None:
                prev = seen.get(key)
                if prev is not None:
                    for o, p in zip(outs, prev):
                        rename[o] = p
                    continue
                seen[key] = outs
        kept.append(step)
    return kept


def _cse_key(op, args):
    try:
        attrs = tuple(sorted((k, _hashable(v)) for k, v in op._attrs.items() if k[0] != "_"))
        key = (op._type, tuple(args), attrs)
        hash(key)
    except TypeError:
        return None
    return key


def _hashable(v):
    if isinstance(v, (list, tuple)):
        return tuple(_hashable(x) for x in v)
    if isinstance(v, np.ndarray):
        if v.size > 1024:
            raise TypeError("too large to compare")
        return ("ndarray", v.dtype.str, v.shape, v.tobytes())
    if isinstance(v, dict):
        raise TypeError("dict attribute")
    return v


def run_stage(stage, steps, results, env):
    """Runs the rules of `stage` over `steps` (from the last step to the first, so the root of a
    chain is its last op) and returns the rewritten list. A rule returns True when it changed the
    plan; the other rules of the step's type are then not tried on it."""
    rules = registry.rewrites(stage)
    if not rules:
        return steps
    view = PlanView(list(steps), results, env)
    for s in reversed(steps):
        if not isinstance(s, Step) or not view.alive(s):
            continue
        for _, rule in rules.get(s.op._type, ()):
            if rule(s, view):
                break
    return view.steps
