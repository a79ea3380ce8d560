"""`tf.estimator.Exporter`, `FinalExporter` and `LatestExporter`: the SavedModel exports that
`tf.estimator.train_and_evaluate` makes after its evaluations (under `<model_dir>/export/<name>`)."""

import os
import shutil

from .. import tf_logging as logging

__all__ = ["BestExporter", "Exporter", "FinalExporter", "LatestExporter"]


class Exporter:
    """A class representing a type of model export (`tf.estimator.Exporter`)."""

    @property
    def name(self):
        """Directory name: exports are written under `export_path`, `<model_dir>/export/<name>`."""
        raise NotImplementedError("Exporter subclasses define `name`.")

    def export(self, estimator, export_path, checkpoint_path, eval_result, is_the_final_export):
        """Exports the given `Estimator` to a specific format.

        Args:
          estimator: the `Estimator` to export.
          export_path: A string containing a directory where to write the export.
          checkpoint_path: The checkpoint path to export.
          eval_result: The output of `Estimator.evaluate` on this checkpoint.
          is_the_final_export: This boolean is True when this is an export in the end of training.

        Returns:
          The string path to the exported directory or `None` if export is skipped.
        """
        raise NotImplementedError("Exporter subclasses define `export`.")


class _SavedModelExporter(Exporter):
    def __init__(self, name, serving_input_receiver_fn, assets_extra=None, as_text=False):
        if not name:
            raise ValueError("`name` must be defined.")
        if serving_input_receiver_fn is None:
            raise ValueError("`serving_input_receiver_fn` must be defined.")
        self._name = name
        self._serving_input_receiver_fn = serving_input_receiver_fn
        self._assets_extra = assets_extra
        self._as_text = as_text

    @property
    def name(self):
        return self._name

    def _export(self, estimator, export_path, checkpoint_path):
        return estimator.export_saved_model(export_path, self._serving_input_receiver_fn,
                                            assets_extra=self._assets_extra, as_text=self._as_text,
                                            checkpoint_path=checkpoint_path)


class FinalExporter(_SavedModelExporter):
    """This class exports the serving graph and checkpoints at the end of training
    (`tf.estimator.FinalExporter`).

    Args:
      name: unique name of this `Exporter` that is going to be used in the export path.
      serving_input_receiver_fn: a function that takes no arguments and returns a
        `ServingInputReceiver`.
      assets_extra: An optional dict specifying how to populate the assets.extra directory.
      as_text: whether to write the SavedModel proto in text format.

    Raises:
      ValueError: if any arguments is invalid.
    """

    def export(self, estimator, export_path, checkpoint_path, eval_result, is_the_final_export):
        """Exports when `is_the_final_export` (see `Exporter.export`).

        Args:
          estimator: the `Estimator` to export.
          export_path: A string containing a directory where to write the export.
          checkpoint_path: The checkpoint path to export.
          eval_result: The output of `Estimator.evaluate` on this checkpoint.
          is_the_final_export: Whether this is the export at the end of training.

        Returns:
          The path of the export, or `None` if it is not the final export.
        """
        if not is_the_final_export:
            return None
        logging.info("Performing the final export in the end of training.")
        return self._export(estimator, export_path, checkpoint_path)


class _KeepingExporter(_SavedModelExporter):
    """A `_SavedModelExporter` keeping only its `exports_to_keep` newest exports (None: all)."""

    def __init__(self, name, serving_input_receiver_fn, assets_extra, as_text, exports_to_keep):
        super().__init__(name, serving_input_receiver_fn, assets_extra, as_text)
        if exports_to_keep is not None and exports_to_keep <= 0:
            raise ValueError("`exports_to_keep`, if provided, must be a positive number. Got %s" % exports_to_keep)
        self._exports_to_keep = exports_to_keep

    def _export_and_collect(self, estimator, export_path, checkpoint_path):
        path = self._export(estimator, export_path, checkpoint_path)
        self._garbage_collect_exports(export_path)
        return path

    def _garbage_collect_exports(self, export_dir_base):
        if self._exports_to_keep is None or not os.path.isdir(export_dir_base):
            return
        versions = sorted(int(d) for d in os.listdir(export_dir_base)
                          if d.isdigit() and os.path.isdir(os.path.join(export_dir_base, d)))
        for version in versions[:-self._exports_to_keep]:
            try:
                shutil.rmtree(os.path.join(export_dir_base, str(version)))
            except OSError as e:
                logging.warning("Can not delete %s recursively: %s", version, e)


class LatestExporter(_KeepingExporter):
    """This class regularly exports the serving graph and checkpoints, keeping the
    `exports_to_keep` most recent exports (`tf.estimator.LatestExporter`).

    Args:
      name: unique name of this `Exporter` that is going to be used in the export path.
      serving_input_receiver_fn: a function that takes no arguments and returns a
        `ServingInputReceiver`.
      assets_extra: An optional dict specifying how to populate the assets.extra directory.
      as_text: whether to write the SavedModel proto in text format.
      exports_to_keep: Number of exports to keep. Older exports will be garbage-collected.
        Defaults to 5. Set to `None` to disable garbage collection.

    Raises:
      ValueError: if any arguments is invalid.
    """

    def __init__(self, name, serving_input_receiver_fn, assets_extra=None, as_text=False, exports_to_keep=5):
        super().__init__(name, serving_input_receiver_fn, assets_extra, as_text, exports_to_keep)

    def export(self, estimator, export_path, checkpoint_path, eval_result, is_the_final_export):
        """Exports, then deletes all but the `exports_to_keep` newest exports.

        Args:
          estimator: the `Estimator` to export.
          export_path: A string containing a directory where to write the export.
          checkpoint_path: The checkpoint path to export.
          eval_result: The output of `Estimator.evaluate` on this checkpoint.
          is_the_final_export: Whether this is the export at the end of training.

        Returns:
          The path of the export.
        """
        return self._export_and_collect(estimator, export_path, checkpoint_path)


def _loss_smaller(best_eval_result, current_eval_result):
    """Compares two evaluation results and returns true if the 2nd one is smaller (by `loss`)."""
    default_key = "loss"
    if not best_eval_result or default_key not in best_eval_result:
        raise ValueError("best_eval_result cannot be empty or no loss is found in it.")
    if not current_eval_result or default_key not in current_eval_result:
        raise ValueError("current_eval_result cannot be empty or no loss is found in it.")
    return best_eval_result[default_key] > current_eval_result[default_key]


class BestExporter(_KeepingExporter):
    """This class exports the serving graph and checkpoints of the best models
    (`tf.estimator.BestExporter`): an export happens when `compare_fn` finds the new evaluation
    better than the best one so far (read first from the event files of the model's evaluations).

    Args:
      name: unique name of this `Exporter` that is going to be used in the export path.
      serving_input_receiver_fn: a function that takes no arguments and returns a
        `ServingInputReceiver`.
      event_file_pattern: event file name pattern relative to model_dir. If None, however, the
        exporter would not be preemption-safe. To be preemption-safe, event_file_pattern must be
        specified.
      compare_fn: a function that compares two evaluation results and returns true if current
        evaluation result is better. Follows the signature: `(best_eval_result,
        current_eval_result) -> bool`. Defaults to a smaller `loss`.
      assets_extra: An optional dict specifying how to populate the assets.extra directory.
      as_text: whether to write the SavedModel proto in text format.
      exports_to_keep: Number of exports to keep. Older exports will be garbage-collected.
        Defaults to 5. Set to `None` to disable garbage collection.

    Raises:
      ValueError: if any argument is invalid.
    """

    def __init__(self, name="best_exporter", serving_input_receiver_fn=None,
                 event_file_pattern="eval/*.tfevents.*", compare_fn=_loss_smaller, assets_extra=None, as_text=False,
                 exports_to_keep=5):
        if compare_fn is None:
            raise ValueError("`compare_fn` must not be None.")
        import inspect
        params = set(inspect.signature(compare_fn).parameters)
        if params != {"best_eval_result", "current_eval_result"}:
            raise ValueError("compare_fn (%s) must include best_eval_result and current_eval_result argument."
                             % compare_fn)
        super().__init__(name, serving_input_receiver_fn, assets_extra, as_text, exports_to_keep)
        self._compare_fn = compare_fn
        self._event_file_pattern = event_file_pattern
        self._model_dir = None
        self._best_eval_result = None

    def export(self, estimator, export_path, checkpoint_path, eval_result, is_the_final_export):
        """Exports if `eval_result` is better than the best result so far.

        Args:
          estimator: the `Estimator` to export.
          export_path: A string containing a directory where to write the export.
          checkpoint_path: The checkpoint path to export.
          eval_result: The output of `Estimator.evaluate` on this checkpoint.
          is_the_final_export: Whether this is the export at the end of training.

        Returns:
          The path of the export, or `None` if the model is not better.
        """
        if self._model_dir != estimator.model_dir and self._event_file_pattern:
            logging.info("Loading best metric from event files.")
            self._model_dir = estimator.model_dir
            self._best_eval_result = self._get_best_eval_result(os.path.join(self._model_dir,
                                                                             self._event_file_pattern))
        if self._best_eval_result is None or self._compare_fn(best_eval_result=self._best_eval_result,
                                                              current_eval_result=eval_result):
            logging.info("Performing best model export.")
            self._best_eval_result = eval_result
            return self._export_and_collect(estimator, export_path, checkpoint_path)
        return None

    def _get_best_eval_result(self, event_files):
        from ..platform import gfile
        from ..train.summary_iterator import summary_iterator
        best_eval_result = None
        for event_file in sorted(gfile.glob(event_files)):
            for event in summary_iterator(event_file):
                if event.HasField("summary"):
                    event_eval_result = {v.tag: v.simple_value for v in event.summary.value
                                         if v.HasField("simple_value")}
                    if event_eval_result and (best_eval_result is None or self._compare_fn(
                            best_eval_result=best_eval_result, current_eval_result=event_eval_result)):
                        best_eval_result = event_eval_result
        return best_eval_result
