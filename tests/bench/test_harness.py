"""bench/_harness.py's interpreter selection, round-robin interleaving, ratios and targets from one run,
and bench/eager_dispatch_bench.py's evaluation; nothing here imports TensorFlow or PyTorch or times
anything."""

import importlib
import json
import subprocess
import sys

import pytest

from tests.bench import H

E = importlib.import_module("eager_dispatch_bench")  # bench/ is on the path through tests.bench


def _workload(target, **kw):
    kw.setdefault("anchors", {"tensorflow": 40e-6, "numpy": 2e-6})
    return H.Workload("w", "a workload", graph=lambda tf: None, numpy=lambda: None, unit="us", target=target, **kw)


def test_implementations_in_round_robin_order():
    w = _workload(H.Target("abs", 1.0, "x"), torch=lambda: None, variants=("numpy default threads",))
    assert w.implementations() == ["tensorweave", "tensorflow", "torch", "numpy", "numpy default threads"]
    assert _workload(H.Target("abs", 1.0, "x")).implementations() == ["tensorweave", "tensorflow", "numpy"]
    assert _workload(H.Target("abs", 1.0, "x"), skip=("tensorflow",)).implementations() == ["tensorweave", "numpy"]
    assert H.schedule(["tw", "tf", "torch", "np"], 2) == ["tw", "tf", "torch", "np", "tw", "tf", "torch", "np"]
    assert H.schedule(["a"], 0) == []


def test_library_and_options():
    assert H.library("tensorweave intra_op=2") == "tensorweave" and H.library("torch") == "torch"
    assert H.impl_options("tensorweave intra_op=2 inter_op=1") == {"intra_op": "2", "inter_op": "1"}
    assert H.impl_options("torch script=1") == {"script": "1"}
    assert H.impl_options("numpy") == {}
    with pytest.raises(ValueError, match="implementation option 'fast' of 'torch fast' is not key=value"):
        H.impl_options("torch fast")


def test_interpreter_per_implementation():
    assert H.interpreter("tensorflow", "/b/python", "/d/python") == "/b/python"
    assert H.interpreter("torch script=1", "/b/python", "/d/python") == "/b/python"
    assert H.interpreter("tensorweave intra_op=1", "/b/python", "/d/python") == "/d/python"
    assert H.interpreter("numpy default threads", "/b/python", "/d/python") == "/d/python"
    assert H.interpreter("numpy") == sys.executable
    assert H.interpreter("tensorflow") == H.BENCH_PYTHON


def _fake_run(stdout, returncode=0):
    calls = []

    def run(cmd, **kw):
        calls.append(cmd)
        return subprocess.CompletedProcess(cmd, returncode, stdout=stdout, stderr="")

    return run, calls


def test_probe_reports_missing_interpreter_or_package():
    missing = H.probe("torch", "/nowhere/bin/python", exists=lambda p: False)
    assert missing == {"not_installed": "no interpreter /nowhere/bin/python (`make bench-env` builds bench/.venv)"}
    run, calls = _fake_run(json.dumps({"found": False, "version": None}) + "\n")
    assert H.probe("torch", "/b/python", exists=lambda p: True, run=run) == {
        "not_installed": "/b/python has no torch package"}
    assert calls[0][0] == "/b/python" and calls[0][3:] == ["torch", "torch"]
    run, calls = _fake_run("noise\n" + json.dumps({"found": True, "version": "2.21.0"}) + "\n")
    assert H.probe("tensorflow", "/b/python", exists=lambda p: True, run=run) == {
        "python": "/b/python", "version": "2.21.0"}
    assert calls[0][3:] == ["tensorflow", "tensorflow", "tensorflow-cpu"]
    run, _ = _fake_run("", returncode=1)
    assert "not_installed" in H.probe("tensorflow", "/b/python", exists=lambda p: True, run=run)


def test_probe_finds_this_interpreters_numpy():
    info = H.probe("numpy", sys.executable)
    import numpy
    assert info == {"python": sys.executable, "version": numpy.__version__}


def test_availability_uses_each_librarys_interpreter():
    seen = []

    def prober(lib, python):
        seen.append((lib, python))
        return {"python": python, "version": "1"}

    H.availability(("tensorweave", "tensorflow", "torch", "numpy"), "/b/python", "/d/python", prober=prober)
    assert seen == [("tensorweave", "/d/python"), ("tensorflow", "/b/python"), ("torch", "/b/python"),
                    ("numpy", "/d/python")]


def test_run_workload_interleaves_and_skips_what_is_not_installed():
    calls = []

    def runner(args, python=None):
        calls.append((args[2], python))
        return {"samples": [float(len(calls))], "notes": {}}

    available = {"tensorweave": {"python": "/d/python"}, "tensorflow": {"not_installed": "no TF"},
                 "torch": {"python": "/b/python"}, "numpy": {"python": "/d/python"}}
    impls = ["tensorweave", "tensorflow", "torch", "numpy", "tensorweave intra_op=1"]
    res = H.run_workload("w", impls, 2, available, ["--quick"], runner=runner)
    assert calls == [("tensorweave", "/d/python"), ("torch", "/b/python"), ("numpy", "/d/python"),
                     ("tensorweave intra_op=1", "/d/python")] * 2
    assert list(res) == impls
    assert res["tensorflow"] == {"not_installed": "no TF"}
    assert res["tensorweave"]["samples"] == [1.0, 5.0] and res["tensorweave intra_op=1"]["samples"] == [4.0, 8.0]


def test_merge_keeps_not_installed():
    assert H.merge({"not_installed": "x"}, {"samples": [1.0]}) == {"not_installed": "x"}
    assert H.merge({"samples": [1.0]}, {"not_installed": "x"}) == {"not_installed": "x"}


def test_ratios_only_from_the_same_run_never_from_anchors():
    w = _workload((H.Target("tensorflow", 1.0, "<= TF"), H.Target("torch", 1.0, "<= PyTorch")),
                  torch=lambda: None)
    e = H.evaluate(w, {"tensorweave": {"samples": [3e-6]}, "tensorflow": {"not_installed": "no TF"},
                       "torch": {"samples": [2e-6]}, "numpy": {"samples": [1e-6]}})
    assert e["implementations"]["tensorflow"] == {"not_installed": "no TF"}
    assert e["ratios"]["tensorweave/tensorflow"] is None
    assert e["ratios"]["tensorweave/torch"] == pytest.approx(1.5)
    assert e["ratios"]["tensorweave/numpy"] == pytest.approx(3.0)
    assert e["anchors"] == pytest.approx({"tensorflow": 40.0, "numpy": 2.0})
    assert [t["met"] for t in e["targets"]] == [None, False]
    assert e["met"] is False and e["target"] == "<= TF and <= PyTorch"


def test_combined_targets():
    w = _workload((H.Target("tensorflow", 1.2, "<= 1.2x TF"), H.Target("torch", 1.0, "<= PyTorch")),
                  torch=lambda: None)
    e = H.evaluate(w, {"tensorweave": {"samples": [3e-6]}, "tensorflow": {"samples": [2.6e-6]},
                       "torch": {"samples": [3.5e-6]}})
    assert [t["value"] for t in e["targets"]] == pytest.approx([3 / 2.6, 3 / 3.5])
    assert e["met"] is True
    assert [H.combine_met(v) for v in ([True, True], [True, None], [None, False], [])] == [True, None, False, True]


def test_rates_and_higher_is_better_targets():
    w = H.Workload("mm", "matmul", graph=lambda tf: None, numpy=lambda: None, unit="GFLOP/s",
                   target=H.Target("numpy default threads", 0.9, ">= 0.9x NumPy", higher=True),
                   variants=("numpy default threads",), work=2e9)
    e = H.evaluate(w, {"tensorweave": {"samples": [0.02, 0.04, 0.01]}, "numpy": {"samples": [0.04]},
                       "numpy default threads": {"samples": [0.0125]}})
    tw = e["implementations"]["tensorweave"]
    assert (tw["median"], tw["min"], tw["max"]) == pytest.approx((100.0, 50.0, 200.0))
    assert e["ratios"]["tensorweave/numpy default threads"] == pytest.approx(100 / 160)
    assert e["ratios"]["numpy default threads/numpy"] == pytest.approx(160 / 50)
    assert e["met"] is False
    e = H.evaluate(w, {"tensorweave": {"samples": [0.0125]}, "numpy default threads": {"samples": [0.013]}})
    assert e["met"] is True and e["targets"][0]["higher"] is True
    e = H.evaluate(_workload(H.Target("abs", 2e-6, ">= 2 us", higher=True)), {"tensorweave": {"samples": [1e-6]}})
    assert e["targets"][0]["limit"] == pytest.approx(2.0) and e["met"] is False


def _report(results, workload, environments):
    e = H.evaluate(workload, results)
    machine = dict(H.machine_info(), cpu="Test CPU 9000", cpu_count=7, thread_policy="blas_threads=3 (explicit)")
    return H.build_report([e], "python bench/run.py", machine, environments=environments,
                          date="2026-01-02T03:04:05")


def test_markdown_names_machine_environments_and_keeps_anchors_apart():
    w = _workload(H.Target("tensorflow", 1.0, "<= TF"), torch=lambda: None, variants=("tensorweave intra_op=1",))
    envs = {"tensorweave": {"python": sys.executable, "version": "0.1"},
            "tensorflow": {"python": "/b/python", "version": "2.21.0"},
            "torch": {"not_installed": "no interpreter bench/.venv/bin/python"}}
    report = _report({"tensorweave": {"samples": [3e-6]}, "tensorflow": {"samples": [6e-6]},
                      "torch": {"not_installed": "no interpreter bench/.venv/bin/python"},
                      "numpy": {"samples": [1e-6]}, "tensorweave intra_op=1": {"samples": [4e-6]}}, w, envs)
    md = H.render_markdown(report)
    assert "Machine: Test CPU 9000, 7 logical CPUs; BLAS: " in md
    assert "thread policy (`default_policy(shard).describe()` in the driver process): blas_threads=3 (explicit)." in md
    assert "- TensorFlow 2.21.0 under /b/python" in md
    assert "- PyTorch: not installed (no interpreter bench/.venv/bin/python)" in md
    assert ("| a workload | 3.000 us | 6.000 us | not installed | 1.000 us | 0.50x | - | 3.00x | <= TF (0.50x) "
            "| yes |") in md
    assert "| w | tensorweave intra_op=1 | 4.000 us | 0.75x | 4.00x |" in md
    anchors = md.split("## Stored anchors (informational)", 1)[1]
    assert "not used for any ratio or target" in anchors and "| w | 40.0 us | 2.000 us |" in anchors
    back = json.loads(json.dumps(report))
    assert back["environments"]["torch"] == {"not_installed": "no interpreter bench/.venv/bin/python"}
    line = H.console_line(report["workloads"][0])
    assert line.split()[:2] == ["w", "3.000"] and "not installed" in line and line.endswith("yes")


def test_write_text_is_atomic(tmp_path):
    path = tmp_path / "r.md"
    path.write_text("old")
    H.write_text("new\n", str(path))
    assert path.read_text() == "new\n" and [p.name for p in tmp_path.iterdir()] == ["r.md"]


def test_thread_policy_is_described():
    text = H.thread_policy()
    assert text is None or text.startswith("blas_threads=")


# ---- bench/eager_dispatch_bench.py ----------------------------------------------------------------
def test_eager_rows_targets_from_the_same_run():
    best = {"tensorweave": {"add": 2.0e-6, "reduce_sum": 5e-6, "function_call": 4e-6, "collatz_eager": 1e-3,
                            "collatz_function": 1e-4},
            "tensorflow": {"not_installed": "no TF"},
            "torch": {"add": 1.0e-6, "reduce_sum": 2e-6}}
    rows, collatz = E.evaluate(best)
    by = {r["name"]: r for r in rows}
    assert by["add"]["tensorweave/torch"] == pytest.approx(2.0)
    assert by["add"]["target"] == "<= 2.5 us (<= 1.98x PyTorch)" and by["add"]["met"] is False
    assert by["reduce_sum"]["met"] is False and by["reduce_sum"]["tensorweave/torch"] == pytest.approx(2.5)
    assert by["function_call"]["target"] == "<= 5 us" and by["function_call"]["met"] is True
    assert by["tape"]["met"] is None and by["mlp_step"]["target"] is None
    assert by["add"]["tensorflow"] is None and collatz == {"tensorweave": pytest.approx(10.0), "tensorflow": None}
    md = E.render(rows, collatz, best, {"tensorflow": {"not_installed": "no TF"}}, "cmd", "today")
    assert md.startswith(E.SECTION)
    assert "| `a + b` | not installed | 2.00 | 1.00 | 2.00x | - | <= 2.5 us (<= 1.98x PyTorch) | **no** |" in md
    assert "- TensorFlow: not installed (no TF)" in md


def test_eager_merge_and_best():
    a = {"samples": {"add": [3e-6, 2e-6]}, "notes": {"k": 1}}
    b = {"samples": {"add": [1e-6], "tape": [9e-6]}, "notes": {}}
    merged = E.merge(a, b)
    assert merged["samples"] == {"add": [3e-6, 2e-6, 1e-6], "tape": [9e-6]}
    assert E.best_of({"tensorweave": merged, "torch": {"error": "boom"}}) == {
        "tensorweave": {"add": 1e-6, "tape": 9e-6}, "torch": {"error": "boom"}}
    assert E.merge({"error": "x"}, b) == {"error": "x"}


def test_eager_section_is_spliced_into_results():
    section = E.SECTION + "\n\nnew\n"
    assert E.splice_section("", section) == section
    assert E.splice_section("# R\n\ntable\n", section) == "# R\n\ntable\n\n" + section
    old = "# R\n\n" + E.SECTION + "\n\nold\n\n## Notes\n\n- n\n"
    assert E.splice_section(old, section) == "# R\n\n" + section + "\n## Notes\n\n- n\n"
    assert E.splice_section("# R\n\n" + E.SECTION + "\nold\n", section) == "# R\n\n" + section


def test_eager_worker_rejects_unknown_implementation():
    with pytest.raises(ValueError, match="unknown implementation 'jax'; choose from tensorweave, tensorflow, torch"):
        E.build("jax")


def test_eager_tensorweave_rows_match_numpy():
    out = subprocess.run([sys.executable, E.__file__, "--worker", "tensorweave", "--quick"], capture_output=True,
                         text=True, timeout=300, env=H.worker_env(), check=True).stdout
    samples = json.loads(out.strip().splitlines()[-1])["samples"]
    assert sorted(samples) == sorted(r.name for r in E.ROWS)
    assert all(len(s) == 3 and all(v > 0 for v in s) for s in samples.values())


def test_small_ratios_keep_a_third_digit():
    assert [H.fmt_ratio(r) for r in (None, 0.0219, 0.5, 123.4)] == ["-", "0.022x", "0.50x", "123x"]
