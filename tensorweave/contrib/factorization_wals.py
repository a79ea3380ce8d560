"""`tf.contrib.factorization.WALSModel`: weighted alternating least squares matrix factorization with
TF 1.15's `factorization_ops.WALSModel` interface (one shard per factor only).

The model minimizes `||sqrt(W) * (A - U V^T)||_F^2 + lambda (||U||_F^2 + ||V||_F^2)` where
`W_ij = w_0 + R_i C_j` for observed entries of `A` and `w_0` otherwise. A row update solves, for
each row `i` of the input slice,
`(lambda I + w_0 V^T V + V^T diag(W_i - w_0) V) u_i = V^T (W_i * a_i)` over the observed entries.
"""

import numbers
import types

import numpy as np

from ..framework import dtypes, ops
from ..framework.constant_op import constant
from ..framework.sparse_tensor import SparseTensor
from ..variables import Variable, variables_initializer

__all__ = ["WALSModel"]


def _tf():
    """The `tf.*` functions used here, taken from the ops layer (contrib sits below the package root)."""
    from ..ops import (
        array_ops,
        core_ops,
        linalg_core_ops,
        linalg_diag_ops,
        math_ops,
        random_ops,
        scatter_ops,
        segment_ops,
        state_ops,
    )
    picks = {array_ops: "expand_dims gather reshape shape squeeze unique", core_ops: "group no_op ones_like zeros_like",
             linalg_core_ops: "matrix_solve", linalg_diag_ops: "eye", math_ops: "cast matmul reduce_sum square",
             random_ops: "random_normal", scatter_ops: "scatter_update", segment_ops: "unsorted_segment_sum",
             state_ops: "assign"}
    return types.SimpleNamespace(**{n: getattr(m, n) for m, names in picks.items() for n in names.split()})


class WALSModel:
    """A model for Weighted Alternating Least Squares matrix factorization (TF 1.15 semantics).

    Typical use (one worker):

    ```python
    model = WALSModel(m, n, k, unobserved_weight=0.1, regularization=0.01)
    sess.run(model.initialize_op); sess.run(model.worker_init)
    _, row_update, loss, reg, sum_w = model.update_row_factors(sp_input=A)
    _, col_update, _, _, _ = model.update_col_factors(sp_input=A)
    sess.run(model.row_update_prep_gramian_op); sess.run(model.initialize_row_update_op)
    sess.run(row_update)
    sess.run(model.col_update_prep_gramian_op); sess.run(model.initialize_col_update_op)
    sess.run(col_update)
    ```

    Args:
      input_rows: Total number of rows of the input matrix.
      input_cols: Total number of columns of the input matrix.
      n_components: The number of dimensions of the factors.
      unobserved_weight: The weight `w_0` of unobserved entries.
      regularization: The L2 regularization weight `lambda`; None means none.
      row_init: "random" (standard normal), or the initial row factors (an array, a tensor, a
        list of one shard, or a callable returning one of these).
      col_init: The same for the column factors.
      num_row_shards: The number of row factor shards; only 1 is supported.
      num_col_shards: The number of column factor shards; only 1 is supported.
      row_weights: None (then `W_ij = w_0` everywhere, plain ALS; `col_weights` must be None
        too), a non-negative number used for every row, or a list of `input_rows` numbers (or a
        list holding one such list, TF's one-shard form).
      col_weights: The same for the columns.
      use_factors_weights_cache: If True, updates read cached copies of the factors, gramians and
        weights (local variables filled by `worker_init` and the `initialize_*_update_op`s).
      use_gramian_cache: If True, updates read cached copies of the gramians (filled by the
        `initialize_*_update_op`s) instead of the gramian variables.

    Raises:
      NotImplementedError: If `num_row_shards` or `num_col_shards` is not 1.
      ValueError: If only one of `row_weights` and `col_weights` is None, if a weight list has the
        wrong length, or if an initial factor value has the wrong shape.
    """

    def __init__(self, input_rows, input_cols, n_components, unobserved_weight=0.1, regularization=None,
                 row_init="random", col_init="random", num_row_shards=1, num_col_shards=1, row_weights=1,
                 col_weights=1, use_factors_weights_cache=True, use_gramian_cache=True):
        if num_row_shards != 1 or num_col_shards != 1:
            raise NotImplementedError("WALSModel supports only num_row_shards=1 and num_col_shards=1 in "
                                      "tensorweave, got %r and %r" % (num_row_shards, num_col_shards))
        if (row_weights is None) != (col_weights is None):
            raise ValueError("row_weights and col_weights must both be None or both be set, got %r and %r"
                             % (row_weights, col_weights))
        self._input_rows = int(input_rows)
        self._input_cols = int(input_cols)
        self._num_row_shards = 1
        self._num_col_shards = 1
        self._n_components = int(n_components)
        self._unobserved_weight = float(unobserved_weight)
        self._regularization = regularization
        self._use_factors_weights_cache = use_factors_weights_cache
        self._use_gramian_cache = use_gramian_cache
        self._row_weights = self._create_weights(row_weights, self._input_rows, "row_weights")
        self._col_weights = self._create_weights(col_weights, self._input_cols, "col_weights")
        self._row_factors = self._create_factors(self._input_rows, row_init, "row_factors")
        self._col_factors = self._create_factors(self._input_cols, col_init, "col_factors")
        k = self._n_components
        self._row_gramian = Variable(np.zeros([k, k], np.float32), name="row_gramian")
        self._col_gramian = Variable(np.zeros([k, k], np.float32), name="col_gramian")
        with ops.name_scope("row_prepare_gramian"):
            self._row_update_prep_gramian = self._prepare_gramian(self._col_factors, self._col_gramian)
        with ops.name_scope("col_prepare_gramian"):
            self._col_update_prep_gramian = self._prepare_gramian(self._row_factors, self._row_gramian)
        with ops.name_scope("transient_vars"):
            self._create_transient_vars()

    # ---- variables -------------------------------------------------------------------------------
    def _create_factors(self, rows, init, name):
        tf = _tf()
        if callable(init):
            init = init()
        if isinstance(init, list) and len(init) == 1 and not isinstance(init[0], numbers.Number):
            init = init[0]
        if isinstance(init, str):
            if init != "random":
                raise ValueError("Unsupported %s init '%s' (use 'random' or a value)" % (name, init))
            value = tf.random_normal([rows, self._n_components], dtype=dtypes.float32)
        else:
            value = ops.convert_to_tensor(init, dtype=dtypes.float32)
            shape = value.shape.as_list() if value.shape.ndims is not None else None
            if shape is not None and None not in shape and shape != [rows, self._n_components]:
                raise ValueError("%s init has shape %s, expected [%d, %d]"
                                 % (name, shape, rows, self._n_components))
        with ops.name_scope(name):
            return [Variable(value, dtype=dtypes.float32, name="%s_shard_0" % name)]

    @staticmethod
    def _create_weights(wt_init, num_wts, name):
        if wt_init is None:
            return None
        if isinstance(wt_init, numbers.Real):
            if wt_init < 0:
                raise ValueError("%s must be non-negative, got %r" % (name, wt_init))
            value = np.full([num_wts], wt_init, np.float32)
        else:
            value = list(wt_init)
            if len(value) == 1 and num_wts != 1 and not isinstance(value[0], numbers.Real):
                value = list(value[0])  # TF's list of one shard
            value = np.asarray(value, np.float32)
            if value.shape != (num_wts,):
                raise ValueError("%s must have %d entries, got shape %s" % (name, num_wts, value.shape))
        return [Variable(value, name="%s_shard_0" % name)]

    @staticmethod
    def _transient_var(name):
        return Variable(1.0, trainable=False, collections=[ops.GraphKeys.LOCAL_VARIABLES], validate_shape=False,
                        name=name)

    def _cached_copy(self, var, name, pass_through=False):
        tf = _tf()
        if var is None:
            return None, tf.no_op(), tf.no_op()
        value = var[0] if isinstance(var, list) else var
        if pass_through:
            return value, tf.no_op(), tf.no_op()
        cache = self._transient_var(name)
        cache_init = tf.assign(cache, value, validate_shape=False)
        cache_reset = tf.assign(cache, 1.0, validate_shape=False)
        return cache, cache_init, cache_reset

    def _create_transient_vars(self):
        tf = _tf()
        no_cache = not self._use_factors_weights_cache
        self._row_factors_cache, row_init, row_reset = self._cached_copy(self._row_factors, "row_factors_cache",
                                                                          no_cache)
        self._col_factors_cache, col_init, col_reset = self._cached_copy(self._col_factors, "col_factors_cache",
                                                                          no_cache)
        self._row_wt_cache, row_wt_init, _ = self._cached_copy(self._row_weights, "row_wt_cache", no_cache)
        self._col_wt_cache, col_wt_init, _ = self._cached_copy(self._col_weights, "col_wt_cache", no_cache)
        no_gramian_cache = not self._use_gramian_cache
        self._row_gramian_cache, row_gram_init, _ = self._cached_copy(self._row_gramian, "row_gramian_cache",
                                                                      no_gramian_cache)
        self._col_gramian_cache, col_gram_init, _ = self._cached_copy(self._col_gramian, "col_gramian_cache",
                                                                      no_gramian_cache)
        self._worker_init = tf.group(row_wt_init, col_wt_init, name="worker_init")
        self._row_updates_init = tf.group(col_init, row_reset, col_gram_init, name="initialize_row_update")
        self._col_updates_init = tf.group(row_init, col_reset, row_gram_init, name="initialize_col_update")

    @staticmethod
    def _prepare_gramian(factors, gramian):
        tf = _tf()
        return tf.assign(gramian, tf.matmul(factors[0], factors[0], transpose_a=True))

    # ---- properties ------------------------------------------------------------------------------
    @property
    def row_factors(self):
        """Returns a list of the row factor shard variables (one shard)."""
        return self._row_factors

    @property
    def col_factors(self):
        """Returns a list of the column factor shard variables (one shard)."""
        return self._col_factors

    @property
    def row_weights(self):
        """Returns a list of the row weight shard variables, or None."""
        return self._row_weights

    @property
    def col_weights(self):
        """Returns a list of the column weight shard variables, or None."""
        return self._col_weights

    @property
    def initialize_op(self):
        """Returns an op initializing the factors, weights and gramians (run once, by the chief)."""
        all_vars = self._row_factors + self._col_factors + [self._row_gramian, self._col_gramian]
        if self._row_weights is not None:
            all_vars += self._row_weights + self._col_weights
        return variables_initializer(all_vars)

    @property
    def worker_init(self):
        """Op caching the row and column weights; run once per worker before any update."""
        return self._worker_init

    @property
    def row_update_prep_gramian_op(self):
        """Op computing the gramian `V^T V` of the column factors; run before each row sweep."""
        return self._row_update_prep_gramian

    @property
    def col_update_prep_gramian_op(self):
        """Op computing the gramian `U^T U` of the row factors; run before each column sweep."""
        return self._col_update_prep_gramian

    @property
    def initialize_row_update_op(self):
        """Op caching the column factors and gramian for a row sweep (after its prep gramian op)."""
        return self._row_updates_init

    @property
    def initialize_col_update_op(self):
        """Op caching the row factors and gramian for a column sweep (after its prep gramian op)."""
        return self._col_updates_init

    # ---- updates ---------------------------------------------------------------------------------
    def update_row_factors(self, sp_input=None, transpose_input=False):
        """Updates the row factors of the rows present in `sp_input`.

        Args:
          sp_input: A `SparseTensor` holding a subset of the rows of the full input, in any order,
            indexed as in the full input.
          transpose_input: If True, `sp_input` is logically transposed (its indices are
            `[col, row]`).

        Returns:
          A tuple `(new_values, update_op, unregularized_loss, regularization, sum_weights)`: the new
          factors of the input's rows (in order of first appearance), the op assigning them, the
          weighted squared error `||sqrt(W_I) * (A_I - U_I V^T)||^2 * n / |I|` with the new factors,
          `lambda ||U_I||^2 * n / |I| + lambda ||V||^2`, and `sum(W_I) * n / |I|` (n: the number of
          rows, |I|: the number of rows in `sp_input`).

        Raises:
          TypeError: If `sp_input` is not a `SparseTensor`.
        """
        return self._process_input_helper(True, sp_input=sp_input, transpose_input=transpose_input)

    def update_col_factors(self, sp_input=None, transpose_input=False):
        """Updates the column factors of the columns present in `sp_input`.

        Args:
          sp_input: A `SparseTensor` holding a subset of the columns of the full input, indexed as
            in the full input (`[row, col]` indices).
          transpose_input: If True, `sp_input` is logically transposed (its indices are
            `[col, row]`).

        Returns:
          A tuple `(new_values, update_op, unregularized_loss, regularization, sum_weights)`, as
          `update_row_factors` with rows and columns exchanged.

        Raises:
          TypeError: If `sp_input` is not a `SparseTensor`.
        """
        return self._process_input_helper(False, sp_input=sp_input, transpose_input=transpose_input)

    def project_row_factors(self, sp_input=None, transpose_input=False, projection_weights=None):
        """Projects new rows onto the column factors (solves for their factors without updating).

        Args:
          sp_input: A `SparseTensor` of new rows (any row ids; results follow their first
            appearance).
          transpose_input: If True, `sp_input` is logically transposed.
          projection_weights: The row weights `R_i` of the new rows: None (1.0), a scalar or a
            rank-1 tensor with one entry per projected row. Ignored when the model has no weights.

        Returns:
          A `[num_projected_rows, n_components]` tensor of the projected row factors.

        Raises:
          TypeError: If `sp_input` is not a `SparseTensor`.
        """
        if projection_weights is None:
            projection_weights = 1.0
        return self._process_input_helper(True, sp_input=sp_input, transpose_input=transpose_input,
                                          row_weights=projection_weights)[0]

    def project_col_factors(self, sp_input=None, transpose_input=False, projection_weights=None):
        """Projects new columns onto the row factors (solves for their factors without updating).

        Args:
          sp_input: A `SparseTensor` of new columns (`[row, col]` indices).
          transpose_input: If True, `sp_input` is logically transposed.
          projection_weights: The column weights of the new columns: None (1.0), a scalar or a
            rank-1 tensor with one entry per projected column.

        Returns:
          A `[num_projected_cols, n_components]` tensor of the projected column factors.

        Raises:
          TypeError: If `sp_input` is not a `SparseTensor`.
        """
        if projection_weights is None:
            projection_weights = 1.0
        return self._process_input_helper(False, sp_input=sp_input, transpose_input=transpose_input,
                                          row_weights=projection_weights)[0]

    def _process_input_helper(self, update_row_factors, sp_input=None, transpose_input=False, row_weights=None):
        tf = _tf()
        if not isinstance(sp_input, SparseTensor):
            raise TypeError("sp_input must be a SparseTensor, got %r" % (type(sp_input).__name__,))
        project = row_weights is not None
        if update_row_factors:
            left = self._row_factors
            right = self._col_factors_cache
            gramian = self._col_gramian_cache
            total_rows = self._input_rows
            if not project:
                row_weights = self._row_wt_cache
            col_weights = self._col_wt_cache
        else:
            left = self._col_factors
            right = self._row_factors_cache
            gramian = self._row_gramian_cache
            total_rows = self._input_cols
            if not project:
                row_weights = self._col_wt_cache
            col_weights = self._row_wt_cache
            transpose_input = not transpose_input
        name = "project" if project else ("row_update" if update_row_factors else "col_update")
        with ops.name_scope(name):
            right = ops.convert_to_tensor(right)
            if project:
                # Projections read the current factors' gramian directly.
                gramian = tf.matmul(right, right, transpose_a=True)
            gramian = tf.reshape(ops.convert_to_tensor(gramian), [self._n_components, self._n_components])
            indices = tf.cast(sp_input.indices, dtypes.int64)
            left_ids = indices[:, 1] if transpose_input else indices[:, 0]
            right_ids = indices[:, 0] if transpose_input else indices[:, 1]
            update_indices, local_ids = tf.unique(left_ids)
            num_rows = tf.shape(update_indices)[0]
            values = tf.cast(sp_input.values, dtypes.float32)
            w0 = constant(self._unobserved_weight, dtypes.float32)
            right_gathered = tf.gather(right, right_ids)  # [nnz, k]
            if self._row_weights is None:
                extra = tf.zeros_like(values)
            else:
                if project:
                    rw = ops.convert_to_tensor(row_weights, dtype=dtypes.float32)
                    rw = tf.gather(rw, local_ids) if rw.shape.ndims else rw * tf.ones_like(values)
                else:
                    rw = tf.gather(tf.reshape(row_weights, [-1]), left_ids)
                cw = tf.gather(tf.reshape(col_weights, [-1]), right_ids)
                extra = rw * cw
            k = self._n_components
            lhs = w0 * gramian
            if self._regularization is not None:
                lhs += self._regularization * tf.eye(k, dtype=dtypes.float32)
            partial_lhs = tf.unsorted_segment_sum(
                tf.expand_dims(right_gathered * tf.expand_dims(extra, 1), 2) * tf.expand_dims(right_gathered, 1),
                local_ids, num_rows)
            total_lhs = tf.expand_dims(lhs, 0) + partial_lhs
            total_rhs = tf.unsorted_segment_sum(right_gathered * tf.expand_dims((w0 + extra) * values, 1),
                                                local_ids, num_rows)
            new_left_values = tf.squeeze(tf.matrix_solve(total_lhs, tf.expand_dims(total_rhs, -1)), [2])
            if project:
                return (new_left_values,)
            update_op = tf.scatter_update(left[0], update_indices, new_left_values).op

            # The loss of the input rows with their new factors.
            batch_size = tf.cast(num_rows, dtypes.float32)
            normalizer = float(total_rows) / batch_size
            pred = tf.reduce_sum(tf.gather(new_left_values, local_ids) * right_gathered, 1)
            observed = tf.reduce_sum((w0 + extra) * tf.square(values - pred))
            all_pred_sq = tf.reduce_sum(tf.matmul(new_left_values, gramian) * new_left_values)
            unregularized_loss = (observed + w0 * (all_pred_sq - tf.reduce_sum(tf.square(pred)))) * normalizer
            if self._regularization is not None:
                regularization = self._regularization * (tf.reduce_sum(tf.square(new_left_values)) * normalizer
                                                         + tf.reduce_sum(tf.square(right)))
            else:
                regularization = constant(0.0, dtypes.float32)
            right_length = tf.cast(tf.shape(right)[0], dtypes.float32)
            sum_weights = (w0 * batch_size * right_length + tf.reduce_sum(extra)) * normalizer
            return new_left_values, update_op, unregularized_loss, regularization, sum_weights
