"""`tf.quantization`: fake quantization, quantize/dequantize to TF's quantized types, and simulated
quantization (`quantize_and_dequantize`)."""

from .ops.quantization_fake_ops import (
                                        fake_quant_with_min_max_args,
                                        fake_quant_with_min_max_args_gradient,
                                        fake_quant_with_min_max_vars,
                                        fake_quant_with_min_max_vars_gradient,
                                        fake_quant_with_min_max_vars_per_channel,
                                        fake_quant_with_min_max_vars_per_channel_gradient,
)
from .ops.quantization_ops import (
                                        dequantize,
                                        quantize,
                                        quantize_and_dequantize,
                                        quantize_and_dequantize_v2,
                                        quantized_concat,
)

__all__ = ["dequantize", "fake_quant_with_min_max_args", "fake_quant_with_min_max_args_gradient",
           "fake_quant_with_min_max_vars", "fake_quant_with_min_max_vars_gradient",
           "fake_quant_with_min_max_vars_per_channel", "fake_quant_with_min_max_vars_per_channel_gradient", "quantize",
           "quantize_and_dequantize", "quantize_and_dequantize_v2", "quantized_concat"]
