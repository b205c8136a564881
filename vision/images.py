"""Read and write images as a user sees them.

Images are NumPy arrays, BGR, uint8, shape (rows, cols, 3), as OpenCV keeps
them. `read_image` applies the EXIF orientation a phone records, so pixel
coordinates everywhere in edgematch are those of the picture as the user sees
it. `write_image` never leaves a half-written file behind. `across_channels`
reduces an image over its channels, far faster than numpy over a short last axis;
`colourless` tells a picture with no colour.
"""
from __future__ import annotations

import mmap
import os
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import BinaryIO, NamedTuple

import cv2
import numpy as np

from .cli.errors import InputError
from .files import write_atomic
from .lab import ready_lab


# A JPEG is decoded shrunk in its DCT (libjpeg: 1/2, 1/4, 1/8), several times faster than whole,
# down to this long side at least: tiles are sought on a 1024 px copy and read 96 px wide.
READ_SIDE = 2000
_REDUCED = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
            8: cv2.IMREAD_REDUCED_COLOR_8}


class Photo(NamedTuple):
    """A photo as decoded: its image and how many of the photo's pixels one of the image's spans across."""

    image: np.ndarray
    shrink: int = 1


def read_photo(path: str | os.PathLike, side: int | None = None) -> Photo:
    """A photo decoded as small as reading it allows: a JPEG whose long side is ``side`` (`READ_SIDE`) or more
    is shrunk by the largest of 2, 4, 8 that leaves it so; any other image is read whole (`read_image`).

    Points found in the image are the photo's by `in_photo`.

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "grey.jpg")
    >>> write_image(path, np.full((60, 80, 3), 128, np.uint8))
    >>> photo = read_photo(path, side=20)
    >>> photo.image.shape, photo.shrink
    ((15, 20, 3), 4)
    """
    size = jpeg_size(path)
    long_side = max(size) if size else 0
    least = READ_SIDE if side is None else side
    shrink = max((f for f in _REDUCED if long_side >= f * least), default=1)
    image = read_image(path, shrink)
    # read whole after all when OpenCV could not and Pillow did
    return Photo(image, round(long_side / max(image.shape[:2])) if shrink > 1 else 1)


def in_photo(points: np.ndarray, shrink: int) -> np.ndarray:
    """``points`` in a `Photo`'s image pixels as the photo's own pixels (float32).

    Image pixel ``i`` averages photo pixels ``shrink * i`` to ``shrink * i + shrink - 1``: their middle.

    >>> in_photo(np.float32([[0, 0], [10, 5]]), 2).tolist()
    [[0.5, 0.5], [20.5, 10.5]]
    """
    points = np.float32(points)
    return points if shrink == 1 else (points + 0.5) * shrink - 0.5


def in_image(points: np.ndarray, shrink: int) -> np.ndarray:
    """The photo's pixels as a `Photo`'s image pixels (float32): `in_photo` undone.

    >>> in_image(np.float32([[20.5, 10.5]]), 2).tolist()
    [[10.0, 5.0]]
    """
    points = np.float32(points)
    return points if shrink == 1 else (points + 0.5) / shrink - 0.5


def jpeg_size(path: str | os.PathLike) -> tuple[int, int] | None:
    """A JPEG's width and height as stored, from its frame header; None for anything else.

    Reads the markers only (a few hundred bytes past the EXIF block), not the picture:
    Pillow's ``Image.open`` would tell it too, but its imports and set-up cost 40-60 ms
    on the decode's path, which a 12 MP solve waits on.

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "grey.jpg")
    >>> write_image(path, np.zeros((6, 10, 3), np.uint8))
    >>> jpeg_size(path), jpeg_size(path + ".png")
    ((10, 6), None)
    """
    try:
        with open(path, "rb") as file:
            for marker in _markers(file):
                if marker in _FRAMES:
                    frame = file.read(5)  # precision, height, width
                    return (int.from_bytes(frame[3:5], "big"), int.from_bytes(frame[1:3], "big")) \
                        if len(frame) == 5 else None
    except OSError:
        pass
    return None


def jpeg_cut_short(path: str | os.PathLike) -> bool:
    """True for a JPEG whose file ends part way through its picture (a copy or upload cut short).

    A decoder fills the missing rows with grey, says so on stderr and gives no error:
    the tiles there would be lost without a word. False for anything else.

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "noise.jpg")
    >>> write_image(path, np.random.default_rng(0).integers(0, 256, (64, 64, 3), np.uint8))
    >>> whole = open(path, "rb").read()
    >>> _ = open(path, "wb").write(whole[:len(whole) // 2])
    >>> jpeg_cut_short(path), jpeg_cut_short(path + ".png")
    (True, False)
    """
    try:
        with open(path, "rb") as file:
            for marker in _markers(file):
                if marker == 0xDA:  # start of scan: the picture's coded data, which only EOI ends
                    with mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as data:
                        return data.rfind(b"\xff\xd9", file.tell()) < 0  # EOI, sought from the end, where it lies
    except (OSError, ValueError):
        pass
    return False


def _markers(file: BinaryIO) -> Iterator[int]:
    """Each header segment's marker of the JPEG ``file``, read just past the segment's length.

    Stops at the first byte that is no marker where one should be (or at once for a file that
    is no JPEG): the decoder judges such a file.
    """
    if file.read(2) != b"\xff\xd8":
        return
    while True:
        marker = file.read(4)
        if len(marker) < 4 or marker[0] != 0xFF:
            return
        if marker[1] == 0xFF:  # a fill byte before the marker
            file.seek(-3, os.SEEK_CUR)
            continue
        payload = file.tell()
        yield marker[1]
        file.seek(payload + int.from_bytes(marker[2:4], "big") - 2)


# start-of-frame markers (baseline, progressive, lossless...): not DHT 0xC4, JPG 0xC8, DAC 0xCC
_FRAMES = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


def read_image(path: str | os.PathLike, shrink: int = 1) -> np.ndarray:
    """Read a photo or scan as a BGR uint8 array, EXIF orientation applied.

    Reads jpg, png, tif, webp, bmp and gif (its first frame); heic and heif
    with the ``heic`` extra (pillow-heif).

    Parameters
    ----------
    path : str or path-like
        The image file.
    shrink : 1, 2, 4 or 8
        A JPEG is decoded this many times smaller on each side, in its DCT
        (`read_photo` picks it); use only on a JPEG: anything else OpenCV
        decodes whole and shrinks without smoothing.

    Returns
    -------
    image : (rows, cols, 3) uint8 ndarray
        Blue, green, red.

    Raises
    ------
    InputError
        One line naming the file when it is missing, is not an image or is a JPEG cut short.

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
    if jpeg_cut_short(path):
        raise InputError(f"{path}: the file ends part way through the picture (cut short while copying?)")
    lab = ready_lab()
    try:
        # IMREAD_COLOR and its reduced forms apply the EXIF orientation and drop alpha.
        image = cv2.imread(str(path), _REDUCED[shrink])
        if image is None:
            image = _read_with_pillow(path)
    finally:
        lab.join()  # a process that ends while OpenCV still fills them aborts
    if image is None or image.size == 0:
        raise InputError(f"{path}: not an image edgematch can read")
    return image


def read_ahead(path: str | os.PathLike) -> Future:
    """`read_photo` started on another thread: ``.result()`` gives the `Photo` or raises its error.

    Decoding a 12 MP JPEG (about 0.1 s) holds no Python lock, so a caller
    that knows a photo is coming lets it run beside its own imports.

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "grey.png")
    >>> write_image(path, np.full((4, 6, 3), 128, np.uint8))
    >>> read_ahead(path).result().image.shape
    (4, 6, 3)
    """
    reader = ThreadPoolExecutor(1)
    decoding = reader.submit(read_photo, path)
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


def colourless(image: np.ndarray) -> bool:
    """True for a picture with no colour to speak of: a grey scan, a black-and-white filter.

    Figures told apart by colour alone look alike in it. JPEG's colour noise
    spreads a grey pixel's channels by a few levels; every colour photo of
    tiles tried spreads a hundredth of its pixels by 88 or more.

    >>> grey = np.full((40, 40, 3), 128, np.uint8)
    >>> red = grey.copy(); red[:8, :8] = (0, 0, 255)
    >>> colourless(grey), colourless(red)
    (True, False)
    """
    sample = image[::4, ::4]  # a sixteenth is plenty, and a 12 MP photo's whole would take 50 ms
    spread = across_channels(np.maximum, sample) - across_channels(np.minimum, sample)
    return bool(np.percentile(spread, 99) < 24)


def _read_with_pillow(path: Path) -> np.ndarray | None:
    """Pillow reads what OpenCV was built without (some gif, tif, webp; HEIC, an iPhone's
    photos, with pillow-heif, which turns them as their orientation says)."""
    from PIL import Image, ImageOps, UnidentifiedImageError

    if path.suffix.lower() in (".heic", ".heif"):
        try:
            from pillow_heif import register_heif_opener
        except ImportError:
            raise InputError(f"{path}: a HEIC photo needs pillow-heif: pip install 'edgematch[heic]'"
                             " (or save the photo as JPEG)") from None
        register_heif_opener()
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
    if suffix.lower() == ".png":  # the answer's format: `vision.png` writes it in a quarter of OpenCV's CPU
        from .png import png_bytes  # here: a photo's decode starts before ISA-L loads

        write_atomic(path, png_bytes(image))
        return
    try:
        ok, encoded = cv2.imencode(suffix, image)
    except cv2.error:
        ok = False
    if not ok:
        raise InputError(f"{path}: cannot write an image of this type (use .png or .jpg)")
    write_atomic(path, encoded.tobytes())
