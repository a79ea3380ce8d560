"""`tf.signal` / `tf.spectral` and TF1's `tf.fft*` names against values recorded from TensorFlow 2.21
(CPU): the transforms, `fft_length` cropping and padding, static shapes, TF's errors and the gradients
of the FFTs. TF computes complex64/float32 transforms in single precision, so those compare to ~1e-6
relative."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.eager import context

X = (np.array([[0.5, -1.25, 2.0, 3.5], [1.0, 0.0, -2.0, 0.25]])
     + 1j * np.array([[0.0, 1.5, -0.5, 2.0], [1.0, 1.0, 0.0, -1.0]]))
R = np.array([[0.5, -1.25, 2.0, 3.5, 1.0], [1.0, 0.0, -2.0, 0.25, 4.0]], np.float32)

# Recorded from TF 2.21: tf.signal.<fn>(tf.constant(X, tf.complex64)) etc.
TF_C2C = {
    "fft": [[4.75 + 3.j, -2. + 5.25j, 0.25 - 4.j, -1. - 4.25j], [-0.75 + 1.j, 5. + 1.25j, -1.25 + 1.j, 1. + 0.75j]],
    "ifft": [[1.1875 + 0.75j, -0.25 - 1.0625j, 0.0625 - 1.j, -0.5 + 1.3125j],
             [-0.1875 + 0.25j, 0.25 + 0.1875j, -0.3125 + 0.25j, 1.25 + 0.3125j]],
    "fft2d": [[4. + 4.j, 3. + 6.5j, -1. - 3.j, 0. - 3.5j], [5.5 + 2.j, -7. + 4.j, 1.5 - 5.j, -2. - 5.j]],
    "ifft2d": [[0.5 + 0.5j, 0. - 0.4375j, -0.125 - 0.375j, 0.375 + 0.8125j],
               [0.6875 + 0.25j, -0.25 - 0.625j, 0.1875 - 0.625j, -0.875 + 0.5j]],
}
TF_RFFT = [[5.75 + 0.j, -4.026848 + 3.0215552j, 2.4018478 - 0.10406804j],
           [3.25 + 0.j, 3.6518478 + 5.126743j, -2.7768478 + 0.21126366j]]
TF_RFFT2D_2_4 = [[4. + 0.j, 1.5 + 5.j, -1. + 0.j], [5.5 + 0.j, -4.5 + 4.5j, 1.5 + 0.j]]
TF_IRFFT = [[0.9166667, -1.3303418, -0.035683595, 0.5833334, 1.119017, -0.75299156],
            [-0.45833334, 0.16965821, 0.25299156, -0.5416667, 0.8303418, 0.7470085]]
TF_IRFFT2D_2_5 = [[-0.1, -0.344004, -0.036744025, 0.74125254, 0.48949552],
                  [0.5, -0.810795, 0.24558368, 0.55335206, -0.73814076]]


def _run(t, feed=None):
    with tf.Session(graph=(t[0] if isinstance(t, (list, tuple)) else t).graph) as sess:
        return sess.run(t, feed)


@pytest.mark.parametrize("name", sorted(TF_C2C))
@pytest.mark.parametrize("dtype", [tf.complex64, tf.complex128])
def test_complex_transforms_match_tf(name, dtype):
    with tf.Graph().as_default():
        out = _run(getattr(tf.signal, name)(tf.constant(X, dtype)))
    assert out.dtype == dtype.as_numpy_dtype
    np.testing.assert_allclose(out, TF_C2C[name], rtol=1e-6, atol=1e-6)


def test_tf1_names_and_spectral_alias():
    for name in ("fft", "ifft", "fft2d", "ifft2d", "fft3d", "ifft3d"):
        assert getattr(tf, name) is getattr(tf.signal, name) is getattr(tf.spectral, name)
    for name in ("rfft", "irfft", "rfft2d", "irfft2d", "rfft3d", "irfft3d"):
        assert getattr(tf.spectral, name) is getattr(tf.signal, name)


def test_real_transforms_match_tf():
    with tf.Graph().as_default():
        rfft, rfft2d = tf.signal.rfft(R), tf.signal.rfft2d(R, [2, 4])
        irfft = tf.signal.irfft(tf.constant(X, tf.complex64))
        irfft2d = tf.signal.irfft2d(tf.constant(X, tf.complex64), [2, 5])
        assert (rfft.dtype, rfft.shape.as_list()) == (tf.complex64, [2, 3])
        assert (irfft.dtype, irfft.shape.as_list()) == (tf.float32, [2, 6])
        assert irfft2d.shape.as_list() == [2, 5] and rfft2d.shape.as_list() == [2, 3]
        out = _run([rfft, rfft2d, irfft, irfft2d])
    for got, want in zip(out, [TF_RFFT, TF_RFFT2D_2_4, TF_IRFFT, TF_IRFFT2D_2_5]):
        np.testing.assert_allclose(got, want, rtol=2e-6, atol=2e-6)


def test_real_transforms_float64_give_complex128():
    with tf.Graph().as_default():
        y = tf.signal.rfft(R.astype(np.float64))
        z = tf.signal.irfft(y, [5])
        assert y.dtype == tf.complex128 and z.dtype == tf.float64
        yv, zv = _run([y, z])
    np.testing.assert_allclose(yv, np.fft.rfft(R.astype(np.float64)), rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(zv, R, rtol=1e-13, atol=1e-13)


def test_static_shapes():
    # As TF 2.21 infers them.
    with tf.Graph().as_default():
        assert tf.signal.rfft(tf.placeholder(tf.float32, [3, None]), [8]).shape.as_list() == [None, 5]
        assert tf.signal.rfft(tf.placeholder(tf.float32, [3, 5]),
                              tf.placeholder(tf.int32, [1])).shape.as_list() == [None, None]
        assert tf.signal.irfft(tf.placeholder(tf.complex64, [3, 5])).shape.as_list() == [3, 8]
        t = tf.signal.irfft(tf.placeholder(tf.complex128, [3, 5]))
        assert t.dtype == tf.float64 and t.shape.as_list() == [3, 8]
        t = tf.signal.rfft2d(tf.placeholder(tf.float64, [3, 5, 6]))
        assert t.dtype == tf.complex128 and t.shape.as_list() == [3, 5, 4]
        assert tf.signal.fft(tf.placeholder(tf.complex64)).shape.ndims is None
        assert tf.signal.fft2d(tf.placeholder(tf.complex64, [None, 4, 2])).shape.as_list() == [None, 4, 2]


def test_static_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Shape must be at least rank 1 but is rank 0"):
            tf.signal.fft(tf.constant(1 + 0j, tf.complex64))
        with pytest.raises(TypeError, match="DataType float32 not in list of allowed values: complex64, complex128"):
            tf.signal.fft(tf.constant([1.0]))
        with pytest.raises(ValueError, match="Dimension must be 1 but is 2"):
            tf.signal.rfft(tf.zeros([4]), [4, 4])
        with pytest.raises(ValueError, match="Shape must be at least rank 2 but is rank 1"):
            tf.signal.rfft2d(tf.zeros([4]), [4, 4])


def test_runtime_errors():
    with tf.Graph().as_default():
        p = tf.placeholder(tf.float32)
        pc = tf.placeholder(tf.complex64)
        cases = [(tf.signal.rfft(p, [4]), {p: np.zeros((2, 3), np.float32)}, None),
                 (tf.signal.fft2d(pc), {pc: np.zeros((3,), np.complex64)},
                  "Input must have rank of at least 2 but got: [3]"),
                 (tf.signal.rfft(p, [-2]), {p: np.zeros((3,), np.float32)}, "fft_length[0] must >= 0, but got: -2")]
        for t, feed, msg in cases:
            if msg is None:  # the wrapper pads (as TF's): no error
                assert _run(t, feed).shape == (2, 3)
                continue
            with pytest.raises(tf.errors.InvalidArgumentError) as e:
                _run(t, feed)
            assert msg in str(e.value)
        # Below the wrapper: the kernel's own check (TF's message).
        from tensorweave.framework import ops as tf_ops
        y = tf_ops.apply_op("IRFFT", [pc, tf.constant([8])])
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="Input dimension 0 must have length of at least 5 but got: 3"):
            _run(y, {pc: np.zeros((3,), np.complex64)})
        y = tf_ops.apply_op("RFFT", [p, tf.constant([4])])
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="Input dimension 1 must have length of at least 4 but got: 3"):
            _run(y, {p: np.zeros((2, 3), np.float32)})


def test_empty_inputs():
    with tf.Graph().as_default():
        assert _run(tf.signal.fft(tf.zeros([2, 0], tf.complex64))).shape == (2, 0)
        assert _run(tf.signal.rfft(tf.zeros([2, 0]), [4])).shape == (2, 3)


# Gradients recorded from TF 2.21 (float64 / complex128).
XV = np.array([0.3, -1.2, 2.0, 0.7, 1.1])
YV = np.array([0.3, -1.2, 2.0, 0.7]) + 1j * np.array([0.5, 0.2, -0.3, 1.0])
TF_RFFT_GRAD_5 = [0.0, 0.5553741555789404, -1.8583644728497681, 0.47639846159966304, -4.173408144328835]
TF_IRFFT_GRAD = {6: [0.5, -0.6 + 1.0392304845413263j, -0.6 + 0.3464101615137754j, -0.3],
                 7: [0.5, -0.5 + 1.0382606982861682j, -0.5 + 0.398736694441202j, -0.5 + 0.11412173719507494j]}
TF_RFFT2D_GRAD = [[36.0, 6.0, 12.0, -18.0],
                  [-5.705771365940054, 7.098076211353315, -1.9019237886466858, -7.098076211353315],
                  [-21.29422863405994, 1.901923788646683, -7.098076211353311, -1.9019237886466849]]


@pytest.mark.parametrize("eager", [False, True])
def test_gradients_match_tf(eager):
    def grads():
        out = []
        x = tf.constant(XV)
        w = np.linspace(-1, 1, 3) + 1j * np.linspace(0.5, 2, 3)
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_sum(tf.signal.rfft(x, [5]) * tf.constant(w))
        out.append(tape.gradient(loss, x, output_gradients=tf.constant(1 + 0j, tf.complex128)))
        y = tf.constant(YV)
        for n in (6, 7):
            with tf.GradientTape() as tape:
                tape.watch(y)
                loss = tf.reduce_sum(tf.signal.irfft(y, [n]) * tf.constant(np.linspace(-1, 2, n)))
            out.append(tape.gradient(loss, y))
        x2 = tf.constant(np.arange(12.).reshape(3, 4) * 0.3 - 1)
        w2 = np.arange(9.).reshape(3, 3) + 1j * np.arange(9.).reshape(3, 3)[::-1]
        with tf.GradientTape() as tape:
            tape.watch(x2)
            loss = tf.reduce_sum(tf.signal.rfft2d(x2) * tf.constant(w2))
        out.append(tape.gradient(loss, x2, output_gradients=tf.constant(1 + 0j, tf.complex128)))
        return out

    if eager:
        with context.eager_mode():
            got = [g.numpy() for g in grads()]
    else:
        with tf.Graph().as_default():
            got = _run(grads())
    want = [TF_RFFT_GRAD_5, TF_IRFFT_GRAD[6], TF_IRFFT_GRAD[7], TF_RFFT2D_GRAD]
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12)


def test_fft_gradient_is_scaled_inverse():
    # TF: d fft = ifft(g) * n, d ifft = fft(g) / n.
    with tf.Graph().as_default():
        x = tf.constant(X)
        g = tf.constant(X[::-1].copy())
        (dfft,) = tf.gradients(tf.signal.fft2d(x), x, grad_ys=g)
        (difft,) = tf.gradients(tf.signal.ifft(x), x, grad_ys=g)
        a, b = _run([dfft, difft])
    np.testing.assert_allclose(a, np.fft.ifft2(X[::-1]) * 8, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(b, np.fft.fft(X[::-1]) / 4, rtol=1e-12, atol=1e-12)


# ---- tf.signal functions built from ops (values recorded from TF 2.21) ----------------------------
SIG = np.arange(10, dtype=np.float32) * 0.5 - 1
WAVE = np.sin(np.arange(16) * 0.7).astype(np.float32)
LOG_MEL = np.arange(10, dtype=np.float32).reshape(2, 5) * 0.3 - 1
F32 = dict(rtol=1e-5, atol=2e-6)


def test_frame_matches_tf():
    with tf.Graph().as_default():
        out = _run([tf.signal.frame(SIG, 4, 3), tf.signal.frame(SIG, 4, 3, pad_end=True, pad_value=9.0),
                    tf.signal.frame(SIG.reshape(5, 2), 2, 2, axis=0), tf.signal.frame(SIG[:3], 4, 1)])
        assert tf.signal.frame(tf.placeholder(tf.float32, [2, None]), 4, 3).shape.as_list() == [2, None, 4]
        assert tf.signal.frame(tf.placeholder(tf.float32, [2, 10]), 4, 3, pad_end=True).shape.as_list() == [2, 4, 4]
        p = tf.placeholder(tf.float32, [2, None])
        dyn = _run([tf.signal.frame(p, 4, 3), tf.signal.frame(p, 4, 3, pad_end=True, pad_value=9.0)],
                   {p: np.stack([SIG, SIG])})
    np.testing.assert_array_equal(out[0], [[-1.0, -0.5, 0.0, 0.5], [0.5, 1.0, 1.5, 2.0], [2.0, 2.5, 3.0, 3.5]])
    np.testing.assert_array_equal(out[1][3], [3.5, 9.0, 9.0, 9.0])
    np.testing.assert_array_equal(out[2], [[[-1.0, -0.5], [0.0, 0.5]], [[1.0, 1.5], [2.0, 2.5]]])
    assert out[3].shape == (0, 4)
    np.testing.assert_array_equal(dyn[0][1], out[0])
    np.testing.assert_array_equal(dyn[1][0], out[1])


def test_overlap_and_add_matches_tf():
    fr = np.arange(12, dtype=np.float32).reshape(3, 4)
    with tf.Graph().as_default():
        a, b = _run([tf.signal.overlap_and_add(fr, 2), tf.signal.overlap_and_add(fr.reshape(1, 3, 4), 3)])
        p = tf.placeholder(tf.float32, [None, None])
        c = _run(tf.signal.overlap_and_add(p, 2), {p: fr})
    np.testing.assert_array_equal(a, [0.0, 1.0, 6.0, 8.0, 14.0, 16.0, 10.0, 11.0])
    np.testing.assert_array_equal(b, [[0.0, 1.0, 2.0, 7.0, 5.0, 6.0, 15.0, 9.0, 10.0, 11.0]])
    np.testing.assert_array_equal(c, a)


def test_windows_match_tf():
    with tf.Graph().as_default():
        out = _run([tf.signal.hann_window(5), tf.signal.hann_window(5, periodic=False), tf.signal.hann_window(1),
                    tf.signal.hamming_window(6), tf.signal.hamming_window(4, periodic=False, dtype=tf.float64)])
    np.testing.assert_allclose(out[0], [0.0, 0.5, 1.0, 0.5, 0.0], atol=1e-7)
    np.testing.assert_allclose(out[1], [0.0, 0.5, 1.0, 0.5, 0.0], atol=1e-7)
    np.testing.assert_array_equal(out[2], [1.0])
    np.testing.assert_allclose(out[3], [0.08000001, 0.31000003, 0.77000004, 1.0, 0.76999998, 0.30999985], **F32)
    assert out[4].dtype == np.float64
    np.testing.assert_allclose(out[4], [0.08000000000000002, 0.7699999999999999, 0.7700000000000002,
                                        0.08000000000000002], rtol=1e-14)


def test_stft_and_inverse_match_tf():
    with tf.Graph().as_default():
        st = tf.signal.stft(WAVE, 6, 3)
        assert (st.dtype, st.shape.as_list()) == (tf.complex64, [4, 5])
        pad = tf.signal.stft(WAVE, 5, 4, fft_length=8, pad_end=True)
        inv = tf.signal.inverse_stft(tf.signal.stft(WAVE, 8, 2), 8, 2,
                                     window_fn=tf.signal.inverse_stft_window_fn(2))
        plain = tf.signal.inverse_stft(st, 6, 3)
        win = tf.signal.inverse_stft_window_fn(3)(8, tf.float32)
        st, pad, inv, plain, win = _run([st, pad, inv, plain, win])
    np.testing.assert_allclose(st[:2], [[1.92689633, -0.68572938 - 1.5253613j, -0.4878462 + 0.78985071j,
                                         0.18324718 - 0.04718679j, 0.05376035],
                                        [-1.94557214, 1.52394772 + 0.70857334j, -0.47375199 - 0.79750627j,
                                         -0.05026895 + 0.18239847j, -0.05428153]], **F32)
    np.testing.assert_allclose(pad[3], [-0.64677787, 0.42383772 + 0.56468022j, 0.36647913 - 0.59939706j,
                                        -0.42383772 - 0.16827801j, -0.08618042], **F32)
    np.testing.assert_allclose(inv, [0.0, 0.00921086, 0.16424164, 0.43160465, 0.2791568, -0.3457678, -0.87157589,
                                     -0.98245257, -0.63126671, 0.01681389, 0.65698659, 0.97403955, 0.71216577,
                                     0.15954916, -0.06107986, -0.01257764], **F32)
    np.testing.assert_allclose(plain, [0.0, 0.0402636, 0.55431545, 0.86320937, 0.20936756, -0.21923949, -0.87157577,
                                       -0.6140328, -0.39454162, 0.0168139, 0.41061658, 0.61760509, 0.85459882,
                                       0.17949279, -0.0229049], **F32)
    np.testing.assert_allclose(win, [0.0, 0.14042343, 0.51095831, 0.87226039, 0.95887101, 0.87226039, 0.51095831,
                                     0.14042327], **F32)
    # Perfect reconstruction away from the edges.
    np.testing.assert_allclose(inv[6:10], WAVE[6:10], rtol=1e-5, atol=1e-5)


def test_linear_to_mel_weight_matrix_matches_tf():
    with tf.Graph().as_default():
        m32 = tf.signal.linear_to_mel_weight_matrix(4, 9, 8000, 100.0, 3000.0)
        m64 = tf.signal.linear_to_mel_weight_matrix(3, 6, 16000, 0.0, 8000.0, dtype=tf.float64)
        assert m32.shape.as_list() == [9, 4] and m64.dtype == tf.float64
        m32, m64 = _run([m32, m64])
    want32 = np.zeros((9, 4))
    want32[1, :2] = [0.67622799, 0.32377201]
    want32[2, 1:3] = [0.5390681, 0.46093187]
    want32[3, 2:] = [0.69730175, 0.30269825]
    want32[4, 2:] = [0.02868412, 0.97131586]
    want32[5, 3] = 0.47399408
    np.testing.assert_allclose(m32, want32, rtol=1e-5, atol=5e-7)
    want64 = np.zeros((6, 3))
    want64[1, :2] = [0.11176980104788964, 0.8882301989521103]
    want64[2, 1:] = [0.2735668555360406, 0.7264331444639593]
    want64[3:5, 2] = [0.7278973061951085, 0.32258477040850286]
    np.testing.assert_allclose(m64, want64, rtol=1e-12, atol=1e-14)


def test_dct_and_mfccs_match_tf():
    with tf.Graph().as_default():
        out = _run([tf.signal.mfccs_from_log_mel_spectrograms(LOG_MEL), tf.signal.dct(LOG_MEL, type=1),
                    tf.signal.idct(LOG_MEL, type=2), tf.signal.dct(LOG_MEL, norm="ortho"),
                    tf.signal.dct(LOG_MEL, type=3, norm="ortho"), tf.signal.dct(LOG_MEL, type=4),
                    tf.signal.dct(LOG_MEL, n=3), tf.signal.dct(LOG_MEL, n=7, norm="ortho"),
                    tf.spectral.idct(tf.spectral.dct(LOG_MEL.astype(np.float64), norm="ortho"), norm="ortho")])
    want = [[[-1.26491094, -0.944850028, 3.76972871e-08, -0.0851970688, -2.82729644e-08],
             [3.47850561, -0.944850028, -3.76972871e-08, -0.0851970389, 0.0]],
            [[-3.19999981, -2.04852819, 0.0, -0.351471901, 0.0], [8.80000114, -2.04852819, -2.38418579e-07,
                                                                  -0.351471901, 0.0]],
            [[-2.9726429, -1.70908129, 0.20000009, -0.44370517, -0.07457049],
             [6.49798441, -4.65299749, 1.69999981, -1.20799351, 0.16300583]],
            [[-0.894427121, -0.944850028, 3.76972871e-08, -0.0851970688, -2.82729644e-08],
             [2.45967507, -0.944850028, -3.76972871e-08, -0.0851970389, 0.0]],
            [[-1.0710181, -0.67144489, -0.06774025, -0.27129775, -0.15456711],
             [2.12033629, -1.40591407, 0.60307997, -0.31650802, 0.11703994]],
            [[-3.81669569, -1.41939449, 0.28284281, -0.47859231, 0.33030915],
             [5.77198458, -4.72342873, 2.40416288, -2.16208148, 1.84900677]],
            [[-4.19999981, -1.03923047, 2.98023224e-08], [4.80000019, -1.03923082, 8.94069672e-08]],
            [[-0.75592893, -0.95280784, -0.44474182, 0.05711045, -0.0258214, -0.11787989, 0.0714807],
             [2.07880497, 0.45573342, -1.34553766, 0.33608931, 0.19665675, -0.55168033, 0.39297098]]]
    for got, w in zip(out, want):
        assert got.dtype == np.float32
        np.testing.assert_allclose(got, w, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out[-1], LOG_MEL, rtol=1e-12, atol=1e-12)


def test_dct_matches_scipy_float64():
    scipy_fft = pytest.importorskip("scipy.fft")
    x = np.random.RandomState(0).uniform(-1, 1, (3, 6))
    with tf.Graph().as_default():
        for t in (1, 2, 3, 4):
            for norm in ((None,) if t == 1 else (None, "ortho")):
                np.testing.assert_allclose(_run(tf.signal.dct(x, type=t, norm=norm)),
                                           scipy_fft.dct(x, type=t, norm=norm), rtol=1e-12, atol=1e-12)


def test_signal_errors_match_tf():
    cases = [(lambda: tf.signal.dct(LOG_MEL, type=5), ValueError, "Types I, II, III and IV (I)DCT are supported."),
             (lambda: tf.signal.dct(LOG_MEL, type=1, norm="ortho"), ValueError,
              "Normalization is not supported for the Type-I DCT."),
             (lambda: tf.signal.dct(LOG_MEL, norm="bad"), ValueError,
              "Unknown normalization. Expected None or 'ortho', got: bad"),
             (lambda: tf.signal.dct(LOG_MEL, axis=0), NotImplementedError, "axis must be -1. Got: 0"),
             (lambda: tf.signal.dct(LOG_MEL, n=0), ValueError, "n should be a positive integer or None"),
             (lambda: tf.signal.dct(LOG_MEL[:, :1], type=1), ValueError,
              "Type-I DCT requires the dimension to be greater than one."),
             (lambda: tf.signal.linear_to_mel_weight_matrix(0), ValueError, "num_mel_bins must be positive. Got: 0"),
             (lambda: tf.signal.linear_to_mel_weight_matrix(lower_edge_hertz=-1.0), ValueError,
              "lower_edge_hertz must be non-negative. Got: -1.0"),
             (lambda: tf.signal.linear_to_mel_weight_matrix(lower_edge_hertz=400.0, upper_edge_hertz=300.0),
              ValueError, "lower_edge_hertz 400.0 >= upper_edge_hertz 300.0"),
             (lambda: tf.signal.linear_to_mel_weight_matrix(upper_edge_hertz=5000.0), ValueError,
              "upper_edge_hertz must not be larger than the Nyquist frequency (sample_rate / 2). Got 5000.0 for "
              "sample_rate: 8000"),
             (lambda: tf.signal.linear_to_mel_weight_matrix(sample_rate=0), ValueError,
              "sample_rate must be positive. Got: 0"),
             (lambda: tf.signal.linear_to_mel_weight_matrix(dtype=tf.int32), ValueError,
              "dtype must be a floating point type. Got: <dtype: 'int32'>"),
             (lambda: tf.signal.frame(tf.constant(1.0), 2, 1), ValueError, "Shape () must have rank at least 1"),
             (lambda: tf.signal.overlap_and_add(tf.zeros([3]), 1), ValueError, "Shape (3,) must have rank at least 2"),
             (lambda: tf.signal.hann_window(5, dtype=tf.int32), ValueError,
              "dtype must be a floating point type. Found <dtype: 'int32'>")]
    with tf.Graph().as_default():
        for fn, cls, msg in cases:
            with pytest.raises(cls) as e:
                fn()
            assert str(e.value) == msg


@pytest.mark.parametrize("build", [
    lambda x: tf.signal.frame(x, 3, 2, pad_end=True),
    lambda x: tf.signal.overlap_and_add(tf.reshape(x, [2, 4]), 3),
    lambda x: tf.signal.irfft(tf.signal.stft(x, 4, 2), [6]),
    lambda x: tf.signal.dct(tf.reshape(x, [2, 4]), type=3, norm="ortho"),
    lambda x: tf.signal.mfccs_from_log_mel_spectrograms(tf.reshape(x, [4, 2])),
], ids=["frame", "overlap_and_add", "stft", "dct", "mfccs"])
def test_signal_gradients_numerically(build):
    from tests.ops.op_harness import check_gradient
    check_gradient(build, np.random.RandomState(1).uniform(-1, 1, 8))


def test_signal_functions_eager_equal_graph():
    def build():
        return [tf.signal.frame(SIG, 4, 3, pad_end=True), tf.signal.stft(WAVE, 6, 3),
                tf.signal.inverse_stft(tf.signal.stft(WAVE, 6, 3), 6, 3), tf.signal.dct(LOG_MEL, norm="ortho"),
                tf.signal.hamming_window(7), tf.signal.overlap_and_add(LOG_MEL, 2)]
    with tf.Graph().as_default():
        graph = _run(build())
    with context.eager_mode():
        eager = [t.numpy() for t in build()]
    for g, e in zip(graph, eager):
        np.testing.assert_array_equal(g, e)


def test_fftshift_and_vorbis_window_match_tf():
    x = np.arange(12.).reshape(3, 4)
    with tf.Graph().as_default():
        p = tf.placeholder(tf.float64, [None, None])
        shifted = tf.signal.fftshift(p)
        assert shifted.shape.as_list() == [None, None]
        out = _run([tf.signal.fftshift(x), tf.signal.ifftshift(x), tf.signal.fftshift(x, axes=1),
                    tf.signal.ifftshift(x, axes=[0]), tf.signal.vorbis_window(5),
                    tf.signal.vorbis_window(4, dtype=tf.float64)])
        dyn = _run([shifted, tf.signal.ifftshift(p, axes=0)], {p: x})
        empty = _run(tf.signal.fftshift(p), {p: np.zeros((0, 3))})
    np.testing.assert_array_equal(out[0], [[10, 11, 8, 9], [2, 3, 0, 1], [6, 7, 4, 5]])
    np.testing.assert_array_equal(out[1], [[6, 7, 4, 5], [10, 11, 8, 9], [2, 3, 0, 1]])
    np.testing.assert_array_equal(out[2], [[2, 3, 0, 1], [6, 7, 4, 5], [10, 11, 8, 9]])
    np.testing.assert_array_equal(out[3], [[4, 5, 6, 7], [8, 9, 10, 11], [0, 1, 2, 3]])
    np.testing.assert_array_equal(dyn[0], out[0])
    np.testing.assert_array_equal(dyn[1], out[3])
    assert empty.shape == (0, 3)
    np.testing.assert_allclose(out[4], [0.14943586, 0.8563191, 1.0, 0.8563191, 0.14943568], **F32)
    np.testing.assert_allclose(out[5], [0.22801432, 0.97365778, 0.97365778, 0.22801432], rtol=1e-7)
    np.testing.assert_array_equal(np.fft.fftshift(x), out[0])


def test_mdct_and_inverse_match_tf():
    with tf.Graph().as_default():
        m = tf.signal.mdct(WAVE, 8)
        m2 = tf.signal.mdct(WAVE, 4, window_fn=None, pad_end=True, norm="ortho")
        assert m.shape.as_list() == [3, 4] and m2.shape.as_list() == [8, 2]
        out = _run([m, m2, tf.signal.inverse_mdct(m), tf.signal.inverse_mdct(m2, window_fn=None, norm="ortho")])
        with pytest.raises(ValueError, match="The frame length must be a multiple of 4."):
            tf.signal.mdct(WAVE, 6)
    want = [[[-0.233328, 3.624557, 0.050201, 0.274309], [1.668908, -3.394899, -0.076081, -0.287647],
             [-2.911636, 2.772944, 0.09317, 0.267745]],
            [[-1.382019, -0.079388], [0.043397, -0.075583], [1.396771, 0.053695], [0.431414, 0.093836],
             [-1.250118, -0.021797], [-0.856372, -0.101245], [0.959008, -0.01262], [0.138875, -0.335275]],
            [-0.051484, -0.266417, 0.505748, 0.860128, 0.334988, -0.350783, -0.871576, -0.982452, -0.631267, 0.016814,
             0.656986, 0.988168, 0.799081, 0.098666, 0.051975, 0.04783],
            [-0.322109, 0.322109, 0.985449, 0.863209, 0.334988, -0.350783, -0.871576, -0.982452, -0.631266, 0.016814,
             0.656986, 0.988168, 0.854599, 0.319098, -0.366479, -0.879696, 0.0, 0.0]]
    for got, w in zip(out, want):  # TF's values rounded to 6 decimals
        np.testing.assert_allclose(got, w, rtol=0, atol=2e-6)
    # Time-domain aliasing cancels where frames overlap: the samples come back.
    np.testing.assert_allclose(out[2][4:12], WAVE[4:12], atol=1e-5)


def test_graph_def_carries_tf_type_attributes():
    # TF's OpDefs: FFT* have `Tcomplex`, (I)RFFT* `Treal` and `Tcomplex` (what TF's GraphDefs hold).
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float64, [3, 4], name="x")
        tf.signal.irfft(tf.signal.rfft(x), [4], name="r")
        tf.signal.fft(tf.cast(x, tf.complex64), name="f")
    nodes = {n.op: n for n in g.as_graph_def().node if "FFT" in n.op}
    assert nodes["RFFT"].attr["Treal"].type == tf.float64.as_datatype_enum
    assert nodes["RFFT"].attr["Tcomplex"].type == tf.complex128.as_datatype_enum
    assert nodes["IRFFT"].attr["Treal"].type == tf.float64.as_datatype_enum
    assert nodes["FFT"].attr["Tcomplex"].type == tf.complex64.as_datatype_enum
    g2 = tf.Graph()
    with g2.as_default():
        tf.import_graph_def(g.as_graph_def(), name="")
        xv = np.arange(12.).reshape(3, 4)
        r, f = _run([g2.get_tensor_by_name("r:0"), g2.get_tensor_by_name("f:0")], {g2.get_tensor_by_name("x:0"): xv})
    np.testing.assert_allclose(r, xv, atol=1e-12)
    np.testing.assert_allclose(f, np.fft.fft(xv), rtol=1e-6, atol=1e-5)


# ---- Kaiser windows: NumPy's kaiser and SciPy's KBD, and values recorded from TF 2.21 -------------------
@pytest.mark.parametrize("n", [2, 7, 10, 33])
@pytest.mark.parametrize("beta", [0.0, 5.0, 12.0])
def test_kaiser_window_equals_numpy(n, beta):
    with tf.Graph().as_default(), tf.Session() as sess:
        w32, w64 = sess.run([tf.signal.kaiser_window(n, beta), tf.signal.kaiser_window(n, beta, dtype=tf.float64)])
    assert w32.dtype == np.float32 and w64.dtype == np.float64
    np.testing.assert_allclose(w64, np.kaiser(n, beta), rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(w32, np.kaiser(n, beta), rtol=2e-6, atol=1e-7)


def test_kaiser_bessel_derived_window_equals_scipy_and_tf():
    from scipy.signal import windows
    with tf.Graph().as_default(), tf.Session() as sess:
        out = sess.run([tf.signal.kaiser_bessel_derived_window(8, 3.0),
                        tf.signal.kaiser_bessel_derived_window(10, 12.0, dtype=tf.float64),
                        tf.signal.kaiser_bessel_derived_window(11, 12.0), tf.signal.kaiser_window(1),
                        tf.signal.kaiser_window(6, 4.0, dtype=tf.float16)])
    np.testing.assert_allclose(out[0], windows.kaiser_bessel_derived(8, 3.0), rtol=2e-6)
    np.testing.assert_allclose(out[1], windows.kaiser_bessel_derived(10, 12.0), rtol=1e-12)
    # An odd length gives the window of the even length below it (TF's floor division of the length).
    np.testing.assert_allclose(out[2], [0.005430641118437052, 0.23848362267017365, 0.7071067690849304,
                                        0.9711465239524841, 0.9999852180480957, 0.9999852180480957,
                                        0.9711465239524841, 0.7071067690849304, 0.23848362267017365,
                                        0.005430641118437052], rtol=1e-6)
    assert out[3].tolist() == [1.0] and out[4].dtype == np.float16
    np.testing.assert_allclose(out[4], np.kaiser(6, 4.0), rtol=2e-3)
