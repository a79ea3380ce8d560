"""The prediction keys of TF 1.15's `tf.contrib.tensor_forest.client.eval_metrics`."""

__all__ = ["INFERENCE_PRED_NAME", "INFERENCE_PROB_NAME"]

INFERENCE_PROB_NAME = "probabilities"
INFERENCE_PRED_NAME = "classes"
