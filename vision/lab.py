"""OpenCV's Lab tables, filled on another core from the moment OpenCV loads.

OpenCV fills them on the first conversion to Lab (8-bit or float alike),
which every photo reader makes: some 0.16 s of one core, the longest wait
between a 12 MP solve's start and its first look for tiles. What else comes
first (the photo's decode, click, the solve command and the photo path's
imports) runs beside it; so the filling starts before any of that loads.
This module imports OpenCV and numpy and nothing else that costs.
"""
from __future__ import annotations

import threading
from functools import cache

import cv2
import numpy as np


@cache
def ready_lab() -> threading.Thread:
    """Start filling OpenCV's Lab tables on another core; the thread doing it.

    Started before a photo is read (by `vision.images.read_image`, or earlier
    by a caller that knows a photo is coming), the filling runs beside the
    decode; `read_image` waits for it, so no other conversion meets the
    tables half-filled.

    >>> ready_lab().join(); ready_lab() is ready_lab()
    True
    """
    thread = threading.Thread(target=cv2.cvtColor, args=(np.zeros((1, 1, 3), np.uint8), cv2.COLOR_BGR2LAB),
                              daemon=True)
    thread.start()
    return thread
