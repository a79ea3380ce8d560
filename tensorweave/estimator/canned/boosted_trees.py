"""TF 1.15's gradient boosted trees estimators: `BoostedTreesClassifier` (binary) and `BoostedTreesRegressor`
(one label), on the BoostedTrees ops of `tensorweave.ops.boosted_trees_ops`.

The model is TF's layer-by-layer boosting: every training step routes the batch through the ensemble
("BoostedTreesTrainingPredict"), takes the loss's gradients and hessians with respect to the logits (in
closed form for the plain binary classifier, else by differentiating twice), sums them per feature, node
and bucket ("BoostedTreesMakeStatsSummary") and adds the sums to a `ConditionalAccumulator` per group of
features of one bucket count; once `n_batches_per_layer` batches were accumulated, the mean statistics
choose the best split of each node of the layer ("BoostedTreesCalculateBestGainsPerFeature") and the
ensemble grows one layer ("BoostedTreesUpdateEnsemble"), a tree being finalized at `max_depth` layers.
With `center_bias`, the first batches instead set the first tree's root to the regularized mean step
("BoostedTreesCenterBias") until the step is under 1% of it. Training stops (the `_StopAtAttemptsHook`)
once `n_trees` trees are finalized or `2 * n_trees * max_depth` layers were attempted.
`experimental_feature_importances` sums the split gains per feature column and
`experimental_predict_with_explanations` adds each example's directional feature contributions. The ensemble is a
resource saved by `tf.train.Saver` under TF's names ("boosted_trees:0_stamp", "boosted_trees:0_serialized"),
so training restarted from a checkpoint goes on where it stopped.

Features, as TF: `bucketized_column`s (one feature each: its bucket id), `indicator_column`s (one 0/1
feature per category) and `numeric_column`s (one feature per value), the latter bucketized by TF's
weighted quantile sketches (`QuantileAccumulator`, error `quantile_sketch_epsilon`): the first
`n_batches_per_layer` batches only feed the sketches, whose flush makes about `1 / quantile_sketch_epsilon`
bucket boundaries per value (saved with the model), then trees grow as for bucketized columns.
`train_in_memory=True` raises NotImplementedError. TF 1.15's `tf.contrib.boosted_trees` is another, older
implementation and is not provided.
"""

import collections
import functools

from ...feature_column.columns import (
    _BucketizedColumn,
    _FeatureColumn,
    _IndicatorColumn,
    _LazyBuilder,
    _NumericColumn,
    numeric_column,
)
from ...framework import dtypes, ops
from ...framework.constant_op import constant
from ...losses.losses_impl import Reduction
from ...ops import array_ops, boosted_trees_ops, control_flow_ops, core_ops, math_ops
from ...ops.data_flow_accumulator_ops import ConditionalAccumulator
from ...train.session_run_hook import SessionRunArgs, SessionRunHook
from ..model_fn import ModeKeys
from . import head as head_lib
from ._common import _CannedEstimator

__all__ = ["BoostedTreesClassifier", "BoostedTreesRegressor"]

_TreeHParams = collections.namedtuple("TreeHParams", [
    "n_trees", "max_depth", "learning_rate", "l1", "l2", "tree_complexity", "min_node_weight", "center_bias",
    "pruning_mode", "quantile_sketch_epsilon"])

_HOLD_FOR_MULTI_CLASS_SUPPORT = object()
_HOLD_FOR_MULTI_DIM_SUPPORT = object()
_DUMMY_NUM_BUCKETS = -1
_DUMMY_NODE_ID = -1
_SUPPORTED_COLUMNS = "bucketized_column, indicator_column, numeric_column"
_QUANTILE_ACCUMULATOR_RESOURCE_NAME = "QuantileAccumulator"


def _check_column(column):
    if not isinstance(column, (_BucketizedColumn, _IndicatorColumn, _NumericColumn)):
        raise ValueError("For now, only {} is supported but got: {}".format(_SUPPORTED_COLUMNS, column))


def _num_float_features(column):
    return column.shape[0] if column.shape else 1


def _get_float_feature_columns(sorted_feature_columns):
    return [c for c in sorted_feature_columns if isinstance(c, _NumericColumn)]


def _calculate_num_features(sorted_feature_columns):
    """The number of features: one per bucketized column and numeric value, one per indicator category."""
    num_features = 0
    for column in sorted_feature_columns:
        _check_column(column)
        if isinstance(column, _IndicatorColumn):
            num_features += column.categorical_column._num_buckets
        elif isinstance(column, _NumericColumn):
            num_features += _num_float_features(column)
        else:
            num_features += 1
    return num_features


def _group_features_by_num_buckets(sorted_feature_columns, num_quantiles):
    """(bucket sizes, feature ids of each size): 2 buckets for indicator features, the largest bucket
    count (at least 2) for all the bucketized ones, as TF; numeric features get `num_quantiles + 1`
    (TF sizes them `num_quantiles`, but the boundaries a flush makes keep the minimum and the maximum,
    `num_quantiles + 1` of them, and the maximum's bucket would fall outside)."""
    groups = collections.OrderedDict()
    groups[_DUMMY_NUM_BUCKETS] = []
    max_buckets_for_bucketized = 2
    feature_idx = 0
    for column in sorted_feature_columns:
        if isinstance(column, _IndicatorColumn):
            groups.setdefault(2, [])
            for _ in range(column.categorical_column._num_buckets):
                groups[2].append(feature_idx)
                feature_idx += 1
        elif isinstance(column, _NumericColumn):
            groups.setdefault(num_quantiles + 1, [])
            for _ in range(_num_float_features(column)):
                groups[num_quantiles + 1].append(feature_idx)
                feature_idx += 1
        else:
            max_buckets_for_bucketized = max(max_buckets_for_bucketized, len(column.boundaries) + 1)
            groups[_DUMMY_NUM_BUCKETS].append(feature_idx)
            feature_idx += 1
    bucketized = groups.pop(_DUMMY_NUM_BUCKETS)
    if max_buckets_for_bucketized in groups:
        groups[max_buckets_for_bucketized].extend(bucketized)
    elif bucketized:
        groups[max_buckets_for_bucketized] = bucketized
    return list(groups.keys()), list(groups.values())


def _generate_feature_col_name_mapping(sorted_feature_columns):
    names = []
    for column in sorted_feature_columns:
        if isinstance(column, _IndicatorColumn):
            names.extend([column.categorical_column.name] * column.categorical_column._num_buckets)
        elif isinstance(column, _NumericColumn):
            names.extend([column.name] * _num_float_features(column))
        else:
            names.append(column.name)
    return names


def _get_float_boundaries_dict(float_columns, bucket_boundaries):
    """Numeric column name to the bucket boundaries of its values."""
    out, idx = {}, 0
    for column in float_columns:
        n = _num_float_features(column)
        out[column.name] = bucket_boundaries[idx:idx + n]
        idx += n
    return out


def _get_transformed_features(features, sorted_feature_columns, bucket_boundaries_dict=None):
    """The [batch_size] features of the columns, in the columns' (name) order: int32 buckets, or the raw
    float values of numeric columns when `bucket_boundaries_dict` is not given.

    Raises:
      ValueError: for a bucketized column of more than one value per example, an indicator column of rank
        above 2 or a numeric column of rank above 1.
    """
    builder = _LazyBuilder(features)
    result = []
    for column in sorted_feature_columns:
        tensor = builder.get(column)
        if isinstance(column, _BucketizedColumn):
            if tensor.shape.ndims is not None and (tensor.shape.ndims != 2 or tensor.shape[1] not in (None, 1)):
                raise ValueError("For now, only supports features equivalent to rank 1 but column `{}` got: {}".format(
                    column.source_column.name, features[column.source_column.name].shape))
            result.append(math_ops.cast(array_ops.squeeze(tensor, axis=1), dtypes.int32))
        elif isinstance(column, _IndicatorColumn):
            if tensor.shape.ndims is not None and tensor.shape.ndims > 2:
                raise ValueError("Rank of indicator column must be no more than 2, but column `{}` got: {}".format(
                    column.categorical_column.name, tensor.shape))
            result.extend(array_ops.unstack(math_ops.cast(tensor, dtypes.int32), axis=1))
        else:
            if len(column.shape) > 1:
                raise ValueError("For now, only support Numeric column with shape less than 2, but column `{}` got: "
                                 "{}".format(column.name, column.shape))
            unstacked = array_ops.unstack(tensor, num=_num_float_features(column), axis=1)
            if not bucket_boundaries_dict:
                result.extend(unstacked)
            else:
                result.extend(boosted_trees_ops.boosted_trees_bucketize(unstacked,
                                                                        bucket_boundaries_dict[column.name]))
    return result


def _variable(initial_value, name):
    """A global non-trainable variable of the model's state (TF's `_variable`)."""
    from ...variables import Variable
    return Variable(initial_value, trainable=False, validate_shape=False, name=name, use_resource=True)


def _cond(pred, true_fn, false_fn, name=None):
    """`tf.cond` of two branches that build ops (not tensors): returns the op running the taken one."""
    def wrap(fn):
        def branch():
            with ops.control_dependencies([fn()]):
                return constant(True)
        return branch
    return control_flow_ops.cond(pred, wrap(true_fn), wrap(false_fn), name=name).op


def _get_max_splits(tree_hparams):
    """The most splits a tree can have, `2**max_depth - 1`."""
    return (1 << tree_hparams.max_depth) - 1


class _StopAtAttemptsHook(SessionRunHook):
    """Hook that requests stop at the number of attempts."""

    def __init__(self, num_finalized_trees_tensor, num_attempted_layers_tensor, max_trees, max_depth):
        self._num_finalized_trees_tensor = num_finalized_trees_tensor
        self._num_attempted_layers_tensor = num_attempted_layers_tensor
        self._max_trees = max_trees
        self._max_depth = max_depth

    def before_run(self, run_context):
        return SessionRunArgs([self._num_finalized_trees_tensor, self._num_attempted_layers_tensor])

    def after_run(self, run_context, run_values):
        # The values fetched were read before this step grew; near the limit, read them again.
        num_finalized_trees, num_attempted_layers = run_values.results
        if (num_finalized_trees >= self._max_trees - 1
                or num_attempted_layers > 2 * self._max_trees * self._max_depth - 1):
            num_finalized_trees, num_attempted_layers = run_context.session.run(
                [self._num_finalized_trees_tensor, self._num_attempted_layers_tensor])
        if num_finalized_trees >= self._max_trees or num_attempted_layers > 2 * self._max_trees * self._max_depth:
            run_context.request_stop()


class _GrowerInitializationHook(SessionRunHook):
    """Runs the grower's initialization (the accumulators' global steps) once the session exists."""

    def __init__(self, init_op):
        self._init_op = init_op

    def after_create_session(self, session, coord):
        session.run(self._init_op)


class _AccumulatorEnsembleGrower(object):
    """Grows the ensemble from statistics accumulated over `n_batches_per_layer` batches (TF's)."""

    def __init__(self, tree_ensemble, quantile_accumulator, tree_hparams, stamp_token, n_batches_per_layer,
                 bucket_size_list, is_chief, center_bias, feature_ids_list):
        self._tree_ensemble = tree_ensemble
        self._quantile_accumulator = quantile_accumulator
        self._tree_hparams = tree_hparams
        self._feature_ids_list = feature_ids_list
        self._pruning_mode_parsed = boosted_trees_ops.PruningMode.from_str(tree_hparams.pruning_mode)
        if tree_hparams.tree_complexity > 0:
            if self._pruning_mode_parsed == boosted_trees_ops.PruningMode.NO_PRUNING:
                raise ValueError("Tree complexity have no effect unless pruning mode is chosen.")
        elif self._pruning_mode_parsed != boosted_trees_ops.PruningMode.NO_PRUNING:
            raise ValueError("For pruning, tree_complexity must be positive.")
        self._stamp_token = stamp_token
        self._n_batches_per_layer = n_batches_per_layer
        self._is_chief = is_chief
        self._growing_accumulators = []
        self._chief_init_ops = []
        max_splits = _get_max_splits(tree_hparams)
        for i, feature_ids in enumerate(feature_ids_list):
            accumulator = ConditionalAccumulator(
                dtype=dtypes.float32, shape=[len(feature_ids), max_splits, bucket_size_list[i], 2],
                shared_name="numeric_stats_summary_accumulator_" + str(i))
            self._chief_init_ops.append(accumulator.set_global_step(stamp_token))
            self._growing_accumulators.append(accumulator)
        self._center_bias = center_bias
        if center_bias:
            self._bias_accumulator = ConditionalAccumulator(dtype=dtypes.float32, shape=[2, 1],
                                                            shared_name="bias_accumulator")
            self._chief_init_ops.append(self._bias_accumulator.set_global_step(stamp_token))

    def accumulate_quantiles(self, float_features, weights, are_boundaries_ready):
        """Adds the batch's quantile summaries; flushes them into bucket boundaries every n batches."""
        summary_op = self._quantile_accumulator.add_summaries(float_features, weights)
        cond_accum = ConditionalAccumulator(dtype=dtypes.float32, shape=[], shared_name="quantile_summary_accum")
        cond_accum_step = cond_accum.set_global_step(self._stamp_token)
        apply_grad = cond_accum.apply_grad(constant(0.), self._stamp_token)
        update_quantile_op = core_ops.group(summary_op, cond_accum_step, apply_grad)
        if not self._is_chief:
            return update_quantile_op
        with ops.control_dependencies([update_quantile_op]):

            def flush_fn():
                grad = cond_accum.take_grad(1)
                flush_op = self._quantile_accumulator.flush()
                boundaries_ready_op = are_boundaries_ready.assign(True).op
                return core_ops.group(flush_op, grad, boundaries_ready_op)

            return _cond(math_ops.greater_equal(cond_accum.num_accumulated(), self._n_batches_per_layer), flush_fn,
                         core_ops.no_op, name="wait_until_quaniles_accumulated")

    def chief_init_op(self):
        """The ops the chief runs to initialize the growing state."""
        return core_ops.group(*self._chief_init_ops)

    def _center_bias_fn(self, center_bias_var, mean_gradients, mean_hessians):
        continue_centering = boosted_trees_ops.center_bias(
            self._tree_ensemble.resource_handle, mean_gradients=mean_gradients, mean_hessians=mean_hessians,
            l1=self._tree_hparams.l1, l2=self._tree_hparams.l2)
        return center_bias_var.assign(continue_centering)

    def center_bias(self, center_bias_var, gradients, hessians):
        """Accumulates the batch's mean gradient and hessian; centers the bias every n batches."""
        grads_and_hess = math_ops.reduce_mean(array_ops.stack([gradients, hessians], axis=0), axis=1)
        apply_grad = self._bias_accumulator.apply_grad(grads_and_hess, self._stamp_token)
        with ops.control_dependencies([apply_grad]):
            if not self._is_chief:
                return core_ops.no_op()

            def _set_accumulators_stamp():
                return core_ops.group(*[acc.set_global_step(self._stamp_token + 1)
                                                for acc in self._growing_accumulators])

            def center_bias_from_accumulator():
                accumulated = array_ops.unstack(self._bias_accumulator.take_grad(1), axis=0)
                center_bias_op = self._center_bias_fn(center_bias_var, array_ops.expand_dims(accumulated[0], 0),
                                                      array_ops.expand_dims(accumulated[1], 0))
                with ops.control_dependencies([center_bias_op]):
                    return _cond(center_bias_var.read_value(), core_ops.no_op, _set_accumulators_stamp)

            return _cond(math_ops.greater_equal(self._bias_accumulator.num_accumulated(), self._n_batches_per_layer),
                         center_bias_from_accumulator, core_ops.no_op,
                         name="wait_until_n_batches_for_bias_accumulated")

    def _grow_tree_from_stats_summaries(self, stats_summaries_list, last_layer_nodes_range):
        node_ids, gains, thresholds, lefts, rights, feature_ids = [], [], [], [], [], []
        max_splits = _get_max_splits(self._tree_hparams)
        for i, ids in enumerate(self._feature_ids_list):
            out = boosted_trees_ops.calculate_best_gains_per_feature(
                node_id_range=last_layer_nodes_range, stats_summary_list=stats_summaries_list[i],
                l1=self._tree_hparams.l1, l2=self._tree_hparams.l2,
                tree_complexity=self._tree_hparams.tree_complexity,
                min_node_weight=self._tree_hparams.min_node_weight, max_splits=max_splits)
            feature_ids += ids
            node_ids += out[0]
            gains += out[1]
            thresholds += out[2]
            lefts += out[3]
            rights += out[4]
        return boosted_trees_ops.update_ensemble(
            self._tree_ensemble.resource_handle, feature_ids=feature_ids, node_ids=node_ids, gains=gains,
            thresholds=thresholds, left_node_contribs=lefts, right_node_contribs=rights,
            learning_rate=self._tree_hparams.learning_rate, max_depth=self._tree_hparams.max_depth,
            pruning_mode=self._pruning_mode_parsed)

    def grow_tree(self, stats_summaries_list, last_layer_nodes_range):
        """Accumulates the batch's statistics; grows a layer every n batches."""
        dependencies = [self._growing_accumulators[i].apply_grad(array_ops.stack(stats_summaries_list[i], axis=0),
                                                                 self._stamp_token)
                        for i in range(len(self._feature_ids_list))]
        with ops.control_dependencies(dependencies):
            if not self._is_chief:
                return core_ops.no_op()
            min_accumulated = math_ops.reduce_min(array_ops.stack(
                [acc.num_accumulated() for acc in self._growing_accumulators]))

            def grow_tree_from_accumulated_summaries_fn():
                summaries = [array_ops.unstack(acc.take_grad(1), axis=0) for acc in self._growing_accumulators]
                return self._grow_tree_from_stats_summaries(summaries, last_layer_nodes_range)

            return _cond(math_ops.greater_equal(min_accumulated, self._n_batches_per_layer),
                         grow_tree_from_accumulated_summaries_fn, core_ops.no_op,
                         name="wait_until_n_batches_accumulated")


def _quantile_accumulator(float_columns, epsilon, num_quantiles):
    """(the quantile accumulator of the numeric columns, their name -> bucket boundaries), or (None, {})."""
    if not float_columns:
        return None, {}
    accumulator = boosted_trees_ops.QuantileAccumulator(
        epsilon=epsilon, num_streams=_calculate_num_features(float_columns), num_quantiles=num_quantiles,
        name=_QUANTILE_ACCUMULATOR_RESOURCE_NAME)
    return accumulator, _get_float_boundaries_dict(float_columns, accumulator.get_bucket_boundaries())


def _bt_model_fn(features, labels, mode, head, feature_columns, tree_hparams, n_batches_per_layer, config,
                 closed_form_grad_and_hess_fn=None, weight_column=None, name="boosted_trees"):
    """Gradient Boosted Trees model_fn (TF's `_bt_model_fn`, accumulator-based growing).

    Args:
      features: dict of `Tensor`.
      labels: `Tensor` of labels (None in PREDICT mode).
      mode: A `ModeKeys`.
      head: The canned head.
      feature_columns: The model's bucketized, indicator and numeric columns.
      tree_hparams: `_TreeHParams`.
      n_batches_per_layer: The number of batches accumulated before a layer grows.
      config: `RunConfig`.
      closed_form_grad_and_hess_fn: `(logits, labels) -> (gradients, hessians)`; None to differentiate the loss.
      weight_column: The example weights' column (a string or `numeric_column`): the head weighs the
        loss with it, the quantile sketches the values.
      name: The name scope of the model.

    Returns:
      An `EstimatorSpec`.
    """
    from ...gradients.gradients_impl import gradients as gradients_fn
    from ...ops import state_ops
    from ...ops.summary_ops import scalar
    from ...train.training_util import get_or_create_global_step
    sorted_feature_columns = sorted(feature_columns, key=lambda tc: tc.name)
    float_columns = _get_float_feature_columns(sorted_feature_columns)
    with ops.name_scope(name) as name:
        global_step = get_or_create_global_step()
        tree_ensemble = boosted_trees_ops.TreeEnsemble(name=name)
        num_quantiles = int(1. / tree_hparams.quantile_sketch_epsilon)
        quantile_accumulator, bucket_boundaries_dict = _quantile_accumulator(
            float_columns, tree_hparams.quantile_sketch_epsilon, num_quantiles)
        bucket_size_list, feature_ids_list = _group_features_by_num_buckets(sorted_feature_columns, num_quantiles)
        input_feature_list = _get_transformed_features(features, sorted_feature_columns, bucket_boundaries_dict)
        if mode != ModeKeys.TRAIN:
            logits = boosted_trees_ops.predict(tree_ensemble.resource_handle, input_feature_list,
                                               logits_dimension=head.logits_dimension)
            return head.create_estimator_spec(features=features, mode=mode, labels=labels,
                                              train_op_fn=core_ops.no_op, logits=logits)

        center_bias = tree_hparams.center_bias
        if config.num_worker_replicas > 1:
            raise NotImplementedError("tensorweave's boosted trees estimators train on one machine only.")
        batch_size = array_ops.shape(labels)[0]
        cached_tree_ids = array_ops.zeros([batch_size], dtype=dtypes.int32)
        cached_node_ids = _DUMMY_NODE_ID * array_ops.ones([batch_size], dtype=dtypes.int32)
        cached_logits = array_ops.zeros(array_ops.stack([batch_size, head.logits_dimension]), dtype=dtypes.float32)
        (stamp_token, num_trees, num_finalized_trees, num_attempted_layers,
         last_layer_nodes_range) = tree_ensemble.get_states()
        partial_logits, tree_ids, node_ids = boosted_trees_ops.training_predict(
            tree_ensemble.resource_handle, cached_tree_ids, cached_node_ids, input_feature_list,
            logits_dimension=head.logits_dimension)
        logits = cached_logits + partial_logits
        grower = _AccumulatorEnsembleGrower(tree_ensemble, quantile_accumulator, tree_hparams, stamp_token,
                                            n_batches_per_layer, bucket_size_list, config.is_chief, center_bias,
                                            feature_ids_list)
        scalar("ensemble/num_trees", num_trees)
        scalar("ensemble/num_finalized_trees", num_finalized_trees)
        scalar("ensemble/num_attempted_layers", num_attempted_layers)
        center_bias_var = _variable(center_bias, name="center_bias_needed")
        # Numeric columns: the first batches only feed the quantile sketches, until their boundaries are ready.
        are_boundaries_ready = _variable(not float_columns, name="are_boundaries_ready")
        if weight_column is None:
            weights = constant(1., shape=[1])
        else:
            if isinstance(weight_column, str):
                weight_column = numeric_column(key=weight_column, shape=(1,))
            weights = _get_transformed_features(features, [weight_column])[0]

        def _update_quantile_fn():
            """Accumulates quantiles."""
            with ops.name_scope("UpdateQuantile"):
                float_features = _get_transformed_features(features, float_columns)
                return grower.accumulate_quantiles(float_features, weights, are_boundaries_ready)

        def _grow_tree_fn(loss):
            """Grows the ensemble (or centers the bias) from the batch's gradients."""
            if closed_form_grad_and_hess_fn:
                gradients, hessians = closed_form_grad_and_hess_fn(logits, labels)
            else:
                gradients = gradients_fn(loss, logits, name="Gradients")[0]
                hessians = gradients_fn(gradients, logits, name="Hessians")[0]
            max_splits = _get_max_splits(tree_hparams)
            stats_summaries_list = []
            for i, feature_ids in enumerate(feature_ids_list):
                stats_summaries_list.append([
                    array_ops.squeeze(boosted_trees_ops.make_stats_summary(
                        node_ids=node_ids, gradients=gradients, hessians=hessians,
                        bucketized_features_list=[input_feature_list[f]], max_splits=max_splits,
                        num_buckets=bucket_size_list[i]), axis=0) for f in feature_ids])
            if center_bias:
                update_model = _cond(center_bias_var.read_value(),
                                     functools.partial(grower.center_bias, center_bias_var, gradients, hessians),
                                     functools.partial(grower.grow_tree, stats_summaries_list,
                                                       last_layer_nodes_range))
            else:
                update_model = grower.grow_tree(stats_summaries_list, last_layer_nodes_range)
            with ops.control_dependencies([update_model]):
                increment_global = state_ops.assign_add(global_step, 1).op
            return core_ops.group(update_model, increment_global, name="grow_op")

        def _train_op_fn(loss):
            """Run one training iteration."""
            if not float_columns:
                return _grow_tree_fn(loss)
            return _cond(are_boundaries_ready.read_value(), functools.partial(_grow_tree_fn, loss),
                         _update_quantile_fn)

    estimator_spec = head.create_estimator_spec(features=features, mode=mode, labels=labels,
                                                train_op_fn=_train_op_fn, logits=logits)
    return estimator_spec._replace(
        training_hooks=tuple(estimator_spec.training_hooks) + (_StopAtAttemptsHook(
            num_finalized_trees, num_attempted_layers, tree_hparams.n_trees, tree_hparams.max_depth),),
        training_chief_hooks=(_GrowerInitializationHook(grower.chief_init_op()),)
        + tuple(estimator_spec.training_chief_hooks))


def _create_classification_head(n_classes, weight_column=None, label_vocabulary=None):
    if n_classes == 2:
        return head_lib._BinaryLogisticHead(weight_column=weight_column, label_vocabulary=label_vocabulary,
                                            loss_reduction=Reduction.SUM_OVER_BATCH_SIZE)
    raise ValueError("For now only binary classification is supported.n_classes given as {}".format(n_classes))


def _create_classification_head_and_closed_form(n_classes, weight_column, label_vocabulary):
    """The classifier's head and, without weights or vocabulary, the closed-form logistic gradients."""
    head = _create_classification_head(n_classes, weight_column, label_vocabulary)
    if n_classes == 2 and head.logits_dimension == 1 and weight_column is None and label_vocabulary is None:
        def _grad_and_hess_for_logloss(logits, labels):
            predictions = math_ops.reciprocal(math_ops.exp(-logits) + 1.0)
            normalizer = math_ops.reciprocal(math_ops.cast(array_ops.size(predictions), dtypes.float32))
            labels = math_ops.cast(labels, dtypes.float32)
            labels = head_lib._check_dense_labels_match_logits_and_reshape(labels, logits, head.logits_dimension)
            gradients = (predictions - labels) * normalizer
            hessians = predictions * (1.0 - predictions) * normalizer
            return gradients, hessians
        return head, _grad_and_hess_for_logloss
    return head, None


def _create_regression_head(label_dimension, weight_column=None):
    if label_dimension != 1:
        raise ValueError("For now only 1 dimension regression is supported.label_dimension given as {}".format(
            label_dimension))
    return head_lib._RegressionHead(label_dimension=label_dimension, weight_column=weight_column,
                                    loss_reduction=Reduction.SUM_OVER_BATCH_SIZE)


def _check_args(feature_columns, n_batches_per_layer, train_in_memory):
    feature_columns = list(feature_columns or [])
    if not feature_columns:
        raise ValueError("feature_columns must not be empty.")
    for column in feature_columns:
        if not isinstance(column, _FeatureColumn):
            raise ValueError("Items of feature_columns must be a _FeatureColumn. Given (type {}): {}.".format(
                type(column), column))
    if train_in_memory:
        raise NotImplementedError("tensorweave's boosted trees estimators do not implement train_in_memory=True; "
                                  "train from batches with n_batches_per_layer.")
    if isinstance(n_batches_per_layer, float) and n_batches_per_layer.is_integer():
        n_batches_per_layer = int(n_batches_per_layer)  # TF's docs compute it as a float
    if not isinstance(n_batches_per_layer, int) or isinstance(n_batches_per_layer, bool) or n_batches_per_layer < 1:
        raise ValueError("n_batches_per_layer must be a positive integer, got {!r}".format(n_batches_per_layer))
    return feature_columns, n_batches_per_layer


_DEBUG_PROTO_KEY = "_serialized_debug_outputs_proto"


def _sum_by_feature_col_name_and_sort(names, vals):
    """Sums the values by feature column name, sorted by decreasing absolute value (TF's)."""
    summed = {}
    for name, val in zip(names, vals):
        summed[name] = summed.setdefault(name, 0) + val
    return collections.OrderedDict(sorted(summed.items(), key=lambda tup: abs(tup[1]), reverse=True))


def _bt_explanations_fn(features, head, sorted_feature_columns, quantile_sketch_epsilon, name="boosted_trees"):
    """The PREDICT model_fn with each example's debug outputs (TF's `_bt_explanations_fn`)."""
    with ops.name_scope(name) as name:
        tree_ensemble = boosted_trees_ops.TreeEnsemble(name=name)
        _, bucket_boundaries_dict = _quantile_accumulator(_get_float_feature_columns(sorted_feature_columns),
                                                          quantile_sketch_epsilon,
                                                          int(1. / quantile_sketch_epsilon))
        input_feature_list = _get_transformed_features(features, sorted_feature_columns, bucket_boundaries_dict)
        logits = boosted_trees_ops.predict(tree_ensemble.resource_handle, input_feature_list,
                                           logits_dimension=head.logits_dimension)
        spec = head.create_estimator_spec(features=features, mode=ModeKeys.PREDICT, labels=None,
                                          train_op_fn=core_ops.no_op, logits=logits)
        spec.predictions[_DEBUG_PROTO_KEY] = boosted_trees_ops.example_debug_outputs(
            tree_ensemble.resource_handle, input_feature_list, logits_dimension=head.logits_dimension)
        return spec


class _BoostedTreesBase(_CannedEstimator):
    """Base class for boosted trees estimators (TF's `_BoostedTreesBase`)."""

    def __init__(self, model_fn, model_dir, config, feature_columns, head, center_bias, is_classification,
                 quantile_sketch_epsilon):
        super().__init__(model_fn, model_dir=model_dir, config=config)
        self._sorted_feature_columns = sorted(feature_columns, key=lambda tc: tc.name)
        self._head = head
        self._n_features = _calculate_num_features(self._sorted_feature_columns)
        self._feature_col_names = _generate_feature_col_name_mapping(self._sorted_feature_columns)
        self._center_bias = center_bias
        self._is_classification = is_classification
        self._quantile_sketch_epsilon = quantile_sketch_epsilon

    def experimental_feature_importances(self, normalize=False):
        """Computes gain-based feature importances.

        The importance of a feature is the sum of the gains of the splits on it, each weighted by its
        tree's weight, summed over the features of one feature column.

        Args:
          normalize: If True, normalize the feature importances to sum to 1.

        Returns:
          An `OrderedDict` of feature column name to importance, sorted by decreasing importance.

        Raises:
          ValueError: When the model has no trained ensemble, or when attempting to normalize an ensemble
            whose trees have no splits or negative importances.
        """
        import json

        import numpy as np

        from ...train.checkpoint_utils import load_checkpoint
        reader = load_checkpoint(self._model_dir)
        doc = json.loads(bytes(reader.get_tensor("boosted_trees:0_serialized")).decode("utf-8"))
        if not doc.get("trees"):
            raise ValueError("Found empty serialized string for TreeEnsemble.You should only call this method after "
                             "training.")
        importances = np.zeros(self._n_features)
        for tree, weight in zip(doc["trees"], doc["tree_weights"]):
            for node in tree:
                if "split" in node:
                    importances[node["split"][0]] += weight * node.get("gain", 0.0)
        if normalize:
            if np.any(importances < 0):
                raise ValueError("feature_importances must be non-negative.")
            total = np.sum(importances)
            if not total > 0:
                raise ValueError("Trees are all empty or contain only a root node.")
            importances /= total
        return _sum_by_feature_col_name_and_sort(self._feature_col_names, importances)

    def experimental_predict_with_explanations(self, input_fn, predict_keys=None, hooks=None, checkpoint_path=None):
        """Computes model explainability outputs per example along with predictions.

        Directional feature contributions (DFCs): along each example's path through the ensemble, the
        change of the prediction (probability for classification, value for regression) at each split is
        attributed to the split's feature column.

        Args:
          input_fn: A function that provides input data for predicting as minibatches (as `predict`'s).
          predict_keys: list of `str`, name of the keys to predict; 'bias' and 'dfc' are always included.
          hooks: List of `tf.train.SessionRunHook` subclass instances used inside the prediction call.
          checkpoint_path: Path of a specific checkpoint to predict. If `None`, the latest one.

        Yields:
          Each example's predictions with two more keys: 'bias' (the prediction of the first tree's root,
          the labels' prior) and 'dfc' (an `OrderedDict` of feature column name to contribution, sorted by
          decreasing absolute value).

        Raises:
          ValueError: If the estimator was made without `center_bias`.
        """
        import json

        import numpy as np

        if not self._center_bias:
            raise ValueError("center_bias must be enabled during estimator instantiation when using "
                             "experimental_predict_with_explanations.")
        head, columns = self._head, self._sorted_feature_columns

        def new_model_fn(features, labels, mode, config):
            return _bt_explanations_fn(features, head, columns, self._quantile_sketch_epsilon)

        est = _CannedEstimator(new_model_fn, model_dir=self.model_dir, config=self.config)
        if predict_keys is not None:
            predict_keys = set(predict_keys) | {_DEBUG_PROTO_KEY}
        activation = (lambda x: 1 / (1 + np.exp(-x))) if self._is_classification else (lambda x: x)
        for pred in est.predict(input_fn, predict_keys=predict_keys, hooks=hooks, checkpoint_path=checkpoint_path,
                                yield_single_examples=True):
            debug = json.loads(bytes(pred.pop(_DEBUG_PROTO_KEY)).decode("utf-8"))
            predictions = activation(np.asarray(debug["logits_path"], np.float64))
            contribs = np.bincount(np.asarray(debug["feature_ids"], np.int64), weights=np.diff(predictions),
                                   minlength=len(self._feature_col_names))
            pred["bias"] = predictions[0]
            pred["dfc"] = _sum_by_feature_col_name_and_sort(self._feature_col_names, contribs)
            yield pred


def _init_common(self, feature_columns, n_batches_per_layer, model_dir, head, closed_form, weight_column, n_trees,
                 max_depth, learning_rate, l1_regularization, l2_regularization, tree_complexity, min_node_weight,
                 config, center_bias, pruning_mode, quantile_sketch_epsilon, is_classification):
    for col in feature_columns:
        _check_column(col)
    boosted_trees_ops.PruningMode.from_str(pruning_mode)
    if not 0 < quantile_sketch_epsilon < 1:
        raise ValueError("quantile_sketch_epsilon must be in (0, 1), got {!r}".format(quantile_sketch_epsilon))
    tree_hparams = _TreeHParams(n_trees, max_depth, learning_rate, l1_regularization, l2_regularization,
                                tree_complexity, min_node_weight, center_bias, pruning_mode, quantile_sketch_epsilon)
    # The grower's argument checks, at construction as TF's first graph build would raise them.
    if tree_complexity > 0 and pruning_mode == "none":
        raise ValueError("Tree complexity have no effect unless pruning mode is chosen.")
    if tree_complexity <= 0 and pruning_mode != "none":
        raise ValueError("For pruning, tree_complexity must be positive.")

    def _model_fn(features, labels, mode, config):
        return _bt_model_fn(features, labels, mode, head, feature_columns, tree_hparams, n_batches_per_layer, config,
                            closed_form_grad_and_hess_fn=closed_form, weight_column=weight_column)

    _BoostedTreesBase.__init__(self, _model_fn, model_dir, config, feature_columns, head, center_bias,
                               is_classification, quantile_sketch_epsilon)


class BoostedTreesClassifier(_BoostedTreesBase):
    """A Classifier for Tensorflow Boosted Trees models (`tf.estimator.BoostedTreesClassifier`, TF 1.15).

    Args:
      feature_columns: An iterable of the model's `bucketized_column`s, `indicator_column`s and
        `numeric_column`s.
      n_batches_per_layer: The number of batches to collect statistics per layer.
      model_dir: Directory to save model parameters, graph and etc.
      n_classes: Number of label classes; only binary classification (the default) is supported.
      weight_column: A string or a `numeric_column` defining the example weights.
      label_vocabulary: A list of strings: the possible label values.
      n_trees: Number of trees to create.
      max_depth: Maximum depth of the trees.
      learning_rate: Shrinkage applied to each new layer's leaf values.
      l1_regularization: Regularization multiplier applied to the absolute weights of the tree leafs.
      l2_regularization: Regularization multiplier applied to the square weights of the tree leafs.
      tree_complexity: Regularization factor to penalize trees with more leaves.
      min_node_weight: Minimum hessian a node must have for a split to be considered (compared with the
        mean over the `n_batches_per_layer` batches of the sum of the node's hessians).
      config: `RunConfig` object to configure the runtime settings.
      center_bias: Whether the first tree's root starts from the labels' prior (the regularized mean step).
      pruning_mode: One of 'none', 'pre', 'post'; pruning needs `tree_complexity > 0`.
      quantile_sketch_epsilon: Error bound of the quantile sketches of numeric columns; each numeric value
        gets about `1 / quantile_sketch_epsilon` buckets.
      train_in_memory: Must be False (TF's in-memory training is not implemented).

    Raises:
      ValueError: For invalid arguments, `n_classes` other than 2, or unsupported feature columns.
      NotImplementedError: For `train_in_memory=True`.
    """

    def __init__(self, feature_columns, n_batches_per_layer, model_dir=None, n_classes=_HOLD_FOR_MULTI_CLASS_SUPPORT,
                 weight_column=None, label_vocabulary=None, n_trees=100, max_depth=6, learning_rate=0.1,
                 l1_regularization=0., l2_regularization=0., tree_complexity=0., min_node_weight=0., config=None,
                 center_bias=False, pruning_mode="none", quantile_sketch_epsilon=0.01, train_in_memory=False):
        feature_columns, n_batches_per_layer = _check_args(feature_columns, n_batches_per_layer, train_in_memory)
        if n_classes is _HOLD_FOR_MULTI_CLASS_SUPPORT:
            n_classes = 2
        elif n_classes > 2 and pruning_mode is not None:
            raise ValueError("For now pruning is not supported with multi class.")
        head, closed_form = _create_classification_head_and_closed_form(n_classes, weight_column, label_vocabulary)
        _init_common(self, feature_columns, n_batches_per_layer, model_dir, head, closed_form, weight_column, n_trees,
                     max_depth, learning_rate, l1_regularization, l2_regularization, tree_complexity,
                     min_node_weight, config, center_bias, pruning_mode, quantile_sketch_epsilon, True)


class BoostedTreesRegressor(_BoostedTreesBase):
    """A Regressor for Tensorflow Boosted Trees models (`tf.estimator.BoostedTreesRegressor`, TF 1.15).

    Args:
      feature_columns: An iterable of the model's `bucketized_column`s, `indicator_column`s and
        `numeric_column`s.
      n_batches_per_layer: The number of batches to collect statistics per layer.
      model_dir: Directory to save model parameters, graph and etc.
      label_dimension: Number of regression targets per example; only 1 (the default) is supported.
      weight_column: A string or a `numeric_column` defining the example weights.
      n_trees: Number of trees to create.
      max_depth: Maximum depth of the trees.
      learning_rate: Shrinkage applied to each new layer's leaf values.
      l1_regularization: Regularization multiplier applied to the absolute weights of the tree leafs.
      l2_regularization: Regularization multiplier applied to the square weights of the tree leafs.
      tree_complexity: Regularization factor to penalize trees with more leaves.
      min_node_weight: Minimum hessian a node must have for a split to be considered.
      config: `RunConfig` object to configure the runtime settings.
      center_bias: Whether the first tree's root starts from the labels' mean.
      pruning_mode: One of 'none', 'pre', 'post'; pruning needs `tree_complexity > 0`.
      quantile_sketch_epsilon: Error bound of the quantile sketches of numeric columns; each numeric value
        gets about `1 / quantile_sketch_epsilon` buckets.
      train_in_memory: Must be False (TF's in-memory training is not implemented).

    Raises:
      ValueError: For invalid arguments, `label_dimension` other than 1, or unsupported feature columns.
      NotImplementedError: For `train_in_memory=True`.
    """

    def __init__(self, feature_columns, n_batches_per_layer, model_dir=None,
                 label_dimension=_HOLD_FOR_MULTI_DIM_SUPPORT, weight_column=None, n_trees=100, max_depth=6,
                 learning_rate=0.1, l1_regularization=0., l2_regularization=0., tree_complexity=0.,
                 min_node_weight=0., config=None, center_bias=False, pruning_mode="none", quantile_sketch_epsilon=0.01,
                 train_in_memory=False):
        feature_columns, n_batches_per_layer = _check_args(feature_columns, n_batches_per_layer, train_in_memory)
        if label_dimension is _HOLD_FOR_MULTI_DIM_SUPPORT:
            label_dimension = 1
        head = _create_regression_head(label_dimension, weight_column)
        _init_common(self, feature_columns, n_batches_per_layer, model_dir, head, None, weight_column, n_trees,
                     max_depth, learning_rate, l1_regularization, l2_regularization, tree_complexity,
                     min_node_weight, config, center_bias, pruning_mode, quantile_sketch_epsilon, False)

