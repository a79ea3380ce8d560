"""`tf.keras.utils.model_to_dot` and `plot_model`: a model's layer graph as a pydot graph or an image.

Needs pydot (the `plot` extra); `plot_model` also needs Graphviz's `dot` program to render.
"""

import os

_MESSAGE = "Failed to import pydot. You must install pydot and graphviz for `pydotprint` to work."


def _pydot():
    try:
        import pydot
    except ImportError:
        raise ImportError(_MESSAGE + " (pip install 'tensorweave[plot]'; Graphviz is a system package)") from None
    return pydot


def _format_shape(shape):
    return str(shape).replace(str(None), "?")


def _add_edge(dot, pydot, src, dst):
    if not dot.get_edge(src, dst):
        dot.add_edge(pydot.Edge(src, dst))


def model_to_dot(model, show_shapes=False, show_layer_names=True, rankdir="TB", expand_nested=False, dpi=96,
                 subgraph=False):
    """Converts a Keras model to a `pydot.Dot` graph: one node per layer, one edge per connection.

    Nodes are named by `str(id(layer))` and labelled `'<layer name>: <class name>'` (or the class
    name alone), with the input and output shapes as a record when `show_shapes`. Unlike TF, only
    pydot is needed here; Graphviz is needed to render the graph (`plot_model`).

    Args:
      model: A Keras model.
      show_shapes: Whether to display shape information.
      show_layer_names: Whether to display layer names.
      rankdir: The graph's `rankdir`: 'TB' (vertical) or 'LR' (horizontal).
      expand_nested: Whether to draw nested models as clusters of their layers.
      dpi: Dots per inch.
      subgraph: Whether to return a `pydot.Cluster` (used for nested models).

    Returns:
      A `pydot.Dot` (or `pydot.Cluster` when `subgraph`) instance.

    Raises:
      ImportError: If pydot is not installed.
    """
    pydot = _pydot()
    from ..engine.network import Network
    if subgraph:
        dot = pydot.Cluster(style="dashed", graph_name=model.name)
        dot.set("label", model.name)
        dot.set("labeljust", "l")
    else:
        dot = pydot.Dot()
        dot.set("rankdir", rankdir)
        dot.set("concentrate", True)
        dot.set("dpi", dpi)
        dot.set_node_defaults(shape="record")
    if not model._is_graph_network:
        dot.add_node(pydot.Node(str(id(model)), label=model.name))
        return dot
    layers = list(model._layers)
    first_node, last_node = {}, {}
    for layer in layers:
        layer_id = str(id(layer))
        class_name = type(layer).__name__
        if expand_nested and isinstance(layer, Network) and layer._is_graph_network:
            nested = model_to_dot(layer, show_shapes, show_layer_names, rankdir, expand_nested, subgraph=True)
            nodes = nested.get_nodes()
            first_node[layer.name], last_node[layer.name] = nodes[0], nodes[-1]
            dot.add_subgraph(nested)
            continue
        label = "{}: {}".format(layer.name, class_name) if show_layer_names else class_name
        if show_shapes:
            try:
                outputs = _format_shape(layer.output_shape)
            except (AttributeError, RuntimeError):
                outputs = "?"
            try:
                # An InputLayer's node has no inputs in tensorweave; TF shows its placeholder's shape.
                inputs = outputs if class_name == "InputLayer" else _format_shape(layer.input_shape)
            except (AttributeError, RuntimeError):
                inputs = "?"
            label = "%s\n|{input:|output:}|{{%s}|{%s}}" % (label, inputs, outputs)
        dot.add_node(pydot.Node(layer_id, label=label))

    network_nodes = {id(n) for n in model._network_nodes}
    for layer in layers:
        layer_id = str(id(layer))
        for node in layer._inbound_nodes:
            if id(node) not in network_nodes:
                continue
            for inbound in node.inbound_layers:
                src = str(id(inbound))
                if inbound.name in last_node:
                    src = last_node[inbound.name].get_name()
                dst = first_node[layer.name].get_name() if layer.name in first_node else layer_id
                _add_edge(dot, pydot, src, dst)
    return dot


def plot_model(model, to_file="model.png", show_shapes=False, show_layer_names=True, rankdir="TB",
               expand_nested=False, dpi=96):
    """Draws a Keras model's layer graph into an image file (with Graphviz's `dot`).

    Args:
      model: A Keras model.
      to_file: The image file; its extension names the format ('png' if it has none).
      show_shapes: Whether to display shape information.
      show_layer_names: Whether to display layer names.
      rankdir: 'TB' (vertical) or 'LR' (horizontal).
      expand_nested: Whether to draw nested models as clusters.
      dpi: Dots per inch.

    Returns:
      An `IPython.display.Image` of the file when IPython is installed, else None.

    Raises:
      ImportError: If pydot or Graphviz's `dot` program is missing.
    """
    dot = model_to_dot(model, show_shapes=show_shapes, show_layer_names=show_layer_names, rankdir=rankdir,
                       expand_nested=expand_nested, dpi=dpi)
    _, extension = os.path.splitext(to_file)
    extension = extension[1:] if extension else "png"
    try:
        image = dot.create(format=extension)
    except (OSError, FileNotFoundError) as e:
        raise ImportError(_MESSAGE + " (Graphviz's `dot` program could not be run: %s)" % (e,)) from None
    directory = os.path.dirname(os.path.abspath(to_file))
    tmp = os.path.join(directory, ".%s.%d.tmp" % (os.path.basename(to_file), os.getpid()))
    with open(tmp, "wb") as f:
        f.write(image)
    os.replace(tmp, to_file)
    try:
        from IPython import display
    except ImportError:
        return None
    return display.Image(filename=to_file)
