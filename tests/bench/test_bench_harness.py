"""bench/_harness.py (statistics, targets, reports) and one tiny workload through bench/run.py."""

import json
import os
import subprocess
import sys

import pytest

from tests.bench import BENCH, H, bench_run


def _workload(target, **kw):
    return H.Workload("w", "a workload", graph=lambda tf: None, numpy=lambda: None, unit="us", target=target,
                      anchors={"tensorflow": 40e-6, "numpy": 2e-6}, **kw)


def test_summarize():
    assert H.summarize([3.0, 1.0, 2.0, 10.0]) == {"median": 2.5, "min": 1.0, "max": 10.0, "n": 4}


def test_measure_modes():
    timed = H.measure(lambda: None, "timed", repeat=3, round_s=0.001)
    assert len(timed) == 3 and all(0 < t < 0.01 for t in timed)
    assert H.measure(lambda: 2.0, "self", repeat=4, per=2) == [1.0] * 4
    assert H.measure(lambda: 1234, "once") == [1234]


def test_merge_pools_samples_and_keeps_errors():
    a = {"samples": [1.0, 2.0], "notes": {"warm": False}}
    b = {"samples": [3.0], "notes": {"warm": True, "other": 1}}
    assert H.merge(None, a) is a
    assert H.merge(a, b) == {"samples": [1.0, 2.0, 3.0], "notes": {"warm": False, "other": 1}}
    assert H.merge(a, {"error": "x"}) == {"error": "x"}
    assert H.merge({"error": "y"}, b) == {"error": "y"}


def test_evaluate_ratio_target_and_no_anchor_estimate():
    w = _workload(H.Target("numpy", 1.2, "<= 1.2x NumPy"), variants=("tensorweave intra_op=2",))
    e = H.evaluate(w, {"tensorweave": {"samples": [2e-6, 3e-6, 4e-6], "notes": {"k": 1}},
                       "numpy": {"samples": [1e-6, 2e-6, 3e-6]},
                       "tensorweave intra_op=2": {"samples": [1e-6]}})
    tw = e["implementations"]["tensorweave"]
    assert (tw["median"], tw["min"], tw["max"], tw["n"], tw["unit"]) == pytest.approx((3.0, 2.0, 4.0, 3, "us"))
    assert tw["notes"] == {"k": 1}
    assert e["ratios"]["tensorweave/numpy"] == pytest.approx(1.5)
    # No TensorFlow run: no ratio (anchors from other machines are never used for one).
    assert e["ratios"]["tensorweave/tensorflow"] is None
    assert e["ratios"]["tensorweave intra_op=2/numpy"] == pytest.approx(0.5)
    assert e["anchors"] == pytest.approx({"tensorflow": 40.0, "numpy": 2.0})
    assert e["target"] == "<= 1.2x NumPy"
    assert e["targets"] == [{"text": "<= 1.2x NumPy", "kind": "numpy", "limit": 1.2, "higher": False,
                             "value": pytest.approx(1.5), "met": False}]
    assert e["met"] is False


def test_evaluate_measured_tensorflow_and_absolute_target():
    w = _workload(H.Target("tensorflow", 1.0, "<= TF"))
    e = H.evaluate(w, {"tensorweave": {"samples": [3e-6]}, "numpy": {"samples": [1e-6]},
                       "tensorflow": {"samples": [6e-6]}})
    assert e["ratios"]["tensorweave/tensorflow"] == pytest.approx(0.5)
    assert e["met"] is True
    e = H.evaluate(_workload(H.Target("abs", 2e-6, "<= 2 us")), {"tensorweave": {"samples": [3e-6]}})
    assert e["targets"][0]["limit"] == pytest.approx(2.0)
    assert e["met"] is False and e["ratios"]["tensorweave/numpy"] is None


def test_evaluate_worker_error():
    e = H.evaluate(_workload(H.Target("numpy", 1.0, "<= NumPy")),
                   {"tensorweave": {"error": "boom"}, "numpy": {"samples": [1e-6]}})
    assert e["implementations"]["tensorweave"] == {"error": "boom"}
    assert e["met"] is None and e["ratios"]["tensorweave/numpy"] is None
    assert "tensorweave: error: boom" in H.render_markdown(H.build_report([e], "cmd", H.machine_info()))


def test_report_json_and_markdown(tmp_path):
    w = _workload(H.Target("numpy", 2.0, "<= 2x NumPy"), variants=("numpy default threads",), about="defined so")
    e = H.evaluate(w, {"tensorweave": {"samples": [3e-6]}, "numpy": {"samples": [2e-6]},
                       "numpy default threads": {"samples": [4e-6]}})
    report = H.build_report([e], "python bench/run.py", H.machine_info(), date="2026-01-02T03:04:05")
    H.write_json(report, str(tmp_path / "r.json"))
    back = json.loads((tmp_path / "r.json").read_text())
    assert back["date"] == "2026-01-02T03:04:05" and back["environments"] == {} and back["quick"] is False
    assert back["machine"]["cpu_count"] == os.cpu_count() and "numpy" in back["machine"]
    assert back["machine"]["load_average_at_end"] == pytest.approx(os.getloadavg()[0], abs=5)
    assert back["workloads"][0]["met"] is True
    assert back["workloads"][0]["ratios"]["numpy default threads/numpy"] == pytest.approx(2.0)
    md = H.render_markdown(report)
    assert "| a workload | 3.000 us | - | - | 2.000 us | - | - | 1.50x | <= 2x NumPy (1.50x) | yes |" in md
    assert "| w | numpy default threads | 4.000 us | 0.75x | 2.00x |" in md
    assert "| w | 40.0 us | 2.000 us |" in md.split("## Stored anchors (informational)")[1]
    assert "- `w`: defined so" in md and "python bench/run.py" in md


def test_run_worker_reports_errors():
    res = H.run_worker(["no_such_workload", "--impl", "numpy"], timeout=60)
    assert "KeyError" in res["error"]


def test_unknown_workload_is_rejected(capsys):
    with pytest.raises(SystemExit):
        bench_run.main(["--only", "add_scalars,nope"])
    assert "unknown workload(s) nope" in capsys.readouterr().err


def test_driver_runs_one_workload_in_fresh_processes(tmp_path):
    out_json, out_md = tmp_path / "r.json", tmp_path / "r.md"
    subprocess.run([sys.executable, os.path.join(BENCH, "run.py"), "--only", "add_scalars", "--quick",
                    "--json", str(out_json), "--markdown", str(out_md), "--bench-python", str(tmp_path / "none")],
                   check=True, capture_output=True, timeout=120)
    report = json.loads(out_json.read_text())
    assert report["quick"] is True and "--only add_scalars" in report["command"]
    (entry,) = report["workloads"]
    assert entry["name"] == "add_scalars" and entry["unit"] == "us"
    impls = entry["implementations"]
    assert list(impls) == ["tensorweave", "tensorflow", "numpy"]
    assert impls.pop("tensorflow") == {"not_installed": "no interpreter %s (`make bench-env` builds bench/.venv)"
                                       % (tmp_path / "none")}
    for e in impls.values():
        assert e["n"] == 3 and 0 < e["min"] <= e["median"] <= e["max"]
    assert entry["ratios"]["tensorweave/numpy"] == pytest.approx(impls["tensorweave"]["median"]
                                                                  / impls["numpy"]["median"])
    assert entry["targets"][0]["text"] == "<= 10 us" and entry["targets"][0]["limit"] == pytest.approx(10.0)
    assert entry["targets"][0]["met"] == (impls["tensorweave"]["median"] <= 10.0)
    assert "Session.run of `a+b` on fed scalars" in out_md.read_text()


def test_profile_prints_top_ops_from_step_stats():
    out = subprocess.run([sys.executable, os.path.join(BENCH, "run.py"), "--profile", "add_scalars"], check=True,
                         capture_output=True, text=True, timeout=120).stdout
    assert out.startswith("add_scalars: ") and "us per call" in out
    top_type = out.split("top op type", 1)[1].splitlines()[1]
    assert top_type.split()[0] == "AddV2" and top_type.split()[2] == "100.0%"


def test_profile_rejects_workloads_without_a_graph():
    with pytest.raises(SystemExit, match="--profile: import runs no graph"):
        bench_run.main(["--profile", "import"])
