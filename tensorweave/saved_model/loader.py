"""`tf.saved_model.loader`: loads a SavedModel (TensorFlow's or tensorweave's) into a Session.

Loading parses `saved_model.pb` (or `saved_model.pbtxt`), picks the meta graph whose tags equal
the requested ones, imports it with `tf.train.import_meta_graph`, restores the variables from
`variables/variables` with the meta graph's saver, and runs the init op (the
`__saved_model_init_op` signature, else the `saved_model_main_op` or `legacy_init_op` collection)
with each asset tensor fed the path of its file under `assets/`.

Loading never runs code named by the files: the meta graph is imported with no trusted modules,
so a py_func or a custom op type it names stays unresolved (see `tf.train.import_meta_graph`). A
damaged `saved_model.pb` (truncated, bit-flipped) raises `tf.errors.DataLossError`; a well-formed
file that does not describe a usable SavedModel raises `tf.errors.InvalidArgumentError`.
"""

import os

from .. import tf_logging as logging
from ..framework import errors, ops
from . import _protos, constants, signature_def_utils

__all__ = ["SavedModelLoader", "load", "maybe_saved_model_directory", "parse_saved_model"]


def _path(export_dir):
    export_dir = os.fspath(export_dir)
    return export_dir.decode("utf-8") if isinstance(export_dir, bytes) else export_dir


def parse_saved_model(export_dir):
    """Reads the `saved_model.pb` or `saved_model.pbtxt` file of `export_dir`.

    Args:
      export_dir: Directory containing the SavedModel file.

    Returns:
      A `SavedModel` protocol buffer.

    Raises:
      IOError: If the file does not exist.
      DataLossError: If it cannot be parsed (truncated or damaged); the message names the file.
      InvalidArgumentError: If it parses but is not a SavedModel of a known schema version.
    """
    export_dir = _path(export_dir)
    path_to_pb = os.path.join(export_dir, constants.SAVED_MODEL_FILENAME_PB)
    path_to_pbtxt = os.path.join(export_dir, constants.SAVED_MODEL_FILENAME_PBTXT)
    cls = _protos.saved_model_class()
    saved_model = cls()
    if os.path.exists(path_to_pb):
        path = path_to_pb
        with open(path_to_pb, "rb") as f:
            content = f.read()
        from google.protobuf import message
        try:
            saved_model.ParseFromString(content)
        except (message.DecodeError, RuntimeError, ValueError) as e:
            raise errors.DataLossError(None, None, "Cannot parse file %s: %s." % (path_to_pb, e)) from None
    elif os.path.exists(path_to_pbtxt):
        path = path_to_pbtxt
        with open(path_to_pbtxt, "rb") as f:
            content = f.read()
        from google.protobuf import text_format
        try:
            text_format.Parse(content.decode("utf-8"), saved_model)
        except (text_format.ParseError, UnicodeDecodeError, ValueError) as e:
            raise errors.DataLossError(None, None, "Cannot parse file %s: %s." % (path_to_pbtxt, e)) from None
    else:
        raise IOError("SavedModel file does not exist at: %s%s{%s|%s}" % (
            export_dir, os.path.sep, constants.SAVED_MODEL_FILENAME_PBTXT, constants.SAVED_MODEL_FILENAME_PB))
    if saved_model.saved_model_schema_version not in (0, constants.SAVED_MODEL_SCHEMA_VERSION):
        raise errors.InvalidArgumentError(
            None, None, "SavedModel %s has schema version %d; this reader knows version %d." % (
                path, saved_model.saved_model_schema_version, constants.SAVED_MODEL_SCHEMA_VERSION))
    return saved_model


def maybe_saved_model_directory(export_dir):
    """Checks whether the provided export directory could contain a SavedModel.

    Note that the method does not load any data by itself. If the method returns `false`, the
    export directory definitely does not contain a SavedModel. If the method returns `true`, the
    export directory may contain a SavedModel but provides no guarantee that it can be loaded.

    Args:
      export_dir: Absolute string path to possible export location. For example,
        '/my/foo/model'.

    Returns:
      True if the export directory contains SavedModel files, False otherwise.
    """
    export_dir = _path(export_dir)
    return (os.path.exists(os.path.join(export_dir, constants.SAVED_MODEL_FILENAME_PBTXT))
            or os.path.exists(os.path.join(export_dir, constants.SAVED_MODEL_FILENAME_PB)))


contains_saved_model = maybe_saved_model_directory


def _scoped(name, import_scope):
    return import_scope.rstrip("/") + "/" + name if import_scope else name


def get_asset_tensors(export_dir, meta_graph_def_to_load, import_scope=None):
    """The asset tensors of a meta graph, and the paths of their files in `export_dir/assets`.

    Args:
      export_dir: Directory where the SavedModel is located.
      meta_graph_def_to_load: The meta graph def from the SavedModel to be loaded.
      import_scope: Optional `string` -- if specified, prepend this followed by '/' to all
        returned asset tensor names.

    Returns:
      A dictionary of asset tensors, keyed by the name of the asset tensor. The value in the map
      corresponds to the absolute path of the asset file.

    Raises:
      DataLossError: If an asset entry of the collection cannot be parsed.
      InvalidArgumentError: If an asset file name leaves the assets directory.
    """
    asset_protos = list(meta_graph_def_to_load.asset_file_def)
    collection_def = meta_graph_def_to_load.collection_def
    if not asset_protos and constants.ASSETS_KEY in collection_def:
        from google.protobuf import message
        for packed in collection_def[constants.ASSETS_KEY].any_list.value:
            asset_proto = _protos.meta_graph_pb2.AssetFileDef()
            # TensorFlow packs `tensorflow.AssetFileDef`; TensorBoard's copy of the message is named
            # `tensorboard.AssetFileDef` (same fields), so match the type name, not the package.
            ok = packed.type_url.rpartition("/")[2] in ("tensorflow.AssetFileDef", "tensorboard.AssetFileDef")
            try:
                if ok:
                    asset_proto.ParseFromString(packed.value)
            except message.DecodeError as e:
                raise errors.DataLossError(None, None, "Cannot parse an asset of the SavedModel in %s: %s"
                                           % (export_dir, e)) from None
            if not ok:
                raise errors.InvalidArgumentError(None, None, "An item of collection %s of the SavedModel in %s is "
                                                  "a %s, not an AssetFileDef." % (constants.ASSETS_KEY, export_dir,
                                                                                  packed.type_url))
            asset_protos.append(asset_proto)
    assets_directory = os.path.join(_path(export_dir), constants.ASSETS_DIRECTORY)
    result = {}
    for asset_proto in asset_protos:
        filename = asset_proto.filename
        if not filename or os.path.isabs(filename) or ".." in filename.replace("\\", "/").split("/"):
            raise errors.InvalidArgumentError(None, None, "Asset file name %r of the SavedModel in %s is not a file "
                                              "of its assets directory." % (filename, export_dir))
        result[_scoped(asset_proto.tensor_info.name, import_scope)] = os.path.join(assets_directory, filename)
    return result


def _op_from_collection(meta_graph_def, key, graph, import_scope):
    collection_def = meta_graph_def.collection_def
    if key not in collection_def:
        return None
    names = collection_def[key].node_list.value
    if len(names) != 1:
        raise RuntimeError("Expected exactly one SavedModel init op. Found {}: {}.".format(len(names), list(names)))
    return graph.as_graph_element(_scoped(names[0], import_scope))


def _op_from_signature_def(meta_graph_def, key, import_scope):
    if key in meta_graph_def.signature_def:
        return signature_def_utils.load_op_from_signature_def(meta_graph_def.signature_def[key], key, import_scope)
    return None


def get_init_op(meta_graph_def, import_scope=None):
    """The op to run after restoring: the init op signature's, else the main op or legacy init op
    collection's (None if there is none).

    Raises:
      RuntimeError: If a collection holds more than one op.
      NotFoundError: If the init op signature names an op not in the graph.
    """
    graph = ops.get_default_graph()
    return (_op_from_signature_def(meta_graph_def, constants.INIT_OP_SIGNATURE_KEY, import_scope)
            or _op_from_collection(meta_graph_def, constants.MAIN_OP_KEY, graph, import_scope)
            or _op_from_collection(meta_graph_def, constants.LEGACY_INIT_OP_KEY, graph, import_scope))


def get_train_op(meta_graph_def, import_scope=None):
    """The train op recorded in the meta graph (signature or collection), or None.

    Raises:
      RuntimeError: If the collection holds more than one op.
      NotFoundError: If the train op signature names an op not in the graph.
    """
    graph = ops.get_default_graph()
    return (_op_from_signature_def(meta_graph_def, constants.TRAIN_OP_SIGNATURE_KEY, import_scope)
            or _op_from_collection(meta_graph_def, constants.TRAIN_OP_KEY, graph, import_scope))


class SavedModelLoader:
    """Loads graphs and restores variable values from a `SavedModel`.

    Args:
      export_dir: Directory in which the SavedModel protocol buffer and variables to be loaded
        are located.

    Raises:
      IOError: If there is no SavedModel file in `export_dir`.
      DataLossError: If the SavedModel file is damaged.
      InvalidArgumentError: If it is of an unknown schema version.
    """

    def __init__(self, export_dir):
        self._export_dir = _path(export_dir)
        self._variables_path = os.path.join(self._export_dir, constants.VARIABLES_DIRECTORY,
                                            constants.VARIABLES_FILENAME)
        self._saved_model = parse_saved_model(self._export_dir)

    @property
    def export_dir(self):
        """Directory containing the SavedModel."""
        return self._export_dir

    @property
    def variables_path(self):
        """Path to variable checkpoint files."""
        return self._variables_path

    @property
    def saved_model(self):
        """SavedModel object parsed from the export directory."""
        return self._saved_model

    def get_meta_graph_def_from_tags(self, tags):
        """Returns the MetaGraphDef whose tags are exactly `tags`.

        Args:
          tags: A list or set of string tags that identify the MetaGraphDef.

        Returns:
          MetaGraphDef with the same tags.

        Raises:
          RuntimeError: if no metagraphs were found with the associated tags.
        """
        if isinstance(tags, (str, bytes)):
            raise TypeError("tags must be a list or set of strings, got %r" % (tags,))
        available = []
        for meta_graph_def in self._saved_model.meta_graphs:
            available.append(set(meta_graph_def.meta_info_def.tags))
            if set(meta_graph_def.meta_info_def.tags) == set(tags):
                return meta_graph_def
        raise RuntimeError("MetaGraphDef associated with tags {} could not be found in SavedModel, with available "
                           "tags '{}'. To inspect available tag-sets in the SavedModel, please use the SavedModel "
                           "CLI: `saved_model_cli`.".format(str(list(tags)).strip("[]"), available))

    def load_graph(self, graph, tags, import_scope=None, **saver_kwargs):
        """Loads ops and nodes from the SavedModel MetaGraph into graph.

        Args:
          graph: tf.Graph object.
          tags: a set of string tags identifying a MetaGraphDef.
          import_scope: Optional `string` -- if specified, prepend this string followed by '/' to
            all loaded tensor names.
          **saver_kwargs: keyword arguments to pass to tf.train.import_meta_graph.

        Returns:
          The Saver defined by the MetaGraph (None if it has no variables).

        Raises:
          RuntimeError: If no meta graph has these tags.
          InvalidArgumentError: If the meta graph cannot be imported (damaged, or it holds an op
            type tensorweave does not have: the message names it).
        """
        from ..train.saver import import_meta_graph
        meta_graph_def = self.get_meta_graph_def_from_tags(tags)
        with graph.as_default():
            try:
                return import_meta_graph(meta_graph_def, import_scope=import_scope, **saver_kwargs)
            except (ValueError, TypeError, KeyError, IndexError, OverflowError) as e:
                # A meta graph that parses but cannot be imported (damaged, or with ops tensorweave lacks).
                raise errors.InvalidArgumentError(
                    None, None, "The meta graph with tags %s of the SavedModel in %s cannot be imported: %s: %s"
                    % (sorted(tags), self._export_dir, type(e).__name__, e)) from e

    def restore_variables(self, sess, saver, import_scope=None):
        """Restores the SavedModel's variable values into the session.

        Args:
          sess: tf.Session to restore variable values.
          saver: a tf.train.Saver object. Can be None if there are no variables in graph.
          import_scope: Optional `string` -- if specified, prepend this string followed by '/' to
            all loaded tensor names.

        Raises:
          ValueError: if no saver was passed to the saver argument, and there are variables in the
            graph.
        """
        from ..train.saver import Saver, _all_saveable_objects
        with sess.graph.as_default():
            if saver is None and not _all_saveable_objects(scope=import_scope):
                logging.info("The specified SavedModel has no variables; no checkpoints were restored.")
            elif isinstance(saver, Saver):
                saver.restore(sess, self._variables_path)
            else:
                raise ValueError("No tf.train.Saver object was passed to the function "
                                 "`SavedModelLoader.restore_variables`. Since there are variables in the graph, a "
                                 "saver is required.")

    def run_init_ops(self, sess, tags, import_scope=None):
        """Runs the init op of the `MetaGraphDef`, feeding each asset tensor its file's path.

        Args:
          sess: tf.Session to run the op in.
          tags: a set of string tags identifying a MetaGraphDef.
          import_scope: Optional `string` -- if specified, prepend this string followed by '/' to
            all loaded tensor names.

        Raises:
          RuntimeError: If no meta graph has these tags, or it names more than one init op.
        """
        meta_graph_def = self.get_meta_graph_def_from_tags(tags)
        with sess.graph.as_default():
            assets = get_asset_tensors(self._export_dir, meta_graph_def, import_scope=import_scope)
            init_op = get_init_op(meta_graph_def, import_scope)
            if init_op is not None:
                sess.run(fetches=[init_op], feed_dict=assets)

    def load(self, sess, tags, import_scope=None, **saver_kwargs):
        """Loads the MetaGraphDef graph and restores variable values into the session.

        Args:
          sess: tf.Session to restore variable values.
          tags: a set of string tags identifying a MetaGraphDef.
          import_scope: Optional `string` -- if specified, prepend this string followed by '/' to
            all loaded tensor names. This scope is applied to tensor instances loaded into the
            passed session, but it is *not* written through to the static `MetaGraphDef`
            protocol buffer that is returned.
          **saver_kwargs: keyword arguments to pass to tf.train.import_meta_graph.

        Returns:
          `MetagraphDef` proto of the graph that was loaded.

        Raises:
          RuntimeError: If no meta graph has these tags.
        """
        with sess.graph.as_default():
            saver = self.load_graph(sess.graph, tags, import_scope, **saver_kwargs)
            self.restore_variables(sess, saver, import_scope)
            self.run_init_ops(sess, tags, import_scope)
        return self.get_meta_graph_def_from_tags(tags)


def load(sess, tags, export_dir, import_scope=None, **saver_kwargs):
    """Loads the model from a SavedModel as specified by tags.

    Args:
      sess: The TensorFlow session to restore the variables.
      tags: Set of string tags to identify the required MetaGraphDef. These should correspond to
        the tags used when saving the variables using the SavedModel `save()` API.
      export_dir: Directory in which the SavedModel protocol buffer and variables to be loaded are
        located.
      import_scope: Optional `string` -- if specified, prepend this string followed by '/' to all
        loaded tensor names. This scope is applied to tensor instances loaded into the passed
        session, but it is *not* written through to the static `MetaGraphDef` protocol buffer
        that is returned.
      **saver_kwargs: Optional keyword arguments passed through to Saver.

    Returns:
      The `MetaGraphDef` protocol buffer loaded in the provided session. This can be used to
      further extract signature-defs, collection-defs, etc.

    Raises:
      RuntimeError: MetaGraphDef associated with the tags cannot be found, or eager execution is
        enabled.
      IOError: If there is no SavedModel in `export_dir`.
      DataLossError: If `saved_model.pb` is damaged.
      InvalidArgumentError: If it is of an unknown schema version or names an asset outside its
        assets directory.
    """
    from ..eager.context import executing_eagerly
    if executing_eagerly():
        raise RuntimeError("tf.saved_model.loader.load is not supported when eager execution is enabled: pass a "
                           "Session of a graph.")
    return SavedModelLoader(export_dir).load(sess, tags, import_scope, **saver_kwargs)
