"""`tf.saved_model.builder.SavedModelBuilder`: writes a SavedModel directory.

    export_dir/
      saved_model.pb            a `SavedModel` protocol buffer: schema version 1 and one
                                `MetaGraphDef` per tag set (its graph, saver, collections,
                                signatures, asset file defs)
      variables/variables.*     the variables, a checkpoint written by `tf.train.Saver`
      assets/                   the asset files (copied from the ASSET_FILEPATHS paths)

TensorFlow's layout and messages: real TensorFlow's `tf.compat.v1.saved_model.loader.load` reads
it, as tensorweave's `loader.load` reads TensorFlow's.
"""

import os

import numpy as np

from .. import tf_logging as logging
from ..framework import dtypes, ops
from . import _protos, constants

__all__ = ["SavedModelBuilder"]


def _variables_path(export_dir):
    return os.path.join(export_dir, constants.VARIABLES_DIRECTORY, constants.VARIABLES_FILENAME)


def _atomic_write(path, data):
    from ..ops import tensor_bundle
    tensor_bundle.atomic_write(path, lambda f: f.write(data))


class SavedModelBuilder:
    """Builds the `SavedModel` protocol buffer and saves variables and assets.

    The first meta graph is saved with the variables (`add_meta_graph_and_variables`); later ones
    (`add_meta_graph`) share those variables and assets and add only their graph. Each meta graph
    is annotated with tags that identify it when it is loaded. `save()` writes `saved_model.pb`.

        builder = tf.saved_model.builder.SavedModelBuilder(export_dir)
        with tf.Session(graph=tf.Graph()) as sess:
            ...
            builder.add_meta_graph_and_variables(sess, ["foo-tag"], signature_def_map=foo_signatures,
                                                 assets_collection=foo_assets)
        with tf.Session(graph=tf.Graph()) as sess:
            ...
            builder.add_meta_graph(["bar-tag", "baz-tag"])
        builder.save()

    Args:
      export_dir: The directory to write the SavedModel to (created if missing).

    Raises:
      AssertionError: If `export_dir` exists and is not empty.
    """

    def __init__(self, export_dir):
        export_dir = os.fspath(export_dir)
        if isinstance(export_dir, bytes):
            export_dir = export_dir.decode("utf-8")
        self._saved_model = _protos.saved_model_class()()
        self._saved_model.saved_model_schema_version = constants.SAVED_MODEL_SCHEMA_VERSION
        self._export_dir = export_dir
        if os.path.exists(export_dir):
            if os.listdir(export_dir):
                raise AssertionError("Export directory {} already exists, and isn't empty. Please choose a "
                                     "different export directory, or delete all the contents of the specified "
                                     "directory.".format(export_dir))
        else:
            os.makedirs(export_dir)
        self._has_saved_variables = False
        self._saved_asset_files = set()

    # ---- validation ---------------------------------------------------------------------------
    def _validate_tensor_info(self, tensor_info):
        if tensor_info is None:
            raise AssertionError("All TensorInfo protos used in the SignatureDefs must have the name and dtype "
                                 "fields set.")
        if tensor_info.WhichOneof("encoding") is None:
            raise AssertionError("Invalid `tensor_info`: {}. All TensorInfo protos used in the SignatureDefs must "
                                 "have one of the 'encoding' fields (e.g., name or coo_sparse) set."
                                 .format(tensor_info))
        if tensor_info.dtype == 0:
            raise AssertionError("Invalid `tensor_info`: {}. All TensorInfo protos used in the SignatureDefs must "
                                 "have the dtype field set.".format(tensor_info))

    def _validate_signature_def_map(self, signature_def_map):
        for key, signature_def in signature_def_map.items():
            if not isinstance(signature_def, _protos.meta_graph_pb2.SignatureDef):
                raise TypeError("signature_def_map[%r] must be a SignatureDef protocol buffer, got %s"
                                % (key, type(signature_def).__name__))
            for k in signature_def.inputs:
                self._validate_tensor_info(signature_def.inputs[k])
            for k in signature_def.outputs:
                self._validate_tensor_info(signature_def.outputs[k])
        if constants.INIT_OP_SIGNATURE_KEY in signature_def_map:
            raise KeyError('SignatureDef map key "{}" is reserved for initialization. Please use a different '
                           'key.'.format(constants.INIT_OP_SIGNATURE_KEY))
        if constants.TRAIN_OP_SIGNATURE_KEY in signature_def_map:
            raise KeyError('SignatureDef map key "{}" is reserved for the train op. Please use a different '
                           'key.'.format(constants.TRAIN_OP_SIGNATURE_KEY))

    # ---- collections: assets, main op, train op -------------------------------------------------
    def _add_collections(self, assets_collection, main_op, train_op):
        asset_map = self._save_assets(assets_collection)
        self._maybe_add_main_op(main_op)
        if train_op is not None:
            if not isinstance(train_op, (ops.Tensor, ops.Operation)):
                raise TypeError("`train_op` {} needs to be a Tensor or Op.".format(train_op))
            ops.add_to_collection(constants.TRAIN_OP_KEY, train_op)
        return asset_map

    def _save_assets(self, assets_collection):
        """Adds an `AssetFileDef` (packed in an `Any`) per asset tensor to the ASSETS_KEY collection and
        copies the asset files to `export_dir/assets`. Returns the `Any`s added."""
        if assets_collection is None:
            logging.info("No assets to save.")
            return []
        asset_filename_map = {}
        added = []
        for asset_tensor in assets_collection:
            source = _asset_path_from_tensor(asset_tensor)
            if not source:
                raise ValueError("Asset filepath tensor {} in is invalid.".format(asset_tensor))
            filename = _asset_filename_to_add(source, asset_filename_map)
            asset_proto = _protos.meta_graph_pb2.AssetFileDef(filename=filename)
            asset_proto.tensor_info.name = asset_tensor.name
            # TF's type name (TensorBoard's copy of the message is `tensorboard.AssetFileDef`), so that
            # TensorFlow's loader unpacks it.
            packed = _protos.any_pb2.Any(type_url="type.googleapis.com/tensorflow.AssetFileDef",
                                         value=asset_proto.SerializeToString(deterministic=True))
            ops.add_to_collection(constants.ASSETS_KEY, packed)
            added.append(packed)
            asset_filename_map[filename] = source
        if not asset_filename_map:
            logging.info("No assets to write.")
            return added
        assets_dir = os.path.join(self._export_dir, constants.ASSETS_DIRECTORY)
        os.makedirs(assets_dir, exist_ok=True)
        for filename, source in asset_filename_map.items():
            destination = os.path.join(assets_dir, filename)
            if os.path.exists(source) and source != destination and destination not in self._saved_asset_files:
                with open(source, "rb") as f:
                    _atomic_write(destination, f.read())
                self._saved_asset_files.add(destination)
        logging.info("Assets written to: %s", assets_dir)
        return added

    def _maybe_add_main_op(self, main_op):
        if main_op is None:
            return
        if not isinstance(main_op, ops.Operation):
            raise TypeError("Expected {} to be an Operation but got type {} instead.".format(main_op, type(main_op)))
        for key in (constants.MAIN_OP_KEY, constants.LEGACY_INIT_OP_KEY):
            if ops.get_collection(key):
                raise ValueError("Graph already contains one or more main ops under the collection {}.".format(key))
        ops.add_to_collection(constants.MAIN_OP_KEY, main_op)

    def _maybe_create_saver(self, saver=None):
        if not saver:
            from ..train.saver import Saver, _all_saveable_objects
            saver = Saver(_all_saveable_objects(), sharded=True, allow_empty=True)
        return saver

    def _export(self, saver, clear_devices, strip_default_attrs, assets):
        meta_graph_def = saver.export_meta_graph(clear_devices=clear_devices, strip_default_attrs=strip_default_attrs)
        if not isinstance(meta_graph_def, _protos.meta_graph_pb2.MetaGraphDef):
            raise NotImplementedError("tf.train.Saver.export_meta_graph returned %s, not a MetaGraphDef protocol "
                                      "buffer: this build of tensorweave cannot write SavedModels."
                                      % type(meta_graph_def).__name__)
        if assets and not meta_graph_def.collection_def[constants.ASSETS_KEY].any_list.value:
            meta_graph_def.collection_def[constants.ASSETS_KEY].any_list.value.extend(assets)
        return meta_graph_def

    def _tag_and_add_meta_graph(self, meta_graph_def, tags, signature_def_map):
        for tag in tags:
            meta_graph_def.meta_info_def.tags.append(tag)
        for key in signature_def_map or {}:
            meta_graph_def.signature_def[key].CopyFrom(signature_def_map[key])
        self._saved_model.meta_graphs.add().CopyFrom(meta_graph_def)

    @staticmethod
    def _check_tags(tags):
        if isinstance(tags, (str, bytes)) or not all(isinstance(t, str) for t in tags):
            raise TypeError("tags must be a list or set of strings, got %r" % (tags,))

    # ---- public API ---------------------------------------------------------------------------
    def add_meta_graph(self, tags, signature_def_map=None, assets_collection=None, legacy_init_op=None,
                       clear_devices=False, main_op=None, strip_default_attrs=False, saver=None):
        """Adds the current meta graph to the SavedModel.

        Creates a Saver in the current scope and uses the Saver to export the meta graph def.
        Invoking this API requires the `add_meta_graph_and_variables()` API to have been invoked
        before.

        Args:
          tags: The set of tags to annotate the meta graph def with.
          signature_def_map: The map of signature defs to be added to the meta graph def.
          assets_collection: Assets to be saved with SavedModel. Note that this list should be a
            subset of the assets saved as part of the first meta graph in the SavedModel.
          legacy_init_op: Deprecated: the same as `main_op`.
          clear_devices: Set to true if the device info on the default graph should be cleared.
          main_op: Op or group of ops to execute when the graph is loaded. Note that when the
            main_op is specified it is run after the restore op at load-time.
          strip_default_attrs: If `True`, default-valued attributes will be removed from the
            NodeDefs.
          saver: An instance of tf.train.Saver that will be used to export the metagraph. If None,
            a sharded Saver that restores all variables will be used.

        Raises:
          AssertionError: If the variables for the SavedModel have not been saved yet, or a
            TensorInfo of a signature is incomplete.
          KeyError: If a signature uses a reserved key.
          TypeError: If `tags` are not strings or `main_op` is not an Operation.
          ValueError: If the graph already contains a main op.
        """
        if not self._has_saved_variables:
            raise AssertionError("Graph state including variables and assets has not been saved yet. Please invoke "
                                 "`add_meta_graph_and_variables()` first.")
        self._check_tags(tags)
        signature_def_map = signature_def_map or {}
        self._validate_signature_def_map(signature_def_map)
        main_op = main_op if main_op is not None else legacy_init_op
        assets = self._add_collections(assets_collection, main_op, None)
        saver = self._maybe_create_saver(saver)
        meta_graph_def = self._export(saver, clear_devices, strip_default_attrs, assets)
        self._tag_and_add_meta_graph(meta_graph_def, tags, signature_def_map)

    def add_meta_graph_and_variables(self, sess, tags, signature_def_map=None, assets_collection=None,
                                     legacy_init_op=None, clear_devices=False, main_op=None,
                                     strip_default_attrs=False, saver=None):
        """Adds the current meta graph to the SavedModel and saves variables.

        Creates a Saver to save the variables from the provided session. Exports the corresponding
        meta graph def. This function assumes that the variables to be saved have been
        initialized. For a given `SavedModelBuilder`, this API must be called exactly once and for
        the first meta graph to save. For subsequent meta graph defs to be added, the
        `add_meta_graph()` API must be used.

        Args:
          sess: The TensorFlow session from which to save the meta graph and variables.
          tags: The set of tags with which to save the meta graph.
          signature_def_map: The map of signature def map to add to the meta graph def.
          assets_collection: Assets to be saved with SavedModel: string `Const` tensors naming
            files, usually `tf.get_collection(tf.GraphKeys.ASSET_FILEPATHS)`.
          legacy_init_op: Deprecated: the same as `main_op`.
          clear_devices: Set to true if the device info on the default graph should be cleared.
          main_op: Op or group of ops to execute when the graph is loaded. Note that when the
            main_op is specified it is run after the restore op at load-time.
          strip_default_attrs: If `True`, default-valued attributes will be removed from the
            NodeDefs.
          saver: An instance of tf.train.Saver that will be used to export the metagraph and save
            variables. If None, a sharded Saver that restores all variables will be used.

        Raises:
          AssertionError: If the variables were already saved, or a TensorInfo of a signature is
            incomplete.
          KeyError: If a signature uses a reserved key.
          TypeError: If `tags` are not strings, an asset tensor is not a scalar string `Const`, or
            `main_op` is not an Operation.
          ValueError: If the graph already contains a main op.
        """
        if self._has_saved_variables:
            raise AssertionError("Graph state including variables and assets has already been saved. Please invoke "
                                 "`add_meta_graph()` instead.")
        self._check_tags(tags)
        signature_def_map = signature_def_map or {}
        self._validate_signature_def_map(signature_def_map)
        main_op = main_op if main_op is not None else legacy_init_op
        with sess.graph.as_default():
            assets = self._add_collections(assets_collection, main_op, None)
            variables_path = _variables_path(self._export_dir)
            os.makedirs(os.path.dirname(variables_path), exist_ok=True)
            saver = self._maybe_create_saver(saver)
            saver.save(sess, variables_path, write_meta_graph=False, write_state=False)
            meta_graph_def = self._export(saver, clear_devices, strip_default_attrs, assets)
        self._tag_and_add_meta_graph(meta_graph_def, tags, signature_def_map)
        self._has_saved_variables = True

    def save(self, as_text=False):
        """Writes a `SavedModel` protocol buffer to disk (atomically: a temporary file renamed).

        Args:
          as_text: Writes the SavedModel protocol buffer in text format (`saved_model.pbtxt`),
            useful for debugging; the default is the binary `saved_model.pb`.

        Returns:
          The path to which the SavedModel protocol buffer was written.
        """
        os.makedirs(self._export_dir, exist_ok=True)
        if as_text:
            from google.protobuf import text_format
            path = os.path.join(self._export_dir, constants.SAVED_MODEL_FILENAME_PBTXT)
            data = text_format.MessageToString(self._saved_model).encode("utf-8")
        else:
            path = os.path.join(self._export_dir, constants.SAVED_MODEL_FILENAME_PB)
            data = self._saved_model.SerializeToString(deterministic=True)
        _atomic_write(path, data)
        logging.info("SavedModel written to: %s", path)
        return path


Builder = SavedModelBuilder


def _asset_path_from_tensor(path_tensor):
    """The file path held by the scalar string `Const` `path_tensor`."""
    if not isinstance(path_tensor, ops.Tensor):
        raise TypeError("Asset path tensor {} must be a Tensor.".format(path_tensor))
    if path_tensor.op.type != "Const":
        raise TypeError("Asset path tensor {} must be of type constant.Has type {} instead.".format(
            path_tensor, path_tensor.op.type))
    if path_tensor.dtype != dtypes.string:
        raise TypeError("Asset path tensor {}` must be of dtype string.Has type {} instead.".format(
            path_tensor, path_tensor.dtype))
    value = np.asarray(path_tensor.op.get_attr("value"))
    if value.size != 1:
        raise TypeError("Asset path tensor {} must be a scalar.".format(path_tensor))
    path = value.reshape(-1)[0]
    return path.decode("utf-8") if isinstance(path, bytes) else str(path)


def _asset_filename_to_add(asset_filepath, asset_filename_map):
    """The asset's basename, made unique (`name_1`, ...) if another file of that name differs."""
    asset_filename = os.path.basename(asset_filepath)
    if asset_filename not in asset_filename_map:
        return asset_filename
    other = asset_filename_map[asset_filename]
    if other == asset_filepath or _same_file_content(asset_filepath, other):
        return asset_filename
    i = 1
    unique = asset_filename
    while unique in asset_filename_map:
        unique = "%s_%d" % (asset_filename, i)
        i += 1
    return unique


def _same_file_content(a, b):
    try:
        with open(a, "rb") as fa, open(b, "rb") as fb:
            return fa.read() == fb.read()
    except OSError:
        return False


