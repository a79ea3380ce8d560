"""tf.graph_util.must_run_on_cpu and the import_graph_def alias."""
def test_must_run_on_cpu_follows_tfs_rule_on_ops_and_node_defs():
    import tensorweave as tf
    g = tf.Graph()
    with g.as_default():
        ints = tf.constant(1)
        strs = tf.constant("a")
        floats = tf.constant(1.0)
        cast = tf.cast(ints, tf.float32)
        cast_f = tf.cast(floats, tf.int32)
        stitch = tf.dynamic_stitch([tf.constant([0, 1])], [tf.constant([5, 6])])
        v = tf.Variable(1.0, name="v")
    cpu = tf.graph_util.must_run_on_cpu
    assert [cpu(t.op) for t in (ints, strs, floats, cast, cast_f, stitch)] == [True, True, False, True, False, True]
    assert not cpu(v.op) and cpu(v.op, pin_variables_on_cpu=True)
    by_name = {n.name: n for n in g.as_graph_def().node}
    assert cpu(by_name[ints.op.name]) and not cpu(by_name[floats.op.name]) and cpu(by_name[cast.op.name])
    assert cpu(by_name["v"], pin_variables_on_cpu=True)
    assert tf.graph_util.import_graph_def is tf.import_graph_def
