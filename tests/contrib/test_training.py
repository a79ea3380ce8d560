import json

import numpy as np
import pytest

import tensorweave as tf

HParams = tf.contrib.training.HParams


def test_attributes_parse_and_values():
    hp = HParams(learning_rate=0.1, layers=[64, 32], name="cnn", use_bn=False, steps=100)
    assert hp.learning_rate == 0.1 and hp.layers == [64, 32] and hp.name == "cnn"
    assert hp.parse("learning_rate=0.3, layers=[8,8,4],name=rnn,use_bn=true,steps=7") is hp
    assert hp.values() == {"learning_rate": 0.3, "layers": [8, 8, 4], "name": "rnn", "use_bn": True, "steps": 7}
    assert json.loads(hp.to_json()) == hp.values()
    assert "steps" in hp and "nope" not in hp and hp.get("nope", 5) == 5


def test_parse_errors():
    hp = HParams(steps=1, layers=[1])
    with pytest.raises(ValueError, match="Unknown hyperparameter type for rate"):
        hp.parse("rate=2")
    with pytest.raises(ValueError, match="Could not parse hparam 'steps' of type 'int' with value 'x'"):
        hp.parse("steps=x")
    with pytest.raises(ValueError, match="Must pass a list for multi-valued parameter: layers"):
        hp.parse("layers=3")
    with pytest.raises(ValueError, match="Must not pass a list for single-valued parameter: steps"):
        hp.parse("steps=[1,2]")


def test_set_add_delete_and_json():
    hp = HParams(rate=0.5)
    hp.set_hparam("rate", 1)
    assert hp.rate == 1.0 and isinstance(hp.rate, float)
    with pytest.raises(ValueError, match="Could not cast hparam 'rate'"):
        hp.set_hparam("rate", "fast")
    hp.add_hparam("depth", 3)
    with pytest.raises(ValueError, match="Hyperparameter name is reserved: depth"):
        hp.add_hparam("depth", 4)
    hp.parse_json('{"depth": 5}')
    assert hp.depth == 5
    hp.del_hparam("depth")
    assert "depth" not in hp and hp.values() == {"rate": 1.0}
    assert repr(hp) == "HParams(rate=1.0)"


# ---- bucket_by_sequence_length (TF 1.15's bucket_ops: bucket i holds b[i-1] <= length < b[i]) ----
def _input_queue():
    """A queue fed by hand (as TF's bucket_ops_test), so the input never ends before the reads."""
    queue = tf.PaddingFIFOQueue(64, [tf.int32, tf.int32], shapes=[[], [None]])
    ident = tf.placeholder(tf.int32, [])
    seq = tf.placeholder(tf.int32, [None])
    return queue, queue.enqueue([ident, seq]), ident, seq


def _stop(sess, coord, threads, queue):
    coord.request_stop()
    sess.run(queue.close(cancel_pending_enqueues=True))
    coord.join(threads, stop_grace_period_secs=5)
    assert not any(t.is_alive() for t in threads)


def test_bucket_by_sequence_length_every_element_once_in_its_bucket():
    queue, enqueue, ident, seq = _input_queue()
    elem_id, elem_seq = queue.dequeue()
    lengths, (ids, seqs) = tf.contrib.training.bucket_by_sequence_length(
        tf.size(elem_seq), [elem_id, elem_seq], batch_size=2, bucket_boundaries=[3, 5], dynamic_pad=True,
        capacity=8)
    assert lengths.shape.as_list() == [2] and ids.shape.as_list() == [2] and seqs.shape.as_list() == [2, None]
    # Buckets: length < 3, 3 <= length < 5, length >= 5; four elements (two batches) in each.
    element_lengths = [1, 2, 3, 4, 5, 6, 1, 3, 7, 2, 4, 8]
    with tf.Session() as sess:
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord)
        for i, n in enumerate(element_lengths):
            sess.run(enqueue, {ident: i, seq: np.full([n], i + 1)})
        seen = []
        for _ in range(6):
            length_v, ids_v, seqs_v = sess.run([lengths, ids, seqs])
            buckets = {int(np.searchsorted([3, 5], n, side="right")) for n in length_v}
            assert len(buckets) == 1, length_v
            assert seqs_v.shape == (2, max(length_v))  # padded to the longest of the batch
            for i, n, row in zip(ids_v, length_v, seqs_v):
                assert n == element_lengths[i]
                assert row.tolist() == [i + 1] * n + [0] * (seqs_v.shape[1] - n)
            seen.extend(ids_v.tolist())
        assert sorted(seen) == list(range(len(element_lengths)))
        _stop(sess, coord, threads, queue)


def test_bucket_by_sequence_length_dict_batch_sizes_and_keep_input():
    queue, enqueue, ident, seq = _input_queue()
    elem_id, elem_seq = queue.dequeue()
    lengths, out = tf.contrib.training.bucket_by_sequence_length(
        tf.size(elem_seq), {"id": elem_id, "seq": elem_seq}, batch_size=[1, 3], bucket_boundaries=[4],
        dynamic_pad=True, keep_input=tf.equal(elem_id % 2, 0))
    assert sorted(out) == ["id", "seq"] and lengths.shape.as_list() == [None]  # batch sizes differ per bucket
    element_lengths = [2, 9, 5, 9, 6, 9, 7, 9, 1, 9]  # the odd ids are not kept
    with tf.Session() as sess:
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord)
        for i, n in enumerate(element_lengths):
            sess.run(enqueue, {ident: i, seq: np.full([n], i + 1)})
        batches = sorted(sess.run(out["id"]).tolist() for _ in range(3))
        _stop(sess, coord, threads, queue)
    assert batches == [[0], [2, 4, 6], [8]]


def test_bucket_by_sequence_length_errors():
    length, x = tf.constant(3), tf.constant([1, 2, 3])
    bucket = tf.contrib.training.bucket_by_sequence_length
    with pytest.raises(TypeError, match="bucket_boundaries must be a list or tuple, but received: 3"):
        bucket(length, [x], 2, 3)
    with pytest.raises(ValueError, match="bucket_boundaries must not be empty"):
        bucket(length, [x], 2, [])
    with pytest.raises(ValueError, match="Buckets must contain sequential increasing lengths, but saw: 5 before 5"):
        bucket(length, [x], 2, [1, 5, 5])
    with pytest.raises(TypeError, match="bucket boundaries must be integers, but saw: 1.5 and 5"):
        bucket(length, [x], 2, [1.5, 5])
    with pytest.raises(ValueError, match="If batch_size is a list it must have num_buckets elements"):
        bucket(length, [x], [2, 2], [2, 5])
    with pytest.raises(ValueError, match=r"must have exactly num_buckets \(3\) elements"):
        bucket(length, [x], 2, [2, 5], bucket_capacities=[4, 4])


# ---- create_train_op (TF 1.15's contrib.training.create_train_op) ----

def test_create_train_op_steps_and_transform_grads_fn():
    x = tf.constant([[1.0], [2.0]])
    w = tf.get_variable("w", [1, 1], initializer=tf.zeros_initializer())
    frozen = tf.get_variable("frozen", [], trainable=False)
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 2.0 * x))
    seen = []

    def halve(grads_and_vars):
        seen.append([v for _, v in grads_and_vars])
        return [(g * 0.5, v) for g, v in grads_and_vars]

    train_op = tf.contrib.training.create_train_op(loss, tf.train.GradientDescentOptimizer(0.1),
                                                   transform_grads_fn=halve)
    assert seen == [[w]] and train_op in tf.get_collection(tf.GraphKeys.TRAIN_OP)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        first = sess.run(train_op)  # the loss before the step: mean((2x)^2) = 10
        # gradient of the loss: mean(2 * (w x - 2x) * x) = -10 at w = 0, halved: -5; w = 0.5.
        assert first == pytest.approx(10.0)
        assert sess.run(w)[0, 0] == pytest.approx(0.5)
        assert sess.run(tf.train.get_global_step()) == 1
    with pytest.raises(ValueError, match="is not trainable"):
        tf.contrib.training.create_train_op(loss, tf.train.GradientDescentOptimizer(0.1),
                                            variables_to_train=[frozen])


# ---- stratified_sample (TF 1.15's sampling_ops: rejection sampling towards target_probs) ----

def _run_stratified(init_probs, target_probs, batches):
    tf.set_random_seed(7)
    data = tf.constant(np.arange(200, dtype=np.int32))
    labels = tf.constant((np.arange(200) % 4).astype(np.int32))
    x, label = tf.train.slice_input_producer([data, labels], shuffle=True, seed=3)
    (data_batch,), label_batch = tf.contrib.training.stratified_sample(
        [x], label, target_probs=target_probs, batch_size=10, init_probs=init_probs)
    assert data_batch.shape.as_list() == [10] and label_batch.shape.as_list() == [10]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord)
        out = [sess.run([data_batch, label_batch]) for _ in range(batches)]
        coord.request_stop()
        coord.join(threads, stop_grace_period_secs=5)
    return np.concatenate([o[0] for o in out]), np.concatenate([o[1] for o in out])


def test_stratified_sample_keeps_only_target_classes():
    # With init_probs given, class c is kept with probability (target/init)[c] / max(target/init):
    # here [0, 0.8, 0.8, 1]; class 0 (target 0) never comes out, and examples keep their labels.
    data, labels = _run_stratified([0.1, 0.2, 0.3, 0.4], [0.0, 0.2, 0.3, 0.5], batches=12)
    assert (data % 4 == labels).all() and 0 not in labels and set(labels) <= {1, 2, 3}
    counts = np.bincount(labels, minlength=4)
    assert counts[1] > 10 and counts[2] > 10 and counts[3] > 10  # 120 draws, about 37/37/46 expected
    # Estimated init_probs (the class_count variable): still only the target classes.
    data, labels = _run_stratified(None, [0.0, 0.5, 0.5, 0.0], batches=4)
    assert (data % 4 == labels).all() and set(labels) <= {1, 2}


def test_stratified_sample_errors():
    x, label = tf.constant(1.0), tf.constant(1)
    with pytest.raises(ValueError, match="Probability parameters must have the same length"):
        tf.contrib.training.stratified_sample([x], label, [0.5, 0.5], 2, init_probs=[0.2, 0.3, 0.5])
    with pytest.raises(ValueError):
        tf.contrib.training.stratified_sample([x], tf.constant([[1]]), [0.5, 0.5], 2, init_probs=[0.5, 0.5],
                                              enqueue_many=True)
