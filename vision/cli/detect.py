"""`edgematch detect PHOTO`: number the tiles found and report their corners."""
from __future__ import annotations

import json

import click

from .errors import NotRecognised


@click.command()
@click.argument("photo")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document on stdout.")
@click.option("--out", type=click.Path(dir_okay=False), help="Write the photo with the tiles numbered.")
def detect(photo: str, as_json: bool, out: str | None) -> None:
    """Find the tiles in PHOTO: ids, and NW, NE, SE, SW corners in pixels.

    Ids follow the reading order of the tile centres (rows top to bottom,
    then left to right); a tile's N side is the side facing most upward.
    These are the ids and corners `solve` reports for the same photo.
    Exits 3 when the tiles found do not make a puzzle (the drawing shows them).
    """
    # Imported here: the vision modules import vision.cli.errors, which loads this package.
    from ..detect import photo_tiles
    from ..misfits import problem
    from ..draw import number_tiles
    from ..images import in_photo, read_photo, write_image

    found, tiles = photo_tiles(read_photo(photo), photo)  # a big JPEG is read shrunk, as `solve` reads it
    if out:
        write_image(out, number_tiles(found.image, tiles))
    corners = [[[round(float(x), 2), round(float(y), 2)] for x, y in in_photo(tile, found.shrink)] for tile in tiles]
    if as_json:
        click.echo(json.dumps({"input": photo, "tiles": [
            {"id": number, "corners": quad} for number, quad in enumerate(corners, 1)]}))
    else:
        for number, quad in enumerate(corners, 1):
            click.echo(f"tile {number}: " + "  ".join(f"({x:.1f}, {y:.1f})" for x, y in quad))
    trouble = problem(tiles)
    if trouble:
        raise NotRecognised(f"{photo}: {trouble}")
