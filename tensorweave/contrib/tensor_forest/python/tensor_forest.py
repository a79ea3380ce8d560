"""TensorForest graph builders (TF 1.15's `tf.contrib.tensor_forest.python.tensor_forest`).

`ForestHParams(num_classes=..., num_features=..., ...).fill()` holds the hyperparameters (TF 1.15's
defaults); `RandomForestGraphs(hparams)` makes two resources per tree (the tree and its fertile
statistics, registered in `GraphKeys.RESOURCES`, so `resources.initialize_resources(
resources.shared_resources())` initializes them) and builds the training graph (each tree grows
online from the batches it is fed; see `tensorweave.ops.tensor_forest_ops`), the inference graph
(the class probabilities averaged over the trees) and TF's training loss, the negated average tree
size.

`ForestHParams(regression=True, num_classes=k)` makes a regression forest of k outputs (TF 1.15's
least-squares trees, see `tensorweave.ops.tensor_forest_regression_ops`): labels are float targets
[batch_size, k] (or [batch_size] when k is 1), each candidate split is scored by the summed variances
of its two sides, a leaf predicts the mean target of the examples that made it, and the inference
graph returns the trees' mean prediction with its variance over the trees.

Only dense-tensor input is implemented: dict or sparse input, and for classification `model_name`
other than "all_dense", `split_finish_name` other than "basic", `split_pruning_name` other than
"none" and `initialize_average_splits=True` raise NotImplementedError (regression uses TF's fixed
regression models and the "basic" finish whatever `model_name` and `split_finish_name` say).

Checkpoints: each resource is a saveable object (`GraphKeys.SAVEABLE_OBJECTS`), so `tf.train.Saver()`
saves and restores it as TF 1.15 does: one scalar string entry per resource, named after the handle
tensor as in TF ("tree-0:0", "stats-0:0"), written by "TreeSerialize" / "FertileStatsSerialize" and
read back by "TreeDeserialize" / "FertileStatsDeserialize" (the serialized form is tensorweave's own
JSON, not TF's protos; see `tensorweave.ops.tensor_forest_ops`). Restoring needs no prior
initialization: it replaces the resource's whole state in the session. Saving an uninitialized
resource raises FailedPreconditionError.
"""

import math
import random

from ....framework import dtypes, ops
from ....framework.constant_op import constant
from ....framework.sparse_tensor import SparseTensor
from ....ops import (
    array_ops,
    core_ops,
    math_ops,
    random_ops,
    resources,
    tensor_forest_regression_ops,  # noqa: F401 (registers the regression kernels)
)
from ....ops import tensor_forest_ops as _tfo

__all__ = ["ForestHParams", "ForestVariables", "RandomForestGraphs", "RandomTreeGraphs", "TreeVariables"]

# TF's proto enum values for the settings fill() records (tensor_forest_params.proto,
# generic_tree_model.proto).
_MODEL_DENSE_CLASSIFICATION = 0
_MODEL_REGRESSION = 2
_STATS_DENSE_GINI = 0
_STATS_LEAST_SQUARES_REGRESSION = 2
_SPLIT_FINISH_BASIC = 0
_SPLIT_PRUNE_NONE = 0
_SPLIT_TYPES = {"less_or_equal": 0, "less": 1}


class ForestHParams(object):
    """A base class for holding hyperparameters and calculating good defaults.

    To get default parameters, use `ForestHParams(num_classes=2, num_features=40).fill()`;
    `num_classes` and `num_features` must always be given. Keyword arguments beyond the named ones
    (`num_classes`, `num_features`, `base_random_seed`, `regression`, ...) become attributes.
    """

    def __init__(self, num_trees=100, max_nodes=10000, bagging_fraction=1.0, num_splits_to_consider=0,
                 feature_bagging_fraction=1.0, max_fertile_nodes=0, split_after_samples=250, valid_leaf_threshold=1,
                 dominate_method="bootstrap", dominate_fraction=0.99, model_name="all_dense",
                 split_finish_name="basic", split_pruning_name="none", prune_every_samples=0,
                 early_finish_check_every_samples=0, collate_examples=False, checkpoint_stats=False,
                 use_running_stats_method=False, initialize_average_splits=False, inference_tree_paths=False,
                 param_file=None, split_name="less_or_equal", **kwargs):
        self.num_trees = num_trees
        self.max_nodes = max_nodes
        self.bagging_fraction = bagging_fraction
        self.feature_bagging_fraction = feature_bagging_fraction
        self.num_splits_to_consider = num_splits_to_consider
        self.max_fertile_nodes = max_fertile_nodes  # deprecated and unused, as in TF
        self.split_after_samples = split_after_samples
        self.valid_leaf_threshold = valid_leaf_threshold
        self.dominate_method = dominate_method
        self.dominate_fraction = dominate_fraction
        self.model_name = model_name
        self.split_finish_name = split_finish_name
        self.split_pruning_name = split_pruning_name
        self.collate_examples = collate_examples
        self.checkpoint_stats = checkpoint_stats
        self.use_running_stats_method = use_running_stats_method
        self.initialize_average_splits = initialize_average_splits
        self.inference_tree_paths = inference_tree_paths
        self.param_file = param_file
        self.split_name = split_name
        self.early_finish_check_every_samples = early_finish_check_every_samples
        self.prune_every_samples = prune_every_samples
        for name, value in kwargs.items():
            setattr(self, name, value)

    def values(self):
        """The hyperparameters as a dict (the object's `__dict__`)."""
        return self.__dict__

    def fill(self):
        """Intelligently sets any non-specific parameters.

        Returns:
          self.

        Raises:
          AttributeError: If `num_classes` or `num_features` was not given.
          KeyError: If `split_name` is not "less_or_equal" or "less".
        """
        _ = self.num_classes
        _ = self.num_features
        self.bagged_num_features = int(self.feature_bagging_fraction * self.num_features)
        self.bagged_features = None
        if self.feature_bagging_fraction < 1.0:
            self.bagged_features = [random.sample(range(self.num_features), self.bagged_num_features)
                                    for _ in range(self.num_trees)]
        self.regression = getattr(self, "regression", False)
        self.num_outputs = self.num_classes if self.regression else 1
        self.num_output_columns = self.num_classes + 1
        self.num_splits_to_consider = self.num_splits_to_consider or min(
            max(10, math.floor(math.sqrt(self.num_features))), 1000)
        self.base_random_seed = getattr(self, "base_random_seed", 0)
        self.leaf_model_type = _MODEL_REGRESSION if self.regression else _MODEL_DENSE_CLASSIFICATION
        self.stats_model_type = _STATS_LEAST_SQUARES_REGRESSION if self.regression else _STATS_DENSE_GINI
        self.finish_type = _SPLIT_FINISH_BASIC
        self.pruning_type = _SPLIT_PRUNE_NONE
        if self.split_pruning_name == "none":
            self.prune_every_samples = 0
        if self.regression or self.split_finish_name == "basic":
            self.early_finish_check_every_samples = 0
        self.split_type = _SPLIT_TYPES[self.split_name]
        return self


def _check_supported(params):
    checks = [("split_pruning_name", "none"), ("initialize_average_splits", False)]
    if not getattr(params, "regression", False):
        checks += [("model_name", "all_dense"), ("split_finish_name", "basic")]
    for attr, value in checks:
        if getattr(params, attr, value) != value:
            raise NotImplementedError("tensorweave's tensor_forest supports only %s=%r, got %r" % (
                attr, value, getattr(params, attr)))
    if not hasattr(params, "num_splits_to_consider") or not hasattr(params, "split_type"):
        raise ValueError("ForestHParams must be filled: call hparams.fill() first")


class _ResourceSaveable(object):
    """What `tf.train.Saver` saves of one tree or stats resource (TF 1.15's TreeVariableSavable and
    FertileStatsVariableSavable): a scalar string entry named `name` (the handle tensor's name),
    exported by `serialize_type` and restored by `deserialize_type`, both with `attrs`."""

    def __init__(self, handle, serialize_type, deserialize_type, attrs, serialize_attrs=None):
        self.name = handle.name
        self.device = handle.op.device
        self.handle = handle
        self._deserialize_type = deserialize_type
        self._attrs = attrs
        with ops.name_scope(handle.op.name + "/"):
            tensor = ops.apply_op(serialize_type, [handle], dict(serialize_attrs or {}), name="serialize")
        self.specs = [(self.name, tensor)]

    def restore(self, restored_tensors):
        """The op replacing the resource's state with the restored serialized one."""
        with ops.name_scope(self.handle.op.name + "/"):
            return ops.apply_op(self._deserialize_type, [self.handle, restored_tensors[0]], dict(self._attrs),
                                name="restore")


class TreeVariables(object):
    """The two resources of one tree: `tree` (the decision tree) and `stats` (its fertile statistics).

    Both handles are registered with `resources.register_resource`, their create ops initializing
    an empty one-leaf tree and empty statistics, and as saveable objects (`GraphKeys.SAVEABLE_OBJECTS`)
    checkpointed by `tf.train.Saver` under the handles' names ("tree-3:0", "stats-3:0").
    """

    def __init__(self, params, tree_num, training, tree_config="", tree_stat=""):
        if tree_config or tree_stat:
            raise NotImplementedError("tensorweave's tensor_forest cannot start from a serialized tree_config or "
                                      "tree_stat")
        self.stats = None
        if training:
            self.stats = _tfo._resource_handle("FertileStatsResourceHandleOp", self.get_tree_name("stats", tree_num))
            with ops.name_scope(self.stats.op.name + "/"):
                create = ops.apply_op("CreateFertileStatsVariable", [self.stats], {}, name="create")
                is_init = ops.apply_op("FertileStatsIsInitializedOp", [self.stats], {}, name="is_initialized")
                resources.register_resource(self.stats, create, is_init)
            if getattr(params, "regression", False):
                prefix, stats_attrs = "Regression", {"num_outputs": int(params.num_classes)}
            else:
                prefix, stats_attrs = "", {"num_classes": int(params.num_classes)}
            stats_attrs["num_splits_to_consider"] = int(params.num_splits_to_consider)
            _add_saveable(_ResourceSaveable(self.stats, prefix + "FertileStatsSerialize",
                                            prefix + "FertileStatsDeserialize", stats_attrs, stats_attrs))
        self.tree = _tfo._resource_handle("DecisionTreeResourceHandleOp", self.get_tree_name("tree", tree_num))
        with ops.name_scope(self.tree.op.name + "/"):
            create = ops.apply_op("CreateTreeVariable", [self.tree], {"num_classes": int(params.num_classes)},
                                  name="create")
            is_init = ops.apply_op("TreeIsInitializedOp", [self.tree], {}, name="is_initialized")
            resources.register_resource(self.tree, create, is_init)
        _add_saveable(_ResourceSaveable(self.tree, "TreeSerialize", "TreeDeserialize",
                                        {"num_classes": int(params.num_classes)}))

    def get_tree_name(self, name, num):
        """The name of resource `name` ("tree" or "stats") of tree `num`: "tree-3"."""
        return "{0}-{1}".format(name, num)


class ForestVariables(object):
    """The `TreeVariables` of every tree of a forest, indexed by tree number.

    `device_assigner` is accepted for TF's signature; every op runs on the host.
    """

    def __init__(self, params, device_assigner=None, training=True, tree_variables_class=TreeVariables,
                 tree_configs=None, tree_stats=None):
        self.variables = []
        for i in range(params.num_trees):
            kwargs = {}
            if tree_configs is not None:
                kwargs["tree_config"] = tree_configs[i]
            if tree_stats is not None:
                kwargs["tree_stat"] = tree_stats[i]
            self.variables.append(tree_variables_class(params, i, training, **kwargs))

    def __setitem__(self, t, val):
        self.variables[t] = val

    def __getitem__(self, t):
        return self.variables[t]


def _add_saveable(saveable):
    if not ops.get_default_graph()._eager:
        ops.add_to_collection(ops.GraphKeys.SAVEABLE_OBJECTS, saveable)


def _parse_data(input_data, params):
    if isinstance(input_data, (dict, SparseTensor)):
        raise NotImplementedError("tensorweave's tensor_forest takes input_data as one dense Tensor")
    data = ops.convert_to_tensor(input_data)
    if not data.dtype.is_floating:
        data = math_ops.cast(data, dtypes.float32)
    ndims = data.shape.ndims
    if ndims is not None and ndims != 2:
        raise ValueError("input_data must be a matrix [batch_size, num_features], got shape %s" % (data.shape,))
    if ndims == 2 and data.shape[1] is not None and int(data.shape[1]) != params.num_features:
        raise ValueError("input_data has %d features but the forest was built with num_features=%d" % (
            int(data.shape[1]), params.num_features))
    return data


def _parse_labels(input_labels, params):
    if isinstance(input_labels, (dict, SparseTensor)):
        raise NotImplementedError("tensorweave's tensor_forest takes input_labels as one dense Tensor")
    labels = ops.convert_to_tensor(input_labels)
    if params.regression:
        ndims, k = labels.shape.ndims, params.num_outputs
        if ndims is not None and not (ndims == 1 and k == 1 or ndims == 2 and labels.shape.as_list()[1] in (None, k)):
            raise ValueError("input_labels must be a matrix [batch_size, %d] of regression targets%s, got shape %s" % (
                k, " (or a vector [batch_size])" if k == 1 else "", labels.shape))
        if not (labels.dtype.is_floating or labels.dtype.is_integer):
            raise TypeError("input_labels must be numeric regression targets, got %s" % labels.dtype.name)
        return math_ops.cast(labels, dtypes.float32)
    ndims = labels.shape.ndims
    if ndims is not None and not (ndims == 1 or ndims == 2 and labels.shape[1] in (None, 1)):
        raise ValueError("input_labels must be a vector [batch_size] or a matrix [batch_size, 1] of class ids, "
                         "got shape %s" % (labels.shape,))
    if labels.dtype.is_floating or labels.dtype.is_integer:
        return labels
    raise TypeError("input_labels must be numeric class ids, got %s" % labels.dtype.name)


class RandomTreeGraphs(object):
    """Builds TF graphs for training and inference of one random tree."""

    def __init__(self, variables, params, tree_num):
        self.variables = variables
        self.params = params
        self.tree_num = tree_num
        self._strict_less = params.split_type == _SPLIT_TYPES["less"]
        self._regression = bool(getattr(params, "regression", False))

    def training_graph(self, input_data, input_labels, random_seed, data_spec=None, sparse_features=None,
                       input_weights=None):
        """Constructs a TF graph for training a random tree.

        Args:
          input_data: A float Tensor [batch_size, num_features] (the tree's own features).
          input_labels: A Tensor of class ids, [batch_size] or [batch_size, 1]; for regression, the
            float targets [batch_size, num_outputs] (or [batch_size] for one output).
          random_seed: The tree's random seed; 0 seeds from the clock.
          data_spec: Ignored (TF's feature-type spec; every feature is dense float here).
          sparse_features: Must be None.
          input_weights: None, or a float Tensor [batch_size] of example weights (regression
            statistics count examples and ignore them, as TF's do).

        Returns:
          The last op in the random tree training graph.

        Raises:
          NotImplementedError: With `sparse_features`.
        """
        if sparse_features is not None:
            raise NotImplementedError("tensorweave's tensor_forest does not support sparse features")
        weights = (constant([], dtype=dtypes.float32) if input_weights is None
                   else math_ops.cast(input_weights, dtypes.float32))
        leaf_ids = ops.apply_op("TraverseTreeV4", [self.variables.tree, input_data],
                                {"strict_less": self._strict_less})
        if self._regression:
            # TF's regression leaf model has no update: leaves keep the means a split gave them.
            finished = ops.apply_op(
                "RegressionProcessInputV4", [self.variables.tree, self.variables.stats, input_data, input_labels,
                                             leaf_ids],
                {"num_outputs": int(self.params.num_classes),
                 "num_splits_to_consider": int(self.params.num_splits_to_consider),
                 "split_after_samples": float(self.params.split_after_samples), "random_seed": int(random_seed),
                 "strict_less": self._strict_less})
            return ops.apply_op("RegressionGrowTreeV4", [self.variables.tree, self.variables.stats, finished],
                                {"max_nodes": int(self.params.max_nodes)})
        update_model = ops.apply_op("UpdateModelV4", [self.variables.tree, leaf_ids, input_labels, weights],
                                    {"num_classes": int(self.params.num_classes)})
        finished = ops.apply_op(
            "ProcessInputV4", [self.variables.tree, self.variables.stats, input_data, input_labels, weights, leaf_ids],
            {"num_classes": int(self.params.num_classes),
             "num_splits_to_consider": int(self.params.num_splits_to_consider),
             "split_after_samples": float(self.params.split_after_samples), "random_seed": int(random_seed),
             "strict_less": self._strict_less})
        with ops.control_dependencies([update_model]):
            return ops.apply_op("GrowTreeV4", [self.variables.tree, self.variables.stats, finished],
                                {"max_nodes": int(self.params.max_nodes),
                                 "valid_leaf_threshold": float(self.params.valid_leaf_threshold)})

    def inference_graph(self, input_data, data_spec=None, sparse_features=None):
        """Constructs a TF graph for evaluating a random tree.

        Args:
          input_data: A float Tensor [batch_size, num_features] (the tree's own features).
          data_spec: Ignored (every feature is dense float here).
          sparse_features: Must be None.

        Returns:
          `(probabilities, tree_paths)`: float32 [batch_size, num_classes] (the reached leaf's class
          counts normalized; zeros for a leaf that has seen no example; for regression the leaf's
          values, [batch_size, num_outputs]) and string [batch_size] (the comma-separated node ids
          from the root to the leaf when `inference_tree_paths`, else "").

        Raises:
          NotImplementedError: With `sparse_features`.
        """
        if sparse_features is not None:
            raise NotImplementedError("tensorweave's tensor_forest does not support sparse features")
        if self._regression:
            return ops.apply_op("RegressionTreePredictionsV4", [self.variables.tree, input_data],
                                {"num_outputs": int(self.params.num_classes), "strict_less": self._strict_less,
                                 "inference_tree_paths": bool(self.params.inference_tree_paths)})
        return ops.apply_op("TreePredictionsV4", [self.variables.tree, input_data],
                            {"num_classes": int(self.params.num_classes), "strict_less": self._strict_less,
                             "inference_tree_paths": bool(self.params.inference_tree_paths)})

    def size(self):
        """Constructs a TF graph for evaluating the current number of nodes (int32 scalar)."""
        return ops.apply_op("TreeSize", [self.variables.tree], {})

    def feature_usage_counts(self):
        """How many split nodes test each of the tree's features (int32 [num_features])."""
        num_features = self.params.bagged_num_features if self.params.bagged_features else self.params.num_features
        return ops.apply_op("FeatureUsageCounts", [self.variables.tree], {"num_features": int(num_features)})


class RandomForestGraphs(object):
    """Builds TF graphs for random forest training and inference."""

    def __init__(self, params, tree_configs=None, tree_stats=None, device_assigner=None, variables=None,
                 tree_variables_class=TreeVariables, tree_graphs=None, training=True):
        """Makes the forest's resources.

        Args:
          params: A filled `ForestHParams`.
          tree_configs, tree_stats: Must be None (serialized starting trees are not supported).
          device_assigner: Accepted for TF's signature; ignored.
          variables: A `ForestVariables` to use instead of making one.
          tree_variables_class: The class making one tree's resources.
          tree_graphs: The class building one tree's graphs (default `RandomTreeGraphs`).
          training: Whether to make the statistics resources training needs.

        Raises:
          NotImplementedError: For settings tensorweave does not implement (module docstring).
          ValueError: If `params` was not filled.
        """
        _check_supported(params)
        self.params = params
        self.device_assigner = device_assigner
        self.variables = variables or ForestVariables(
            self.params, device_assigner=device_assigner, training=training,
            tree_variables_class=tree_variables_class, tree_configs=tree_configs, tree_stats=tree_stats)
        tree_graph_class = tree_graphs or RandomTreeGraphs
        self.trees = [tree_graph_class(self.variables[i], self.params, i) for i in range(self.params.num_trees)]

    def _bag_features(self, tree_num, input_data):
        return array_ops.gather(input_data, self.params.bagged_features[tree_num], axis=1)

    def get_all_resource_handles(self):
        """The tree handles, then the statistics handles."""
        return ([self.variables[i].tree for i in range(len(self.trees))] +
                [self.variables[i].stats for i in range(len(self.trees))])

    def training_graph(self, input_data, input_labels, num_trainers=1, trainer_id=0, **tree_kwargs):
        """Constructs a TF graph for training a random forest.

        Args:
          input_data: A float Tensor [batch_size, num_features].
          input_labels: A Tensor of class ids in [0, num_classes): [batch_size] or [batch_size, 1]; for
            regression, float targets [batch_size, num_outputs] ([batch_size] for one output).
          num_trainers: Number of parallel trainers to split trees among.
          trainer_id: Which trainer this instance is.
          **tree_kwargs: Keyword arguments passed to each tree's training_graph.

        Returns:
          The last op in the random forest training graph.

        Raises:
          ValueError: If `input_data` is not a matrix with `num_features` columns or `input_labels`
            is not a vector (or a one-column matrix).
          NotImplementedError: For dict or sparse input.
        """
        data = _parse_data(input_data, self.params)
        labels = _parse_labels(input_labels, self.params)
        tree_graphs = []
        trees_per_trainer = self.params.num_trees / num_trainers
        tree_start = int(trainer_id * trees_per_trainer)
        tree_end = int((trainer_id + 1) * trees_per_trainer)
        for i in range(tree_start, tree_end):
            seed = self.params.base_random_seed
            if seed != 0:
                seed += i
            tree_data, tree_labels = data, labels
            if self.params.bagging_fraction < 1.0:
                batch_size = array_ops.strided_slice(array_ops.shape(data), [0], [1])
                r = random_ops.random_uniform(batch_size, seed=seed)
                mask = math_ops.less(r, self.params.bagging_fraction)
                gather_indices = array_ops.squeeze(array_ops.where(mask), axis=[1])
                tree_data = array_ops.gather(data, gather_indices)
                tree_labels = array_ops.gather(labels, gather_indices)
            if self.params.bagged_features:
                tree_data = self._bag_features(i, tree_data)
            tree_graphs.append(self.trees[i].training_graph(tree_data, tree_labels, seed, **tree_kwargs))
        return core_ops.group(*tree_graphs, name="train")

    def inference_graph(self, input_data, **inference_args):
        """Constructs a TF graph for evaluating a random forest.

        Args:
          input_data: A float Tensor [batch_size, num_features].
          **inference_args: Keyword arguments passed to each tree's inference_graph.

        Returns:
          `(probabilities, tree_paths, regression_variance)`: the class probabilities averaged over
          the trees (float32 [batch_size, num_classes], named "probabilities"; for regression the
          trees' mean prediction, [batch_size, num_outputs]), the trees' paths (string
          [batch_size, num_trees]) and, for regression, the variance of the trees' predictions
          (`max(0, mean(p**2) - mean(p)**2)` over the trees, [batch_size, num_outputs]; None for
          classification).

        Raises:
          ValueError: If `input_data` is not a matrix with `num_features` columns.
        """
        data = _parse_data(input_data, self.params)
        probabilities, paths = [], []
        for i in range(self.params.num_trees):
            tree_data = self._bag_features(i, data) if self.params.bagged_features else data
            probs, path = self.trees[i].inference_graph(tree_data, **inference_args)
            probabilities.append(probs)
            paths.append(path)
        all_predict = array_ops.stack(probabilities, axis=1)
        average_values = math_ops.div(math_ops.reduce_sum(all_predict, 1), float(self.params.num_trees),
                                      name="probabilities")
        tree_paths = array_ops.stack(paths, axis=1)
        regression_variance = None
        if self.params.regression:
            expected_squares = math_ops.div(math_ops.reduce_sum(all_predict * all_predict, 1),
                                            float(self.params.num_trees))
            regression_variance = math_ops.maximum(0., expected_squares - average_values * average_values)
        return average_values, tree_paths, regression_variance

    def average_size(self):
        """Constructs a TF graph for evaluating the average size (node count) of the forest's trees."""
        sizes = [self.trees[i].size() for i in range(self.params.num_trees)]
        return math_ops.reduce_mean(math_ops.cast(array_ops.stack(sizes), dtypes.float32))

    def training_loss(self, features, labels, name="training_loss"):
        """TF's training loss: the negated average tree size (`features` and `labels` are unused)."""
        return math_ops.negative(self.average_size(), name=name)

    def validation_loss(self, features, labels):
        """TF's validation loss: the negated average tree size (`features` and `labels` are unused)."""
        return math_ops.negative(self.average_size())

    def feature_importances(self):
        """Each feature's share of the forest's split nodes (float [num_features]).

        Raises:
          NotImplementedError: With feature bagging (the trees' feature indices differ).
        """
        if self.params.bagged_features:
            raise NotImplementedError("feature_importances with feature bagging")
        tree_counts = [self.trees[i].feature_usage_counts() for i in range(self.params.num_trees)]
        total_counts = math_ops.cast(math_ops.reduce_sum(array_ops.stack(tree_counts, 0), 0), dtypes.float32)
        return total_counts / math_ops.reduce_sum(total_counts)
