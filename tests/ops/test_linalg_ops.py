"""`tf.linalg` and the TF1 matrix ops (issue 17, item 2): values and gradients recorded from real
TensorFlow 2.21 (tests/data/tf_linalg_values.py prints them), TF's errors, static shapes and the
namespaces. The op table (tests/ops/op_table/rows_linalg.py) checks every op type against SciPy."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.eager import context

A = np.array([[4., 1., 0.5], [1., 3., -0.2], [0.5, -0.2, 2.]])
B = np.array([[1., 2.], [0., -1.], [3., 0.5]])
W = np.array([[1., -2., 0.5], [0.3, 1., 2.], [-1., 0.7, 1.5]])
N = np.array([[1., 2.], [3., 4.]])

# Recorded from TensorFlow 2.21 (tensorflow.compat.v1, CPU).
TF = {
    "inv_adj": [[0.17798913043478262, -0.07404891304347827, 0.036005434782608696],
                [0.05434782608695652, 0.24456521739130435, -0.027173913043478253],
                [-0.07880434782608696, -0.1046195652173913, 0.28940217391304346]],
    "det": [20.890000000000008, 5.6049999999999995],
    "slogdet": [-1., 0.6931471805599455],
    "logdet": 3.039270575568475,
    "chol_solve": [[0.04116802297750122, 0.6304451890856869], [0.08616562948779319, -0.5409286740067017],
                   [1.498324557204404, 0.03829583532790808]],
    "trace": [9., 3.5],
    "g_inv": [[0.00028216933482986574, 0.1073414332023866, -0.013838435210893195],
              [0.0035554997637051045, 0.03264377067580339, -0.1400250324905482],
              [0.07184860142958412, -0.07269012508861059, -0.032340740932183365]],
    "g_det": [[0.09999999999999995, -2.4499999999999997, 1.21], [3.349999999999999, 1.9999999999999993,
                                                                   1.2999999999999998],
              [-4.499999999999999, -1.8499999999999994, 1.5999999999999999]],
    "g_slogdet": [[0.017841213202497763, -0.43710972346119537, 0.215878679750223],
                  [0.5976806422836752, 0.3568242640499553, 0.231935771632471],
                  [-0.8028545941123996, -0.3300624442462087, 0.2854594112399643]],
    "g_chol": [[0.309093259130441, -0.042936085419230455, -0.3868739022050673],
               [-0.042936085419230455, 0.33405588814083803, 0.27537690707216766],
               [-0.3868739022050673, 0.27537690707216766, 0.5442374034962032]],
    "g_solve": [[[-0.10077654256261818, 0.31030481118560965, -0.3678776933926039],
                 [0.03760411743856333, -0.07704505848298675, 0.06102131084593569],
                 [0.02207049710538749, 0.3470244380612003, -0.7361541344222587]],
                [[0.2275815217391305, 0.7102581521739131], [-0.4150815217391304, -0.5944293478260869],
                 [1.6936141304347823, 0.3355978260869565]]],
    "g_tri": [[[-0.11371428571428573, 0.20285714285714285, -0.22857142857142856],
               [0., -0.027857142857142855, -0.021428571428571432], [0., 0., -0.6787755102040816]],
              [[0.15142857142857147, 0.7085714285714286], [-0.3357142857142857, -0.4642857142857143],
               [1.6314285714285712, 0.24857142857142855]]],
    "g_band": [[2., -4., 0.], [0., 2., 4.], [0., 0., 3.]],
}

T = np.array([[1., 2., 0.5], [-1., 0.3, 2.], [0.2, -0.7, 1.1], [2., 0.1, -0.4]])

# Recorded from TensorFlow 2.21 by tests/data/tf_linalg_decomp_values.py.
TF_DECOMP = {
    "eig_e": [2.5793074747209865, 4.020372098025129 , 5.900320427253889 ],
    "eig_absv": [[0.47018647074997155, 0.2972668057214288 , 0.830997670839013  ],
         [0.643005143342073  , 0.529574029768866  , 0.55325919118439   ],
         [0.6045403777741625 , 0.7944707629677401 , 0.05785445903411594]],
    "qr_q": [[-0.40689422938557973, -0.8461829890892919 , -0.12326290213215942],
         [ 0.40689422938557973, -0.29288426715377425, -0.690739376220778  ],
         [-0.08137884587711594,  0.3755346986462166 , -0.6790442828661736 ],
         [-0.8137884587711595 ,  0.23909589110313706, -0.21583380875769193]],
    "qr_r": [[-2.4576411454889016, -0.7161338437186204,  0.8463399971220058],
         [ 0.                , -2.0191959582667542, -0.691410216782611 ],
         [ 0.                ,  0.                , -2.1037253911573504]],
    "qrw_q": [[-0.4364357804719847 ,  0.4972593042748103 ,  0.7498379783899595 ],
         [-0.8728715609439694 , -0.03187559642787252, -0.48690777817529834],
         [-0.21821789023599236, -0.8670162228381307 ,  0.44795515592127444]],
    "qrw_r": [[-2.29128784747792   , -0.2618614682831908 ,  0.28368325730679006, -0.872871560943969  ],
         [ 0.                 , -2.2408544288794334 , -0.831953066767471  ,  1.3381375380420855 ],
         [ 0.                 ,  0.                 ,  0.9835537119141026 ,  1.2718031165938788 ]],
    "qrf_q": [[-0.40689422938557973, -0.8461829890892919 , -0.12326290213215942, -0.3212751033407107 ],
         [ 0.40689422938557973, -0.29288426715377425, -0.690739376220778  ,  0.5210902093540448 ],
         [-0.08137884587711594,  0.3755346986462166 , -0.6790442828661736 , -0.6254998285077044 ],
         [-0.8137884587711595 ,  0.23909589110313706, -0.21583380875769193,  0.4837326391981482 ]],
    "qrf_r": [[-2.4576411454889016, -0.7161338437186204,  0.8463399971220058],
         [ 0.                , -2.0191959582667542, -0.691410216782611 ],
         [ 0.                ,  0.                , -2.1037253911573504],
         [ 0.                ,  0.                ,  0.                ]],
    "svd_s": [2.8518380416915177, 2.4105863330344275, 1.51858266648501  ],
    "svd_absu": [[0.35943287312414146, 0.8325175947511139 , 0.2729556229883542 ],
         [0.6428382096798448 , 0.5347366189944747 , 0.1711162709894295 ],
         [0.2274972594976601 , 0.09935149734890933, 0.7396784716567167 ],
         [0.6370337846726746 , 0.10535882834726167, 0.5908385636104799 ]],
    "svd_absv": [[0.782246105016055  , 0.21918689435853436, 0.5831364647564683 ],
         [0.2626256233736623 , 0.7327868683580688 , 0.6277349659765413 ],
         [0.564906021506946  , 0.6441898096861162 , 0.515655578813765  ]],
    "g_eig": [[ 0.20577067706728913,  0.                 ,  0.                 ],
         [ 0.948110913306095  , -0.5557858533141455 ,  0.                 ],
         [ 0.4617476353147233 , -3.587419932573499  , -0.14998482375314445]],
    "g_eigvals": [[ 0.3896187741786028  ,  0.                  ,  0.                  ],
         [ 0.484791582089989   ,  0.005606174668090991,  0.                  ],
         [ 1.4650956363839207  , -2.4923779896586047  , -0.8952249488466939  ]],
    "g_qr": [[ 0.25318645749344126, -1.029904842565052  , -2.2039703482017723 ],
         [ 0.5796132866334631 , -2.2475634816083057 , -2.1091698601667037 ],
         [-1.3195381862526452 ,  0.08017842546535003, -0.987230732811559  ],
         [-2.162473912293626  ,  1.8407939834207399 , -0.46828696907353545]],
    "g_qrw": [[-5.633523553512767  ,  0.17286114223355661,  1.4104511481796256 ],
         [ 0.21274918055258668, -1.3054657267867804 , -0.10820041108632843],
         [ 0.6731363644489818 , -1.5198130174495823 ,  2.0395721613669973 ],
         [-1.9959523828164412 , -0.21603003221852135,  0.5694836514695713 ]],
    "g_svd": [[ 2.244244876537763 ,  2.3238502579001468, -1.5961392918490835],
         [ 0.3435110634261229, -0.8899111586488189, -4.438442368700789 ],
         [ 0.5526631918247873, -1.1046074284424217, -1.6533005807369783],
         [ 3.6196207217225482,  1.0452003988843723,  0.9170240762300977]],
    "g_svdvals": [[-0.16337411568099164  , -1.0400477455012571   , -1.3460200410827619   ],
         [-0.6873801346483732   , -1.0062295636780552   , -0.2816820562608529   ],
         [-0.0058451929422438376, -0.43751457492886187  ,  0.19122179264721997  ],
         [ 0.6244004036792581   , -0.17255474976001248  , -0.34327178727647467  ]],
}


def _run(fetches, feeds=None):
    with tf.Session() as sess:
        return sess.run(fetches, feeds)


def test_values_and_gradients_match_tensorflow():
    a, b, w = tf.constant(A), tf.constant(B), tf.constant(W)
    out = {
        "inv_adj": tf.matrix_inverse(a + w, adjoint=True),
        "det": tf.matrix_determinant(tf.stack([a, w])),
        "slogdet": tf.stack(tf.linalg.slogdet(tf.constant(N))),
        "logdet": tf.linalg.logdet(a),
        "chol_solve": tf.cholesky_solve(tf.cholesky(a), b),
        "trace": tf.trace(tf.stack([a, w])),
        "g_inv": tf.gradients(tf.reduce_sum(tf.matrix_inverse(a + w) * w), a)[0],
        "g_det": tf.gradients(tf.matrix_determinant(w), w)[0],
        "g_slogdet": tf.gradients(tf.linalg.slogdet(w)[1], w)[0],
        "g_chol": tf.gradients(tf.reduce_sum(tf.cholesky(a) * w), a)[0],
        "g_solve": tf.gradients(tf.reduce_sum(tf.matrix_solve(a + w, b, adjoint=True) * b), [a, b]),
        "g_tri": tf.gradients(tf.reduce_sum(tf.matrix_triangular_solve(a + w, b, lower=False) * b), [a, b]),
        "g_band": tf.gradients(tf.reduce_sum(tf.matrix_band_part(w, 0, 1) * w), w)[0],
    }
    got = _run(out)
    for key, expected in TF.items():
        pairs = zip(got[key], expected) if key in ("g_solve", "g_tri") else [(got[key], expected)]
        for value, want in pairs:
            np.testing.assert_allclose(np.asarray(value, np.float64), np.asarray(want), rtol=1e-12, atol=1e-14,
                                       err_msg=key)


def test_eye():
    e = tf.eye(2, 3, batch_shape=[2])
    assert e.shape.as_list() == [2, 2, 3] and e.dtype == tf.float32
    np.testing.assert_array_equal(_run(e), np.broadcast_to(np.eye(2, 3, dtype=np.float32), (2, 2, 3)))
    np.testing.assert_array_equal(_run(tf.eye(3, dtype=tf.int32)), np.eye(3, dtype=np.int32))
    with pytest.raises(NotImplementedError, match="num_rows"):
        tf.eye(tf.constant(2))


@pytest.mark.parametrize("fn,value,message", [
    (tf.matrix_inverse, np.zeros((2, 2)), "Input is not invertible."),
    (tf.matrix_inverse, np.full((2, 2), np.nan), "Input is not invertible."),
    (tf.matrix_inverse, np.ones((2, 3)), "Input matrix must be square."),
    (tf.matrix_inverse, np.ones(3), "Input tensor 0 must have rank >= 2, got 1"),
    (tf.matrix_determinant, np.ones((2, 3)), "Input matrix must be square."),
    (lambda x: tf.linalg.slogdet(x)[0], np.ones(3), "Input tensor 0 must have rank >= 2, got 1"),
    (tf.cholesky, -np.eye(2), "Cholesky decomposition was not successful. The input might not be valid."),
    (tf.cholesky, np.ones((2, 3)), "Input matrix must be square."),
    (lambda x: tf.matrix_solve(x, x), np.zeros((2, 2)), "Input matrix is not invertible."),
    (lambda x: tf.matrix_solve(x, x), np.ones((2, 3)), "First input (lhs) must be a square matrix."),
    (lambda x: tf.matrix_triangular_solve(x, x), np.ones((2, 3)),
     "In[0] matrices in the last dimensions must be square (2 =/= 3)"),
    (lambda x: tf.matrix_triangular_solve(x, x), np.ones(3), "In[0] ndims must be >= 2: 1"),
    (lambda x: tf.matrix_band_part(x, 1, 0), np.ones(3), "input must be at least 2-dim, received shape: [3]"),
    (lambda x: tf.matrix_band_part(x, 1, 0), np.ones((0, 0)),
     "num_lower must be negative or less or equal to number of rows (0) got: 1"),
    (tf.matrix_diag_part, np.ones(3), "input must be at least 2-dim, received shape: [3]"),
    (tf.diag_part, np.ones((2, 3)), "Invalid shape [2,3]: dimensions 0 and 1 do not match."),
])
def test_runtime_errors_are_tensorflows(fn, value, message):
    p = tf.placeholder(tf.float64)
    y = fn(p)
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        _run(y, {p: value})
    assert message in info.value.message


def test_eager_errors():
    with context.eager_mode():
        with pytest.raises(tf.errors.InvalidArgumentError, match="Input is not invertible"):
            tf.linalg.inv(tf.zeros([2, 2]))
        np.testing.assert_allclose(tf.linalg.det(tf.constant(N)).numpy(), -2.0)


@pytest.mark.parametrize("fn,shape,message", [
    (tf.matrix_inverse, [3], "Shape must be at least rank 2 but is rank 1"),
    (tf.matrix_inverse, [2, 3], "Dimensions must be equal, but are 2 and 3"),
    (tf.cholesky, [2, 3], "Dimensions must be equal, but are 2 and 3"),
    (tf.matrix_diag_part, [3], "Shape must be at least rank 2 but is rank 1"),
    (tf.diag_part, [2, 3, 4], "Input must have even rank"),
    (lambda x: tf.matrix_solve(x, tf.zeros([3, 1])), [2, 2], "Dimensions must be equal, but are 2 and 3"),
    (lambda x: tf.matrix_solve(x, tf.zeros([2, 1])), [4, 2, 2], "Shapes must be equal rank"),
])
def test_static_shape_errors(fn, shape, message):
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match=message.replace("(", r"\(")):
            fn(tf.placeholder(tf.float32, shape))


def test_static_shapes():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 3, None])
        assert tf.matrix_inverse(x).shape.as_list() == [None, 3, 3]
        assert tf.matrix_determinant(x).shape.as_list() == [None]
        assert [t.shape.as_list() for t in tf.linalg.slogdet(x)] == [[None], [None]]
        assert tf.matrix_solve(x, tf.placeholder(tf.float32, [5, None, 2])).shape.as_list() == [5, 3, 2]
        assert tf.matrix_diag_part(tf.placeholder(tf.float32, [4, 2, 3])).shape.as_list() == [4, 2]
        assert tf.matrix_diag(tf.placeholder(tf.float32, [4, None])).shape.as_list() == [4, None, None]
        assert tf.diag(tf.placeholder(tf.float32, [2, 3])).shape.as_list() == [2, 3, 2, 3]
        assert tf.diag_part(tf.placeholder(tf.float32, [2, None, None, 3])).shape.as_list() == [2, 3]
        assert tf.trace(x).shape.as_list() == [None]
        assert tf.matrix_inverse(tf.placeholder(tf.float32)).shape.ndims is None


@pytest.mark.parametrize("fn,param", [
    (tf.matrix_inverse, "input"), (tf.matrix_determinant, "input"), (tf.cholesky, "input"),
    (lambda x: tf.matrix_solve(x, x), "matrix"), (lambda x: tf.matrix_triangular_solve(x, x), "matrix"),
])
def test_integer_matrices_are_rejected_as_tensorflow(fn, param):
    with tf.Graph().as_default():
        with pytest.raises(TypeError, match="Value passed to parameter '%s' has DataType int32 not in list" % param):
            fn(tf.placeholder(tf.int32, [2, 2]))


def test_namespaces():
    assert tf.linalg.inv is tf.matrix_inverse and tf.linalg.det is tf.matrix_determinant
    assert tf.linalg.band_part is tf.matrix_band_part and tf.linalg.diag is tf.matrix_diag
    assert tf.linalg.tensor_diag is tf.diag and tf.linalg.tensor_diag_part is tf.diag_part
    assert tf.linalg.solve is tf.matrix_solve and tf.linalg.triangular_solve is tf.matrix_triangular_solve
    assert tf.linalg.set_diag is tf.matrix_set_diag and tf.linalg.norm is tf.norm and tf.linalg.eye is tf.eye
    assert tf.linalg.trace is tf.trace and tf.linalg.matmul is tf.matmul


def test_decompositions_and_their_gradients_match_tensorflow():
    a, w, t = tf.constant(A), tf.constant(W), tf.constant(T)
    e, v = tf.self_adjoint_eig(a + w)
    q, r = tf.qr(t)
    qw, rw = tf.qr(tf.transpose(t))
    qf, rf = tf.qr(t, full_matrices=True)
    s, u, vv = tf.svd(t)
    out = {
        "eig_e": e, "eig_absv": tf.abs(v),
        "qr_q": q, "qr_r": r, "qrw_q": qw, "qrw_r": rw, "qrf_q": qf, "qrf_r": rf,
        "svd_s": s, "svd_absu": tf.abs(u), "svd_absv": tf.abs(vv),
        "g_eig": tf.gradients(tf.reduce_sum(e * [1., -2., 0.5]) + tf.reduce_sum(tf.abs(v) * w), a)[0],
        "g_eigvals": tf.gradients(tf.reduce_sum(tf.self_adjoint_eigvals(a + w) * [1., -2., 0.5]), a)[0],
        "g_qr": tf.gradients(tf.reduce_sum(q * t) + tf.reduce_sum(r * w), t)[0],
        "g_qrw": tf.gradients(tf.reduce_sum(qw * w) + tf.reduce_sum(rw * tf.transpose(t)), t)[0],
        "g_svd": tf.gradients(tf.reduce_sum(s * [1., -2., 0.5]) + tf.reduce_sum(tf.abs(u) * t)
                              + tf.reduce_sum(tf.abs(vv) * w), t)[0],
        "g_svdvals": tf.gradients(tf.reduce_sum(tf.svd(t, compute_uv=False) * [1., -2., 0.5]), t)[0],
    }
    got = _run(out)
    assert got.keys() == TF_DECOMP.keys()
    for key, expected in TF_DECOMP.items():
        np.testing.assert_allclose(got[key], np.asarray(expected), rtol=1e-10, atol=1e-12, err_msg=key)


def test_pinv_lstsq_and_cross_match_tensorflow():
    a = np.array([[1., 2.], [2., 4.], [0.5, 1.]])
    deep = a + np.array([[0, 1], [0, 0], [0, 0.]])
    wide = a.T + np.array([[0, 1, 0], [0, 0, 0.]])
    got = _run([tf.linalg.pinv(a), tf.linalg.lstsq(deep, [[1.], [2.], [3.]]),
                tf.matrix_solve_ls(deep, [[1.], [2.], [3.]], l2_regularizer=0.5),
                tf.linalg.lstsq(wide, [[1.], [2.]]), tf.cross([[1., 2., 3.]], [[-1., 0.5, 2.]])])
    expected = [  # TensorFlow 2.21
        [[0.03809524, 0.07619048, 0.01904762], [0.07619048, 0.15238095, 0.03809524]],
        [[1.88235294], [-0.29411765]], [[0.55900621], [0.28571429]], [[0.8], [0.0], [0.4]],
        [[2.5, -5.0, 2.5]],
    ]
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, e, rtol=1e-7, atol=1e-12)
    with pytest.raises(NotImplementedError, match="fast=False"):
        tf.linalg.lstsq(deep, [[1.], [2.], [3.]], fast=False)


def test_pinv_and_lstsq_gradients():
    rng = np.random.RandomState(0)
    from tests.ops import op_harness
    deep = rng.randn(4, 3)
    op_harness.check_gradient(lambda x: tf.linalg.pinv(x), deep, tol=1e-5)
    op_harness.check_gradient(lambda x, b: tf.linalg.lstsq(x, b, l2_regularizer=0.1), deep, rng.randn(4, 2),
                              tol=1e-5)


@pytest.mark.parametrize("a,b,error,message", [
    (np.ones((2, 3)), np.ones(3), tf.errors.InvalidArgumentError, "Both inputs must be of same shape: [2,3] vs. [3]"),
    (np.ones((2, 2)), np.ones((2, 2)), tf.errors.FailedPreconditionError,
     "Cross-products are only defined for 3-element vectors."),
])
def test_cross_runtime_errors(a, b, error, message):
    p, q = tf.placeholder(tf.float32), tf.placeholder(tf.float32)
    with pytest.raises(error) as info:
        _run(tf.cross(p, q), {p: a, q: b})
    assert message in info.value.message


def test_cross_static_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Dimension must be 3 but is 2"):
            tf.cross(tf.placeholder(tf.float32, [2, 2]), tf.placeholder(tf.float32, [2, 2]))
        with pytest.raises(ValueError, match="Shapes must be equal rank, but are 2 and 1"):
            tf.cross(tf.placeholder(tf.float32, [2, 3]), tf.placeholder(tf.float32, [3]))
        with pytest.raises(TypeError, match="parameter 'a' has DataType complex64"):
            tf.cross(tf.placeholder(tf.complex64, [3]), tf.placeholder(tf.complex64, [3]))


def test_matrix_transpose_adjoint_and_matvec():
    z = np.array([[[1 + 2j, 3 - 1j, 0.5j]], [[2, -1j, 4]]], np.complex64)  # [2, 1, 3]
    p = tf.placeholder(tf.complex64)  # unknown rank: a dynamic permutation
    got = _run([tf.matrix_transpose(z), tf.linalg.adjoint(z), tf.linalg.transpose(p, conjugate=True),
                tf.linalg.matvec(A, [1., 2., 3.]), tf.linalg.matvec(A, [1., 2., 3.], adjoint_a=True)], {p: z})
    np.testing.assert_array_equal(got[0], np.swapaxes(z, -1, -2))
    np.testing.assert_array_equal(got[1], np.conj(np.swapaxes(z, -1, -2)))
    np.testing.assert_array_equal(got[2], np.conj(np.swapaxes(z, -1, -2)))
    np.testing.assert_allclose(got[3], A @ [1., 2., 3.])
    np.testing.assert_allclose(got[4], A.T @ [1., 2., 3.])
    assert tf.matrix_transpose(tf.zeros([4, 2, 3])).shape.as_list() == [4, 3, 2]
    with pytest.raises(ValueError, match="rank >= 2"):
        tf.matrix_transpose(tf.zeros([3]))


EXPM_IN = np.stack([[[0., 1.], [-2., 0.3]], 3 * np.array([[1., 5.], [-2., 3.]])])
EXPM_TF = {  # TensorFlow 2.21 (tests/data/tf_linalg_decomp_values.py)
    np.float64: [[[6.8073973208448643e-02, 8.1503982783861162e-01], [-1.6300796556772235e+00, 3.1258592156003201e-01]],
                 [[-4.2299633669256713e+02, 2.7710077212855992e+02],
                  [-1.1084030885142397e+02, -3.1215602784114310e+02]]],
    np.float32: [[[6.80738613e-02, 8.15039814e-01], [-1.63007951e+00, 3.12585890e-01]],
                 [[-4.22996216e+02, 2.77100861e+02], [-1.10840324e+02, -3.12155914e+02]]],
}


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_expm_matches_tensorflow(dtype):
    got = _run(tf.linalg.expm(EXPM_IN.astype(dtype)))
    assert got.dtype == dtype
    np.testing.assert_allclose(got, EXPM_TF[dtype], rtol=1e-12 if dtype == np.float64 else 2e-6)


def test_expm_special_cases_and_gradient():
    got = _run([tf.linalg.expm(np.full((2, 2), np.nan)), tf.linalg.expm(np.zeros((3, 0, 0)))])
    assert np.isnan(got[0]).all() and got[1].shape == (3, 0, 0)
    z = np.array([[0.5 + 1j, 0.2], [-0.3j, 1.0]])
    import scipy.linalg
    np.testing.assert_allclose(_run(tf.linalg.expm(z)), scipy.linalg.expm(z), rtol=1e-12)
    from tests.ops import op_harness
    op_harness.check_gradient(lambda x: tf.linalg.expm(x), np.array([[0.3, 1.0], [-0.5, 0.2]]), tol=1e-5)
    op_harness.check_gradient(lambda x: tf.linalg.expm(x), np.array([[3.0, 5.0], [-2.0, 4.0]]), tol=1e-5)


def test_matrix_rank_matches_tensorflow():
    a = np.array([[1., 2.], [2., 4.], [0.5, 1.]])
    got = _run([tf.linalg.matrix_rank(a), tf.linalg.matrix_rank(np.eye(3)),
                tf.linalg.matrix_rank(np.stack([np.eye(2), np.zeros((2, 2))])),
                tf.linalg.matrix_rank(a.astype(np.float32), tol=10.)])
    assert [np.asarray(g).tolist() for g in got] == [1, 3, [2, 0], 0]  # TensorFlow 2.21
    assert got[0].dtype == np.int32
    p = tf.placeholder(tf.float64, [None, None])
    assert _run(tf.linalg.matrix_rank(p), {p: a}) == 1


def test_diagonals_at_offsets_match_tensorflow():
    x = np.arange(12.).reshape(3, 4)
    xx = tf.constant(x)
    parts = [tf.linalg.diag_part(x, k=1), tf.linalg.diag_part(x, k=-2), tf.linalg.diag([1., 2], k=1),
             tf.linalg.diag([1., 2], k=-1, num_rows=4, padding_value=9.), tf.linalg.set_diag(x, [7., 7, 7], k=1)]
    assert [t.op.type for t in parts] == ["MatrixDiagPartV3"] * 2 + ["MatrixDiagV3"] * 2 + ["MatrixSetDiagV3"]
    grad = tf.gradients(tf.reduce_sum(tf.linalg.diag_part(xx, k=1) * [1., 2, 3])
                        + tf.reduce_sum(tf.linalg.set_diag(xx, [7., 7, 7], k=1) * xx), xx)[0]
    got = _run(parts + [grad])
    expected = [  # TensorFlow 2.21
        [1., 6., 11.], [8.], [[0., 1., 0.], [0., 0., 2.], [0., 0., 0.]], [[9., 9.], [1., 9.], [9., 2.], [9., 9.]],
        [[0., 7., 2., 3.], [4., 5., 7., 7.], [8., 9., 10., 7.]],
        [[0., 8., 4., 6.], [8., 10., 9., 14.], [16., 18., 20., 10.]],
    ]
    for g, e in zip(got, expected):
        np.testing.assert_array_equal(g, e)
    assert tf.linalg.diag_part(x, k=1).shape.as_list() == [3]
    assert tf.linalg.diag([1., 2], k=1).shape.as_list() == [3, 3]
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of bound"):
        _run(tf.linalg.diag_part(x, k=5))
    with pytest.raises(NotImplementedError, match="band of diagonals"):
        tf.linalg.diag_part(x, k=(0, 1))


@pytest.mark.parametrize("fn,op_type", [
    (tf.matrix_determinant, "MatrixDeterminant"), (lambda x: tf.linalg.slogdet(x)[1], "LogMatrixDeterminant"),
    (tf.cholesky, "Cholesky"), (lambda x: tf.matrix_solve(x, x), "MatrixSolve"),
    (lambda x: tf.matrix_triangular_solve(x, x), "MatrixTriangularSolve"),
])
def test_float16_has_no_kernel_but_inverse_does(fn, op_type):
    a = (2 * np.eye(2)).astype(np.float16)
    with pytest.raises(tf.errors.InvalidArgumentError, match="No OpKernel was registered to support Op '%s'" % op_type):
        _run(fn(tf.constant(a)))
    np.testing.assert_array_equal(_run(tf.matrix_inverse(a)), 0.5 * np.eye(2, dtype=np.float16))


def test_decompositions_of_non_finite_matrices_as_tensorflow():
    a = np.full((2, 2), np.nan)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Self-adjoint eigen decomposition was not successful"):
        _run(tf.self_adjoint_eigvals(a))
    s, u, v = _run(tf.svd(np.stack([a, np.eye(2)])))
    assert np.isnan(s[0]).all() and np.isnan(u[0]).all() and np.isnan(v[0]).all()
    np.testing.assert_allclose(s[1], [1., 1.])
    assert np.isnan(_run(tf.svd(a, compute_uv=False))).all()


def test_normalize():
    x = np.array([[3., 4.], [0., 2.]])
    n, norm = _run(tf.linalg.normalize(x, axis=1))
    np.testing.assert_allclose(norm, [[5.], [2.]])
    np.testing.assert_allclose(n, [[0.6, 0.8], [0., 1.]])
    n, norm = _run(tf.linalg.normalize(x, ord=1))
    np.testing.assert_allclose(norm, [[9.]])


def test_named_results():
    res = tf.linalg.slogdet(N)
    assert type(res).__name__ == "LogMatrixDeterminant" and res.log_abs_determinant is res[1]
    res = tf.qr(T)
    assert type(res).__name__ == "Qr" and res.r is res[1]
