"""`tf.train.ClusterSpec` (TF's training/server_lib.py), the `ClusterDef`/`JobDef` messages, and
`tf.train.replica_device_setter` (training/device_setter.py): the description of a distributed
cluster, and a device function that places variables round-robin on its parameter servers."""

from .. import tf_logging as logging
from ..framework.device import DeviceSpec
from ..summary.messages import LazyMessageClass

__all__ = ["ClusterDef", "ClusterSpec", "JobDef", "replica_device_setter"]

ClusterDef = LazyMessageClass("cluster_pb2", "ClusterDef")
JobDef = LazyMessageClass("cluster_pb2", "JobDef")


def _is_cluster_def(obj):
    return type(obj).__name__ == "ClusterDef" and hasattr(obj, "job")


class ClusterSpec:
    """Represents a cluster as a set of "tasks", organized into "jobs".

        cluster = tf.train.ClusterSpec({"worker": ["worker0.example.com:2222", "worker1.example.com:2222"],
                                        "ps": ["ps0.example.com:2222"]})

    A job's tasks are a list (task `i` is the i-th address) or a dict from task index to address
    (a sparse job).

    Args:
      cluster: A dict mapping job names to lists or dicts of network addresses, a `ClusterDef`
        message, or a `ClusterSpec`.

    Raises:
      TypeError: If `cluster` is none of those, or a job's tasks are neither a list nor a dict.
    """

    def __init__(self, cluster):
        if isinstance(cluster, dict):
            self._cluster_spec = {}
            for job_name, tasks in cluster.items():
                if isinstance(tasks, (list, tuple)):
                    job_tasks = {i: task for i, task in enumerate(tasks)}
                elif isinstance(tasks, dict):
                    job_tasks = {int(i): task for i, task in tasks.items()}
                else:
                    raise TypeError("The tasks for job %r must be a list or a dictionary from integers to strings."
                                    % job_name)
                self._cluster_spec[job_name] = job_tasks
        elif isinstance(cluster, ClusterSpec):
            self._cluster_spec = {job: dict(tasks) for job, tasks in cluster._cluster_spec.items()}
        elif _is_cluster_def(cluster):
            self._cluster_spec = {job_def.name: dict(job_def.tasks.items()) for job_def in cluster.job}
        else:
            raise TypeError("`cluster` must be a dictionary mapping one or more job names to lists of network "
                            "addresses, or a `ClusterDef` protocol buffer")
        for job_name, tasks in self._cluster_spec.items():
            if not isinstance(job_name, (str, bytes)):
                raise TypeError("Job name %r must be bytes or unicode" % (job_name,))
            for address in tasks.values():
                if not isinstance(address, (str, bytes)):
                    raise TypeError("Task address %r must be bytes or unicode" % (address,))

    def __bool__(self):
        return bool(self._cluster_spec)

    def __eq__(self, other):
        return self._cluster_spec == other

    def __ne__(self, other):
        return self._cluster_spec != other

    __hash__ = None

    def __repr__(self):
        key_values = self.as_dict()
        string_items = [repr(k) + ": " + repr(key_values[k]) for k in sorted(key_values)]
        return "ClusterSpec({" + ", ".join(string_items) + "})"

    def as_dict(self):
        """A dict from job names to task lists (dense jobs) or dicts from task index to address
        (sparse jobs; `{}` for a job without tasks)."""
        ret = {}
        for job in self.jobs:
            task_indices = self.task_indices(job)
            if not task_indices:
                ret[job] = {}
            elif max(task_indices) + 1 == len(task_indices):
                ret[job] = self.job_tasks(job)
            else:
                ret[job] = {i: self.task_address(job, i) for i in task_indices}
        return ret

    def as_cluster_def(self):
        """The cluster as a `tf.train.ClusterDef` message (jobs sorted by name, names and
        addresses as text). Needs the `tensorboard` extra for the message class."""
        cluster_def = ClusterDef()
        for job_name, tasks in sorted(self._cluster_spec.items()):
            job_def = cluster_def.job.add()
            job_def.name = job_name.decode() if isinstance(job_name, bytes) else job_name
            for i, address in sorted(tasks.items()):
                job_def.tasks[i] = address.decode() if isinstance(address, bytes) else address
        return cluster_def

    @property
    def jobs(self):
        """The list of job names."""
        return list(self._cluster_spec.keys())

    def _job(self, job_name):
        try:
            return self._cluster_spec[job_name]
        except KeyError:
            raise ValueError("No such job in cluster: %r" % (job_name,)) from None

    def num_tasks(self, job_name):
        """The number of tasks of job `job_name`.

        Raises:
          ValueError: If there is no such job.
        """
        return len(self._job(job_name))

    def task_indices(self, job_name):
        """The sorted task indices of job `job_name`.

        Raises:
          ValueError: If there is no such job.
        """
        return list(sorted(self._job(job_name).keys()))

    def task_address(self, job_name, task_index):
        """The address of task `task_index` of job `job_name`.

        Raises:
          ValueError: If there is no such job or task.
        """
        job = self._job(job_name)
        try:
            return job[task_index]
        except KeyError:
            raise ValueError("No task with index %r in job %r" % (task_index, job_name)) from None

    def job_tasks(self, job_name):
        """The addresses of job `job_name`'s tasks, indexed by task (None for indices a sparse job lacks).

        Raises:
          ValueError: If there is no such job.
        """
        job = self._job(job_name)
        ret = [None for _ in range(max(job.keys()) + 1)] if job else []
        for i, task in job.items():
            ret[i] = task
        return ret


STANDARD_PS_OPS = ("Variable", "VariableV2", "AutoReloadVariable", "MutableHashTable", "MutableHashTableV2",
                   "MutableHashTableOfTensors", "MutableHashTableOfTensorsV2", "MutableDenseHashTable",
                   "MutableDenseHashTableV2", "VarHandleOp", "BoostedTreesEnsembleResourceHandleOp",
                   "BoostedTreesQuantileStreamResourceHandleOp", "ResourceConditionalAccumulator",
                   "DecisionTreeResource")


class _RoundRobinStrategy:
    """Returns the next ps task index, in turn, for each placed op."""

    def __init__(self, num_tasks):
        self._num_tasks = num_tasks
        self._next_task = 0

    def __call__(self, unused_op):
        task = self._next_task
        self._next_task = (self._next_task + 1) % self._num_tasks
        return task


class _ReplicaDeviceChooser:
    """The device function of `replica_device_setter` (TF's `_ReplicaDeviceChooser`)."""

    def __init__(self, ps_tasks, ps_device, worker_device, merge_devices, ps_ops, ps_strategy):
        self._ps_tasks = ps_tasks
        self._ps_device = ps_device
        self._worker_device = worker_device
        self._merge_devices = merge_devices
        self._ps_ops = ps_ops
        self._ps_strategy = ps_strategy

    def device_function(self, op):
        if not self._merge_devices and op.device:
            return op.device
        current_device = DeviceSpec.from_string(op.device or "")
        op_type = op.op if type(op).__name__ == "NodeDef" else op.type
        if self._ps_tasks and self._ps_device and op_type in self._ps_ops:
            ps_device = DeviceSpec.from_string(self._ps_device)
            current_job, ps_job = current_device.job, ps_device.job
            if ps_job and (not current_job or current_job == ps_job):
                ps_device = ps_device.replace(task=self._ps_strategy(op))
            return ps_device.make_merged_spec(current_device).to_string()
        worker_device = DeviceSpec.from_string(self._worker_device or "")
        return worker_device.make_merged_spec(current_device).to_string()


def replica_device_setter(ps_tasks=0, ps_device="/job:ps", worker_device="/job:worker", merge_devices=True,
                          cluster=None, ps_ops=None, ps_strategy=None):
    """A device function for `tf.device` that places variables (ops of `ps_ops`) on the parameter
    server tasks, one after the other (round-robin, or as `ps_strategy` chooses), and the other ops
    on `worker_device`. Device fields set by inner `tf.device` scopes are kept.

        with tf.device(tf.train.replica_device_setter(ps_tasks=3)):
            v1 = tf.Variable(...)  # /job:ps/task:0
            v2 = tf.Variable(...)  # /job:ps/task:1

    Args:
      ps_tasks: Number of ps tasks (ignored when `cluster` is given).
      ps_device: The ps job's device string.
      worker_device: The worker device string.
      merge_devices: If True, merge the device fields of the op into the chosen device; if False,
        an op that already has a device keeps it.
      cluster: A `ClusterSpec` or dict: the number of ps tasks is the size of `ps_device`'s job.
      ps_ops: The op types placed on the ps (default: variable and mutable table ops).
      ps_strategy: A callable `op -> ps task index` (default: round-robin).

    Returns:
      The device function, or None when there are no ps tasks.

    Raises:
      TypeError: If `ps_strategy` is not callable, or `cluster` is not a `ClusterSpec` or dict.
    """
    if cluster is not None:
        cluster_spec = (cluster if isinstance(cluster, ClusterSpec) else ClusterSpec(cluster)).as_dict()
        ps_job_name = DeviceSpec.from_string(ps_device).job
        if ps_job_name not in cluster_spec or cluster_spec[ps_job_name] is None:
            return None
        ps_tasks = len(cluster_spec[ps_job_name])
    if ps_tasks == 0:
        return None
    if ps_ops is None:
        ps_ops = list(STANDARD_PS_OPS)
    if not merge_devices:
        logging.warning("DEPRECATION: It is recommended to set merge_devices=true in replica_device_setter")
    if ps_strategy is None:
        ps_strategy = _RoundRobinStrategy(ps_tasks)
    if not callable(ps_strategy):
        raise TypeError("ps_strategy must be callable")
    chooser = _ReplicaDeviceChooser(ps_tasks, ps_device, worker_device, merge_devices, ps_ops, ps_strategy)
    return chooser.device_function
