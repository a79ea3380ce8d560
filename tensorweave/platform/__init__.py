"""The bottom layer: process-level utilities that know nothing of graphs, used by every layer above
(TF's `tensorflow/python/platform`): the floating-point error state kernels run under (`fpstate`),
the BLAS and intra-op thread counts (`threads`), and where the custom-op C header lives
(`sysconfig`, public as `tf.sysconfig`)."""
