"""`tf.keras.layers`: core, convolution, pooling, merge, advanced activation, noise, normalization, embedding,
recurrent (incl. ConvLSTM2D) and wrapper layers, `Input`, `InputLayer`, `InputSpec` and the `Layer` base."""

from ..engine.base_layer import InputSpec, Layer
from ..engine.input_layer import Input, InputLayer
from .advanced_activations import ELU, LeakyReLU, PReLU, ReLU, Softmax, ThresholdedReLU
from .convolutional import (
    Conv1D,
    Conv2D,
    Conv2DTranspose,
    Conv3D,
    Conv3DTranspose,
    Convolution1D,
    Convolution2D,
    Convolution2DTranspose,
    Convolution3D,
    Convolution3DTranspose,
    Cropping1D,
    Cropping2D,
    Cropping3D,
    DepthwiseConv2D,
    LocallyConnected1D,
    LocallyConnected2D,
    SeparableConv1D,
    SeparableConv2D,
    SeparableConvolution1D,
    SeparableConvolution2D,
    UpSampling1D,
    UpSampling2D,
    UpSampling3D,
    ZeroPadding1D,
    ZeroPadding2D,
    ZeroPadding3D,
)
from .convolutional_recurrent import ConvLSTM2D
from .core import Activation, Dense, Dropout, Flatten, Lambda, Masking, Permute, RepeatVector, Reshape
from .embeddings import Embedding
from .merge import (
    Add,
    Average,
    Concatenate,
    Dot,
    Maximum,
    Minimum,
    Multiply,
    Subtract,
    add,
    average,
    concatenate,
    dot,
    maximum,
    minimum,
    multiply,
    subtract,
)
from .normalization import BatchNormalization, LayerNormalization
from .noise import (
    AlphaDropout,
    GaussianDropout,
    GaussianNoise,
    SpatialDropout1D,
    SpatialDropout2D,
    SpatialDropout3D,
)
from .pooling import (
    AveragePooling1D,
    AveragePooling2D,
    AveragePooling3D,
    AvgPool1D,
    AvgPool2D,
    AvgPool3D,
    GlobalAveragePooling1D,
    GlobalAveragePooling2D,
    GlobalAveragePooling3D,
    GlobalAvgPool1D,
    GlobalAvgPool2D,
    GlobalAvgPool3D,
    GlobalMaxPool1D,
    GlobalMaxPool2D,
    GlobalMaxPool3D,
    GlobalMaxPooling1D,
    GlobalMaxPooling2D,
    GlobalMaxPooling3D,
    MaxPool1D,
    MaxPool2D,
    MaxPool3D,
    MaxPooling1D,
    MaxPooling2D,
    MaxPooling3D,
)
from .recurrent import GRU, LSTM, RNN, GRUCell, LSTMCell, SimpleRNN, SimpleRNNCell, StackedRNNCells
from .wrappers import Bidirectional, TimeDistributed, Wrapper

__all__ = ["Activation", "Add", "AlphaDropout", "Average", "AveragePooling1D", "AveragePooling2D", "AveragePooling3D",
           "AvgPool1D", "AvgPool2D", "AvgPool3D", "BatchNormalization", "Bidirectional", "Concatenate", "Conv1D",
           "Conv2D", "Conv2DTranspose", "Conv3D", "Conv3DTranspose", "ConvLSTM2D", "Convolution1D", "Convolution2D",
           "Convolution2DTranspose", "Convolution3D", "Convolution3DTranspose", "Cropping1D", "Cropping2D",
           "Cropping3D", "Dense", "DepthwiseConv2D", "Dot", "Dropout", "ELU", "Embedding", "Flatten", "GRU", "GRUCell",
           "GaussianDropout", "GaussianNoise", "GlobalAveragePooling1D", "GlobalAveragePooling2D",
           "GlobalAveragePooling3D", "GlobalAvgPool1D", "GlobalAvgPool2D", "GlobalAvgPool3D", "GlobalMaxPool1D",
           "GlobalMaxPool2D", "GlobalMaxPool3D", "GlobalMaxPooling1D", "GlobalMaxPooling2D", "GlobalMaxPooling3D",
           "Input", "InputLayer", "InputSpec", "LSTM", "LSTMCell", "Lambda", "Layer", "LayerNormalization",
           "LeakyReLU", "LocallyConnected1D", "LocallyConnected2D", "Masking", "MaxPool1D", "MaxPool2D", "MaxPool3D",
           "MaxPooling1D", "MaxPooling2D", "MaxPooling3D", "Maximum", "Minimum", "Multiply", "PReLU", "Permute", "RNN",
           "ReLU", "RepeatVector", "Reshape", "SeparableConv1D", "SeparableConv2D", "SeparableConvolution1D",
           "SeparableConvolution2D", "SimpleRNN", "SimpleRNNCell", "Softmax", "SpatialDropout1D", "SpatialDropout2D",
           "SpatialDropout3D", "StackedRNNCells", "Subtract", "ThresholdedReLU", "TimeDistributed", "UpSampling1D",
           "UpSampling2D", "UpSampling3D", "Wrapper", "ZeroPadding1D", "ZeroPadding2D", "ZeroPadding3D", "add",
           "average", "concatenate", "dot", "maximum", "minimum", "multiply", "subtract"]
