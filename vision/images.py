"""Read and write images as a user sees them.

Images are NumPy arrays, BGR, uint8, shape (rows, cols, 3), as OpenCV keeps
them. `read_image` applies the EXIF orientation a phone records, so pixel
coordinates everywhere in edgematch are those of the picture as the user sees
it. `write_image` never leaves a half-written file behind. `across_channels`
reduces an image over its channels, far faster than numpy over a short last axis.
"""
from __future__ import annotations

import os
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from .cli.errors import InputError
from .files import write_atomic


def read_image(path: str | os.PathLike) -> np.ndarray:
    """Read a photo or scan as a BGR uint8 array, EXIF orientation applied.

    Reads jpg, png, tif, webp, bmp and gif (its first frame).

    Parameters
    ----------
    path : str or path-like
        The image file.

    Returns
    -------
    image : (rows, cols, 3) uint8 ndarray
        Blue, green, red.

    Raises
    ------
    InputError
        One line naming the file when it is missing or is not an image.

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "grey.png")
    >>> write_image(path, np.full((4, 6, 3), 128, np.uint8))
    >>> read_image(path).shape
    (4, 6, 3)
    """
    path = Path(path)
    if not path.exists():
        raise InputError(f"{path}: no such file")
    if path.is_dir():
        raise InputError(f"{path}: is a folder, not an image")
    lab = ready_lab()
    # IMREAD_COLOR applies the EXIF orientation and drops alpha.
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        image = _read_with_pillow(path)
    lab.join()
    if image is None or image.size == 0:
        raise InputError(f"{path}: not an image edgematch can read")
    return image


def read_ahead(path: str | os.PathLike) -> Future:
    """`read_image` started on another thread: ``.result()`` gives the image or raises its error.

    Decoding a 12 MP JPEG (about 0.1 s) holds no Python lock, so a caller
    that knows a photo is coming lets it run beside its own imports.

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "grey.png")
    >>> write_image(path, np.full((4, 6, 3), 128, np.uint8))
    >>> read_ahead(path).result().shape
    (4, 6, 3)
    """
    reader = ThreadPoolExecutor(1)
    decoding = reader.submit(read_image, path)
    reader.shutdown(wait=False)  # the thread ends once the photo is read
    return decoding


def across_channels(ufunc: np.ufunc, image: np.ndarray) -> np.ndarray:
    """``ufunc`` reduced over an image's channels (its last axis).

    numpy reduces a short last axis pixel by pixel, some ten to thirty times
    slower than this, which works on whole channel planes (same values).

    >>> image = np.uint8([[[10, 200, 30], [0, 5, 1]]])
    >>> across_channels(np.maximum, image).tolist(), across_channels(np.add, image * 1.0).tolist()
    ([[200, 5]], [[240.0, 6.0]])
    """
    return ufunc.reduce([image[..., channel] for channel in range(image.shape[-1])])


@cache
def ready_lab() -> threading.Thread:
    """Start filling OpenCV's Lab tables on another core; the thread doing it.

    OpenCV fills them on the first conversion to Lab, which every photo
    reader makes: 60 ms or more, longer than decoding a 12 MP JPEG. Started
    before the photo is read (by `read_image`, or earlier by a caller that
    knows a photo is coming), that runs beside the decode; `read_image` waits
    for it, so no other conversion meets the tables half-filled.
    """
    thread = threading.Thread(target=cv2.cvtColor, args=(np.zeros((1, 1, 3), np.uint8), cv2.COLOR_BGR2LAB),
                              daemon=True)
    thread.start()
    return thread


def _read_with_pillow(path: Path) -> np.ndarray | None:
    """Pillow reads what OpenCV was built without (some gif, tif, webp)."""
    from PIL import Image, ImageOps, UnidentifiedImageError

    try:
        with Image.open(path) as picture:
            picture.seek(0)
            rgb = ImageOps.exif_transpose(picture).convert("RGB")
            return cv2.cvtColor(np.asarray(rgb), cv2.COLOR_RGB2BGR)
    except (UnidentifiedImageError, OSError, ValueError):
        return None


def write_image(path: str | os.PathLike, image: np.ndarray) -> None:
    """Write an image atomically: the file is whole or untouched.

    The format follows the file extension (png, jpg, tif, webp, bmp). The
    image goes to a temporary file in the same folder, which then replaces
    `path` in one step, so an interrupted run never leaves half a file.

    Parameters
    ----------
    path : str or path-like
        Where to write.
    image : (rows, cols, 3) or (rows, cols) uint8 ndarray
        BGR or grey.

    Raises
    ------
    InputError
        One line naming the file when it cannot be written.

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "black.jpg")
    >>> write_image(path, np.zeros((8, 8, 3), np.uint8))
    >>> os.path.exists(path)
    True
    """
    path = Path(path)
    suffix = path.suffix or ".png"
    # PNG rows filtered against the row above: 5% less CPU than OpenCV's default
    # (against the pixel to the left) and 2-5% smaller answers, the same pixels
    png = [cv2.IMWRITE_PNG_FILTER, cv2.IMWRITE_PNG_FILTER_UP] if suffix.lower() == ".png" else []
    try:
        ok, encoded = cv2.imencode(suffix, image, png)
    except cv2.error:
        ok = False
    if not ok:
        raise InputError(f"{path}: cannot write an image of this type (use .png or .jpg)")
    write_atomic(path, encoded.tobytes())
