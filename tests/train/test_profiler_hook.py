"""tf.train.ProfilerHook: a traced run every N steps written as a Chrome trace, through the hooks'
RunOptions that MonitoredSession merges (and RunMetadata it records) as TF's."""

import json
import os

import pytest

import tensorweave as tf


def test_profiler_hook_writes_timelines_of_traced_runs(tmp_path):
    with tf.Graph().as_default():
        step = tf.train.get_or_create_global_step()
        x = tf.Variable(1.0)
        train = tf.group(tf.assign_add(x, tf.sqrt(x)), tf.assign_add(step, 1))
        hook = tf.train.ProfilerHook(save_steps=2, output_dir=str(tmp_path))
        seen = []

        class Probe(tf.train.SessionRunHook):
            def after_run(self, run_context, run_values):
                seen.append((run_values.options.trace_level, len(run_values.run_metadata.step_stats.dev_stats)))

        with tf.train.MonitoredSession(hooks=[hook, Probe()]) as sess:
            for _ in range(5):
                sess.run(train)
        tf.summary.FileWriterCache.clear()
    files = sorted(f for f in os.listdir(tmp_path) if f.startswith("timeline-"))
    assert files == ["timeline-2.json", "timeline-4.json"]  # the global step after each traced run
    trace = json.load(open(tmp_path / "timeline-2.json"))
    names = {e.get("args", {}).get("name") for e in trace["traceEvents"]}
    assert "Sqrt" in {e["name"] for e in trace["traceEvents"]} and any("AssignAdd" in str(n) for n in names)
    assert [t for t, _ in seen] == [0, 3, 0, 3, 0]  # the 2nd and 4th runs are traced (FULL_TRACE)
    assert all(n > 0 for t, n in seen if t == 3)
    assert any(f.startswith("events.out.tfevents") for f in os.listdir(tmp_path))


def test_profiler_hook_needs_a_global_step_and_one_trigger():
    with pytest.raises(ValueError):
        tf.train.ProfilerHook(save_steps=2, save_secs=3)
    with tf.Graph().as_default():
        with pytest.raises(RuntimeError, match="Global step should be created to use ProfilerHook."):
            tf.train.ProfilerHook(save_steps=1).begin()
