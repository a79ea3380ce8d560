"""Records TensorFlow's values for tests/ops/test_array_space_ops.py and tests/ops/test_nn_misc_ops.py
into tests/data/array_misc_tf.npz.

Run with a Python that has TensorFlow (not needed by the tests):
    /work/tfenv/bin/python tests/data/make_array_misc_tf.py
TF 2.21's `tf.compat.v1` in graph mode; `lin_space` values come from the LinSpace op itself
(`tf.raw_ops.LinSpace`, TF1's `tf.lin_space`), since TF 2's `compat.v1.lin_space` is `linspace_nd`.
"""

import os

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "array_misc_tf.npz")


def main():
    rng = np.random.RandomState(1234)
    rec = {}
    f = {}  # name -> tensor

    def put(name, value):
        try:
            rec[name] = np.asarray(value)
        except ValueError:
            raise ValueError(name) from None

    g = tf.Graph()
    with g.as_default():
        # ---- space/batch/depth ----
        x = rng.randn(2, 4, 6, 3).astype(np.float32)
        put("s2b_x", x)
        xt = tf.constant(x)
        y = tf.space_to_batch_nd(xt, [2, 3], [[1, 1], [0, 0]])
        f["s2b_y"] = y
        up = rng.randn(*y.shape.as_list()).astype(np.float32)
        put("s2b_up", up)
        f["s2b_dx"] = tf.gradients(y, xt, grad_ys=up)[0]
        x3 = rng.randn(3, 5, 2).astype(np.float64)
        put("s2b3_x", x3)
        f["s2b3_y"] = tf.space_to_batch_nd(x3, [2], [[1, 0]])
        b = rng.randn(12, 2, 3, 2).astype(np.float32)
        put("b2s_x", b)
        bt = tf.constant(b)
        z = tf.batch_to_space_nd(bt, [2, 3], [[1, 0], [2, 1]])
        f["b2s_y"] = z
        upz = rng.randn(*z.shape.as_list()).astype(np.float32)
        put("b2s_up", upz)
        f["b2s_dx"] = tf.gradients(z, bt, grad_ys=upz)[0]
        f["s2b_v1"] = tf.space_to_batch(xt, [[0, 0], [1, 1]], block_size=2)
        c = rng.randn(4, 2, 3, 2).astype(np.float32)
        put("b2s_v1_x", c)
        f["b2s_v1"] = tf.batch_to_space(c, [[0, 1], [1, 1]], block_size=2)
        d = rng.randn(2, 2, 3, 8).astype(np.float32)
        put("d2s_x", d)
        f["d2s_y"] = tf.depth_to_space(d, 2)
        s = rng.randn(1, 4, 6, 3).astype(np.float32)
        put("s2d_x", s)
        f["s2d_y"] = tf.space_to_depth(s, 2)
        pads, crops = tf.required_space_to_batch_paddings([5, 7], [2, 3], base_paddings=[[1, 0], [0, 2]])
        f["rsbp_pads"], f["rsbp_crops"] = pads, crops
        ph = tf.placeholder_with_default(np.array([5, 7], np.int32), [2])
        p2, c2 = tf.required_space_to_batch_paddings(ph, [2, 3])
        f["rsbp_pads_dyn"], f["rsbp_crops_dyn"] = p2, c2

        wx = rng.randn(2, 7, 8, 2).astype(np.float32)
        wf = rng.randn(3, 2, 2, 4).astype(np.float32)
        put("wstb_x", wx)
        put("wstb_f", wf)

        def conv(inp, num_spatial_dims, padding):
            return tf.nn.conv2d(inp, wf, [1, 1, 1, 1], padding)
        f["wstb_same"] = tf.nn.with_space_to_batch(wx, [2, 3], "SAME", conv, filter_shape=wf.shape)
        f["wstb_valid"] = tf.nn.with_space_to_batch(wx, [2, 2], "VALID", conv)
        wxd = tf.placeholder_with_default(wx, [None] * 4)
        f["wstb_dyn"] = tf.nn.with_space_to_batch(wxd, [3, 2], "SAME", conv, filter_shape=wf.shape)
        f["wstb_rate1"] = tf.nn.with_space_to_batch(wx, [1, 1], "SAME", conv, filter_shape=wf.shape)
        wn = rng.randn(2, 3, 7, 5).astype(np.float32)
        put("wstb_nchw_x", wn)
        f["wstb_nchw"] = tf.nn.with_space_to_batch(wn, [2, 2], "VALID", lambda i, n, p: i[:, :, 1:, :-1] * 2.0,
                                                   data_format="NCHW")
        f["wstb_dims"] = tf.nn.with_space_to_batch(wn, [3, 2], "VALID", lambda i, n, p: i[:, 1:, :, :-1] + 1.0,
                                                   spatial_dims=[1, 3])

        # ---- bitcast / lin_space / unravel / repeat ----
        f["bc_f32_u8"] = tf.bitcast(tf.constant([1.0, -2.5, 3e-39], tf.float32), tf.uint8)
        f["bc_i64_i32"] = tf.bitcast(tf.constant([[1, -2], [2**40 + 3, -2**50]], tf.int64), tf.int32)
        f["bc_u8_f32"] = tf.bitcast(tf.constant([[0, 0, 128, 63], [0, 0, 192, 255]], tf.uint8), tf.float32)
        f["bc_c128_f64"] = tf.bitcast(tf.constant([1 + 2j, -3.5j], tf.complex128), tf.float64)
        f["bc_f16_i16"] = tf.bitcast(tf.constant([1.0, -0.0, np.inf], tf.float16), tf.int16)
        for i, (a, bb, n, dt) in enumerate([(0.1, 0.7, 7, tf.float32), (-1.3, 2.9, 11, tf.float32),
                                            (0.1, 1.7, 7, tf.float64), (3.0, -1.0, 5, tf.float64),
                                            (0.5, 0.2, 1, tf.float32)]):
            f["ls_%d" % i] = tf.raw_ops.LinSpace(start=tf.constant(a, dt), stop=tf.constant(bb, dt), num=n)
        f["ur_a"] = tf.unravel_index([0, 5, 7, 8, -1, -4], [3, 3])
        f["ur_b"] = tf.unravel_index(tf.constant([23, 0, 13], tf.int64), tf.constant([2, 3, 4], tf.int64))
        f["ur_c"] = tf.unravel_index(17, [4, 5])
        f["rep_a"] = tf.repeat([[1, 2], [3, 4]], [1, 2], axis=0)
        f["rep_b"] = tf.repeat([[1, 2], [3, 4]], 2)
        f["rep_c"] = tf.repeat([[1., 2., 3.], [4., 5., 6.]], [2, 0, 1], axis=1)
        f["rep_d"] = tf.repeat([[1., 2., 3.], [4., 5., 6.]], 3, axis=-1)
        rx = tf.constant([[1., 2., 3.], [4., 5., 6.]])
        rr = tf.repeat(rx, [2, 0, 1], axis=1)
        f["rep_grad"] = tf.gradients(rr * tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3)), rx)[0]

        # ---- LRN ----
        lx = rng.randn(2, 3, 3, 10).astype(np.float32)
        put("lrn_x", lx)
        lxt = tf.constant(lx)
        l1 = tf.nn.lrn(lxt, 2, 1.5, 0.3, 0.75)
        l2 = tf.nn.local_response_normalization(lxt)
        f["lrn_a"], f["lrn_b"] = l1, l2
        lup = rng.randn(2, 3, 3, 10).astype(np.float32)
        put("lrn_up", lup)
        f["lrn_a_dx"] = tf.gradients(l1, lxt, grad_ys=lup)[0]
        f["lrn_b_dx"] = tf.gradients(l2, lxt, grad_ys=lup)[0]

        # ---- simple math / nn names ----
        v = np.array([-100., -3., -1., -0., 0., 0.5, 2., 50.], np.float32)
        put("v", v)
        f["log_sigmoid"] = tf.log_sigmoid(v)
        cm = rng.randn(3, 4).astype(np.float32)
        put("cm", cm)
        f["cabn_small"] = tf.clip_by_average_norm(cm, 0.05)
        f["cabn_large"] = tf.clip_by_average_norm(cm, 10.0)
        vt = tf.constant(v)
        f["crelu"] = tf.nn.crelu(tf.constant(cm))
        f["crelu0"] = tf.nn.crelu(tf.constant(cm), axis=0)
        f["swish"] = tf.nn.swish(vt)
        f["swish_grad"] = tf.gradients(tf.nn.swish(vt), vt)[0]
        tg = np.array([0., 0.5, 1., 2., 7.5, 3.], np.float32)
        li = np.array([0.1, -1., 2., 0.3, 1.5, -0.2], np.float32)
        put("lp_t", tg)
        put("lp_l", li)
        f["lpl"] = tf.nn.log_poisson_loss(tg, li)
        f["lpl_full"] = tf.nn.log_poisson_loss(tg, li, compute_full_loss=True)
        mx = rng.randn(3, 4, 5).astype(np.float32)
        put("mx", mx)
        cnt, mss, vss, _ = tf.nn.sufficient_statistics(mx, [0, 2])
        f["ss_count"], f["ss_m"], f["ss_v"] = cnt, mss, vss
        cnt2, mss2, vss2, sh2 = tf.nn.sufficient_statistics(mx, [1], shift=0.5, keep_dims=True)
        f["ss2_count"], f["ss2_m"], f["ss2_v"] = cnt2, mss2, vss2
        f["nm_mean"], f["nm_var"] = tf.nn.normalize_moments(cnt2, mss2, vss2, sh2)
        f["nm0_mean"], f["nm0_var"] = tf.nn.normalize_moments(cnt, mss, vss, None)
        fw = rng.uniform(0.5, 2.0, (3, 1, 5)).astype(np.float32)
        put("fw", fw)
        f["wm_mean"], f["wm_var"] = tf.nn.weighted_moments(mx, [0, 2], fw)
        f["wm_mean_k"], f["wm_var_k"] = tf.nn.weighted_moments(mx, [1], fw, keep_dims=True)
        pel = np.array([1.0, 2.5, -0.5, 4.0], np.float32)
        put("pel", pel)
        f["cal"] = tf.nn.compute_average_loss(pel)
        f["cal_w"] = tf.nn.compute_average_loss(pel, sample_weight=[1., 0., 2., 0.5], global_batch_size=8)
        f["srl"] = tf.nn.scale_regularization_loss([tf.constant(1.5), tf.constant(2.25)])
        zf = np.array([[0., 1., 0.], [2., 0., -0.]], np.float32)
        put("zf", zf)
        f["zero_fraction"] = tf.nn.zero_fraction(zf)
        f["zero_fraction_int"] = tf.math.zero_fraction(tf.constant([0, 3, 0, 0], tf.int32))
        bx = rng.randn(2, 2, 2, 3).astype(np.float32)
        put("bx", bx)
        bm, bv = np.array([0.1, -0.2, 0.3], np.float32), np.array([1.5, 0.5, 2.0], np.float32)
        bb, bg = np.array([0.0, 1.0, -1.0], np.float32), np.array([2.0, 0.5, 1.0], np.float32)
        f["bngn_scale"] = tf.nn.batch_norm_with_global_normalization(bx, bm, bv, bb, bg, 0.001, True)
        f["bngn_noscale"] = tf.nn.batch_norm_with_global_normalization(bx, bm, bv, bb, bg, 0.001, False)
        params = rng.randn(6, 3).astype(np.float32)
        put("emb_params", params)
        ids = tf.SparseTensor([[0, 0], [0, 1], [0, 2], [2, 0], [3, 1]], tf.constant([1, 3, 1, 5, 0], tf.int64), [4, 3])
        wts = tf.SparseTensor([[0, 0], [0, 1], [0, 2], [2, 0], [3, 1]], tf.constant([1., 2., 0.5, 3., 1.5]), [4, 3])
        for comb in ("sum", "mean", "sqrtn"):
            f["els_w_" + comb] = tf.nn.embedding_lookup_sparse(params, ids, wts, combiner=comb)
            f["els_" + comb] = tf.nn.embedding_lookup_sparse(params, ids, None, combiner=comb)
        pt = tf.constant(params)
        els = tf.nn.embedding_lookup_sparse(pt, ids, wts, combiner="sqrtn")
        f["els_grad"] = tf.convert_to_tensor(tf.gradients(els ** 2, pt)[0])
        sids = tf.SparseTensor([[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 0, 1]],
                               tf.constant([2, -1, 4, 0, 3], tf.int64), [2, 3, 2])
        sw = tf.SparseTensor([[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 0, 1]],
                             tf.constant([1.0, 2.0, -1.0, 0.5, 2.0]), [2, 3, 2])
        for comb in ("sum", "mean", "sqrtn"):
            f["sels_" + comb] = tf.nn.safe_embedding_lookup_sparse(params, sids, sw, combiner=comb)
        f["sels_default"] = tf.nn.safe_embedding_lookup_sparse(params, sids, None, default_id=5)
        f["sels_noweights"] = tf.nn.safe_embedding_lookup_sparse(params, sids, None)
        labels = np.array([[1, 1, 2, 2, 3, 3], [4, 4, 4, 5, 5, 5], [7, 8, 8, 9, 9, 9]], np.int32)
        put("cr_labels", labels)
        f["cr_labels_out"], f["cr_len_out"] = tf.nn.collapse_repeated(labels, [6, 4, 2])

        # ---- gradients / control flow ----
        hx = tf.constant([0.5, -1.0, 2.0])
        hy = tf.reduce_sum(tf.sin(hx) * hx[0]) + hx[1] ** 3 * hx[2]
        f["hess"] = tf.hessians(hy, hx)[0]
        hm = tf.constant([[1.0, 2.0], [3.0, -1.0]])
        f["hess_m"] = tf.hessians(tf.reduce_prod(hm) + tf.reduce_sum(hm ** 3), hm)[0]
        rx2 = tf.constant([0.3, -1.2, 2.0])
        rc = tf.recompute_grad(lambda t: tf.tanh(t) * t)
        f["recompute_val"] = rc(rx2)
        f["recompute_grad"] = tf.gradients(tf.reduce_sum(rc(rx2) ** 2), rx2)[0]
        gpt = tf.grad_pass_through(lambda t: tf.round(t * 2.0))
        f["gpt_val"] = gpt(rx2)
        f["gpt_grad"] = tf.gradients(gpt(rx2) * rx2, rx2)[0]
        vm_x = rng.randn(4, 3).astype(np.float32)
        put("vm_x", vm_x)
        f["vm_a"] = tf.vectorized_map(lambda e: tf.reduce_sum(e * e), vm_x)
        vma, vmb = tf.vectorized_map(lambda e: (e[0] * 2.0, tf.tensordot(e[1], e[0], 1)),
                                     (tf.constant(vm_x), tf.ones([4, 3])))
        f["vm_b0"], f["vm_b1"] = vma, vmb
        vmt = tf.constant(vm_x)
        f["vm_grad"] = tf.gradients(tf.vectorized_map(lambda e: tf.sin(e) * e[0], vmt), vmt)[0]
        for k in (0, 1, 2, 7, -1):
            sx = tf.constant([1.0, 2.0, 3.0])
            out = tf.switch_case(tf.constant(k), [lambda: sx * 2.0, lambda: tf.square(sx), lambda: -sx])
            f["sc_%d" % (k % 10)] = out
            f["sc_grad_%d" % (k % 10)] = tf.gradients(out, sx)[0]
            outd = tf.switch_case(tf.constant(k), {1: lambda: sx * 2.0, 0: lambda: tf.square(sx)},
                                  default=lambda: sx * 0.0 + 9.0)
            f["scd_%d" % (k % 10)] = outd

        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            names = sorted(f)
            vals = sess.run([f[n] for n in names])
            for n, val in zip(names, vals):
                put(n, val)
    g2 = tf.Graph()
    with g2.as_default():
        bsv = tf.Variable(np.zeros((2, 4, 3), np.float32))
        upd = np.arange(12, dtype=np.float32).reshape(2, 2, 3) + 1
        put("bsu_upd", upd)
        bsu = tf.batch_scatter_update(bsv, [[2, 0], [1, 3]], upd)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            put("bsu", sess.run(bsu))
    # A GraphDef written by TF holding the new op types (and LRN's gradient), its input and outputs.
    g3 = tf.Graph()
    with g3.as_default():
        x = tf.placeholder(tf.float32, [None, 4, 6, 8], name="x")
        tf.depth_to_space(x, 2, name="d2s")
        tf.space_to_depth(x, 2, name="s2d")
        lrn = tf.nn.lrn(x, 2, 1.5, 0.3, 0.75, name="lrn")
        s2b = tf.space_to_batch_nd(x, [2, 3], [[0, 0], [0, 0]], name="s2b")
        tf.batch_to_space_nd(s2b, [2, 3], [[0, 0], [0, 0]], name="b2s")
        tf.bitcast(x, tf.int32, name="bc")
        tf.ensure_shape(x, [2, None, 6, 8], name="es")
        tf.raw_ops.LinSpace(start=0.0, stop=1.0, num=5, name="ls")
        tf.unravel_index([5, 7], [3, 3], name="ur")
        tf.shape_n([x, lrn], name="sn")
        tf.identity(tf.guarantee_const(x), name="gc")
        tf.identity(tf.gradients(lrn, x)[0], name="lrn_grad")
        xv = rng.randn(2, 4, 6, 8).astype(np.float32)
        names = ["d2s", "s2d", "lrn", "s2b", "b2s", "bc", "es", "ls", "ur", "sn", "sn:1", "gc", "lrn_grad"]
        with tf.Session() as sess:
            vals = sess.run([g3.get_tensor_by_name(n if ":" in n else n + ":0") for n in names], {x: xv})
        put("graph_pb", np.frombuffer(g3.as_graph_def().SerializeToString(), np.uint8))
        put("graph_x", xv)
        for n, val in zip(names, vals):
            put("graph_" + n.replace(":", "_"), val)
    np.savez_compressed(OUT, **rec)
    print("wrote", OUT, len(rec), "arrays")


if __name__ == "__main__":
    main()
