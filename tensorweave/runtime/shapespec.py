"""Plans specialized on the shapes that were fed.

A placeholder declared without a full shape (`tf.placeholder(tf.float32)`, `[None, 784]`) leaves
the static shapes downstream unknown, so the plan keeps ops that only compute shapes (`Shape`,
the gradient's `Reshape` back to an input's shape, `SumToShapeOf` of broadcasting gradients).
When a run's fed shapes repeat, the session compiles the plan again with the static shapes those
feeds imply: shape inference runs over the plan with the fed shapes, every pass sees the refined
shapes, and the graph's own shapes are restored afterwards. The graph's lock is held meanwhile,
and every plan compile takes it too, so no op is built and no other plan compiled while the
refined shapes are in place. The result is only used for runs whose fed shapes are exactly the
ones it was compiled for.
"""

from ..framework.tensor_shape import TensorShape

MAX_PLANS = 8  # specialized plans per (fetches, feeds) signature
_MAX_SEEN = 256  # fed-shape combinations remembered while waiting for a repeat


def specializable(feed_tensors, feed_checks):
    """Whether runs with these feeds may get shape-specialized plans: every feed is a placeholder
    (its op has the `placeholder` trait; a fed intermediate's static shape may come from values the
    feed replaces) and one of them has a shape that is not fully defined."""
    return (any(check[3] is False for check in feed_checks)
            and all(t._op._op_def.placeholder for t in feed_tensors))


class Specializations:
    """The specialized plans of one cache entry, by the tuple of fed shapes. A combination gets
    its plan on its second run (a shape seen once, such as a last smaller batch, is not worth a
    compile), at most `MAX_PLANS` of them; other runs use the general plan."""

    __slots__ = ("plans", "seen")

    def __init__(self):
        self.plans = {}
        self.seen = {}

    def plan_for(self, key, general, compile_fn):
        """The plan for fed shapes `key`: compiled with `compile_fn(key)` (None when the shapes
        do not refine) on the combination's second run, else `general`."""
        count = self.seen.get(key, 0) + 1
        if count < 2:
            if len(self.seen) >= _MAX_SEEN:
                self.seen.clear()
            self.seen[key] = count
            return general
        plan = compile_fn(key) if len(self.plans) < MAX_PLANS else None
        self.plans[key] = plan = plan or general
        return plan


class refined:  # noqa: N801 (a context manager used like a function)
    """`with refined(order, feed_tensors, shapes) as ok:` sets the static shape of every tensor
    the plan computes to what shape inference gives with the fed `shapes`, and restores the
    graph's shapes on exit. Holds the graph's lock throughout, so no op is built meanwhile. `ok`
    is False when inference fails or contradicts a static shape: the plan is then compiled
    unspecialized (and the run raises the kernel's error)."""

    def __init__(self, order, feed_tensors, shapes):
        self._order = order
        self._feeds = dict(zip(feed_tensors, shapes))
        self._saved = []
        self._lock = order[0]._graph._lock if order else None

    def __enter__(self):
        if self._lock is None:
            return False
        self._lock.acquire()
        try:
            self._refine()
        except (ValueError, TypeError, LookupError, IndexError):
            self._restore()
            return False
        except BaseException:
            self.__exit__()
            raise
        return True

    def __exit__(self, *exc):
        self._restore()
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def _set(self, t, shape):
        merged = t._shape.merge_with(shape)
        if merged.as_tuple() != t._shape.as_tuple():
            self._saved.append((t, t._shape))
            t._shape = merged
            return True
        return False

    def _refine(self):
        changed = set()
        for t, shape in self._feeds.items():
            if self._set(t, TensorShape(shape)):
                changed.add(t)
        for op in self._order:
            if op._op_def.stateful or not any(t in changed for t in op._inputs):
                continue
            outs = [t for t in op._outputs if t not in self._feeds and not t._shape.is_fully_defined()]
            if not outs:
                continue
            specs = op._op_def.infer(op)
            for t, (_, shape) in zip(op._outputs, specs):
                if t in outs and self._set(t, shape if isinstance(shape, TensorShape) else
                                           TensorShape._from_tuple(shape)):
                    changed.add(t)

    def _restore(self):
        for t, shape in reversed(self._saved):
            t._shape = shape
        self._saved = []
