"""`tf.saved_model.constants`: file and collection names of a SavedModel (TensorFlow's values)."""

__all__ = ["ASSETS_DIRECTORY", "ASSETS_KEY", "DEBUG_DIRECTORY", "DEBUG_INFO_FILENAME_PB", "EXTRA_ASSETS_DIRECTORY",
           "INIT_OP_SIGNATURE_KEY", "LEGACY_INIT_OP_KEY", "MAIN_OP_KEY", "SAVED_MODEL_FILENAME_PB",
           "SAVED_MODEL_FILENAME_PBTXT", "SAVED_MODEL_SCHEMA_VERSION", "TRAIN_OP_KEY", "TRAIN_OP_SIGNATURE_KEY",
           "VARIABLES_DIRECTORY", "VARIABLES_FILENAME"]

# Subdirectory of the export directory holding the asset files.
ASSETS_DIRECTORY = "assets"
# Subdirectory for extra files a SavedModel does not itself use (e.g. TF Serving warm-up data).
EXTRA_ASSETS_DIRECTORY = "assets.extra"
# Collection of `Any`-packed `AssetFileDef`s (TF 1.x builders).
ASSETS_KEY = "saved_model_assets"
# Collections of the op run after the variables are restored.
LEGACY_INIT_OP_KEY = "legacy_init_op"
MAIN_OP_KEY = "saved_model_main_op"
# Collection of the train op (recorded, never run by the loader).
TRAIN_OP_KEY = "saved_model_train_op"
# Reserved signature keys of the init and train ops.
INIT_OP_SIGNATURE_KEY = "__saved_model_init_op"
TRAIN_OP_SIGNATURE_KEY = "__saved_model_train_op"
SAVED_MODEL_SCHEMA_VERSION = 1
SAVED_MODEL_FILENAME_PB = "saved_model.pb"
SAVED_MODEL_FILENAME_PBTXT = "saved_model.pbtxt"
DEBUG_DIRECTORY = "debug"
DEBUG_INFO_FILENAME_PB = "saved_model_debug_info.pb"
VARIABLES_DIRECTORY = "variables"
VARIABLES_FILENAME = "variables"
