"""`KernelContext`: what a stateful kernel receives as `ctx`, and the runtime services it offers.

A stateful kernel is `(ctx, op, *arrays, **attrs)` (see `framework/registry.py`). `ctx` holds the
state of whoever runs the op: a Session (`client.session.SessionState`), the eager context or a
`tf.function` call (`eager.context.KernelState`), all of them this class:

- `variables`: variable values by key (`read_variable` raises FailedPreconditionError for a
  missing one); `op_state`: per-op state (random streams, iterators, compiled function bodies);
  `lock`; `replaying` (> 0 while a gradient re-runs forward ops of a loop body or branch);
- `plan_options` (a `codegen.PlanOptions`, None for the defaults) and `interpret` (run function
  bodies with the reference interpreter), which the session sets from its config.

Ops that run function graphs (the branches of `If`, the body of `While`, a dataset's map function)
do it through the services here, so `ops/` never imports the runtime: `compile_function(fn)`,
`call_function(fn, args)` and `compile_loop(cond_fn, body_fn, n_vars)`. A function is any object
with `inputs` (the placeholders it is fed) and `outputs` (the tensors it returns), such as
`ops.control_flow_ops.Function`.
"""

import threading

import numpy as np

from ..framework import errors
from . import codegen, loopgen, plan

__all__ = ["KernelContext"]


class KernelContext:
    """The state and services a stateful kernel reaches through `ctx` (see the module docstring).

    Args:
      variables: The dict of variable values by key (a new one when None).
      op_state: The per-op state mapping (a new dict when None).
      session: The Session running the ops, or None.
    """

    def __init__(self, variables=None, op_state=None, session=None):
        self.session = session
        self.variables = {} if variables is None else variables
        self.op_state = {} if op_state is None else op_state
        self.xp = np
        self.lock = threading.RLock()
        self.replaying = 0
        self.plan_options = None
        self.interpret = False

    def read_variable(self, key, op=None):
        """The value of the variable `key`.

        Raises:
          FailedPreconditionError: If it has no value.
        """
        try:
            return self.variables[key]
        except KeyError:
            raise errors.FailedPreconditionError(
                None, op, "Attempting to use uninitialized value %s" % key) from None

    def compile_function(self, fn):
        """`fn`'s plan (`plan.fn(args) -> tuple of outputs`), compiled on first use and kept in `op_state`."""
        key = ("function", id(fn))
        c = self.op_state.get(key)
        if c is None:
            order = plan.prune_and_order(fn.outputs, [], fn.inputs)
            compile_fn = codegen.interpret_plan if self.interpret else codegen.compile_plan
            c = self.op_state[key] = compile_fn(order, fn.outputs, fn.inputs, self)
        return c

    def call_function(self, fn, args):
        """Runs `fn` on the list `args` and returns the tuple of its outputs.

        Raises:
          tf.errors.OpError: If an op inside fails, naming that op.
        """
        c = self.compile_function(fn)
        try:
            return c.fn(args)
        except Exception as e:
            err = errors.wrap_kernel_error(e, c.op_for_traceback(e.__traceback__))
            if err is e:
                raise
            raise err from errors.cause_of(e)

    def compile_loop(self, cond_fn, body_fn, n_vars):
        """A while loop's condition and body merged into one function (`runtime/loopgen.py`), compiled
        on first use, or None when the plans cannot be merged (interpreted ones).

        The loop is `fn(values, cond_captures, body_captures, limit, history) -> (values, iterations)`
        with `op_for_traceback(tb)`; the function inputs after the first `n_vars` are captures.
        """
        key = ("loop", id(cond_fn), id(body_fn))
        loop = self.op_state.get(key, False)
        if loop is False:
            loop = self.op_state[key] = loopgen.compile_loop(
                self.compile_function(cond_fn), self.compile_function(body_fn), n_vars,
                len(cond_fn.inputs) - n_vars, len(body_fn.inputs) - n_vars)
        return loop
