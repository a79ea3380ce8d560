"""`tf.saved_model.tag_constants`: the standard tags of a SavedModel's meta graphs."""

__all__ = ["EVAL", "GPU", "SERVING", "TPU", "TRAINING"]

# Tag of the serving graph.
SERVING = "serve"
# Tag of the training graph.
TRAINING = "train"
# Tag of the evaluation graph.
EVAL = "eval"
# Tag of a graph meant for GPUs.
GPU = "gpu"
# Tag of a graph meant for TPUs.
TPU = "tpu"
