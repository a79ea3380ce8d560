"""`tf.keras.layers`: core, convolution, pooling, normalization and embedding layers, `Input`, `InputLayer`,
`InputSpec` and the `Layer` base."""

from ..engine.base_layer import InputSpec, Layer
from ..engine.input_layer import Input, InputLayer
from .convolutional import (
    Conv1D,
    Conv2D,
    Conv2DTranspose,
    Convolution1D,
    Convolution2D,
    Convolution2DTranspose,
    Cropping2D,
    DepthwiseConv2D,
    SeparableConv2D,
    SeparableConvolution2D,
    UpSampling2D,
    ZeroPadding2D,
)
from .core import Activation, Dense, Dropout, Flatten, Lambda, Permute, RepeatVector, Reshape
from .embeddings import Embedding
from .normalization import BatchNormalization, LayerNormalization
from .pooling import (
    AveragePooling1D,
    AveragePooling2D,
    AvgPool1D,
    AvgPool2D,
    GlobalAveragePooling1D,
    GlobalAveragePooling2D,
    GlobalAvgPool1D,
    GlobalAvgPool2D,
    GlobalMaxPool1D,
    GlobalMaxPool2D,
    GlobalMaxPooling1D,
    GlobalMaxPooling2D,
    MaxPool1D,
    MaxPool2D,
    MaxPooling1D,
    MaxPooling2D,
)

__all__ = ["Activation", "AveragePooling1D", "AveragePooling2D", "AvgPool1D", "AvgPool2D", "BatchNormalization",
           "Conv1D", "Conv2D", "Conv2DTranspose", "Convolution1D", "Convolution2D", "Convolution2DTranspose",
           "Cropping2D", "Dense", "DepthwiseConv2D", "Dropout", "Embedding", "Flatten", "GlobalAveragePooling1D",
           "GlobalAveragePooling2D", "GlobalAvgPool1D", "GlobalAvgPool2D", "GlobalMaxPool1D", "GlobalMaxPool2D",
           "GlobalMaxPooling1D", "GlobalMaxPooling2D", "Input", "InputLayer", "InputSpec", "Lambda", "Layer",
           "LayerNormalization", "MaxPool1D", "MaxPool2D", "MaxPooling1D", "MaxPooling2D", "Permute", "RepeatVector",
           "Reshape", "SeparableConv2D", "SeparableConvolution2D", "UpSampling2D", "ZeroPadding2D"]
