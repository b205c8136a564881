"""The PNG writer (`vision.png`): every reader gets back the pixels written."""
import io

import cv2
import numpy as np
import pytest
from PIL import Image

from vision.images import read_image, write_image
from vision.png import png_bytes

RNG = np.random.default_rng(7)


@pytest.mark.parametrize("image", [
    RNG.integers(0, 256, (37, 53, 3), dtype=np.uint8),  # BGR
    RNG.integers(0, 256, (5, 7), dtype=np.uint8),  # grey
    RNG.integers(0, 256, (9, 4, 4), dtype=np.uint8),  # BGRA
    RNG.integers(0, 256, (1, 1, 3), dtype=np.uint8),  # one pixel: no row above any
    RNG.integers(0, 256, (40, 30, 3), dtype=np.uint8)[::2, ::3],  # strided, as a crop of a photo is
], ids=["bgr", "grey", "bgra", "pixel", "strided"])
def test_opencv_and_pillow_read_back_the_pixels_written(image):
    data = png_bytes(image)
    assert np.array_equal(cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED), image)
    seen = np.asarray(Image.open(io.BytesIO(data)))  # RGB(A): the file's own order
    if image.ndim == 3:
        seen = cv2.cvtColor(seen, cv2.COLOR_RGB2BGR if image.shape[2] == 3 else cv2.COLOR_RGBA2BGRA)
    assert np.array_equal(seen, image)


def test_an_answer_image_is_written_as_opencv_wrote_it_pixel_for_pixel(tmp_path):
    sheet = np.full((300, 200, 3), 245, np.uint8)  # paper, a photo and marks, as `draw.annotate` makes
    sheet[20:180] = RNG.integers(0, 256, (160, 200, 3), dtype=np.uint8)
    cv2.putText(sheet, "R1 C2", (20, 250), cv2.FONT_HERSHEY_DUPLEX, 1.5, (40, 40, 40), 3, cv2.LINE_AA)
    write_image(tmp_path / "answer.png", sheet)
    ok, theirs = cv2.imencode(".png", sheet)
    assert ok and np.array_equal(read_image(tmp_path / "answer.png"), cv2.imdecode(theirs, cv2.IMREAD_COLOR))


@pytest.mark.parametrize("image", [np.zeros((4, 4, 3), np.uint16), np.zeros((4, 4, 2), np.uint8)], ids=["16 bit", "2 channels"])
def test_pixels_png_bytes_does_not_write_are_refused(image):
    with pytest.raises(ValueError):
        png_bytes(image)
