"""`tf.train.Coordinator` and `tf.train.LooperThread`: coordinating the threads of a TF1 input
pipeline (queue runners) and the training loop, as TF's `training/coordinator.py`."""

import contextlib
import sys
import threading
import time

from .. import tf_logging as logging
from ..framework import errors

__all__ = ["Coordinator", "LooperThread"]


class Coordinator:
    """A coordinator for threads.

    This class implements a simple mechanism to coordinate the termination of a set of threads:
    any thread can call `request_stop()` (with the exception that stopped it), the others check
    `should_stop()` and exit, and `join()` waits for them and re-raises the reported exception.

    Args:
      clean_stop_exception_types: Optional tuple of Exception types that should cause a clean stop
        of the coordinator (not re-raised by `join()`). Defaults to `(tf.errors.OutOfRangeError,)`.
    """

    def __init__(self, clean_stop_exception_types=None):
        if clean_stop_exception_types is None:
            clean_stop_exception_types = (errors.OutOfRangeError,)
        self._clean_stop_exception_types = tuple(clean_stop_exception_types)
        self._lock = threading.Lock()
        self._stop_event = threading.Event()
        self._exc_info_to_raise = None
        self._joined = False
        self._registered_threads = set()

    def _filter_exception(self, ex):
        if isinstance(ex, tuple):
            ex2 = ex[1]
        else:
            ex2 = ex
        if isinstance(ex2, self._clean_stop_exception_types):
            ex = None
        return ex

    def request_stop(self, ex=None):
        """Requests that the threads stop.

        After this is called, calls to `should_stop()` return `True`. The first exception reported
        (not one of the clean-stop types) is re-raised by `join()`.

        Args:
          ex: Optional `Exception`, or Python `exc_info` tuple as returned by `sys.exc_info()`.
            If this is the first call to `request_stop()` the corresponding exception is recorded
            and re-raised from `join()`.

        Raises:
          RuntimeError: If called after `join()` with a new exception to report.
        """
        with self._lock:
            ex = self._filter_exception(ex)
            if self._joined:
                if isinstance(ex, tuple):
                    _, ex_instance, _ = ex
                    raise RuntimeError("Coordinator.request_stop() called after join(): %s" % ex_instance) \
                        from ex_instance
                if ex is not None:
                    raise RuntimeError("Coordinator.request_stop() called after join().") from ex
                return
            if not self._stop_event.is_set():
                if ex and self._exc_info_to_raise is None:
                    if isinstance(ex, tuple):
                        logging.info("Error reported to Coordinator: %s", ex[1])
                        self._exc_info_to_raise = ex
                    else:
                        logging.info("Error reported to Coordinator: %s, %s", type(ex), ex)
                        self._exc_info_to_raise = (type(ex), ex, ex.__traceback__)
                    # Check the exception is re-raisable.
                    if len(self._exc_info_to_raise) != 3 or not self._exc_info_to_raise[0] or \
                            not self._exc_info_to_raise[1]:
                        try:
                            raise ValueError("ex must be a tuple or sys.exc_info must return the current exception: "
                                             "%s" % self._exc_info_to_raise)
                        except ValueError:
                            self._exc_info_to_raise = sys.exc_info()
                self._stop_event.set()

    def clear_stop(self):
        """Clears the stop flag.

        After this is called, calls to `should_stop()` will return `False`.
        """
        with self._lock:
            self._joined = False
            self._exc_info_to_raise = None
            if self._stop_event.is_set():
                self._stop_event.clear()

    def should_stop(self):
        """Check if stop was requested.

        Returns:
          True if a stop was requested.
        """
        return self._stop_event.is_set()

    @contextlib.contextmanager
    def stop_on_exception(self):
        """Context manager to request stop when an Exception is raised.

        Code that uses a coordinator must catch exceptions and pass them to `request_stop()`;
        this context manager does it: an exception raised in its block is reported and swallowed.

        Yields:
          nothing.
        """
        try:
            yield
        except:  # noqa: E722 (TF reports every exception, SystemExit included)
            self.request_stop(ex=sys.exc_info())

    def wait_for_stop(self, timeout=None):
        """Wait till the Coordinator is told to stop.

        Args:
          timeout: Float. Sleep for up to that many seconds waiting for should_stop() to become True.

        Returns:
          True if the Coordinator is told stop, False if the timeout expired.
        """
        return self._stop_event.wait(timeout)

    def register_thread(self, thread):
        """Register a thread to join.

        Args:
          thread: A Python thread to join.
        """
        with self._lock:
            self._registered_threads.add(thread)

    def join(self, threads=None, stop_grace_period_secs=120, ignore_live_threads=False):
        """Wait for threads to terminate.

        This call blocks until a set of threads have terminated: the threads passed and those
        registered with `register_thread`. After the threads stop, if an exception was passed to
        `request_stop`, that exception is re-raised. Once `request_stop()` has been called, threads
        have `stop_grace_period_secs` seconds to terminate; if any of them is still alive after
        that period, a `RuntimeError` is raised (unless `ignore_live_threads`).

        Args:
          threads: List of `threading.Threads`. The started threads to join in addition to the
            registered threads.
          stop_grace_period_secs: Number of seconds given to threads to stop after `request_stop()`.
          ignore_live_threads: If `False`, raises an error if any of the threads are still alive after
            `stop_grace_period_secs`.

        Raises:
          RuntimeError: If any thread is still alive after `request_stop()` is called and the grace
            period expires.
        """
        with self._lock:
            if threads is None:
                threads = self._registered_threads
            else:
                threads = self._registered_threads.union(set(threads))
            threads = list(threads)
        # Wait for all threads to stop or for request_stop() to be called.
        while any(t.is_alive() for t in threads) and not self.wait_for_stop(1.0):
            pass
        # If any thread is still alive, wait for the grace period to expire.
        stop_wait_secs = 0.001
        while any(t.is_alive() for t in threads) and stop_grace_period_secs >= 0.0:
            time.sleep(stop_wait_secs)
            stop_grace_period_secs -= stop_wait_secs
            stop_wait_secs = 2 * stop_wait_secs
            # Keep the waiting period within sane bounds.
            stop_wait_secs = max(min(stop_wait_secs, stop_grace_period_secs), 0.001)
        # List the threads still alive after the grace period.
        stragglers = [t.name for t in threads if t.is_alive()]
        # Terminate with an exception if appropriate.
        with self._lock:
            self._joined = True
            self._registered_threads = set()
            if self._exc_info_to_raise:
                _, ex_instance, tb = self._exc_info_to_raise
                raise ex_instance.with_traceback(tb)
            elif stragglers:
                if ignore_live_threads:
                    logging.info("Coordinator stopped with threads still running: %s", " ".join(stragglers))
                else:
                    raise RuntimeError("Coordinator stopped with threads still running: %s" % " ".join(stragglers))

    @property
    def joined(self):
        """Whether `join()` has been called."""
        return self._joined

    def raise_requested_exception(self):
        """If an exception has been passed to `request_stop`, this raises it."""
        with self._lock:
            if self._exc_info_to_raise:
                _, ex_instance, tb = self._exc_info_to_raise
                raise ex_instance.with_traceback(tb)


class LooperThread(threading.Thread):
    """A thread that runs code repeatedly, optionally on a timer.

    This thread class is intended to be used with a `Coordinator`: it repeatedly runs code
    specified either as `target` and `args` or by the `run_loop()` method, and stops when the
    coordinator requests a stop (exceptions it raises are reported to the coordinator).

    Args:
      coord: A Coordinator.
      timer_interval_secs: Time boundaries at which to call Run(), or None if it should be called
        back to back.
      target: Optional callable object that will be executed in the thread.
      args: Optional arguments to pass to `target` when calling it.
      kwargs: Optional keyword arguments to pass to `target` when calling it.

    Raises:
      ValueError: If one of the arguments is invalid.
    """

    def __init__(self, coord, timer_interval_secs, target=None, args=None, kwargs=None):
        if not isinstance(coord, Coordinator):
            raise ValueError("'coord' argument must be a Coordinator: %s" % coord)
        super().__init__()
        self.daemon = True
        self._coord = coord
        self._timer_interval_secs = timer_interval_secs
        self._target = target
        if self._target:
            self._args = args or ()
            self._kwargs = kwargs or {}
        elif args or kwargs:
            raise ValueError("'args' and 'kwargs' argument require that you also pass 'target'")
        self._coord.register_thread(self)

    @staticmethod
    def loop(coord, timer_interval_secs, target, args=None, kwargs=None):
        """Start a LooperThread that calls a function periodically.

        If `timer_interval_secs` is None the thread calls `target(*args, **kwargs)` repeatedly.
        Otherwise it calls it every `timer_interval_secs` seconds. The thread terminates when a stop
        is requested.

        Args:
          coord: A Coordinator.
          timer_interval_secs: Number. Time boundaries at which to call `target`.
          target: A callable object.
          args: Optional arguments to pass to `target` when calling it.
          kwargs: Optional keyword arguments to pass to `target` when calling it.

        Returns:
          The started thread.
        """
        looper = LooperThread(coord, timer_interval_secs, target=target, args=args, kwargs=kwargs)
        looper.start()
        return looper

    def run(self):
        with self._coord.stop_on_exception():
            self.start_loop()
            if self._timer_interval_secs is None:
                # Call back-to-back.
                while not self._coord.should_stop():
                    self.run_loop()
            else:
                # Next time at which to call run_loop(), starts as 'now'.
                next_timer_time = time.time()
                while not self._coord.wait_for_stop(next_timer_time - time.time()):
                    next_timer_time += self._timer_interval_secs
                    self.run_loop()
            self.stop_loop()

    def start_loop(self):
        """Called when the thread starts."""

    def stop_loop(self):
        """Called when the thread stops."""

    def run_loop(self):
        """Called at 'timer_interval_secs' boundaries."""
        if self._target:
            self._target(*self._args, **self._kwargs)
