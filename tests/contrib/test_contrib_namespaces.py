"""The `tf.contrib` namespaces export TF 1.15's public names only: no helper modules (`np`, `ops`,
`array_ops`, ...), no imported helpers (`constant`, `Variable`, ...), no implementation submodules.

TF 1.15's contrib `__init__` files ran `remove_undocumented`, which deleted every name not documented
(`@@name` lines of the module docstring or `_allowed_symbols`). The lists below were read from those
files (tensorflow/contrib/<module>/__init__.py); later TF 1.x additions that the versions read predate
are marked with a comment saying where the name is documented."""

import types

import pytest

import tensorweave as tf

CONTRIB = {"autograph", "crf", "data", "distributions", "eager", "factorization", "framework", "image", "layers",
           "learn", "legacy_seq2seq", "losses", "metrics", "opt", "rnn", "seq2seq", "slim", "tensor_forest",
           "training"}

METRICS = {
    "accuracy", "aggregate_metric_map", "aggregate_metrics", "auc_using_histogram", "auc_with_confidence_intervals",
    "cohen_kappa", "confusion_matrix", "count", "f1_score", "precision_at_recall",
    "precision_recall_at_equal_thresholds", "recall_at_precision", "set_difference", "set_intersection", "set_size",
    "set_union", "sparse_recall_at_top_k", "streaming_accuracy", "streaming_auc", "streaming_concat",
    "streaming_covariance", "streaming_curve_points", "streaming_dynamic_auc", "streaming_false_negative_rate",
    "streaming_false_negative_rate_at_thresholds", "streaming_false_negatives",
    "streaming_false_negatives_at_thresholds", "streaming_false_positive_rate",
    "streaming_false_positive_rate_at_thresholds", "streaming_false_positives",
    "streaming_false_positives_at_thresholds", "streaming_mean", "streaming_mean_absolute_error",
    "streaming_mean_cosine_distance", "streaming_mean_iou", "streaming_mean_relative_error",
    "streaming_mean_squared_error", "streaming_mean_tensor", "streaming_pearson_correlation",
    "streaming_percentage_less", "streaming_precision", "streaming_precision_at_thresholds", "streaming_recall",
    "streaming_recall_at_k", "streaming_recall_at_thresholds", "streaming_root_mean_squared_error",
    "streaming_sensitivity_at_specificity", "streaming_sparse_average_precision_at_k",
    "streaming_sparse_average_precision_at_top_k", "streaming_sparse_precision_at_k",
    "streaming_sparse_precision_at_top_k", "streaming_sparse_recall_at_k", "streaming_specificity_at_sensitivity",
    "streaming_true_negatives", "streaming_true_negatives_at_thresholds", "streaming_true_positives",
    "streaming_true_positives_at_thresholds"}

IMAGE = {"angles_to_projective_transforms", "bipartite_match", "compose_transforms", "connected_components",
         "dense_image_warp", "flat_transforms_to_matrices", "interpolate_spline", "matrices_to_flat_transforms",
         "rotate", "single_image_random_dot_stereograms", "sparse_image_warp", "transform", "translate",
         "translations_to_projective_transforms",
         # imported by TF 1.15's __init__ (distort_image_ops) and listed by TF's tf_upgrade_v2 renames
         "adjust_hsv_in_yiq", "random_hsv_in_yiq"}

FACTORIZATION = {"COSINE_DISTANCE", "GMM", "GmmAlgorithm", "KMEANS_PLUS_PLUS_INIT", "KMeans", "RANDOM_INIT",
                 "SQUARED_EUCLIDEAN_DISTANCE", "WALSMatrixFactorization", "WALSModel", "gmm",
                 # TF 1.15's kmeans.py estimator and clustering_ops constant (tf.contrib.factorization docs)
                 "KMeansClustering", "KMC2_INIT"}

LOSSES = {"absolute_difference", "add_loss", "compute_weighted_loss", "cosine_distance", "get_losses",
          "get_regularization_losses", "get_total_loss", "hinge_loss", "log_loss", "mean_pairwise_squared_error",
          "mean_squared_error", "metric_learning", "sigmoid_cross_entropy", "softmax_cross_entropy",
          "sparse_softmax_cross_entropy"}

CRF = {"CrfDecodeBackwardRnnCell", "CrfDecodeForwardRnnCell", "CrfForwardRnnCell", "crf_binary_score", "crf_decode",
       "crf_log_likelihood", "crf_log_norm", "crf_sequence_score", "crf_unary_score", "viterbi_decode",
       # added to crf.py and the docs in TF 1.12
       "crf_multitag_sequence_score"}

OPT = {"AdaMaxOptimizer", "AddSignOptimizer", "AdamWOptimizer", "DecoupledWeightDecayExtension",
       "DelayCompensatedGradientDescentOptimizer", "DropStaleGradientOptimizer", "ElasticAverageCustomGetter",
       "ElasticAverageOptimizer", "ExternalOptimizerInterface", "GGTOptimizer", "LazyAdamOptimizer",
       "ModelAverageCustomGetter", "ModelAverageOptimizer", "MomentumWOptimizer", "MovingAverageOptimizer",
       "MultitaskOptimizerWrapper", "NadamOptimizer", "PowerSignOptimizer", "ScipyOptimizerInterface",
       "VariableClippingOptimizer", "clip_gradients_by_global_norm", "extend_with_decoupled_weight_decay",
       # lars_optimizer.py, in _allowed_symbols since TF 1.9
       "LARSOptimizer"}

DOCUMENTED = {"metrics": METRICS, "image": IMAGE, "factorization": FACTORIZATION, "losses": LOSSES, "crf": CRF,
              "opt": OPT}

# Namespaces whose module objects are TF 1.15 names too (everything else public must be a function,
# a class or a constant).
SUBMODULES = {"learn": {"datasets", "preprocessing"}, "tensor_forest": {"client", "python", "tensor_forest"},
              "losses": {"metric_learning"}, "framework": {"nest"}}

CLEANED = sorted(DOCUMENTED) + ["crf", "distributions", "eager", "framework", "learn", "legacy_seq2seq", "rnn",
                                "seq2seq", "tensor_forest", "training"]

LEAKS = {"np", "ops", "dtypes", "array_ops", "math_ops", "core_ops", "constant", "time", "math", "functools",
         "inspect", "types", "importlib", "json", "re", "copy", "contextlib", "logging", "nn_ops", "state_ops"}


def _public(module):
    return {n for n in dir(module) if not n.startswith("_")}


def test_contrib_lists_tf_modules_only():
    assert _public(tf.contrib) == CONTRIB
    for name in CONTRIB:
        assert isinstance(getattr(tf.contrib, name), types.ModuleType), name
    with pytest.raises(AttributeError):
        tf.contrib.layers_slim  # noqa: B018 (an implementation module, importable by its path only)
    import tensorweave.contrib.layers_slim as impl
    assert impl.__name__ == "tensorweave.contrib.layers_slim"


@pytest.mark.parametrize("name", sorted(DOCUMENTED))
def test_public_names_are_documented_tf_names(name):
    module = getattr(tf.contrib, name)
    public = _public(module)
    assert public <= DOCUMENTED[name], sorted(public - DOCUMENTED[name])
    assert public == set(module.__all__)


@pytest.mark.parametrize("name", sorted(set(CLEANED)))
def test_namespace_has_no_leaked_helpers(name):
    module = getattr(tf.contrib, name)
    public = _public(module)
    assert public <= set(module.__all__), sorted(public - set(module.__all__))
    for attr in module.__all__:  # names of __all__ outside dir() load on first use (tensor_forest.client)
        getattr(module, attr)
    assert not public & LEAKS
    for attr in public:
        value = getattr(module, attr)
        if isinstance(value, types.ModuleType):
            assert attr in SUBMODULES.get(name, set()), "%s.%s is a module" % (name, attr)
        elif not callable(value):  # a constant
            assert attr.isupper() or attr == "learn_runner", "%s.%s: %r" % (name, attr, value)


def test_kinds_of_documented_names():
    for name in ("COSINE_DISTANCE", "KMC2_INIT", "KMEANS_PLUS_PLUS_INIT", "RANDOM_INIT",
                 "SQUARED_EUCLIDEAN_DISTANCE"):
        assert isinstance(getattr(tf.contrib.factorization, name), str)
    for module, names in (("metrics", METRICS), ("image", IMAGE), ("crf", CRF)):
        for attr in names & _public(getattr(tf.contrib, module)):
            assert callable(getattr(getattr(tf.contrib, module), attr)), (module, attr)
    assert isinstance(tf.contrib.factorization.KMeansClustering, type)
    assert tf.contrib.metrics is tf.contrib.slim.metrics and tf.contrib.losses is tf.contrib.slim.losses


def test_seq2seq_submodules_only_by_path():
    with pytest.raises(AttributeError):
        tf.contrib.seq2seq.attention_wrapper  # noqa: B018
    from tensorweave.contrib.seq2seq import attention_wrapper
    assert attention_wrapper.AttentionWrapper is tf.contrib.seq2seq.AttentionWrapper
