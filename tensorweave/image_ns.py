"""`tf.image`: image resizing and manipulation (each op defined in the `ops.image_*_ops` modules)."""

from .ops.image_boxes_ops import (
    combined_non_max_suppression,
    crop_and_resize,
    non_max_suppression,
    non_max_suppression_overlaps,
    non_max_suppression_padded,
    non_max_suppression_with_scores,
)
from .ops.image_codec_ops import (
    adjust_jpeg_quality,
    decode_and_crop_jpeg,
    decode_bmp,
    decode_gif,
    decode_image,
    decode_jpeg,
    decode_png,
    decode_webp,
    encode_jpeg,
    encode_png,
    extract_jpeg_shape,
    is_jpeg,
    random_jpeg_quality,
)
from .ops.image_color_ops import (
    adjust_brightness,
    adjust_contrast,
    adjust_gamma,
    convert_image_dtype,
    grayscale_to_rgb,
    per_image_standardization,
    random_brightness,
    random_contrast,
    rgb_to_grayscale,
    rgb_to_yiq,
    rgb_to_yuv,
    yiq_to_rgb,
    yuv_to_rgb,
)
from .ops.image_hsv_ops import (
    adjust_hue,
    adjust_saturation,
    hsv_to_rgb,
    random_hue,
    random_saturation,
    rgb_to_hsv,
)
from .ops.image_metrics_ops import image_gradients, psnr, sobel_edges, total_variation
from .ops.image_patch_ops import (
    draw_bounding_boxes,
    extract_glimpse,
    extract_image_patches,
    extract_patches,
    sample_distorted_bounding_box,
)
from .ops.image_resize_ops import (
    ResizeMethod,
    resize_area,
    resize_bicubic,
    resize_bilinear,
    resize_images,
    resize_nearest_neighbor,
)
from .ops.image_ssim_ops import ssim, ssim_multiscale
from .ops.image_transform_ops import (
    central_crop,
    crop_to_bounding_box,
    flip_left_right,
    flip_up_down,
    pad_to_bounding_box,
    random_crop,
    random_flip_left_right,
    random_flip_up_down,
    resize_image_with_crop_or_pad,
    resize_image_with_pad,
    rot90,
    transpose_image,
)

resize = resize_images
resize_with_crop_or_pad = resize_image_with_crop_or_pad
transpose = transpose_image

__all__ = ["adjust_jpeg_quality", "combined_non_max_suppression", "crop_and_resize", "decode_and_crop_jpeg",
           "decode_bmp", "decode_gif", "decode_image", "decode_jpeg", "decode_png", "decode_webp",
           "draw_bounding_boxes", "encode_jpeg", "encode_png", "extract_glimpse", "extract_image_patches",
           "extract_jpeg_shape", "extract_patches", "is_jpeg", "non_max_suppression", "non_max_suppression_overlaps",
           "non_max_suppression_padded", "non_max_suppression_with_scores", "random_jpeg_quality",
           "sample_distorted_bounding_box", "ssim", "ssim_multiscale"]
__all__ += ["ResizeMethod", "adjust_brightness", "adjust_contrast", "adjust_gamma", "adjust_hue", "adjust_saturation",
           "central_crop", "convert_image_dtype", "crop_to_bounding_box", "flip_left_right", "flip_up_down",
           "grayscale_to_rgb", "hsv_to_rgb", "image_gradients", "pad_to_bounding_box", "per_image_standardization",
           "psnr", "random_brightness", "random_contrast", "random_crop", "random_flip_left_right",
           "random_flip_up_down", "random_hue", "random_saturation", "resize", "resize_area", "resize_bicubic",
           "resize_bilinear", "resize_image_with_crop_or_pad", "resize_image_with_pad", "resize_images",
           "resize_nearest_neighbor", "resize_with_crop_or_pad", "rgb_to_grayscale", "rgb_to_hsv", "rgb_to_yiq",
           "rgb_to_yuv", "rot90", "sobel_edges", "total_variation", "transpose", "transpose_image", "yiq_to_rgb",
           "yuv_to_rgb"]
