"""`tf.train.summary_iterator`: reads the `Event` protocol buffers of an event file."""

from ..io.tf_record import tf_record_iterator
from ..summary.messages import Event


def summary_iterator(path):
    """Returns an iterator over the `tf.Event` protocol buffers in an event file, as TF1's
    `tf.train.summary_iterator`. The file is opened when iteration starts.

    Example:

        for e in tf.train.summary_iterator(path):
            for v in e.summary.value:
                if v.tag == "loss":
                    print(e.step, v.simple_value)

    Args:
      path: The path to an event file (a TFRecord file of serialized `Event`s).

    Yields:
      `tf.Event` protocol buffers.

    Raises:
      tf.errors.NotFoundError: If `path` does not exist.
      tf.errors.DataLossError: On a corrupted or truncated record.
      google.protobuf.message.DecodeError: If a record is not an `Event`.
      ImportError: If the `tensorboard` extra (the protos) is not installed.
    """
    for record in tf_record_iterator(path):
        yield Event.FromString(record)
