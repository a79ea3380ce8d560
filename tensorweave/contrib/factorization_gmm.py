"""`tf.contrib.factorization.GMM`: the Gaussian mixture model estimator of TF 1.15 (`gmm.py`), built on
the EM graph of `factorization.gmm` and the core `Estimator`."""

import numpy as np

from ..estimator import Estimator
from ..estimator.model_fn import EstimatorSpec
from ..framework import dtypes, ops
from ..metrics.metrics_impl import metric_variable
from ..ops import array_ops, core_ops, state_ops
from ..train.training_util import get_global_step

__all__ = ["GMM"]


def _streaming_sum(scalar_tensor):
    """A metric summing a scalar over the evaluation batches: `(value, update_op)`."""
    total = metric_variable([], dtypes.float32, name="total")
    value = core_ops.identity(total)
    update_op = state_ops.assign_add(total, scalar_tensor)
    return value, update_op


class GMM(Estimator):
    """An estimator for Gaussian mixture model clustering (TF 1.15's `tf.contrib.factorization.GMM`).

    Each training step runs one EM iteration over the batch returned by `input_fn` (a `[n, dims]`
    float32 tensor, or a dict of `[n, d_i]` features concatenated in sorted key order). The first
    step initializes the means (random rows of the batch, or `initial_clusters`) and sets every
    covariance to the batch covariance (plus `1e-3` on the diagonal).

    Args:
      num_clusters: The number of mixture components.
      model_dir: The directory for checkpoints and summaries.
      random_seed: The seed of the random initial means.
      params: Which parameters train: any of "w" (weights), "m" (means), "c" (covariances).
      initial_clusters: "random" or the initial means (a `[num_clusters, dims]` array or tensor).
      covariance_type: "full" or "diag".
      config: A `RunConfig`.

    Raises:
      ValueError: For an unknown `covariance_type` or `params` letter.
    """

    SCORES = "scores"
    LOG_LIKELIHOOD = "loss"
    ASSIGNMENTS = "assignments"

    def __init__(self, num_clusters, model_dir=None, random_seed=0, params="wmc", initial_clusters="random",
                 covariance_type="full", config=None):
        if covariance_type not in ("full", "diag"):
            raise ValueError("covariance_type must be 'full' or 'diag', got %r" % (covariance_type,))
        if any(p not in "wmc" for p in params):
            raise ValueError("params may only contain 'w', 'm' and 'c', got %r" % (params,))
        self._gmm_num_clusters = num_clusters
        self._gmm_params = params
        self._gmm_initial_clusters = initial_clusters
        self._gmm_covariance_type = covariance_type
        self._gmm_random_seed = random_seed
        super().__init__(model_fn=self._model_builder(), model_dir=model_dir, config=config)

    def predict_assignments(self, input_fn=None):
        """Yields the most likely mixture component of each input example.

        Args:
          input_fn: Input examples (see `Estimator.predict`).
        """
        for result in self.predict(input_fn=input_fn, predict_keys=[GMM.ASSIGNMENTS]):
            yield result[GMM.ASSIGNMENTS]

    def score(self, input_fn=None, steps=None):
        """Returns the sum of the data log-likelihood (TF's `gmm_ops` loss) over the evaluation steps.

        Args:
          input_fn: Input examples (see `Estimator.evaluate`).
          steps: The number of evaluation steps (None: until `input_fn` is exhausted).

        Returns:
          A float: the summed log-likelihood.
        """
        results = self.evaluate(input_fn=input_fn, steps=steps)
        return np.sum(results[GMM.SCORES])

    def weights(self):
        """Returns the mixture weights ("alphas") of the latest checkpoint."""
        from .factorization import GmmAlgorithm
        return self.get_variable_value(GmmAlgorithm.CLUSTERS_WEIGHT)

    def clusters(self):
        """Returns the `[num_clusters, dims]` means of the latest checkpoint."""
        from .factorization import GmmAlgorithm
        return np.squeeze(self.get_variable_value(GmmAlgorithm.CLUSTERS_VARIABLE), 1)

    def covariances(self):
        """Returns the covariances of the latest checkpoint (`[k, d, d]` full or `[k, d]` diagonal)."""
        from .factorization import GmmAlgorithm
        return self.get_variable_value(GmmAlgorithm.CLUSTERS_COVS_VARIABLE)

    @staticmethod
    def _parse_tensor_or_dict(features):
        if isinstance(features, dict):
            return array_ops.concat([features[k] for k in sorted(features.keys())], 1)
        return features

    def _model_builder(self):
        def _model_fn(features, labels, mode, config):
            from .factorization import _InitializeClustersHook, gmm
            if labels is not None:
                raise ValueError("GMM takes no labels, got %r" % (labels,))
            (loss, _, model_predictions, training_op, init_op, is_initialized) = gmm(
                self._parse_tensor_or_dict(features), self._gmm_initial_clusters, self._gmm_num_clusters,
                self._gmm_random_seed, self._gmm_covariance_type, self._gmm_params)
            incr_step = state_ops.assign_add(get_global_step(), 1)
            with ops.control_dependencies([training_op, incr_step]):
                training_op = core_ops.identity(loss)
            return EstimatorSpec(
                mode=mode, predictions={GMM.ASSIGNMENTS: model_predictions[0][0]}, loss=loss,
                train_op=training_op, eval_metric_ops={GMM.SCORES: _streaming_sum(loss)},
                training_hooks=[_InitializeClustersHook(init_op, is_initialized, config.is_chief)])
        return _model_fn
