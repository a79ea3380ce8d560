"""`tf.saved_model` (TF 1.x, `tf.compat.v1.saved_model`): SavedModel directories, TensorFlow's
language-neutral format for serving (TF Serving, TF Lite converters, `saved_model_cli`).

    tf.saved_model.simple_save(sess, export_dir, inputs={"x": x}, outputs={"y": y})
    with tf.Session(graph=tf.Graph()) as sess:
        meta = tf.saved_model.loader.load(sess, [tf.saved_model.tag_constants.SERVING], export_dir)

The files are TensorFlow's: `saved_model.pb` is a `SavedModel` protocol buffer, the variables a
`tf.train.Saver` checkpoint; real TensorFlow loads what tensorweave writes and the other way round.
Needs the `tensorboard` extra (protobuf and TensorBoard's messages).
"""

from . import builder, constants, loader, main_op, signature_constants, signature_def_utils, tag_constants, utils
from .builder import Builder
from .constants import (ASSETS_DIRECTORY, ASSETS_KEY, DEBUG_DIRECTORY, DEBUG_INFO_FILENAME_PB, LEGACY_INIT_OP_KEY,
                        MAIN_OP_KEY, SAVED_MODEL_FILENAME_PB, SAVED_MODEL_FILENAME_PBTXT,
                        SAVED_MODEL_SCHEMA_VERSION, VARIABLES_DIRECTORY, VARIABLES_FILENAME)
from .loader import contains_saved_model, load, maybe_saved_model_directory
from .main_op import main_op_with_restore
from .signature_constants import (CLASSIFY_INPUTS, CLASSIFY_METHOD_NAME, CLASSIFY_OUTPUT_CLASSES,
                                  CLASSIFY_OUTPUT_SCORES, DEFAULT_SERVING_SIGNATURE_DEF_KEY, PREDICT_INPUTS,
                                  PREDICT_METHOD_NAME, PREDICT_OUTPUTS, REGRESS_INPUTS, REGRESS_METHOD_NAME,
                                  REGRESS_OUTPUTS)
from .signature_def_utils import (build_signature_def, classification_signature_def, is_valid_signature,
                                  predict_signature_def, regression_signature_def)
from .simple_save import simple_save
from .tag_constants import GPU, SERVING, TPU, TRAINING
from .utils import build_tensor_info, get_tensor_from_tensor_info
