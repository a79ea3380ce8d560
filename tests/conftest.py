import threading
import time

import pytest

import tensorweave as tf


@pytest.fixture(autouse=True)
def _fresh_default_graph():
    """Every test starts with an empty default graph and no default session."""
    tf.reset_default_graph()
    yield


@pytest.fixture(autouse=True)
def _no_thread_outlives_the_test():
    """No thread a test starts (queue runners, input threads, summary writers) is alive after it ends."""
    before = set(threading.enumerate())
    yield
    tf.summary.FileWriterCache.clear()  # the cache keeps writers (and their threads) for the process, as TF's

    def new():
        # Threads that live for the process by design: tensorweave's intra- and inter-op pools (made once, like TF's
        # thread pools) and tqdm's monitor (the progress-bar hook's library).
        return [t for t in threading.enumerate() if t not in before and t.is_alive()
                and t.name != "tqdm_monitor" and not t.name.startswith(("tw-intra-op", "tw-inter-op"))]

    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and new():
        time.sleep(0.01)
    left = [t.name for t in new()]
    assert not left, "threads outlived the test: %s" % left
