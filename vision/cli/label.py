"""`edgematch label`: teach a library a puzzle's halves from one photo.

Three ways, from most typing to least:

    edgematch label PHOTO --library DIR --codes CODES.json
        CODES.json gives each tile's codes, keyed by `detect`'s tile ids,
        edges N E S W in the reading orientation: {"1": [1, -4, -3, 2], ...}
    edgematch label PHOTO --library DIR --sheet groups.png
        groups the photo's edges into lookalike halves, draws them (one row
        per group, A, B, ...) and writes groups.json beside the sheet
    edgematch label PHOTO --library DIR --groups groups.json
        after the person wrote a code for each group in groups.json
"""
from __future__ import annotations

import json
from pathlib import Path

import click

from solver.rules import Match, normalise_code

from .errors import InputError
from .solve import write_json

SIDES = "NESW"


@click.command()
@click.argument("photo", type=click.Path(dir_okay=False))
@click.option("--library", required=True, type=click.Path(file_okay=False),
              help="Library folder to add to (made if new or empty).")
@click.option("--codes", type=click.Path(dir_okay=False),
              help='JSON of each tile\'s codes by tile id: {"1": [N, E, S, W], ...}.')
@click.option("--sheet", type=click.Path(dir_okay=False),
              help="Write a contact sheet of lookalike groups here, and a groups JSON beside it.")
@click.option("--groups", type=click.Path(dir_okay=False),
              help="A groups JSON from --sheet with a code written for every group.")
@click.option("--match", "match", default=None,
              help="The match rule the codes follow (signed, sum:K, same); default the library's, else signed.")
def label(photo: str, library: str, codes: str | None, sheet: str | None, groups: str | None,
          match: str | None) -> int:
    """Store the edges of PHOTO in a template library under the codes you give."""
    # vision.cli loads with every command; the photo path loads when used
    from ..group import contact_sheet, group_name, lookalikes
    from ..images import read_image, write_image
    from ..library import add_edges, existing_library
    from ..pipeline import photo_edges

    if sum(x is not None for x in (codes, sheet, groups)) != 1:
        raise click.UsageError("give exactly one of --codes, --sheet or --groups")
    try:
        Match.parse(match)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--match") from None
    known = existing_library(library)  # its puzzle's count, when taught before, finds the tiles
    edges = photo_edges(read_image(photo), count=known.tiles if known else None, name=photo)
    n = len(edges.corners)
    if sheet:
        labels = lookalikes(edges.crops)
        captions = [f"{e // 4 + 1}{SIDES[e % 4]}" for e in range(4 * n)]
        write_image(sheet, contact_sheet(edges.crops, labels, captions))
        template = Path(sheet).with_suffix(".json")
        write_json(str(template), {
            "photo": str(photo),
            "codes": {group_name(g): None for g in range(int(labels.max()) + 1)},
            "tiles": {str(i + 1): [group_name(g) for g in labels[4 * i:4 * i + 4]] for i in range(n)},
        })
        click.echo(f"{photo}: {n} tiles, {int(labels.max()) + 1} lookalike groups drawn in {sheet}; "
                   f"write a code for each group in {template}, then run --groups {template}")
        return 0
    by_tile = _codes(codes, n) if codes else _groups(groups, n)
    chosen = sorted(by_tile)
    stored = add_edges(library, [edges.crops[4 * (t - 1) + k] for t in chosen for k in range(4)],
                       [code for t in chosen for code in by_tile[t]],
                       [{"photo": Path(photo).name, "tile": t, "side": SIDES[k]} for t in chosen for k in range(4)],
                       match=match, tiles=n)
    click.echo(f"{library}: stored {4 * len(chosen)} edges of {len(chosen)} tiles from {photo} "
               f"({len(stored.codes)} edges, {len(set(stored.codes))} codes in the library)")
    doubt = _rule_doubt(stored.codes, Match.parse(stored.match))
    if doubt:
        click.echo(f"edgematch: {library}: {doubt}", err=True)
    return 0


def _rule_doubt(codes: list, rule: Match) -> str | None:
    """What is wrong when most of a library's codes have no partner under its rule: likely the
    wrong rule (the witch puzzle's halves add up to 9, typed in with the default, signed), else None.

    A few may lack one (a half seen only on the rim, tiles still to label), so most must.

    >>> for part in _rule_doubt([1, 8, 2, 7, 3, 6], Match.parse("signed")).split(": "):
    ...     print(part)
    none of the 6 codes has a partner under the signed rule (1 fits -1)
    if they add up to 9, label again with --match sum:9
    >>> _rule_doubt([1, -1, 2, -2, 3], Match.parse("signed")) is None
    True
    """
    codes = set(codes)
    alone = [c for c in codes if rule.partner(c) not in codes]
    if 2 * len(alone) <= len(codes):
        return None
    doubt = (f"none of the {len(codes)} codes has a partner" if len(alone) == len(codes)
             else f"{len(alone)} of the {len(codes)} codes have no partner") + f" under the {rule.describe()} rule"
    example = min(codes, key=str)
    if rule.partner(example) is not None:
        doubt += f" ({example} fits {rule.partner(example)})"
    numbers = [c for c in codes if isinstance(c, int)]
    if len(numbers) == len(codes) and rule.kind != "sum":
        total = min(numbers) + max(numbers)
        if all(total - c in codes for c in codes):
            doubt += f": if they add up to {total}, label again with --match sum:{total}"
    return doubt


def _load(path: str) -> dict:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise InputError(f"{path}: cannot read: {error.strerror}") from None
    except ValueError as error:
        raise InputError(f"{path}: not JSON: {error}") from None
    if not isinstance(data, dict):
        raise InputError(f"{path}: expected a JSON object")
    return data


def _codes(path: str, n: int, given: dict | None = None) -> dict:
    """Tile id -> four codes, from a CODES.json keyed by detect's tile ids."""
    by_tile = {}
    for key, edges in (_load(path) if given is None else given).items():
        if not (key.isdigit() and 1 <= int(key) <= n):
            raise InputError(f"{path}: tile {key!r} is not one of the photo's tiles 1..{n}")
        if not isinstance(edges, list) or len(edges) != 4:
            raise InputError(f"{path}: tile {key} needs four codes [N, E, S, W]")
        try:
            by_tile[int(key)] = [normalise_code(c) for c in edges]
        except ValueError as error:
            raise InputError(f"{path}: tile {key}: {error}") from None
    if not by_tile:
        raise InputError(f"{path}: no tiles given")
    return by_tile


def _groups(path: str, n: int) -> dict:
    """Tile id -> four codes, from a groups JSON whose groups now have codes."""
    data = _load(path)
    names, tiles = data.get("codes"), data.get("tiles")
    if not isinstance(names, dict) or not isinstance(tiles, dict):
        raise InputError(f"{path}: not a groups file from --sheet (needs 'codes' and 'tiles')")
    if len(tiles) != n:
        raise InputError(f"{path}: made for {len(tiles)} tiles, but the photo has {n}")
    missing = sorted(name for name, code in names.items() if code is None)
    if missing:
        raise InputError(f"{path}: write a code for group{'s' if len(missing) > 1 else ''} {', '.join(missing)}")
    by_tile = {}
    for key, letters in tiles.items():
        letters = letters if isinstance(letters, list) else [letters]
        unknown = [g for g in letters if g not in names]
        if unknown:
            raise InputError(f"{path}: tile {key} names group {unknown[0]!r}, which has no code")
        by_tile[key] = [names[g] for g in letters]
    return _codes(path, n, by_tile)
