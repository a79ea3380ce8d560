"""Candidate samplers (`tf.nn.*_candidate_sampler`, `tf.random.*_candidate_sampler`) and
`tf.nn.compute_accidental_hits`, as TF's range samplers (tensorflow/core/kernels/range_sampler.cc).

Each sampler op draws `num_sampled` candidates from [0, range_max) (without repeats when
`unique`) and reports the expected count of each true class and each sampled candidate in a
batch: `p * num_sampled` when no draw was rejected, else `1 - (1 - p) ** num_tries` (TF's
formula, in float32 with the C library's `log1pf`/`expm1f`, as TF computes it), where
`num_tries` is the number of draws it took. The draws come from the op's own stream (seeded as
the other random ops, `random_ops`), so they follow TF's distributions, not TF's bit stream. The
learned unigram sampler counts each true class it sees after each run, in the session's state.
"""

import collections
import math

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import NO_GRADIENT, register_op
from . import random_philox
from .random_ops import _generator, _seed_attrs

__all__ = ["uniform_candidate_sampler", "log_uniform_candidate_sampler", "learned_unigram_candidate_sampler",
           "fixed_unigram_candidate_sampler", "all_candidate_sampler", "compute_accidental_hits"]

_SAMPLER_OUTPUTS = ("sampled_candidates", "true_expected_count", "sampled_expected_count")
_INT32_MAX = 2 ** 31 - 1


def _check_min(op_type, attrs, names):
    for name in names:
        if attrs[name] < 1:
            raise ValueError("Attr '%s' of '%s' Op passed %d less than minimum 1." % (name, op_type, attrs[name]))


def _check_true_classes(true_classes, op_type):
    if true_classes.dtype is not dtypes.int64:
        raise TypeError("Input 'true_classes' of '%s' Op has type %s that does not match expected type of int64."
                        % (op_type, true_classes.dtype.name))
    rank = true_classes.shape.ndims
    if rank is not None and rank != 2:
        raise ValueError("Shape must be rank 2 but is rank %d for '%s' (op: '%s')"
                         % (rank, true_classes.op.name, op_type))


def _sampler_infer(op):
    true_classes = op._inputs[0]
    attrs = op._attrs
    _check_true_classes(true_classes, op.type)
    _check_min(op.type, attrs, [n for n in ("num_true", "num_sampled", "range_max") if n in attrs])
    dims = true_classes.shape.as_tuple()
    batch = None if dims is None else dims[0]
    n = attrs["num_sampled"]
    return [(dtypes.int64, (n,)), (dtypes.float32, (batch, attrs["num_true"])), (dtypes.float32, (n,))]


def _check_runtime(true_classes, num_true, num_sampled, unique, range_size):
    if true_classes.ndim != 2:
        raise errors.InvalidArgumentError(None, None, "true_classes must be a matrix")
    if true_classes.shape[1] != num_true:
        raise errors.InvalidArgumentError(None, None, "true_classes must have num_true columns, expected: %d was: %d"
                                          % (true_classes.shape[1], num_true))
    if unique and num_sampled > range_size:
        raise errors.InvalidArgumentError(None, None, "Sampler's range is too small.")


def _expected_count(p, batch_size, num_tries):
    """TF's `ExpectedCountHelper` on a float32 array of probabilities."""
    p = np.asarray(p, np.float32)
    if num_tries == batch_size:
        return p * np.float32(batch_size)
    inner = np.float32(num_tries) * random_philox.call_float("log1pf", -p)
    return -random_philox.call_float("expm1f", inner)


def _draw(sample, rng, num_sampled, unique):
    """(candidates, num_tries): `num_sampled` draws of `sample(rng, n)`, without repeats if `unique`."""
    if not unique:
        return np.asarray(sample(rng, num_sampled), np.int64), num_sampled
    picked, seen, tries = [], set(), 0
    while len(picked) < num_sampled:
        for v in sample(rng, max(2 * (num_sampled - len(picked)), 16)).tolist():
            tries += 1
            if v not in seen:
                seen.add(v)
                picked.append(v)
                if len(picked) == num_sampled:
                    break
    return np.asarray(picked, np.int64), tries


def _run_sampler(rng, true_classes, num_true, num_sampled, unique, range_size, sample, probability):
    _check_runtime(true_classes, num_true, num_sampled, unique, range_size)
    candidates, tries = _draw(sample, rng, num_sampled, unique)
    true_count = _expected_count(probability(true_classes.reshape(-1)), num_sampled, tries)
    sampled_count = _expected_count(probability(candidates), num_sampled, tries)
    return candidates, true_count.reshape(true_classes.shape), sampled_count


# ---- Uniform ---------------------------------------------------------------------------------
def _uniform_kernel(ctx, op, true_classes, num_true, num_sampled, unique, range_max, seed, seed2):
    inv_range = np.float32(1.0 / range_max)
    return _run_sampler(_generator(ctx, op, seed, seed2), true_classes, num_true, num_sampled, unique, range_max,
                        lambda rng, n: rng.integers(0, range_max, n),
                        lambda v: np.full(v.shape, inv_range, np.float32))


# ---- Log-uniform (Zipfian) -------------------------------------------------------------------
_vlog = np.frompyfunc(math.log, 1, 1)
_vexp = np.frompyfunc(math.exp, 1, 1)


def _log_uniform_kernel(ctx, op, true_classes, num_true, num_sampled, unique, range_max, seed, seed2):
    log_range = math.log1p(range_max)

    def sample(rng, n):
        u = rng.random(n) * log_range
        values = np.asarray(_vexp(u), np.float64).astype(np.int64) - 1
        return values % range_max

    def probability(v):
        v = v.astype(np.float64)
        if v.size == 0:
            return np.zeros(v.shape, np.float32)
        return (np.asarray(_vlog((v + 2.0) / (v + 1.0)), np.float64) / log_range).astype(np.float32)

    return _run_sampler(_generator(ctx, op, seed, seed2), true_classes, num_true, num_sampled, unique, range_max,
                        sample, probability)


# ---- Unigram samplers ------------------------------------------------------------------------
def _unigram_sample(weights):
    total = weights.astype(np.float64).sum()
    cdf = np.cumsum(weights.astype(np.float64))

    def sample(rng, n):
        return np.minimum(np.searchsorted(cdf, rng.random(n) * total, side="right"), weights.size - 1)
    return sample


def _weight_lookup(weights, total):
    """TF's unigram `Probability`: float32(weight) / float32(total), 0 outside the weights."""
    w32 = weights.astype(np.float32)
    total = np.float32(total)

    def probability(v):
        ok = (v >= 0) & (v < w32.size)
        w = w32[np.clip(v, 0, w32.size - 1)]
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(ok, w / total, np.float32(0)).astype(np.float32)
    return probability


def _learned_kernel(ctx, op, true_classes, num_true, num_sampled, unique, range_max, seed, seed2):
    if range_max >= _INT32_MAX:
        raise errors.InvalidArgumentError(None, None, "range_max must be less than %d, got %d"
                                          % (_INT32_MAX, range_max))
    rng = _generator(ctx, op, seed, seed2)
    key = (op, "unigram_weights")
    weights = ctx.op_state.get(key)
    if weights is None:
        weights = np.ones(range_max, np.int64)
        ctx.op_state[key] = weights
    _check_runtime(true_classes, num_true, num_sampled, unique, range_max)
    flat = true_classes.reshape(-1)
    bad = (flat < 0) | (flat >= range_max)
    if bad.any():
        raise errors.InvalidArgumentError(None, None, "true class %d is outside the sampler's range [0, %d)"
                                          % (flat[bad][0], range_max))
    total = int(weights.sum())
    probability = _weight_lookup(weights, total)
    out = _run_sampler(rng, true_classes, num_true, num_sampled, unique, range_max, _unigram_sample(weights),
                       probability)
    # TF's Update: each true class (in order) gains a count, the total staying below 2**31 - 1.
    num_updates = min(flat.size, _INT32_MAX - total)
    np.add.at(weights, flat[:num_updates], 1)
    return out


def _fixed_weights(range_max, vocab_file, distortion, num_reserved_ids, num_shards, shard, unigrams):
    """TF's FixedUnigramSampler weights (float32, with powf distortion) and their float32 total."""
    if not vocab_file and not unigrams:
        raise errors.InvalidArgumentError(None, None, "Must provide either vocab_file or unigrams.")
    if vocab_file and unigrams:
        raise errors.InvalidArgumentError(None, None, "Must only provide one of vocab_file and unigrams.")
    reserved = [0.0 for word_id in range(num_reserved_ids) if word_id % num_shards == shard]
    if vocab_file:
        raw = []
        try:
            with open(vocab_file, "r", encoding="utf-8") as f:
                lines = f.read().splitlines()
        except OSError as e:
            raise errors.NotFoundError(None, None, "%s; No such file or directory" % vocab_file) from e
        for line in lines:
            raw.append((line, line.split(",")[-1]))
    else:
        raw = [(None, w) for w in unigrams]
    kept = []
    word_id = len(reserved)
    for line, w in raw:
        if word_id % num_shards == shard:
            if line is not None:
                try:
                    w = float(w.strip())
                except ValueError:
                    raise errors.InvalidArgumentError(None, None, "Wrong vocabulary format at line: %s" % line) \
                        from None
            kept.append(w)
        word_id += 1
    kept = random_philox.call_float("powf", np.asarray(kept, np.float32), np.float32(distortion)) if kept else \
        np.zeros(0, np.float32)
    weights = np.concatenate([np.asarray(reserved, np.float32), kept.astype(np.float32)])
    total = np.cumsum(kept.astype(np.float32), dtype=np.float32)[-1] if kept.size else np.float32(0)
    if weights.size != range_max:
        raise errors.InvalidArgumentError(None, None, "range is %d must be equal to weights size  %d"
                                          % (range_max, weights.size))
    return weights, np.float32(total)


def _fixed_kernel(ctx, op, true_classes, num_true, num_sampled, unique, range_max, vocab_file, distortion,
                  num_reserved_ids, num_shards, shard, unigrams, seed, seed2):
    key = (op, "fixed_unigram_weights")
    cached = ctx.op_state.get(key)
    if cached is None:
        cached = _fixed_weights(range_max, vocab_file, distortion, num_reserved_ids, num_shards, shard, unigrams)
        ctx.op_state[key] = cached
    weights, total = cached
    return _run_sampler(_generator(ctx, op, seed, seed2), true_classes, num_true, num_sampled, unique, range_max,
                        _unigram_sample(weights), _weight_lookup(weights, total))


def _all_kernel(ctx, op, true_classes, num_true, num_sampled, unique, seed, seed2):
    if true_classes.ndim != 2:
        raise errors.InvalidArgumentError(None, None, "true_classes must be a matrix")
    if true_classes.shape[1] != num_true:
        raise errors.InvalidArgumentError(None, None, "true_classes must have num_true columns, expected: %d was: %d"
                                          % (true_classes.shape[1], num_true))
    return (np.arange(num_sampled, dtype=np.int64), np.ones(true_classes.shape, np.float32),
            np.ones(num_sampled, np.float32))


for _type, _kernel in (("UniformCandidateSampler", _uniform_kernel),
                       ("LogUniformCandidateSampler", _log_uniform_kernel),
                       ("LearnedUnigramCandidateSampler", _learned_kernel),
                       ("FixedUnigramCandidateSampler", _fixed_kernel),
                       ("AllCandidateSampler", _all_kernel)):
    register_op(_type, infer=_sampler_infer, kernel=_kernel, grad=NO_GRADIENT, stateful=True)


def _sampler(op_type, true_classes, attrs, seed, name):
    true_classes = ops.convert_to_tensor(true_classes, name="true_classes")
    attrs = dict(attrs)
    attrs.update(_seed_attrs(seed))
    outputs = ops.apply_op(op_type, [true_classes], attrs, name=name or op_type)
    return collections.namedtuple(op_type, _SAMPLER_OUTPUTS)(*outputs)


_SAMPLER_DOC = """

    Args:
      true_classes: A `Tensor` of type `int64` and shape `[batch_size, num_true]`: the target classes.
      num_true: An `int`. The number of target classes per training example.
      num_sampled: An `int`. The number of classes to randomly sample.
      unique: A `bool`. Whether all sampled classes in a batch are unique.
      range_max: An `int`. The number of possible classes.
      seed: An `int`. An operation-specific seed (see `tf.set_random_seed`).
      name: A name for the operation (optional).

    Returns:
      sampled_candidates: A tensor of type `int64` and shape `[num_sampled]`: the sampled classes.
      true_expected_count: A tensor of type `float32` and the same shape as `true_classes`: the
        expected number of times each target class occurs in `sampled_candidates`.
      sampled_expected_count: A tensor of type `float32` and shape `[num_sampled]`: the expected
        number of times each sampled class occurs in `sampled_candidates`.

    Raises:
      ValueError: If `num_true`, `num_sampled` or `range_max` is below 1, or `true_classes` is not 2-D.
      TypeError: If `true_classes` is not int64.
      InvalidArgumentError: At run time, if `true_classes` does not have `num_true` columns, or
        `unique` is set and `num_sampled > range_max`.
    """


def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None, name=None):
    return _sampler("UniformCandidateSampler", true_classes, {
        "num_true": int(num_true), "num_sampled": int(num_sampled), "unique": bool(unique),
        "range_max": int(range_max)}, seed, name)


uniform_candidate_sampler.__doc__ = ("Samples a set of classes using a uniform base distribution "
                                     "(each class has probability 1 / range_max)." + _SAMPLER_DOC)


def log_uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None, name=None):
    return _sampler("LogUniformCandidateSampler", true_classes, {
        "num_true": int(num_true), "num_sampled": int(num_sampled), "unique": bool(unique),
        "range_max": int(range_max)}, seed, name)


log_uniform_candidate_sampler.__doc__ = (
    "Samples a set of classes using a log-uniform (Zipfian) base distribution: class k has "
    "probability (log(k + 2) - log(k + 1)) / log(range_max + 1)." + _SAMPLER_DOC)


def learned_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None, name=None):
    return _sampler("LearnedUnigramCandidateSampler", true_classes, {
        "num_true": int(num_true), "num_sampled": int(num_sampled), "unique": bool(unique),
        "range_max": int(range_max)}, seed, name)


learned_unigram_candidate_sampler.__doc__ = (
    "Samples a set of classes from a distribution learned during training: every class starts "
    "with a count of 1, and each run adds 1 to the count of each of its true classes (kept in "
    "the session)." + _SAMPLER_DOC)


def fixed_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, vocab_file="",
                                    distortion=1.0, num_reserved_ids=0, num_shards=1, shard=0, unigrams=(),
                                    seed=None, name=None):
    """Samples a set of classes using the provided (fixed) base distribution.

    The weights come from `unigrams` or from `vocab_file` (a CSV file, the weight in each line's
    last field), each raised to the power `distortion`; the first `num_reserved_ids` ids get
    weight 0; with `num_shards > 1`, only the ids of shard `shard` are kept, as TF does.

    Args:
      true_classes: A `Tensor` of type `int64` and shape `[batch_size, num_true]`: the target classes.
      num_true: An `int`. The number of target classes per training example.
      num_sampled: An `int`. The number of classes to randomly sample.
      unique: A `bool`. Whether all sampled classes in a batch are unique.
      range_max: An `int`. The number of possible classes (the number of weights).
      vocab_file: A path to the CSV file of weights (exclusive with `unigrams`).
      distortion: The power applied to each weight.
      num_reserved_ids: Ids before the file's or list's weights, each of weight 0.
      num_shards: The number of shards the ids are split in.
      shard: The shard whose ids are sampled.
      unigrams: A list of weights (exclusive with `vocab_file`).
      seed: An `int`. An operation-specific seed (see `tf.set_random_seed`).
      name: A name for the operation (optional).

    Returns:
      sampled_candidates, true_expected_count, sampled_expected_count: as
      `tf.nn.uniform_candidate_sampler`.

    Raises:
      ValueError: If `num_true`, `num_sampled` or `range_max` is below 1.
      InvalidArgumentError: At run time, if neither or both of `vocab_file` and `unigrams` are
        given, or the number of weights is not `range_max`.
    """
    return _sampler("FixedUnigramCandidateSampler", true_classes, {
        "num_true": int(num_true), "num_sampled": int(num_sampled), "unique": bool(unique),
        "range_max": int(range_max), "vocab_file": vocab_file or "", "distortion": float(distortion),
        "num_reserved_ids": int(num_reserved_ids), "num_shards": int(num_shards), "shard": int(shard),
        "unigrams": tuple(float(u) for u in unigrams)}, seed, name)


def all_candidate_sampler(true_classes, num_true, num_sampled, unique, seed=None, name=None):
    """Generates the set of all classes: `sampled_candidates` is `[0, ..., num_sampled - 1]` and every
    expected count is 1.

    Args:
      true_classes: A `Tensor` of type `int64` and shape `[batch_size, num_true]`: the target classes.
      num_true: An `int`. The number of target classes per training example.
      num_sampled: An `int`. The number of possible classes.
      unique: A `bool`. Ignored.
      seed: An `int`. Ignored (the op has no randomness).
      name: A name for the operation (optional).

    Returns:
      sampled_candidates, true_expected_count, sampled_expected_count: as
      `tf.nn.uniform_candidate_sampler`.
    """
    return _sampler("AllCandidateSampler", true_classes, {
        "num_true": int(num_true), "num_sampled": int(num_sampled), "unique": bool(unique)}, seed, name)


# ---- ComputeAccidentalHits -------------------------------------------------------------------
def _hits_infer(op):
    true_classes, sampled = op._inputs
    _check_true_classes(true_classes, "ComputeAccidentalHits")
    if sampled.dtype is not dtypes.int64:
        raise TypeError("Input 'sampled_candidates' of 'ComputeAccidentalHits' Op has type %s that does not match "
                        "expected type of int64." % sampled.dtype.name)
    rank = sampled.shape.ndims
    if rank is not None and rank != 1:
        raise ValueError("Shape must be rank 1 but is rank %d for '%s' (op: 'ComputeAccidentalHits')"
                         % (rank, sampled.op.name))
    _check_min("ComputeAccidentalHits", op._attrs, ["num_true"])
    return [(dtypes.int32, (None,)), (dtypes.int64, (None,)), (dtypes.float32, (None,))]


def _hits_kernel(xp, true_classes, sampled_candidates, num_true, seed, seed2):
    if true_classes.ndim != 2 or true_classes.shape[1] != num_true:
        raise errors.InvalidArgumentError(None, None, "true_candidates must be a batch_size * num_true matrix")
    if sampled_candidates.ndim != 1:
        raise errors.InvalidArgumentError(None, None, "sampled_candidates must be a vector, which is typically an "
                                          "output from CandidateSampler")
    pos = {}
    for i, v in enumerate(sampled_candidates.tolist()):
        pos[v] = i  # the last position of a repeated candidate, as TF's map
    indices, ids = [], []
    for i, row in enumerate(true_classes.tolist()):
        for v in row:
            j = pos.get(v)
            if j is not None:
                indices.append(i)
                ids.append(j)
    n = len(indices)
    return (np.asarray(indices, np.int32).reshape(n), np.asarray(ids, np.int64).reshape(n),
            np.full(n, -np.finfo(np.float32).max, np.float32))


register_op("ComputeAccidentalHits", infer=_hits_infer, kernel=_hits_kernel, grad=NO_GRADIENT)


def compute_accidental_hits(true_classes, sampled_candidates, num_true, seed=None, name=None):
    """Computes the ids of positions in `sampled_candidates` that match `true_classes`.

    For each `(i, j)` with `true_classes[i, k] == sampled_candidates[j]` it reports row `i`, column
    `j` and the weight `-FLT_MAX` (to add to the sampled logit), in row order.

    Args:
      true_classes: A `Tensor` of type `int64` and shape `[batch_size, num_true]`.
      sampled_candidates: A `Tensor` of type `int64` and shape `[num_sampled]`, typically a
        candidate sampler's output.
      num_true: An `int`. The number of target classes per training example.
      seed: An `int`. Ignored (the op has no randomness).
      name: A name for the operation (optional).

    Returns:
      indices: A `Tensor` of type `int32` and shape `[num_accidental_hits]`: the rows.
      ids: A `Tensor` of type `int64` and shape `[num_accidental_hits]`: the positions in
        `sampled_candidates`.
      weights: A `Tensor` of type `float32` and shape `[num_accidental_hits]`: each `-FLT_MAX`.

    Raises:
      InvalidArgumentError: At run time, if `true_classes` does not have `num_true` columns.
    """
    true_classes = ops.convert_to_tensor(true_classes, name="true_classes")
    sampled_candidates = ops.convert_to_tensor(sampled_candidates, name="sampled_candidates")
    attrs = {"num_true": int(num_true)}
    attrs.update(_seed_attrs(seed))
    outputs = ops.apply_op("ComputeAccidentalHits", [true_classes, sampled_candidates], attrs,
                           name=name or "ComputeAccidentalHits")
    return collections.namedtuple("ComputeAccidentalHits", ("indices", "ids", "weights"))(*outputs)


# ---- sampled losses --------------------------------------------------------------------------
def _sum_rows(x):
    """Each row of the matrix `x` summed, as a matmul with a ones column (TF's `_sum_rows`)."""
    from . import array_ops, math_ops
    cols = array_ops.shape(x)[1]
    ones = array_ops.ones(array_ops.stack([cols, 1]), x.dtype)
    return array_ops.reshape(math_ops.matmul(x, ones), [-1])


def _compute_sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1,
                            sampled_values=None, subtract_log_q=True, remove_accidental_hits=False,
                            partition_strategy="mod", name=None, seed=None):
    """TF's `_compute_sampled_logits`: the logits of the true classes and of the sampled ones, and
    the labels (1 / num_true for true classes, 0 for sampled ones), each `[batch_size, num_true +
    num_sampled]`."""
    from . import array_ops, core_ops, math_ops, sparse_ops
    from .embedding_ops import embedding_lookup
    if hasattr(weights, "_get_variable_list"):
        weights = list(weights)
    if not isinstance(weights, (list, tuple)):
        weights = [weights]
    weights = list(weights)
    with ops.name_scope(name, "compute_sampled_logits", weights + [biases, inputs, labels]):
        labels = ops.convert_to_tensor(labels, name="labels")
        if labels.dtype != dtypes.int64:
            labels = math_ops.cast(labels, dtypes.int64)
        labels_flat = array_ops.reshape(labels, [-1])
        if sampled_values is None:
            sampled_values = log_uniform_candidate_sampler(true_classes=labels, num_true=num_true,
                                                           num_sampled=num_sampled, unique=True,
                                                           range_max=num_classes, seed=seed)
        sampled, true_expected_count, sampled_expected_count = (core_ops.stop_gradient(s) for s in sampled_values)
        sampled = math_ops.cast(sampled, dtypes.int64)
        all_ids = array_ops.concat([labels_flat, sampled], 0)
        inputs = ops.convert_to_tensor(inputs, name="inputs")
        all_w = embedding_lookup(weights, all_ids, partition_strategy=partition_strategy)
        if all_w.dtype != inputs.dtype:
            all_w = math_ops.cast(all_w, inputs.dtype)
        n_true = array_ops.shape(labels_flat)[0]
        true_w = array_ops.slice(all_w, [0, 0], array_ops.stack([n_true, -1]))
        sampled_w = array_ops.slice(all_w, array_ops.stack([n_true, 0]), [-1, -1])
        sampled_logits = math_ops.matmul(inputs, sampled_w, transpose_b=True)
        all_b = embedding_lookup(biases, all_ids, partition_strategy=partition_strategy)
        if all_b.dtype != inputs.dtype:
            all_b = math_ops.cast(all_b, inputs.dtype)
        true_b = array_ops.slice(all_b, [0], array_ops.shape(labels_flat))
        sampled_b = array_ops.slice(all_b, array_ops.shape(labels_flat), [-1])
        dim = array_ops.shape(true_w)[1:2]
        new_true_w_shape = array_ops.concat([[-1, num_true], dim], 0)
        row_wise_dots = math_ops.multiply(array_ops.expand_dims(inputs, 1), array_ops.reshape(true_w, new_true_w_shape))
        dots_as_matrix = array_ops.reshape(row_wise_dots, array_ops.concat([[-1], dim], 0))
        true_logits = array_ops.reshape(_sum_rows(dots_as_matrix), [-1, num_true])
        true_b = array_ops.reshape(true_b, [-1, num_true])
        true_logits = math_ops.add(true_logits, true_b)
        sampled_logits = math_ops.add(sampled_logits, sampled_b)
        if remove_accidental_hits:
            acc_indices, acc_ids, acc_weights = compute_accidental_hits(labels, sampled, num_true=num_true)
            acc_indices_2d = array_ops.reshape(acc_indices, [-1, 1])
            acc_ids_2d_int32 = array_ops.reshape(math_ops.cast(acc_ids, dtypes.int32), [-1, 1])
            sparse_indices = array_ops.concat([acc_indices_2d, acc_ids_2d_int32], 1, "sparse_indices")
            sampled_logits_shape = array_ops.concat(
                [array_ops.shape(labels)[:1], array_ops.expand_dims(num_sampled, 0)], 0)
            if sampled_logits.dtype != acc_weights.dtype:
                acc_weights = math_ops.cast(acc_weights, sampled_logits.dtype)
            sampled_logits = math_ops.add(sampled_logits, sparse_ops.sparse_to_dense(
                sparse_indices, sampled_logits_shape, acc_weights, default_value=0.0, validate_indices=False))
        if subtract_log_q:
            true_logits = math_ops.subtract(true_logits, math_ops.log(true_expected_count))
            sampled_logits = math_ops.subtract(sampled_logits, math_ops.log(sampled_expected_count))
        out_logits = array_ops.concat([true_logits, sampled_logits], 1)
        out_labels = array_ops.concat([math_ops.truediv(core_ops.ones_like(true_logits), num_true),
                                       core_ops.zeros_like(sampled_logits)], 1)
        return out_logits, out_labels


_SAMPLED_LOSS_ARGS = """
    Args:
      weights: A `Tensor` of shape `[num_classes, dim]`, or a list of `Tensor` objects whose
        concatenation along dimension 0 has shape [num_classes, dim] (a partitioned table).
      biases: A `Tensor` of shape `[num_classes]`: the class biases.
      labels: A `Tensor` of type `int64` and shape `[batch_size, num_true]`: the target classes.
      inputs: A `Tensor` of shape `[batch_size, dim]`: the forward activations of the input network.
      num_sampled: An `int`. The number of negative classes to randomly sample per batch.
      num_classes: An `int`. The number of possible classes.
      num_true: An `int`. The number of target classes per training example.
      sampled_values: A tuple of (`sampled_candidates`, `true_expected_count`,
        `sampled_expected_count`) returned by a `*_candidate_sampler` function; if None, the
        log-uniform sampler (unique samples) is used.
      remove_accidental_hits: A `bool`. Whether to remove "accidental hits" where a sampled class
        equals one of the target classes.
      partition_strategy: "mod" or "div", for a partitioned `weights` (see `tf.nn.embedding_lookup`).
      name: A name for the operation (optional)."""


def nce_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1, sampled_values=None,
             remove_accidental_hits=False, partition_strategy="mod", name="nce_loss"):
    return _sum_rows(_nce_losses(weights, biases, labels, inputs, num_sampled, num_classes, num_true,
                                 sampled_values, remove_accidental_hits, partition_strategy, name))


def _nce_losses(weights, biases, labels, inputs, num_sampled, num_classes, num_true, sampled_values,
                remove_accidental_hits, partition_strategy, name):
    from .nn_ops import sigmoid_cross_entropy_with_logits
    logits, labels = _compute_sampled_logits(
        weights=weights, biases=biases, labels=labels, inputs=inputs, num_sampled=num_sampled,
        num_classes=num_classes, num_true=num_true, sampled_values=sampled_values, subtract_log_q=True,
        remove_accidental_hits=remove_accidental_hits, partition_strategy=partition_strategy, name=name)
    return sigmoid_cross_entropy_with_logits(labels=labels, logits=logits, name="sampled_losses")


nce_loss.__doc__ = """Computes and returns the noise-contrastive estimation training loss.

    The logits of the true classes and of `num_sampled` sampled classes (each minus the log of its
    expected count) go through a sigmoid cross entropy against labels `1 / num_true` (true) and 0
    (sampled); the loss of each example is the sum over its row, as TF.
""" + _SAMPLED_LOSS_ARGS + """

    Returns:
      A `batch_size` 1-D tensor of per-example NCE losses.
    """


def sampled_softmax_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1,
                         sampled_values=None, remove_accidental_hits=True, partition_strategy="mod",
                         name="sampled_softmax_loss", seed=None):
    from . import core_ops
    from .nn_ops import softmax_cross_entropy_with_logits_v2
    logits, labels = _compute_sampled_logits(
        weights=weights, biases=biases, labels=labels, inputs=inputs, num_sampled=num_sampled,
        num_classes=num_classes, num_true=num_true, sampled_values=sampled_values, subtract_log_q=True,
        remove_accidental_hits=remove_accidental_hits, partition_strategy=partition_strategy, name=name,
        seed=seed)
    labels = core_ops.stop_gradient(labels, name="labels_stop_gradient")
    return softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits)


sampled_softmax_loss.__doc__ = """Computes and returns the sampled softmax training loss.

    A softmax cross entropy over the logits of the true classes and of `num_sampled` sampled
    classes (each minus the log of its expected count), against labels `1 / num_true` (true) and
    0 (sampled), as TF.
""" + _SAMPLED_LOSS_ARGS + """
      seed: A random seed for the default sampler.

    Returns:
      A `batch_size` 1-D tensor of per-example sampled softmax losses.
    """
