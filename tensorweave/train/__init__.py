"""`tf.train`: optimizers, the global step and learning-rate schedules."""

from .learning_rate_decay import (
    cosine_decay,
    cosine_decay_restarts,
    exponential_decay,
    inverse_time_decay,
    linear_cosine_decay,
    natural_exp_decay,
    noisy_linear_cosine_decay,
    piecewise_constant,
    piecewise_constant_decay,
    polynomial_decay,
)
from ..ops.example_proto import (BytesList, Example, Feature, FeatureList, FeatureLists, Features, FloatList,
                                 Int64List, SequenceExample)
from .optimizer import Optimizer
from .optimizers import (
    AdadeltaOptimizer,
    AdagradOptimizer,
    AdamOptimizer,
    FtrlOptimizer,
    GradientDescentOptimizer,
    MomentumOptimizer,
    ProximalAdagradOptimizer,
    ProximalGradientDescentOptimizer,
    RMSPropOptimizer,
)
from .moving_averages import ExponentialMovingAverage
from .summary_iterator import summary_iterator
from .checkpoint_management import (
    CheckpointState,
    checkpoint_exists,
    generate_checkpoint_state_proto,
    get_checkpoint_mtimes,
    get_checkpoint_state,
    latest_checkpoint,
    remove_checkpoint,
    update_checkpoint_state,
)
from .checkpoint_utils import (
    NewCheckpointReader,
    init_from_checkpoint,
    list_variables,
    load_checkpoint,
    load_variable,
)
from ..graph_io import write_graph
from .saver import MetaGraphDef, Saver, SaverDef, export_meta_graph, import_meta_graph
from .session_run_hook import SessionRunArgs, SessionRunContext, SessionRunHook, SessionRunValues
from .basic_session_run_hooks import (CheckpointSaverHook, CheckpointSaverListener, FeedFnHook, FinalOpsHook,
                                      LoggingTensorHook, NanLossDuringTrainingError, NanTensorHook, ProgressBarHook,
                                      SecondOrStepTimer, StepCounterHook, StopAtStepHook, SummarySaverHook)
from .monitored_session import (ChiefSessionCreator, MonitoredSession, MonitoredTrainingSession, Scaffold,
                                SessionCreator, SingularMonitoredSession, WorkerSessionCreator)
from .session_manager import SessionManager
from . import experimental
from .training_util import (
    assert_global_step,
    create_global_step,
    get_global_step,
    get_or_create_global_step,
    global_step,
)

__all__ = ["AdadeltaOptimizer", "AdagradOptimizer", "AdamOptimizer", "GradientDescentOptimizer", "MomentumOptimizer",
           "Optimizer", "RMSPropOptimizer", "assert_global_step", "cosine_decay", "cosine_decay_restarts",
           "create_global_step", "exponential_decay", "get_global_step", "get_or_create_global_step", "global_step",
           "inverse_time_decay", "linear_cosine_decay", "natural_exp_decay", "piecewise_constant", "polynomial_decay"]
__all__ += ["CheckpointState", "MetaGraphDef", "NewCheckpointReader", "Saver", "SaverDef", "checkpoint_exists",
            "export_meta_graph", "generate_checkpoint_state_proto", "get_checkpoint_mtimes", "get_checkpoint_state",
            "import_meta_graph", "init_from_checkpoint", "latest_checkpoint", "list_variables", "load_checkpoint",
            "load_variable", "remove_checkpoint", "update_checkpoint_state"]
__all__ += ["CheckpointSaverHook", "CheckpointSaverListener", "ChiefSessionCreator", "FeedFnHook", "FinalOpsHook",
            "LoggingTensorHook", "MonitoredSession", "MonitoredTrainingSession", "NanLossDuringTrainingError",
            "NanTensorHook", "Scaffold", "SecondOrStepTimer", "SessionCreator", "SessionRunArgs", "SessionRunContext",
            "SessionRunHook", "SessionRunValues", "SingularMonitoredSession", "StepCounterHook", "StopAtStepHook",
            "SummarySaverHook", "WorkerSessionCreator", "ProgressBarHook"]
__all__ += ["ExponentialMovingAverage", "FtrlOptimizer", "ProximalAdagradOptimizer", "ProximalGradientDescentOptimizer",
            "summary_iterator"]

# [queue input pipelines: queues, queue runners, coordinator, input producers, batching]
from . import queue_runner  # noqa: E402
from .coordinator import Coordinator, LooperThread  # noqa: E402
from .queue_runner import QueueRunner, add_queue_runner, start_queue_runners  # noqa: E402
from .input import (batch, batch_join, input_producer, limit_epochs, maybe_batch, maybe_batch_join,  # noqa: E402
                    maybe_shuffle_batch, maybe_shuffle_batch_join, range_input_producer, shuffle_batch,
                    shuffle_batch_join, slice_input_producer, string_input_producer)
__all__ += ["Coordinator", "LooperThread", "QueueRunner", "add_queue_runner", "batch", "batch_join", "input_producer",
            "limit_epochs", "maybe_batch", "maybe_batch_join", "maybe_shuffle_batch", "maybe_shuffle_batch_join",
            "queue_runner", "range_input_producer", "shuffle_batch", "shuffle_batch_join", "slice_input_producer",
            "start_queue_runners", "string_input_producer"]

# [train misc: Supervisor, basic loops, warm starting, cluster specs, AdagradDA, extra hooks]
from .optimizers_da import AdagradDAOptimizer  # noqa: E402
from .supervisor import Supervisor  # noqa: E402
from .basic_loops import basic_train_loop, checkpoints_iterator  # noqa: E402
from .warm_starting import VocabInfo, warm_start  # noqa: E402
from .cluster import ClusterDef, ClusterSpec, JobDef, replica_device_setter  # noqa: E402
from .extra_hooks import GlobalStepWaiterHook, ProfilerHook  # noqa: E402
from ..ops.training_sdca_ops import sdca_fprint, sdca_shrink_l1  # noqa: E402
__all__ += ["AdagradDAOptimizer", "ClusterDef", "ClusterSpec", "GlobalStepWaiterHook", "JobDef", "Supervisor",
            "VocabInfo", "basic_train_loop", "checkpoints_iterator", "replica_device_setter", "sdca_fprint",
            "sdca_shrink_l1", "warm_start"]
from ..io.files import match_filenames_once  # noqa: E402

__all__ += ["ProfilerHook", "match_filenames_once"]
