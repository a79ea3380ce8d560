"""Multi-process tests: jobs of 1, 2 and 4 local ranks started through the launcher
(`python -m tensorweave.distribute.run`), loopback only, each bounded in time."""

import os
import subprocess
import sys
import time

import numpy as np
import pytest

pytest.importorskip("mpi4py")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
JOB = os.path.join(ROOT, "tests", "distribute", "mlp_job.py")


def launch(n, out, *args, env=None, timeout=60):
    """Runs mlp_job.py on `n` ranks; returns (exit status, output, seconds)."""
    cmd = [sys.executable, "-m", "tensorweave.distribute.run", "-np", str(n), "--timeout", str(timeout), JOB,
           str(out)] + list(args)
    full_env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""), **(env or {}))
    start = time.monotonic()
    p = subprocess.run(cmd, cwd=ROOT, env=full_env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=timeout + 30)
    return p.returncode, p.stdout.decode("utf-8", "replace"), time.monotonic() - start


def load(out, name):
    with np.load(os.path.join(str(out), name), allow_pickle=False) as f:
        return {k: f[k] for k in f.files}


def assert_close(a, b, **kw):
    assert sorted(a) == sorted(b)
    for k in a:
        np.testing.assert_allclose(a[k], b[k], err_msg=k, **kw)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """One process, global batch 8, learning rate 0.1: the run the others must equal."""
    out = tmp_path_factory.mktemp("ref")
    rc, text, _ = launch(1, out, "--base-lr", "0.1", "--eager")
    assert rc == 0, text
    return out


@pytest.fixture(scope="module")
def two_ranks(tmp_path_factory):
    out = tmp_path_factory.mktemp("two")
    rc, text, _ = launch(2, out, "--base-lr", "0.05", "--eager")  # lr scaled by size: 0.1
    assert rc == 0, text
    return out, text


def test_two_ranks_equal_one_process(reference, two_ranks):
    tmp_path, text = two_ranks
    assert "[0] start step 0" in text  # output is prefixed with the rank
    init0, init1 = load(tmp_path, "run_init_rank0.npz"), load(tmp_path, "run_init_rank1.npz")
    assert any(not np.array_equal(init0[k], init1[k]) for k in init0)  # differently initialised ...
    b0, b1 = load(tmp_path, "run_bcast_rank0.npz"), load(tmp_path, "run_bcast_rank1.npz")
    assert_close(b0, b1, rtol=0, atol=0)  # ... made equal by BroadcastGlobalVariablesHook(0)
    assert_close(b0, init0, rtol=0, atol=0)
    f0, f1 = load(tmp_path, "run_final_rank0.npz"), load(tmp_path, "run_final_rank1.npz")
    assert_close(f0, f1, rtol=0, atol=0)
    assert_close(f0, load(reference, "run_final_rank0.npz"), rtol=1e-5, atol=1e-7)
    assert not any(np.array_equal(f0[k], b0[k]) for k in f0 if "bias" not in k)  # it trained
    # Eager: DistributedGradientTape + broadcast_variables.
    e0, e1 = load(tmp_path, "run_eager_rank0.npz"), load(tmp_path, "run_eager_rank1.npz")
    assert_close(e0, e1, rtol=0, atol=0)
    assert_close(e0, load(reference, "run_eager_rank0.npz"), rtol=1e-5, atol=1e-7)
    # Only rank 0 writes checkpoints and summaries (its checkpoint_dir); the others write nothing.
    names = sorted(os.listdir(tmp_path))
    assert [n for n in names if not n.endswith(".npz")] == ["ckpt"]
    ckpt = os.listdir(tmp_path / "ckpt")
    assert "checkpoint" in ckpt and "model.ckpt-20.index" in ckpt
    assert [n for n in ckpt if n.startswith("events.out.tfevents")]


def test_overlap_on_and_off_equal(two_ranks, tmp_path):
    # Buckets of 0.25 KiB: the MLP's gradients make 4 buckets, all-reduced during the backward pass.
    rc, text, _ = launch(2, tmp_path, "--base-lr", "0.05", "--overlap", "--bucket-kb", "0.25")
    assert rc == 0, text
    f0, f1 = load(tmp_path, "run_final_rank0.npz"), load(tmp_path, "run_final_rank1.npz")
    assert_close(f0, f1, rtol=0, atol=0)
    assert_close(f0, load(two_ranks[0], "run_final_rank0.npz"), rtol=0, atol=0)


def test_backward_passes_per_step(tmp_path):
    # Gradients of 2 passes summed locally, all-reduced and applied once: 2 ranks equal 1 process.
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    rc, text, _ = launch(1, one, "--base-lr", "0.1", "--bpps", "2")
    assert rc == 0, text
    rc, text, _ = launch(2, two, "--base-lr", "0.05", "--bpps", "2")
    assert rc == 0, text
    f0, f1 = load(two, "run_final_rank0.npz"), load(two, "run_final_rank1.npz")
    assert_close(f0, f1, rtol=0, atol=0)
    assert_close(f0, load(one, "run_final_rank0.npz"), rtol=1e-5, atol=1e-7)
    assert "model.ckpt-20.index" in os.listdir(two / "ckpt")  # the global step advanced on every pass


def test_four_ranks_deterministic(reference, tmp_path):
    rc, text, _ = launch(4, tmp_path, "--base-lr", "0.025", env={"TW_DIST_DETERMINISTIC": "1"})
    assert rc == 0, text
    finals = [load(tmp_path, "run_final_rank%d.npz" % r) for r in range(4)]
    for f in finals[1:]:
        assert_close(finals[0], f, rtol=0, atol=0)
    assert_close(finals[0], load(reference, "run_final_rank0.npz"), rtol=1e-5, atol=1e-7)
    # deterministic=True: exactly one process summing the 4 micro-batch gradients in rank order.
    micro = tmp_path / "micro"
    micro.mkdir()
    rc, text, _ = launch(1, micro, "--base-lr", "0.1", "--micro", "4")
    assert rc == 0, text
    assert_close(finals[0], load(micro, "run_final_rank0.npz"), rtol=0, atol=0)


def test_killed_rank_ends_job_and_restart_resumes(reference, tmp_path):
    rc, text, seconds = launch(2, tmp_path, "--base-lr", "0.05", "--kill-at", "7", timeout=45)
    assert rc != 0, text
    assert seconds < 30, seconds
    assert "rank 1 (pid" in text and "killed by signal 9" in text, text
    assert "model.ckpt-5.index" in os.listdir(tmp_path / "ckpt")
    assert "model.ckpt-20.index" not in os.listdir(tmp_path / "ckpt")
    # The restarted job resumes from rank 0's last checkpoint (step 5) and broadcasts it.
    rc, text, _ = launch(2, tmp_path, "--base-lr", "0.05", "--tag", "resumed")
    assert rc == 0, text
    assert "[0] start step 5" in text, text
    f0, f1 = load(tmp_path, "resumed_final_rank0.npz"), load(tmp_path, "resumed_final_rank1.npz")
    assert_close(f0, f1, rtol=0, atol=0)
    assert_close(f0, load(reference, "run_final_rank0.npz"), rtol=1e-5, atol=1e-7)


def test_mismatched_graphs_fail_clearly(tmp_path):
    rc, text, seconds = launch(2, tmp_path, "--mismatch", timeout=45)
    assert rc != 0, text
    assert "Horovod ranks built different graphs" in text and "rank(s) 1" in text, text
    assert seconds < 30


def test_plain_mpiexec(tmp_path):
    script = tmp_path / "plain.py"
    script.write_text(
        "import tensorweave as tf, tensorweave.distribute as hvd\n"
        "hvd.init()\n"
        "with tf.Session() as s:\n"
        "    v = s.run(hvd.allreduce(tf.constant([1.0, 2.0]) * float(hvd.rank() + 1), op=hvd.Sum))\n"
        "    r, n = s.run(hvd.alltoall(tf.constant([[1.0], [2.0], [3.0]]) + 10.0 * hvd.rank(), splits=[1, 2]))\n"
        "import os\n"
        "lines = ['rank %d %d %d %d %d %s' % (hvd.rank(), hvd.size(), hvd.local_rank(), hvd.local_size(),\n"
        "                                     hvd.cross_size(), v.tolist()),\n"
        "         'alltoall %d %s %s' % (hvd.rank(), r.ravel().tolist(), n.tolist())]\n"
        "os.write(1, ('\\n'.join(lines) + '\\n').encode())  # one write: the ranks' lines never interleave\n")
    mpiexec = os.path.join(os.path.dirname(sys.executable), "mpiexec")
    if not os.path.exists(mpiexec):
        pytest.skip("no mpiexec beside the interpreter")
    env = dict(os.environ, PYTHONPATH=ROOT, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    p = subprocess.run([mpiexec, "-n", "2", sys.executable, str(script)], cwd=ROOT, env=env, timeout=60,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    text = p.stdout.decode()
    assert p.returncode == 0, text
    assert "rank 0 2 0 2 1 [3.0, 6.0]" in text and "rank 1 2 1 2 1 [3.0, 6.0]" in text, text
    # Rank 0 sends its row 0 to itself and rows 1-2 to rank 1; rank 1 likewise.
    assert "alltoall 0 [1.0, 11.0] [1, 1]" in text and "alltoall 1 [2.0, 3.0, 12.0, 13.0] [2, 2]" in text, text
