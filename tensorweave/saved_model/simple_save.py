"""`tf.saved_model.simple_save`: a SavedModel for serving in one call."""

from ..framework import ops
from . import builder, signature_constants, signature_def_utils, tag_constants

__all__ = ["simple_save"]


def simple_save(session, export_dir, inputs, outputs, legacy_init_op=None):
    """Convenience function to build a SavedModel suitable for serving.

    In many common cases, saving models for serving will be as simple as:

        simple_save(session, export_dir, inputs={"x": x, "y": y}, outputs={"z": z})

    The SavedModel is tagged `tf.saved_model.SERVING`, has one `serving_default` predict signature
    with `inputs` and `outputs`, its assets are the `GraphKeys.ASSET_FILEPATHS` collection, and its
    devices are cleared.

    Args:
      session: The TensorFlow session from which to save the meta graph and variables.
      export_dir: The path to which the SavedModel will be stored.
      inputs: dict mapping string input names to tensors. These are added to the SignatureDef as
        the inputs.
      outputs: dict mapping string output names to tensors. These are added to the SignatureDef as
        the outputs.
      legacy_init_op: Legacy support for op or group of ops to execute after the restore op upon a
        load.

    Raises:
      AssertionError: If `export_dir` exists and is not empty.
      ValueError: If `inputs` or `outputs` is empty.
    """
    signature_def_map = {signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY:
                         signature_def_utils.predict_signature_def(inputs, outputs)}
    b = builder.SavedModelBuilder(export_dir)
    with session.graph.as_default():
        assets = ops.get_collection(ops.GraphKeys.ASSET_FILEPATHS)
    b.add_meta_graph_and_variables(session, tags=[tag_constants.SERVING], signature_def_map=signature_def_map,
                                   assets_collection=assets, main_op=legacy_init_op, clear_devices=True)
    b.save()
