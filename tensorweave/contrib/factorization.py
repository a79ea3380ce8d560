"""`tf.contrib.factorization`: k-means clustering (TF 1.15's `clustering_ops.KMeans` graph builder and
the `KMeansClustering` estimator), with TF's variable names ("clusters", "initialized", ...), its
mini-batch and full-batch Lloyd updates and its cluster initialisation (random rows, k-means++ or
given centers); Gaussian mixture EM (`gmm_ops`: `GmmAlgorithm` and `gmm`, and the `GMM` estimator from
`factorization_gmm.py`); and `WALSModel` (weighted alternating least squares, from
`factorization_wals.py`).
"""

import time as _time

import numpy as _np

from .. import tf_logging as _logging
from ..estimator import Estimator as _Estimator
from ..estimator.export import PredictOutput as _PredictOutput
from ..estimator.model_fn import EstimatorSpec as _EstimatorSpec
from ..framework import dtypes as _dtypes
from ..framework import ops as _ops
from ..framework.constant_op import constant as _constant
from ..metrics import metrics_impl as _metrics_impl
from ..ops import array_ops as _array_ops
from ..ops import check_ops as _check_ops
from ..ops import core_ops as _core_ops
from ..ops import math_ops as _math_ops
from ..ops import scatter_ops as _scatter_ops
from ..ops import state_ops as _state_ops
from ..ops.array_shape_ops import ones as _ones
from ..ops.clustering_ops import kmeans_plus_plus_initialization as _kmeans_plus_plus_initialization
from ..ops.clustering_ops import nearest_neighbors as _nearest_neighbors
from ..ops.control_flow_ops import cond as _cond
from ..ops.embedding_ops import embedding_lookup as _embedding_lookup
from ..ops.nn_loss_ops import l2_normalize as _l2_normalize
from ..ops.random_ops import random_uniform as _random_uniform
from ..ops.segment_ops import unsorted_segment_sum as _unsorted_segment_sum
from ..ops.summary_ops import scalar as _summary_scalar
from ..train.session_run_hook import SessionRunArgs as _SessionRunArgs
from ..train.session_run_hook import SessionRunHook as _SessionRunHook
from ..train.training_util import get_global_step as _get_global_step
from ..variables import Variable as _Variable
from .factorization_gmm import GMM
from .factorization_wals import WALSModel

__all__ = ["COSINE_DISTANCE", "GMM", "GmmAlgorithm", "KMC2_INIT", "KMEANS_PLUS_PLUS_INIT", "KMeans", "KMeansClustering",
           "RANDOM_INIT", "SQUARED_EUCLIDEAN_DISTANCE", "WALSModel", "gmm"]

SQUARED_EUCLIDEAN_DISTANCE = "squared_euclidean"
COSINE_DISTANCE = "cosine"
RANDOM_INIT = "random"
KMEANS_PLUS_PLUS_INIT = "kmeans_plus_plus"
KMC2_INIT = "kmc2"
_CLUSTERS_VAR_NAME = "clusters"


class KMeans:
    """Creates the graph for k-means clustering (TF 1.15's `tf.contrib.factorization.KMeans`).

    Full-batch mode runs one Lloyd iteration per training step over the whole input; mini-batch mode
    updates each center by `x += (sum(d_i) - k x) / (n + k)` with its running count `n`, syncing a
    master copy every `mini_batch_steps_per_iteration` steps.

    Args:
      inputs: An input tensor or list of input tensors (float32 `[num_points, dim]`).
      num_clusters: The number of clusters (ignored when `initial_clusters` is a tensor or array).
      initial_clusters: A tensor or array of initial centers, a function `f(inputs, k)` returning up
        to `k` centers, RANDOM_INIT ("random": rows chosen uniformly) or KMEANS_PLUS_PLUS_INIT
        ("kmeans_plus_plus", from the first input).
      distance_metric: SQUARED_EUCLIDEAN_DISTANCE ("squared_euclidean") or COSINE_DISTANCE ("cosine").
      use_mini_batch: Use the mini-batch algorithm.
      mini_batch_steps_per_iteration: Steps between syncs of the updated centers (mini-batch).
      random_seed: Seed of the initialisation.
      kmeans_plus_plus_num_retries: Extra draws per k-means++ sample (negative: a heuristic).
      kmc2_chain_length: Only for "kmc2", which is not supported.

    Raises:
      ValueError: For an unsupported `initial_clusters` or `distance_metric`.
      NotImplementedError: For `initial_clusters="kmc2"`.
    """

    def __init__(self, inputs, num_clusters, initial_clusters=RANDOM_INIT, distance_metric=SQUARED_EUCLIDEAN_DISTANCE,
                 use_mini_batch=False, mini_batch_steps_per_iteration=1, random_seed=0,
                 kmeans_plus_plus_num_retries=2, kmc2_chain_length=200):
        if isinstance(initial_clusters, str) and initial_clusters not in [RANDOM_INIT, KMEANS_PLUS_PLUS_INIT,
                                                                          KMC2_INIT]:
            raise ValueError("Unsupported initialization algorithm '%s'" % initial_clusters)
        if isinstance(initial_clusters, str) and initial_clusters == KMC2_INIT:
            raise NotImplementedError("KMeans initial_clusters='kmc2' (k-MC2 seeding) is not supported by tensorweave")
        if distance_metric not in [SQUARED_EUCLIDEAN_DISTANCE, COSINE_DISTANCE]:
            raise ValueError("Unsupported distance metric '%s'" % distance_metric)
        self._inputs = inputs if isinstance(inputs, list) else [inputs]
        self._inputs = [_ops.convert_to_tensor(i) for i in self._inputs]
        self._num_clusters = num_clusters
        self._initial_clusters = initial_clusters
        self._distance_metric = distance_metric
        self._use_mini_batch = use_mini_batch
        self._mini_batch_steps_per_iteration = int(mini_batch_steps_per_iteration)
        self._random_seed = random_seed
        self._kmeans_plus_plus_num_retries = kmeans_plus_plus_num_retries
        self._kmc2_chain_length = kmc2_chain_length

    @classmethod
    def _distance_graph(cls, inputs, clusters, distance_metric):
        if distance_metric == SQUARED_EUCLIDEAN_DISTANCE:
            return cls._compute_euclidean_distance(inputs, clusters)
        return cls._compute_cosine_distance(inputs, clusters, inputs_normalized=True)

    @classmethod
    def _compute_euclidean_distance(cls, inputs, clusters):
        output = []
        for inp in inputs:
            squared_distance = (_math_ops.reduce_sum(_math_ops.square(inp), 1, keepdims=True)
                                - 2 * _math_ops.matmul(inp, clusters, transpose_b=True)
                                + _array_ops.transpose(_math_ops.reduce_sum(_math_ops.square(clusters), 1,
                                                                          keepdims=True)))
            output.append(squared_distance)
        return output

    @classmethod
    def _compute_cosine_distance(cls, inputs, clusters, inputs_normalized=True):
        output = []
        if not inputs_normalized:
            clusters = _l2_normalize(clusters, dim=1)
        for inp in inputs:
            if not inputs_normalized:
                inp = _l2_normalize(inp, dim=1)
            output.append(1 - _math_ops.matmul(inp, clusters, transpose_b=True))
        return output

    def _infer_graph(self, inputs, clusters):
        scores = self._distance_graph(inputs, clusters, self._distance_metric)
        output = []
        if self._distance_metric == COSINE_DISTANCE and not self._clusters_l2_normalized():
            # The cosine distance of normalized vectors is half their squared Euclidean distance.
            clusters = _l2_normalize(clusters, dim=1)
        for inp, score in zip(inputs, scores):
            indices, distances = _nearest_neighbors(inp, clusters, 1)
            if self._distance_metric == COSINE_DISTANCE:
                distances *= 0.5
            output.append((score, _array_ops.squeeze(distances, [-1]), _array_ops.squeeze(indices, [-1])))
        return zip(*output)

    def _clusters_l2_normalized(self):
        return self._distance_metric == COSINE_DISTANCE and (
            not self._use_mini_batch or self._mini_batch_steps_per_iteration > 1)

    def _create_variables(self, num_clusters):
        init_value = _constant([], dtype=_dtypes.float32)
        cluster_centers = _Variable(init_value, name=_CLUSTERS_VAR_NAME, validate_shape=False)
        cluster_centers_initialized = _Variable(False, dtype=_dtypes.bool_, name="initialized")
        if self._use_mini_batch and self._mini_batch_steps_per_iteration > 1:
            cluster_centers_updated = _Variable(init_value, name="clusters_updated", validate_shape=False)
            update_in_steps = _Variable(self._mini_batch_steps_per_iteration, dtype=_dtypes.int64,
                                       name="update_in_steps")
            cluster_counts = _Variable(_array_ops.zeros([num_clusters], dtype=_dtypes.int64))
        else:
            cluster_centers_updated = cluster_centers
            update_in_steps = None
            cluster_counts = (_Variable(_ones([num_clusters], dtype=_dtypes.int64)) if self._use_mini_batch else None)
        return (cluster_centers, cluster_centers_initialized, cluster_counts, cluster_centers_updated,
                update_in_steps)

    @classmethod
    def _l2_normalize_data(cls, inputs):
        return [_l2_normalize(inp, dim=1) for inp in inputs]

    def training_graph(self):
        """Generates a training graph for the k-means algorithm.

        Run `init_op` (repeatedly, while `cluster_centers_initialized` is False) before `training_op`.

        Returns:
          A tuple `(all_scores, cluster_idx, scores, cluster_centers_initialized, init_op, training_op)`:
          lists (one item per input) of the `[num_points, num_clusters]` distances, the int64 index
          of each point's nearest center and its distance; the boolean variable; the op choosing the
          initial centers; and the op running one (mini-)batch Lloyd step.
        """
        if isinstance(self._initial_clusters, str) or callable(self._initial_clusters):
            initial_clusters = self._initial_clusters
            num_clusters = _ops.convert_to_tensor(self._num_clusters)
        else:
            initial_clusters = _ops.convert_to_tensor(self._initial_clusters)
            num_clusters = _array_ops.shape(initial_clusters)[0]
        inputs = self._inputs
        (cluster_centers_var, cluster_centers_initialized, total_counts, cluster_centers_updated,
         update_in_steps) = self._create_variables(num_clusters)
        init_op = _InitializeClustersOpFactory(
            self._inputs, num_clusters, initial_clusters, self._distance_metric, self._random_seed,
            self._kmeans_plus_plus_num_retries, cluster_centers_var, cluster_centers_updated,
            cluster_centers_initialized).op()
        cluster_centers = cluster_centers_var
        if self._distance_metric == COSINE_DISTANCE:
            inputs = self._l2_normalize_data(inputs)
            if not self._clusters_l2_normalized():
                cluster_centers = _l2_normalize(cluster_centers, dim=1)
        all_scores, scores, cluster_idx = self._infer_graph(inputs, cluster_centers)
        if self._use_mini_batch:
            sync_updates_op = self._mini_batch_sync_updates_op(update_in_steps, cluster_centers_var,
                                                               cluster_centers_updated, total_counts)
            with _ops.control_dependencies([sync_updates_op]):
                training_op = self._mini_batch_training_op(inputs, cluster_idx, cluster_centers_updated,
                                                           total_counts)
        else:
            training_op = self._full_batch_training_op(inputs, num_clusters, cluster_idx, cluster_centers_var)
        return (all_scores, cluster_idx, scores, cluster_centers_initialized, init_op, training_op)

    def _mini_batch_sync_updates_op(self, update_in_steps, cluster_centers_var, cluster_centers_updated,
                                    total_counts):
        if self._use_mini_batch and self._mini_batch_steps_per_iteration > 1:
            def _f():
                with _ops.control_dependencies([_state_ops.assign(update_in_steps,
                                                                self._mini_batch_steps_per_iteration - 1)]):
                    if self._distance_metric == COSINE_DISTANCE:
                        cluster_centers = _l2_normalize(cluster_centers_updated, dim=1)
                    else:
                        cluster_centers = _core_ops.identity(cluster_centers_updated)
                    with _ops.control_dependencies([_state_ops.assign(cluster_centers_var, cluster_centers,
                                                                    validate_shape=False)]):
                        with _ops.control_dependencies([_state_ops.assign(total_counts,
                                                                        _core_ops.zeros_like(total_counts))]):
                            return _core_ops.identity(update_in_steps)

            return _cond(update_in_steps <= 0, _f, lambda: _state_ops.assign_sub(update_in_steps, 1))
        return _core_ops.no_op()

    def _mini_batch_training_op(self, inputs, cluster_idx_list, cluster_centers, total_counts):
        update_ops = []
        for inp, cluster_idx in zip(inputs, cluster_idx_list):
            cluster_idx = _array_ops.reshape(cluster_idx, [-1])
            unique_ids, unique_idx = _array_ops.unique(cluster_idx)
            num_unique_cluster_idx = _array_ops.size(unique_ids)
            old_counts = _array_ops.gather(total_counts, unique_ids)
            old_cluster_centers = _array_ops.gather(cluster_centers, unique_ids)
            count_updates = _unsorted_segment_sum(_core_ops.ones_like(unique_idx, dtype=total_counts.dtype),
                                                 unique_idx, num_unique_cluster_idx)
            # x += (sum_i(d_i) - k * x) / (n + k)
            cluster_center_updates = _unsorted_segment_sum(inp, unique_idx, num_unique_cluster_idx)
            broadcast_shape = _array_ops.concat([_array_ops.reshape(num_unique_cluster_idx, [1]),
                                                _ones(_array_ops.reshape(_array_ops.rank(inp) - 1, [1]),
                                                      dtype=_dtypes.int32)], 0)
            cluster_center_updates -= _math_ops.cast(_array_ops.reshape(count_updates, broadcast_shape),
                                                    inp.dtype) * old_cluster_centers
            learning_rate = _math_ops.reciprocal(_math_ops.cast(old_counts + count_updates, inp.dtype))
            learning_rate = _array_ops.reshape(learning_rate, broadcast_shape)
            cluster_center_updates *= learning_rate
            # TF leaves the order of these reads and updates to its executor; here the updates run after
            # the reads of the old counts and centers, as the update rule above intends.
            with _ops.control_dependencies([cluster_center_updates]):
                update_counts = _scatter_ops.scatter_add(total_counts._ref(), unique_ids, count_updates)
                update_cluster_centers = _scatter_ops.scatter_add(cluster_centers._ref(), unique_ids,
                                                                 cluster_center_updates)
            update_ops.extend([update_counts, update_cluster_centers])
        return _core_ops.group(*update_ops)

    def _full_batch_training_op(self, inputs, num_clusters, cluster_idx_list, cluster_centers):
        cluster_sums = []
        cluster_counts = []
        epsilon = _constant(1e-6, dtype=inputs[0].dtype)
        for inp, cluster_idx in zip(inputs, cluster_idx_list):
            cluster_sums.append(_unsorted_segment_sum(inp, cluster_idx, num_clusters))
            cluster_counts.append(_unsorted_segment_sum(
                _array_ops.reshape(_ones(_array_ops.reshape(_array_ops.shape(inp)[0], [-1])), [-1, 1]),
                cluster_idx, num_clusters))
        new_clusters_centers = _core_ops.add_n(cluster_sums) / (
            _math_ops.cast(_core_ops.add_n(cluster_counts), cluster_sums[0].dtype) + epsilon)
        if self._clusters_l2_normalized():
            new_clusters_centers = _l2_normalize(new_clusters_centers, dim=1)
        return _state_ops.assign(cluster_centers, new_clusters_centers, validate_shape=False)


class _InitializeClustersOpFactory:
    """Builds the op choosing the initial centers (TF 1.15's algorithm):

    num_remaining = num_clusters - length(cluster_centers); if 0, assert initialized; else choose up
    to num_remaining new centers (l2-normalized for cosine), append them to cluster_centers (and
    cluster_centers_updated), and set initialized when none remain.
    """

    def __init__(self, inputs, num_clusters, initial_clusters, distance_metric, random_seed,
                 kmeans_plus_plus_num_retries, cluster_centers, cluster_centers_updated, cluster_centers_initialized):
        self._inputs = inputs
        self._num_clusters = num_clusters
        self._initial_clusters = initial_clusters
        self._distance_metric = distance_metric
        self._random_seed = random_seed
        self._kmeans_plus_plus_num_retries = kmeans_plus_plus_num_retries
        self._cluster_centers = cluster_centers
        self._cluster_centers_updated = cluster_centers_updated
        self._cluster_centers_initialized = cluster_centers_initialized
        self._num_selected = _array_ops.shape(self._cluster_centers)[0]
        self._num_remaining = self._num_clusters - self._num_selected
        self._num_data = _core_ops.add_n([_array_ops.shape(i)[0] for i in self._inputs])

    def _random(self):
        indices = _random_uniform(_array_ops.reshape(self._num_remaining, [-1]), minval=0,
                                 maxval=_math_ops.cast(self._num_data, _dtypes.int64), seed=self._random_seed,
                                 dtype=_dtypes.int64)
        return _embedding_lookup(self._inputs, indices, partition_strategy="div")

    def _kmeans_plus_plus(self):
        inp = self._inputs[0]
        if self._distance_metric == COSINE_DISTANCE:
            inp = _l2_normalize(inp, dim=1)
        return _kmeans_plus_plus_initialization(inp, _math_ops.cast(self._num_remaining, _dtypes.int64),
                                               self._random_seed, self._kmeans_plus_plus_num_retries)

    def _greedy_batch_sampler(self, sampler):
        return _cond(self._num_data <= self._num_remaining, lambda: _array_ops.concat(self._inputs, 0), sampler)

    def _single_batch_sampler(self, sampler):
        with _ops.control_dependencies([_check_ops.assert_greater_equal(self._num_data, self._num_remaining)]):
            return sampler()

    def _choose_initial_centers(self):
        if isinstance(self._initial_clusters, str):
            if self._initial_clusters == RANDOM_INIT:
                return self._greedy_batch_sampler(self._random)
            return self._single_batch_sampler(self._kmeans_plus_plus)
        if callable(self._initial_clusters):
            return self._initial_clusters(self._inputs, self._num_remaining)
        with _ops.control_dependencies([_check_ops.assert_equal(self._num_remaining,
                                                              _array_ops.shape(self._initial_clusters)[0])]):
            return _core_ops.identity(self._initial_clusters)

    def _add_new_centers(self):
        new_centers = self._choose_initial_centers()
        if self._distance_metric == COSINE_DISTANCE:
            new_centers = _l2_normalize(new_centers, dim=1)
        all_centers = _cond(_math_ops.equal(self._num_selected, 0), lambda: _core_ops.identity(new_centers),
                           lambda: _array_ops.concat([self._cluster_centers, new_centers], 0))
        a = _state_ops.assign(self._cluster_centers, all_centers, validate_shape=False)
        if self._cluster_centers_updated is not self._cluster_centers:
            a = _state_ops.assign(self._cluster_centers_updated, a, validate_shape=False)
        return self._num_clusters - _array_ops.shape(a)[0]

    def _initialize(self):
        with _ops.control_dependencies([_check_ops.assert_positive(self._num_remaining)]):
            num_now_remaining = self._add_new_centers()
            return _cond(_math_ops.equal(num_now_remaining, 0),
                        lambda: _state_ops.assign(self._cluster_centers_initialized, True),
                        lambda: _core_ops.identity(self._cluster_centers_initialized))

    def op(self):
        """Returns the cluster initializer op."""
        return _cond(_math_ops.equal(self._num_remaining, 0),
                    lambda: _core_ops.identity(self._cluster_centers_initialized),
                    self._initialize).op


# ---- Gaussian mixture models (TF 1.15's gmm_ops) --------------------------------------------------
_MEPS = _np.finfo(float).eps
_FULL_COVARIANCE = "full"
_DIAG_COVARIANCE = "diag"


def _covariance(x, diag):
    num_points = _math_ops.cast(_array_ops.shape(x)[0], _dtypes.float32)
    x -= _math_ops.reduce_mean(x, 0, keepdims=True)
    if diag:
        return _math_ops.reduce_sum(_math_ops.square(x), 0, keepdims=True) / (num_points - 1)
    return _math_ops.matmul(x, x, transpose_a=True) / (num_points - 1)


def _init_clusters_random(data, num_clusters, random_seed):
    num_data = _core_ops.add_n([_array_ops.shape(inp)[0] for inp in data])
    with _ops.control_dependencies([_check_ops.assert_less_equal(num_clusters, num_data)]):
        indices = _random_uniform([num_clusters], minval=0, maxval=_math_ops.cast(num_data, _dtypes.int64),
                                 seed=random_seed, dtype=_dtypes.int64)
    indices %= _math_ops.cast(num_data, _dtypes.int64)
    return _embedding_lookup(data, indices, partition_strategy="div")


class GmmAlgorithm:
    """The graph of Gaussian mixture model EM clustering (TF 1.15's `gmm_ops.GmmAlgorithm`).

    Variables "clusters" (`[num_classes, 1, dims]` means), "clusters_covs" (full `[num_classes, dims,
    dims]` or diagonal `[num_classes, dims]` covariances), "alphas" (mixture weights) and "initialized".
    One training step is one EM iteration over all shards; `1e-3` is added to the covariances' diagonal.

    Args:
      data: A list of float32 `[num_examples, dims]` tensors (shards).
      num_classes: The number of mixture components.
      initial_means: A `[num_classes, dims]` tensor of means, or None (random rows of the data).
      params: Which parameters train: any of "w" (weights), "m" (means), "c" (covariances).
      covariance_type: "full" or "diag".
      random_seed: Seed of the random initial means.

    Raises:
      Exception: For an unknown covariance type (TF's message).
    """

    CLUSTERS_WEIGHT = "alphas"
    CLUSTERS_VARIABLE = "clusters"
    CLUSTERS_COVS_VARIABLE = "clusters_covs"

    def __init__(self, data, num_classes, initial_means=None, params="wmc", covariance_type=_FULL_COVARIANCE,
                 random_seed=0):
        from ..ops.linalg_diag_ops import diag
        self._params = params
        self._random_seed = random_seed
        self._covariance_type = covariance_type
        if self._covariance_type not in [_DIAG_COVARIANCE, _FULL_COVARIANCE]:
            raise Exception("programmer error: Invalid covariance type: %s" % self._covariance_type)
        num_shards = len(data)
        self._probs = [None] * num_shards
        self._prior_probs = [None] * num_shards
        self._w = [None] * num_shards
        self._points_in_k = [None] * num_shards
        first_shard = data[0]
        self._dimensions = _array_ops.shape(first_shard)[1]
        self._num_classes = num_classes
        self._min_var = diag(_ones(_array_ops.stack([self._dimensions]))) * 1e-3
        self._create_variables()
        self._initialize_variables(data, initial_means)
        self._w_mul_x = []
        self._w_mul_x2 = []
        self._define_graph(data)

    def _create_variables(self):
        init_value = _constant([], dtype=_dtypes.float32)
        self._means = _Variable(init_value, name=self.CLUSTERS_VARIABLE, validate_shape=False)
        self._covs = _Variable(init_value, name=self.CLUSTERS_COVS_VARIABLE, validate_shape=False)
        self._alpha = _Variable(_array_ops.tile([1.0 / self._num_classes], [self._num_classes]),
                               name=self.CLUSTERS_WEIGHT, validate_shape=False)
        self._cluster_centers_initialized = _Variable(False, dtype=_dtypes.bool_, name="initialized")

    def _initialize_variables(self, data, initial_means=None):
        from ..ops.linalg_diag_ops import diag_part
        first_shard = data[0]
        if initial_means is not None:
            means = _array_ops.expand_dims(initial_means, 1)
        else:
            means = _array_ops.expand_dims(_init_clusters_random(data, self._num_classes, self._random_seed), 1)
        if self._covariance_type == _FULL_COVARIANCE:
            cov = _covariance(first_shard, False) + self._min_var
            covs = _array_ops.tile(_array_ops.expand_dims(cov, 0), [self._num_classes, 1, 1])
        else:
            cov = _covariance(first_shard, True) + self._min_var
            covs = _array_ops.tile(_array_ops.expand_dims(diag_part(cov), 0), [self._num_classes, 1])
        with _ops.control_dependencies([means, covs]):
            initialized = _core_ops.identity(self._cluster_centers_initialized)
        self._init_ops = []
        init_means = _state_ops.assign(self._means, means, validate_shape=False)
        with _ops.control_dependencies([init_means]):
            init_means = _state_ops.assign(self._cluster_centers_initialized, True)
        self._init_ops.append(_cond(initialized, lambda: _core_ops.identity(initialized), lambda: init_means).op)
        init_covs = _state_ops.assign(self._covs, covs, validate_shape=False)
        with _ops.control_dependencies([init_covs]):
            init_covs = _state_ops.assign(self._cluster_centers_initialized, True)
        self._init_ops.append(_cond(initialized, lambda: _core_ops.identity(initialized), lambda: init_covs).op)

    def init_ops(self):
        """Returns the initialization op."""
        return _core_ops.group(*self._init_ops)

    def training_ops(self):
        """Returns the op running one EM iteration."""
        return _core_ops.group(*self._train_ops)

    def is_initialized(self):
        """Returns the boolean variable set once the means and covariances are initialized."""
        return self._cluster_centers_initialized

    def alphas(self):
        return self._alpha

    def clusters(self):
        """Returns the means, `[num_classes, 1, dims]`."""
        return self._means

    def covariances(self):
        """Returns the covariances."""
        return self._covs

    def assignments(self):
        """Returns a list (one per shard) of the most likely component of each example."""
        return [_math_ops.argmax(w, 1) for w in self._w]

    def scores(self):
        """Returns the log-likelihood of each example."""
        return self._scores

    def log_likelihood_op(self):
        """Returns the log-likelihood of all the data."""
        return self._log_likelihood_op

    def _define_graph(self, data):
        for shard_id, shard in enumerate(data):
            self._num_examples = _array_ops.shape(shard)[0]
            shard = _array_ops.expand_dims(shard, 0)
            self._define_log_prob_operation(shard_id, shard)
            self._define_prior_log_prob_operation(shard_id)
            self._define_expectation_operation(shard_id)
            self._define_partial_maximization_operation(shard_id, shard)
        self._define_maximization_operation(len(data))
        self._define_loglikelihood_operation()
        self._define_score_samples()

    def _define_full_covariance_probs(self, shard_id, shard):
        from ..ops.linalg_core_ops import cholesky, matrix_triangular_solve
        from ..ops.linalg_diag_ops import matrix_diag_part
        diff = shard - self._means
        chol = cholesky(self._covs + self._min_var)
        log_det_covs = 2.0 * _math_ops.reduce_sum(_math_ops.log(matrix_diag_part(chol)), 1)
        x_mu_cov = _math_ops.square(matrix_triangular_solve(chol, _array_ops.transpose(diff, perm=[0, 2, 1]),
                                                           lower=True))
        diag_m = _array_ops.transpose(_math_ops.reduce_sum(x_mu_cov, 1))
        self._probs[shard_id] = -0.5 * (diag_m + _math_ops.cast(self._dimensions, _dtypes.float32)
                                        * _math_ops.log(2 * _np.pi) + log_det_covs)

    def _define_diag_covariance_probs(self, shard_id, shard):
        det_expanded = _math_ops.reduce_sum(_math_ops.log(self._covs + 1e-3), 1, keepdims=True)
        x2 = _math_ops.squared_difference(shard, self._means)
        cov_expanded = _array_ops.expand_dims(1.0 / (self._covs + 1e-3), 2)
        x2_cov = _math_ops.matmul(x2, cov_expanded)
        x2_cov = _array_ops.transpose(_array_ops.squeeze(x2_cov, [2]))
        self._probs[shard_id] = -0.5 * (_math_ops.cast(self._dimensions, _dtypes.float32) * _math_ops.log(2.0 * _np.pi)
                                        + _array_ops.transpose(det_expanded) + x2_cov)

    def _define_log_prob_operation(self, shard_id, shard):
        if self._covariance_type == _FULL_COVARIANCE:
            self._define_full_covariance_probs(shard_id, shard)
        else:
            self._define_diag_covariance_probs(shard_id, shard)
        self._probs[shard_id] += _math_ops.log(self._alpha)

    def _define_prior_log_prob_operation(self, shard_id):
        self._prior_probs[shard_id] = _math_ops.reduce_logsumexp(self._probs[shard_id], axis=1, keepdims=True)

    def _define_expectation_operation(self, shard_id):
        probs = _array_ops.expand_dims(self._probs[shard_id], 0)
        self._w[shard_id] = _array_ops.reshape(_math_ops.exp(probs - self._prior_probs[shard_id]),
                                              _array_ops.stack([self._num_examples, self._num_classes]))

    def _define_partial_maximization_operation(self, shard_id, shard):
        self._points_in_k[shard_id] = _math_ops.reduce_sum(self._w[shard_id], 0, keepdims=True)
        w_mul_x = _array_ops.expand_dims(_math_ops.matmul(self._w[shard_id], _array_ops.squeeze(shard, [0]),
                                                        transpose_a=True), 1)
        self._w_mul_x.append(w_mul_x)
        x = _array_ops.concat([shard for _ in range(self._num_classes)], 0)
        x_trans = _array_ops.transpose(x, perm=[0, 2, 1])
        x_mul_w = _array_ops.concat([_array_ops.expand_dims(x_trans[k, :, :] * self._w[shard_id][:, k], 0)
                                    for k in range(self._num_classes)], 0)
        self._w_mul_x2.append(_math_ops.matmul(x_mul_w, x))

    def _define_maximization_operation(self, num_batches):
        from ..ops.linalg_diag_ops import diag_part
        with _ops.control_dependencies(self._w):
            points_in_k = _array_ops.squeeze(_core_ops.add_n(self._points_in_k), axis=[0])
            if "w" in self._params:
                final_points_in_k = points_in_k / num_batches
                num_examples = _math_ops.cast(_math_ops.reduce_sum(final_points_in_k), _dtypes.float32)
                self._alpha_op = self._alpha.assign(final_points_in_k / (num_examples + _MEPS))
            else:
                self._alpha_op = _core_ops.no_op()
            self._train_ops = [self._alpha_op]
            points_in_k_expanded = _array_ops.reshape(points_in_k, [self._num_classes, 1, 1])
            if "m" in self._params:
                self._means_op = self._means.assign(_core_ops.add_n(self._w_mul_x) / (points_in_k_expanded + _MEPS))
            else:
                self._means_op = _core_ops.no_op()
            with _ops.control_dependencies([self._means_op]):
                b = _core_ops.add_n(self._w_mul_x2) / (points_in_k_expanded + _MEPS)
                new_covs = []
                means_value = self._means.read_value()
                for k in range(self._num_classes):
                    mean = means_value[k, :, :]
                    square_mean = _math_ops.matmul(mean, mean, transpose_a=True)
                    new_cov = b[k, :, :] - square_mean + self._min_var
                    if self._covariance_type == _FULL_COVARIANCE:
                        new_covs.append(_array_ops.expand_dims(new_cov, 0))
                    else:
                        new_covs.append(_array_ops.expand_dims(diag_part(new_cov), 0))
                new_covs = _array_ops.concat(new_covs, 0)
                if "c" in self._params:
                    with _ops.control_dependencies([self._means_op, new_covs]):
                        self._train_ops.append(_state_ops.assign(self._covs, new_covs, validate_shape=False))

    def _define_loglikelihood_operation(self):
        op = [_math_ops.reduce_logsumexp(prior_probs) for prior_probs in self._prior_probs]
        self._log_likelihood_op = _math_ops.reduce_logsumexp(_array_ops.stack(op))

    def _define_score_samples(self):
        op = [prior_probs + _math_ops.log(self._w[shard_id]) for shard_id, prior_probs in enumerate(self._prior_probs)]
        self._scores = _array_ops.squeeze(_math_ops.reduce_logsumexp(_array_ops.stack(op), axis=2, keepdims=True),
                                         axis=0)


def gmm(inp, initial_clusters, num_clusters, random_seed, covariance_type=_FULL_COVARIANCE, params="wmc"):
    """Creates the graph for Gaussian mixture model (GMM) clustering (TF 1.15's `gmm_ops.gmm`).

    Args:
      inp: An input tensor or list of input tensors (float32 `[num_examples, dims]`).
      initial_clusters: "random" (random rows of the input) or the initial means (array or tensor).
      num_clusters: The number of clusters.
      random_seed: Seed of the random initialisation.
      covariance_type: "full" or "diag".
      params: Which parameters train: any of "w", "m", "c".

    Returns:
      A tuple `(loss, scores, [assignments], training_op, init_op, is_initialized)`: the data's
      log-likelihood, each example's log-likelihood, the per-shard list of most likely components,
      the EM step, the initialization op and the boolean "initialized" variable.
    """
    initial_means = None
    if isinstance(initial_clusters, _ops.Tensor):
        initial_means = initial_clusters
    elif not (isinstance(initial_clusters, str) and initial_clusters == "random"):
        initial_means = _constant(initial_clusters, dtype=_dtypes.float32)
    inp = inp if isinstance(inp, list) else [inp]
    inp = [_ops.convert_to_tensor(i) for i in inp]
    gmm_tool = GmmAlgorithm(inp, num_clusters, initial_means, params, covariance_type, random_seed)
    return (gmm_tool.log_likelihood_op(), gmm_tool.scores(), [gmm_tool.assignments()], gmm_tool.training_ops(),
            gmm_tool.init_ops(), gmm_tool.is_initialized())


# ---- the estimator --------------------------------------------------------------------------------
class _LossRelativeChangeHook(_SessionRunHook):
    """Stops when the relative change in loss goes below a tolerance."""

    def __init__(self, loss_tensor, tolerance):
        self._loss_tensor = loss_tensor
        self._tolerance = tolerance
        self._prev_loss = None

    def before_run(self, run_context):
        return _SessionRunArgs(self._loss_tensor)

    def after_run(self, run_context, run_values):
        loss = run_values.results
        if self._prev_loss:
            relative_change = abs(loss - self._prev_loss) / (1 + abs(self._prev_loss))
            if relative_change < self._tolerance:
                run_context.request_stop()
        self._prev_loss = loss


class _InitializeClustersHook(_SessionRunHook):
    """Runs the initialization op until all cluster centers are chosen (the chief); others wait."""

    def __init__(self, init_op, is_initialized_var, is_chief):
        self._init_op = init_op
        self._is_initialized_var = is_initialized_var
        self._is_chief = is_chief

    def after_create_session(self, session, coord):
        while True:
            try:
                if session.run(self._is_initialized_var):
                    break
                elif self._is_chief:
                    session.run(self._init_op)
                else:
                    _time.sleep(1)
            except RuntimeError as e:
                _logging.info(e)


def _parse_features_if_necessary(features, feature_columns):
    if not isinstance(features, dict):
        return features
    if feature_columns:
        from ..feature_column.layers import input_layer
        return input_layer(features, feature_columns)
    keys = sorted(features.keys())
    return _array_ops.concat([features[k] for k in keys], axis=1)


class _ModelFn:
    def __init__(self, num_clusters, initial_clusters, distance_metric, random_seed, use_mini_batch,
                 mini_batch_steps_per_iteration, kmeans_plus_plus_num_retries, relative_tolerance, feature_columns):
        self._num_clusters = num_clusters
        self._initial_clusters = initial_clusters
        self._distance_metric = distance_metric
        self._random_seed = random_seed
        self._use_mini_batch = use_mini_batch
        self._mini_batch_steps_per_iteration = mini_batch_steps_per_iteration
        self._kmeans_plus_plus_num_retries = kmeans_plus_plus_num_retries
        self._relative_tolerance = relative_tolerance
        self._feature_columns = feature_columns

    def model_fn(self, features, mode, config):
        input_points = _parse_features_if_necessary(features, self._feature_columns)
        (all_distances, model_predictions, losses, is_initialized, init_op, training_op) = KMeans(
            inputs=input_points, num_clusters=self._num_clusters, initial_clusters=self._initial_clusters,
            distance_metric=self._distance_metric, use_mini_batch=self._use_mini_batch,
            mini_batch_steps_per_iteration=self._mini_batch_steps_per_iteration, random_seed=self._random_seed,
            kmeans_plus_plus_num_retries=self._kmeans_plus_plus_num_retries).training_graph()
        loss = _math_ops.reduce_sum(losses)
        _summary_scalar("loss/raw", loss)
        incr_step = _state_ops.assign_add(_get_global_step(), 1)
        with _ops.control_dependencies([training_op, incr_step]):
            training_op = _core_ops.identity(loss)
        training_hooks = [_InitializeClustersHook(init_op, is_initialized, config.is_chief)]
        if self._relative_tolerance is not None:
            training_hooks.append(_LossRelativeChangeHook(loss, self._relative_tolerance))
        export_outputs = {
            KMeansClustering.ALL_DISTANCES: _PredictOutput(all_distances[0]),
            KMeansClustering.CLUSTER_INDEX: _PredictOutput(model_predictions[0]),
            "serving_default": _PredictOutput(model_predictions[0]),
        }
        return _EstimatorSpec(
            mode=mode,
            predictions={KMeansClustering.ALL_DISTANCES: all_distances[0],
                         KMeansClustering.CLUSTER_INDEX: model_predictions[0]},
            loss=loss, train_op=training_op, eval_metric_ops={KMeansClustering.SCORE: _metrics_impl.mean(loss)},
            training_hooks=training_hooks, export_outputs=export_outputs)


class KMeansClustering(_Estimator):
    """An Estimator for k-means clustering (TF 1.15's `tf.contrib.factorization.KMeansClustering`).

    `input_fn` returns the points (a `[n, dim]` float32 tensor, or a dict of `[n, 1]` features
    concatenated by sorted key, or read through `feature_columns`). `train` runs Lloyd steps,
    `score` returns the sum of squared distances to the nearest centers over one batch,
    `predict_cluster_index`/`transform` yield each point's nearest center/distances to every
    center, and `cluster_centers()` reads the variable "clusters" from the latest checkpoint.

    Args:
      num_clusters: The number of clusters (ignored if `initial_clusters` is a tensor or array).
      model_dir: The directory for checkpoints and summaries.
      initial_clusters: RANDOM_INIT, KMEANS_PLUS_PLUS_INIT, a tensor/array of centers or a callable.
      distance_metric: SQUARED_EUCLIDEAN_DISTANCE or COSINE_DISTANCE.
      random_seed: The initialisation seed.
      use_mini_batch: Use the mini-batch algorithm (default True).
      mini_batch_steps_per_iteration: Steps between syncs of the updated centers.
      kmeans_plus_plus_num_retries: Extra draws per k-means++ sample.
      relative_tolerance: Stop training when the loss changes relatively less than this.
      config: A `RunConfig`.
      feature_columns: Optional feature columns for dict features.

    Raises:
      ValueError: For an unsupported `initial_clusters` or `distance_metric`.
    """

    SQUARED_EUCLIDEAN_DISTANCE = SQUARED_EUCLIDEAN_DISTANCE
    COSINE_DISTANCE = COSINE_DISTANCE
    RANDOM_INIT = RANDOM_INIT
    KMEANS_PLUS_PLUS_INIT = KMEANS_PLUS_PLUS_INIT
    SCORE = "score"
    CLUSTER_INDEX = "cluster_index"
    ALL_DISTANCES = "all_distances"
    CLUSTER_CENTERS_VAR_NAME = _CLUSTERS_VAR_NAME

    def __init__(self, num_clusters, model_dir=None, initial_clusters=RANDOM_INIT,
                 distance_metric=SQUARED_EUCLIDEAN_DISTANCE, random_seed=0, use_mini_batch=True,
                 mini_batch_steps_per_iteration=1, kmeans_plus_plus_num_retries=2, relative_tolerance=None,
                 config=None, feature_columns=None):
        if isinstance(initial_clusters, str) and initial_clusters not in [RANDOM_INIT, KMEANS_PLUS_PLUS_INIT]:
            raise ValueError("Unsupported initialization algorithm '%s'" % initial_clusters)
        if distance_metric not in [SQUARED_EUCLIDEAN_DISTANCE, COSINE_DISTANCE]:
            raise ValueError("Unsupported distance metric '%s'" % distance_metric)
        super().__init__(model_fn=_ModelFn(num_clusters, initial_clusters, distance_metric, random_seed,
                                           use_mini_batch, mini_batch_steps_per_iteration,
                                           kmeans_plus_plus_num_retries, relative_tolerance,
                                           feature_columns).model_fn,
                         model_dir=model_dir, config=config)

    def _predict_one_key(self, input_fn, predict_key):
        for result in self.predict(input_fn=input_fn, predict_keys=[predict_key]):
            yield result[predict_key]

    def predict_cluster_index(self, input_fn):
        """Yields the index of the closest cluster center of each input point.

        Args:
          input_fn: Input points (see `Estimator.predict`).
        """
        yield from self._predict_one_key(input_fn, KMeansClustering.CLUSTER_INDEX)

    def score(self, input_fn):
        """Returns the sum of squared distances to the nearest clusters over one batch of `input_fn`.

        Args:
          input_fn: Input points (see `Estimator.evaluate`).

        Returns:
          A float: the score (not negated, unlike sklearn).
        """
        return self.evaluate(input_fn=input_fn, steps=1)[KMeansClustering.SCORE]

    def transform(self, input_fn):
        """Yields the distances from each input point to every cluster center.

        Args:
          input_fn: Input points (see `Estimator.predict`).
        """
        yield from self._predict_one_key(input_fn, KMeansClustering.ALL_DISTANCES)

    def cluster_centers(self):
        """Returns the cluster centers (the variable "clusters" of the latest checkpoint)."""
        return self.get_variable_value(KMeansClustering.CLUSTER_CENTERS_VAR_NAME)
