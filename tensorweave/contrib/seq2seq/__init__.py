"""`tf.contrib.seq2seq`: decoders, helpers, attention and beam search for sequence-to-sequence models
(TF 1.15's `tensorflow/contrib/seq2seq`)."""

from .basic_decoder import BasicDecoder, BasicDecoderOutput
from .decoder import Decoder, dynamic_decode
from .helper import (CustomHelper, GreedyEmbeddingHelper, Helper, InferenceHelper, SampleEmbeddingHelper,
                     ScheduledEmbeddingTrainingHelper, ScheduledOutputTrainingHelper, TrainingHelper)
from .loss import sequence_loss
from ...ops.seq2seq_ops import gather_tree

__all__ = ["BasicDecoder", "BasicDecoderOutput", "CustomHelper", "Decoder", "GreedyEmbeddingHelper", "Helper",
           "InferenceHelper", "SampleEmbeddingHelper", "ScheduledEmbeddingTrainingHelper",
           "ScheduledOutputTrainingHelper", "TrainingHelper", "dynamic_decode", "gather_tree", "sequence_loss"]
from .attention_wrapper import (AttentionMechanism, AttentionWrapper, AttentionWrapperState,  # noqa: E402
                                BahdanauAttention, BahdanauMonotonicAttention, LuongAttention,
                                LuongMonotonicAttention, hardmax, monotonic_attention, safe_cumprod)
from .beam_search_decoder import (BeamSearchDecoder, BeamSearchDecoderOutput, BeamSearchDecoderState,  # noqa: E402
                                  FinalBeamSearchDecoderOutput, gather_tree_from_array, tile_batch)

__all__ += ["AttentionMechanism", "AttentionWrapper", "AttentionWrapperState", "BahdanauAttention", "LuongAttention",
            "hardmax", "BahdanauMonotonicAttention", "LuongMonotonicAttention", "monotonic_attention", "safe_cumprod",
            "BeamSearchDecoder", "BeamSearchDecoderOutput", "BeamSearchDecoderState",
            "FinalBeamSearchDecoderOutput", "gather_tree_from_array", "tile_batch"]

# TF 1.15's namespace holds the names of `__all__` only: the implementation submodules (attention_wrapper,
# basic_decoder, ...) stay importable by their paths but are not attributes.
for _name in ("attention_wrapper", "basic_decoder", "beam_search_decoder", "decoder", "helper", "loss"):
    globals().pop(_name, None)
