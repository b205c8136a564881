"""Find the tiles in a photo or scan: one quadrilateral per tile.

The way a person does it: see what is not table, take each patch of it as a
tile, or as a block of tiles laid edge to edge that the straight seams cut
into cells, then put a ruler along each side to place the corners exactly.

1. `table_mask` (`vision.table`): the table is what the photo's border shows. Its colours
   (several, for wood grain or cloth) are learnt from a band along the border,
   with the light falling unevenly across it, and from plain patches alike
   (a cloth's checks the border missed: `_plain_patches`); whatever is far
   from all of them is tile. If that finds no puzzle, a second look takes
   the ground as plain (catalogue shots, white pages), and a third tells
   card from table by its sharp print (`texture_mask`).
2. `blocks` (`vision.blocks`): each patch's outline, simplified to the smallest quadrilateral
   around it; patches that are no tile (round, plain, cut by the photo's
   edge: `cut_off`) are dropped, and a printed sheet is looked into
   (`on_sheet`).
3. `seam_grid`, `cells`: a block is split into rows x cols square cells
   where seams run straight across it (the gap or cut line between
   touching tiles); lone tiles' size checks the count (`sized_grids`).
4. `refine` (`vision.corners`): at full resolution, each side's edge is found along the side's
   normal (the outermost line of steps running the side: `_outermost_line`,
   or of fainter ones beside it, a printed border's cut edge: `_cut_edge`;
   a tile's side the mask turned is sought along the others: `_squared`)
   and a line is fitted to it (on the card's face, not the band of its cut
   side: `_face_sides`); the corners are where lines meet.
5. `shape_misfits` (`vision.misfits`): the tiles check each other's shape under perspective; a
   tile that lost a strip to the table takes the shape the others give it
   where its edge is found there (`_reshaped`).
6. `problem` (`vision.misfits`) says, in one line, what keeps the tiles found from being a
   puzzle (missing, extra, overlapping, misshapen, out of shape).
7. `seek_lost` (`vision.seek`): when no look found a puzzle, or only one
   grouped from a broken frame's pieces, or with a side along no step at all,
   or a third of one on bare table
   (`_edgeless`, `_astray`: a tile stretched over the table or its shadow,
   a block's outline off by a slant), the tiles the looks agree on (sharp
   on every side, one shape across the photo: `_sound`, two at least) say
   how a tile looks at each place; where bits of card lie that none
   accounts for (a card glare washed to the table's white), a square of that
   look is laid along the colour steps and refined; if that makes no
   puzzle, again where the print look's bits lie (a card the table's
   colour, in shadow on wood). Nine that fill one block but lie across
   each other (touching cards' frames meeting with no step between) give
   the block's even cells (`_touching_cards`), as does one block a look cut
   into more tiles than the puzzle has, along its figures, last before giving
   up (`_print_cut_cards`). Light cards whose faces glare
   washed to a light desk's colour are seen where the colour or the print
   look sees card (`_joined_cards`): where the first look's refused puzzle
   comes back from its own tiles, and last before giving up; last of all,
   cards whose grey frames lie beside a cloth's dark checks are seen on
   each pixel's brightest channel (`_grey_framed`), the print look's
   nine a search refused for a side on bare table are laid again from the
   view the others give (`_edged_nine`: a card in shade on dark wood),
   the cards a search on the print look's bits laid are judged short of
   their card from their cut edges (`_framed_nine`: small cards far off,
   the print look's mask swollen past them), and the sound tiles the colour
   and print looks see together are searched from (`_joined_sought`:
   light-blue cards on blue and white checks, each look seeing bits; worn
   cards on wood, the two seeing one tile a card, a few sound).
   The first look's puzzle with a side on no card's edge, given where
   nothing better was found, is first sought from its tiles as refined,
   before `_reshaped` moved any (`_refined_sought`: two cards run into
   dark checks bent the fit it moved right cards by).

Steps 1 to 3 run on a copy about `WORK_SIDE` pixels wide, so finding tiles
costs the same for a 1 MP scan and a 48 MP photo; only step 4 reads the full
resolution, and only along the tile sides.

Corners come as NW, NE, SE, SW in the *reading orientation*: the N side is the
side facing most upward in the image. Tiles come in reading order: centres in
rows top to bottom (rows follow the tiles' own tilt), then left to right.
"""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from functools import cache, partial

import cv2
import numpy as np

from .blocks import (ASTRAY, block_size, blocks, bridge_kernel, cells, cloth_blocks, cut_off, framed_seams, on_sheet,
                     outline_quad, seam_grid, seam_profiles, sided_quad, sized_grids, speck, swung, tile_share,
                     weakest_seam)
from .corners import clockwise, contrasts, fence, nearest_quad, refine, sharpness, side_steps
from .images import Photo, read_image
from .misfits import (MISFIT, expected_forms, form_at, lying_across, misfit_among, problem, shape_misfits, sides_ratio,
                      stretch_from, stretches_from, tile_forms, view_misfits)
from .seek import (ALL_ROUND, cells_apart, cut_out, edged_again, edged_all_round, laid_cards, laid_from_neighbours,
                   lost_laid, mean_sides, on_any, on_card, overlaps, relaid, seek_lost)
from .table import LINE, cloth_checks, table_mask, texture_mask

WORK_SIDE = 1024      # long side of the working copy, pixels
GROWN = 1.12          # most a print-look tile's area may exceed the colour look's (`_gaps_taken`)
SHARP = 0.25         # least step along a sound tile's side, to the usual (`_agreeing`)
EDGELESS = 0.12      # a side with a step this much weaker than the usual runs along no card's edge (`_edgeless`)
BARE = 0.06          # a third of a side facing the table, this much less sharp than such sides, is on bare table
SHARPER = 2.0        # steps along one look's sides this many times as sharp as another's overrule it (`_sharper`)
GLARED = 0.25        # how far apart a glared card's bits may lie, in sides, when one card is left (`_from_sound`)
GAPS = 0.25          # least share of a block outside its cards refined apart a cloth's checks cover (`_cloth_between`)
SMALL_TILE = 160     # tiles found in a photo decoded shrunk with sides shorter than this (pixels) are found again whole
LOOSE = 0.05         # the least gap to every other tile, in sides, of a tile whose sides `_framed_out` moves
OFF_PUZZLE = 0.4     # least share of the outline round a puzzle a patch of card off it covers, to be cards left out
ACROSS = 0.05        # most share of the smaller of two cards `_block_cards` lays that they may share


def find_tiles(image: np.ndarray) -> list[np.ndarray]:
    """Every tile in the photo, as its four corners, in reading order.

    Parameters
    ----------
    image : (rows, cols, 3) uint8 ndarray
        The photo, BGR, as `vision.images.read_image` gives it.

    Returns
    -------
    tiles : list of (4, 2) float32 ndarrays
        Each tile's NW, NE, SE, SW corners in ``image`` pixels (x, y), N side
        facing most upward; listed in reading order, so tile id = index + 1.

    Examples
    --------
    >>> table = np.full((300, 400, 3), (40, 90, 140), np.uint8)
    >>> for x, y in ((60, 50), (240, 60)):
    ...     table[y:y + 100, x:x + 100] = (200, 60, 60)
    ...     table[y + 30:y + 70, x + 30:x + 70] = (60, 200, 200)  # a picture
    >>> [np.round(tile[0], -1).tolist() for tile in find_tiles(table)]  # NW corners
    [[60.0, 50.0], [240.0, 60.0]]
    """
    small = _working_copy(image)
    scale = small.shape[1] / image.shape[1]
    # Lightness tells tile from table less than colour does under uneven light;
    # on a plain, evenly lit ground (catalogue shots, white pages) it tells more;
    # card the table's colour (faded card on wood, white on a white desk) is
    # told by its sharp print; a card whose dark frame glare or a dark check
    # broke, by the frame's pieces around its figures (`table_mask`'s ``framed``).
    colour = table_mask(small)
    refined = []  # the first look's tiles before `_reshaped` moved any, searched from last (`_refined_sought`)
    first = _tiles_seen(image, small, scale, colour, refined=refined)
    # A lone card whose print's lines at its thirds fake seams, the only patch
    # this look outlines, is a puzzle of nine cells to it; the cards it left
    # out lie off it (hard sports scattered 5520): sought as no puzzle is.
    puzzle = problem(first) is None and not _cards_off(colour, scale, first)
    steps = [side_steps(image, tile) for tile in first]  # read once for the checks of its sides below
    # A puzzle most of whose outline is far fainter than its clearest side
    # may be outlined off its cards (a block's corner lost to glare, the
    # outline slanted across the cards): a later look whose sides run along
    # steps twice as sharp is taken instead; none, and it stands.
    edgeless = puzzle and _edgeless(image, first, steps)
    faint = puzzle and not edgeless and _faint(image, first, steps)
    if puzzle and not edgeless and not faint:
        return _framed_out(image, scale, first)
    # On a plain ground a printed border may be the table's colour too: the
    # card's edge is sought further out. (The print look's mask reaches the
    # card's edge, and its drop shadow's: not further.) Colour breaks a tile
    # up or runs tiles together, never makes them look larger than they are:
    # a later look whose tiles are far smaller than the first look's cut
    # tiles into bits (a grid of a tile's print). Unless the first look's
    # tiles, no puzzle, run over bare table: figures of several light cards
    # on a light desk, run together across their frames, tell no tile's size.
    sized = puzzle or not (first and _edgeless(image, first, steps))
    size = np.median([cv2.contourArea(tile) for tile in first]) if len(first) >= 2 and sized else 0
    # Tiles that are sound but too few hold blocks seen whole: a later look
    # must account for all of each, along seams this look sees (`_cut_apart`).
    whole = sized and problem(first, len(first)) is None
    # A puzzle the first look saw, a side of it on no edge, has its count right: a tile is misplaced.
    # A faint one may be a grid the art fakes in a block outlined off its cards (hard meadow 3268 on
    # red gingham: 6x6 cells 40-75% off, the plain look's nine within 3.4% along steps twice as sharp).
    count = len(first) if puzzle and not faint else None
    # Each look's mask is made only when the looks before it found no puzzle (along steps).
    # A card grouped from a broken frame's pieces may take in its cut side or
    # shadow (a card with no printed frame, on a white desk; a lit desk beside
    # a block's column): then an earlier look's sides run along steps twice as
    # sharp (`_sharper`), and that look's puzzle is taken only when the tiles
    # the looks agree on (below) make none.
    looks = ((partial(table_mask, plain=True), True, 0.12, True), (texture_mask, False, 0.06, True),
             (partial(table_mask, framed=True), False, 0.06, False))
    every, printed, gapped = [first], None, []
    # A checked cloth's coloured checks, told once when first asked: for a
    # block's cards apart (`_cloth_between`) and for the blocks below.
    cloth_at = cache(partial(cloth_checks, small))
    seen_by = [(colour, False, 0.06, first)]  # each look's mask, as `_tiles_seen` takes it, and its tiles
    for look, plain, reach, at_once in looks:
        mask = look(small)
        printed = mask if look is texture_mask else printed  # the lost-tile search's second place to look
        seen = _tiles_seen(image, small, scale, mask, plain, reach)
        seen_by.append((mask, plain, reach, seen))  # to be seen again at the end
        cut = bool(seen) and (np.median([cv2.contourArea(tile) for tile in seen]) <= size / 2
                              or (whole and _cut_apart(small, colour, scale, first, seen)))
        # Unless the first look's outlines ran over bare table (a glared desk
        # joined to a block), where this look's tiles run along card edges.
        if not seen or (cut and not _sharper(image, seen, first)):
            continue  # tiles cut into bits
        if not plain and _gaps_taken(image, first, seen):
            gapped.append(seen)  # a loose grid run into a block, cut across its gaps; or not (below)
            continue
        # The framed look (the one not taken at once) groups what a card's hull reaches: loose cards
        # on a checked cloth, whose gaps show dark slivers of its checks, join into one block, cut
        # into even cells across the gaps (hard lookalikes loose 4266 on red gingham: 9.6-17.9%
        # off, inner sides on steps of 4-9). Each cell refined alone finds its card; the cloth
        # shows between them. Between touching cards refined so lie their frames (hard lookalikes
        # touching 4525 and 4553: their cells within 1.6%, moved 5-7% in onto the frames' inner lines).
        if not at_once and problem(seen, count) is None and (block := _one_block(seen, len(seen))) is not None:
            apart = reading_order([orient(cell) for cell in cells_apart(image, scale, seen)])
            seen = apart if _laid_whole(apart, count) and _sharper(image, apart, seen) \
                and _cloth_between(cloth_at(), scale, block, apart) else seen
        if problem(seen, count) is None and not _edgeless(image, seen) \
                and (at_once or not any(_sharper(image, tiles, seen) for tiles in every if tiles)) \
                and (not faint or _sharper(image, seen, first)):
            return _framed_out(image, scale, seen)  # its worn frames' inner edges, as the first look's
        every.append(seen)
    if faint:
        return _framed_out(image, scale, first)
    # No look saw every tile whole: the tiles the looks agree on, and those
    # sought where bits of card lie that none of them accounts for. Unless
    # they are print on the cards of a block a checked cloth outlines (hard
    # lookalikes 2929: white cards on white checks, the figures' boxes, a
    # tenth of a card's area at most): squares their size sought over the
    # cloth are no cards (60 s of CPU in vain); the block's cards are laid
    # last, below.
    checks = cloth_at()  # the blocks below, and whether sides may be moved out at the end
    cloth = cloth_blocks(checks)
    sound = _sound(image, every)
    in_block = _print_in_block(sound, [block / scale for block in cloth], count)
    taken_for_print, sound = (sound, []) if in_block else ([], sound)
    # Three tell how the view changes across the photo (`form_at`); two, the
    # tile's size and a first guess at the view, which every tile sought
    # must fit, and the whole set then agree on (light-blue cards on blue
    # and white checks, only two of them sharp-sided: hard sports 1908).
    made = []  # the sets each search made, for `_touching_cards`
    refused = []  # the print look's tiles each search refused for a side along no card's edge, for the end
    print_laid = []  # each search on the print look's bits as it laid them, for the end
    found = _from_sound(image, small, scale, (colour, printed), sound, count, made, refused, print_laid) \
        if len(sound) >= 2 else None
    # Three sound tiles cannot check each other's shape (`_agreeing`): one
    # whose side runs along no card's edge among theirs (a shadow's, a
    # plank's) bends the view every tile is sought by (hard vintage 2336:
    # one 26% off, nothing found from the three, all nine from the other two).
    if found is None and len(sound) == 3 and (two := _sharp_sided(image, sound)) is not None:
        found = _from_sound(image, small, scale, (colour, printed), two, count, made, refused, print_laid)
    # Sound tiles on their worn frames' inner lines (vintage on wood) give a
    # view a few hundredths small: cards in shadow are sought onto their
    # shadows' steps, too large for it (hard vintage 3225: 18% off). From
    # the sound tiles at their cut edges (`cut_out`), they are not; only
    # from four or more, which check each other's shape (from three, one
    # 18% off, hard vintage 2665 gave a wrong nine on one view).
    if found is None and len(sound) > 3:
        found = _from_sound(image, small, scale, (colour, printed), cut_out(image, scale, sound), count, made,
                            refused, print_laid)
    # The first look's puzzle, refused for a side along no card's edge, comes back whole when its
    # own tiles are the sound ones: a block of light cards on a light desk whose top row glare
    # washed to the desk's colour, outlined on the rows left and cut 3x3 (hard sports touching
    # 4554: nine 38-54% off, a side on the cards' faces). Both looks together see the block whole.
    if found is not None and edgeless and _same_tiles(found, first) \
            and (joined := _joined_cards(image, small, scale, (colour, printed), count)) is not None:
        return joined
    if found is None:
        # The first look that saw a puzzle, though a side of it runs along no edge
        # or a broken frame's pieces made it; or, none, a block of cards each a little
        # turned, that no look cut along seams straight across it; or a block of
        # white cards on a cloth's white checks, that every look broke into bits
        # (hard lookalikes 2845), outlined where the cloth's coloured checks stop.
        # Those come first where the looks found only print in the block: a look's
        # puzzle then is outlined off the cards, onto the white checks (hard
        # lookalikes touching 3601: the framed look's nine 24-71% off, a side
        # along no card's edge; the cloth's cards within 1.9%). A block the cloth outlines holds
        # every card: one that leaves out a sound tile is loose cards and the white checks between
        # them (normal witches loose 5411 on red gingham: two by two cards cut 3x3, 36-44% off).
        # Next, a block of touching framed cards whose nine, a look's or sought, lie across each other
        # at the seams, each side at its own frame's inner line or the neighbour's (hard vintage
        # touching 3939 exit 3, normal 3575 the print look's nine 19% off): the block's even cells.
        # Then a look refused for taking in gaps, when it makes a puzzle on one
        # view along card edges: a block of touching cards has none, and the first look may have
        # left out their worn frames, the table's colour (hard vintage touching 3911 on wood: its
        # tiles 8-12% inside, at the frames' inner lines; the print look's nine within 2%, one 9.5%).
        laid = _cloth_cards(image, cloth, scale, count) if in_block else None
        laid = laid or _touching_cards(image, every + made, count)
        last = laid or next((tiles for tiles in every if problem(tiles) is None), None) \
            or _block_cards(image, scale, every, count) \
            or (None if in_block else _cloth_cards(image, cloth, scale, count, sound)) \
            or next((tiles for tiles in gapped if _laid_right(image, tiles, count, len(tiles))), None) or first
        if problem(last) is None or not any(every):
            given = _sided_for_edgeless(image, colour, scale, last, count)
            # The first look's puzzle, given though a side of it runs along no card's edge, may
            # owe that side to `_reshaped`: a tile it bent the fit with is sought from its own
            # tiles as refined (hard vintage loose 5164).
            found = _refined_sought(image, small, scale, (colour, printed), refined, count, sound) \
                if edgeless and given is first else None
            if found is None:
                return given
        else:
            # Sound tiles taken for print may be cards in a block outlined round the cloth's checks, not round cards.
            found = _print_sought(image, small, scale, (colour, printed), taken_for_print, count)
            if in_block and found is None:
                return last
        # Last before an exit 3: a look that cut glared cards into cells of their print (hard meadow
        # scattered 4178: the plain look's 13 tiles, 8 of them bits) has a usual side along no card's
        # edge, so bits as faint-sided pass as sound and, more of them, outweigh the look of card
        # edges: the search from them finds nothing. Judged by the usual step along the sharpest
        # look's sides, they are not sound.
        # Then, three sound tiles a look each (they cannot check each other's shape), the look with
        # most tile area may have outlined cards onto a check their colour (hard meadow scattered 4458
        # on green gingham: the plain look's three 2-21% off, the framed look's within 1.5% along
        # sharper steps): the tiles are based on the look whose sides run along the sharpest steps.
        # Before `_sided_cards`, whose outline of the colour look's largest patch may be one card: a
        # block a look cut into more tiles than the puzzle has, along figures lined up across it
        # under a steep view (hard vintage touching 4695: the print look's 8x8), gives its even cells.
        # Last, after `_sided_cards` and `_joined_cards`: a card's figures' boxes, seen by a look as
        # lone squares, may outnumber the card and set the tile's size, so every card is cut into
        # cells of its print (hard vintage loose 4492 under a steep view: card 6 into 4x4, fifteen
        # cells the sound tiles, 127 s of CPU to exit 3). The looks are seen again with lone tiles
        # sized by the largest. Then, on a checked cloth, grey frames beside its dark checks of a
        # strong hue are told on the brightest channel (`_grey_framed`: hard lookalikes scattered 4567).
        # Last, the print look's tiles a search refused for a side along no card's edge: a card in
        # shade on dark wood, its edges fainter than its print's, is laid along a red bar and out on
        # the wood (hard vintage scattered 4905: the nine found, card 9 7.8% off, its W side on bare
        # wood). Laid again from the view the eight others give (`_edged_nine`), it is not.
        # Last of all, the print look's searches judged again from the cards' cut edges: its mask
        # swells past small cards far off, which then count as short of their card (`_framed_nine`:
        # hard vintage scattered 4933). That nine is taken as judged: the moves below fit the shape
        # linear across the photo, far off at a steep view's far edge (its far card 9.2% -> 16.7%).
        # After all, the sound cards the colour and print looks see together, when they see no puzzle
        # (`_joined_sought`): light-blue cards on blue and white gingham, each look seeing bits of each
        # card, the two together four cards whole (hard sports loose 5107).
        searched = [sound]
        if found is None:
            usual = max(np.median([side_steps(image, tile) for tile in tiles]) for tiles in every if tiles)
            found = _searched_again(image, small, scale, (colour, printed), count, searched,
                                    (_sound(image, every, **how) for how in ({'usual': usual}, {'sharpest': True})),
                                    print_laid)
        if found is None and (cut := _print_cut_cards(image, every, count)):
            return cut
        if found is None and (sided := _sided_cards(image, colour, scale, count)):
            return sided
        joined_seen = []  # the tiles `_joined_cards` sees, searched from last
        if found is None and (joined := _joined_cards(image, small, scale, (colour, printed), count, joined_seen)):
            return joined
        if found is None:
            sized = _sound(image, [_tiles_seen(image, small, scale, mask, plain, reach, largest=True, seen=tiles)
                                   for mask, plain, reach, tiles in seen_by])
            found = _searched_again(image, small, scale, (colour, printed), count, searched, [sized], print_laid)
        if found is None and checks is not None:  # a cloth's checks of a strong hue, dark in lightness
            found = _grey_framed(image, small, scale, colour, every, count, searched)
        if found is None:
            found = next(filter(None, (_edged_nine(image, scale, tiles, count, sound) for tiles, sound in refused)),
                         None)
        if found is None and (framed := _framed_nine(image, scale, print_laid, count)) is not None:
            return framed
        if found is None:
            found = _joined_sought(image, small, scale, (colour, printed), joined_seen, count, searched)
        if found is None:
            return last
    # A look's tiles check each other's shape (`_tiles_seen`); these came
    # from several looks and the search: one that lost a strip to
    # table-coloured art (a red car along a sports card's side on red
    # checks, hard 2384: 11.5% off) is moved out to where the others say.
    # Vintage cards on wood, found or sought at their worn frames' printed
    # rule on a side or two (hard vintage 3981: 4-7% inside, an edge
    # misread), are moved out to their cut edges there (`cut_out`'s
    # ``ruled``), unless that makes no puzzle: a side moved onto a shadow.
    # Not on a checked cloth, whose checks' lines run past cards as cut edges
    # would (hard lookalikes 171 on white checks: a card moved 9.8% out).
    # Under a steep view the form `_reshaped` fits linear across the photo is far off at its
    # edge: the nearest card, found within 1%, was grown onto the wood, 2.6 times the others
    # (hard witches scattered 4396, tilt 34°); a set the moves leave no puzzle is taken as found.
    moved = None if checks is not None else \
        _reshaped(image, [orient(tile) for tile in cut_out(image, scale, found, ruled=True)])
    if moved is not None and problem(moved, count) is None:
        return reading_order(moved)
    reshaped = _reshaped(image, found)
    return reading_order(reshaped if problem(reshaped, count) is None else found)


def _searched_again(image: np.ndarray, small: np.ndarray, scale: float, masks: tuple, count: int | None,
                    searched: list[list[np.ndarray]], sounds,
                    print_laid: list | None = None) -> list[np.ndarray] | None:
    """The first puzzle `_from_sound` makes from ``sounds`` (sets of sound tiles, made one by one as
    needed), each of two tiles at least and unlike all ``searched``, to which each set searched in vain
    is added; else None. ``print_laid`` as `_from_sound`'s."""
    for sound in sounds:
        if len(sound) >= 2 and not any(_same_tiles(sound, tiles) for tiles in searched):
            found = _from_sound(image, small, scale, masks, sound, count, print_laid=print_laid)
            if found is not None:
                return found
            searched.append(sound)
    return None


def _framed_out(image: np.ndarray, scale: float, tiles: list[np.ndarray]) -> list[np.ndarray]:
    """``tiles`` (a look's puzzle), the loose ones moved out to their cut edges on sides found at a worn
    frame's inner edge (`cut_out`, ``ruled`` and ``banded``), where that still makes the puzzle.

    A look's puzzle is returned before the search, so P23's move of the
    search's tiles never reaches it: on hard vintage loose 4296 the colour
    look stops at the inner edge of frames the shadow makes the table's
    colour, where the car cabin's red body line runs along it (tile 7's W
    side 6.3% inside, the cabin read as the shield). Only a side whose band
    out to the cut edge shows the card's frame moves: on a white desk a
    side at its cut edge has a shadow's rim past it. Only a tile `LOOSE`
    of a side from every other: past a side at the cut edge of a card in
    a block lies the next card's border, the frame's colour (hard critters
    touching 3572: moved 7.9% out). A later look's puzzle, returned
    when the first look saw none, stops there alike (hard vintage loose
    5332 on wood, the plain look's: card 9's N side 6.3% in, the cabin
    read as the shield; 5185, card 7's N 4.2% in).
    """
    loose = [not overlaps(tile.mean(axis=0) + (1 + 2 * LOOSE) * (tile - tile.mean(axis=0)),
                          tiles[:i] + tiles[i + 1:], 0.0) for i, tile in enumerate(tiles)]
    if not any(loose):
        return tiles
    moved = [orient(out) if free else tile for tile, out, free in
             zip(tiles, cut_out(image, scale, tiles, ruled=True, banded=True, which=loose), loose)]
    if problem(moved, len(tiles)) is not None:
        return tiles
    # A tile no side of which moved is kept as found, not as its sides' lines meet again.
    return [tile if np.abs(tile - out).max() < 1e-3 else out for tile, out in zip(tiles, moved)]


def _grey_framed(image: np.ndarray, small: np.ndarray, scale: float, colour: np.ndarray,
                 looks: list[list[np.ndarray]], count: int | None, searched: list) -> list[np.ndarray] | None:
    """The puzzle of ``count`` sought (`_searched_again`, not again from ``searched``) from the sound tiles
    of ``looks`` and of the framed look that tells frames on each pixel's brightest channel
    (`vision.table.table_mask`'s ``brightest``), where the colour look (``colour``) or that look
    asking half a line's darkness sees card; else None. ``small``: the working copy, ``scale`` of ``image``.

    Last before an exit 3. White lookalike cards' grey frames on blue
    gingham (hard scattered 4567, a steep view) are darker than the white
    checks but not than the blue ones: every look saw only the three cards
    whose frames lie on white, one 13.5% off, and the cards sought from
    them lay 19-40% off. In the brightest channel the blue checks are light
    and the frames dark all round: seven cards within 5%. A card under the
    lamp's hotspot, its frame lifted to 5-8 below its face, shows only to
    a look asking half the darkness, whose outlines of the cards out of the
    glare take in their shadows' rims (6-7% off): the search looks there.
    """
    greyed, glared = (table_mask(small, framed=True, brightest=least) for least in (LINE, LINE / 2))
    sound = _sound(image, looks + [_tiles_seen(image, small, scale, greyed, False, 0.06)])
    return _searched_again(image, small, scale, (colour, glared), count, searched, [sound])


def _refined_sought(image: np.ndarray, small: np.ndarray, scale: float, masks: tuple, refined: list[np.ndarray],
                    count: int | None, sound: list[np.ndarray]) -> list[np.ndarray] | None:
    """The puzzle of ``count`` sought (`_searched_again`, with ``masks``, not again from ``sound``, the
    tiles searched from before) from the sound tiles of ``refined``, the first look's tiles as refined
    before `_reshaped` moved any; else None.

    Last before the first look's puzzle is given with a side along no
    card's edge (`_edgeless`). Hard vintage loose 5164 (green gingham, tilt
    24 degrees): dark checks in shade join two cards, refined 40-45% too
    tall; the straight-line fit they bend calls a card found within 0.4% the
    worst, and `_reshaped` grows it onto a white check's edge, then three
    more. The nine is edgeless, its sound tiles hold one 18.8% off, and the
    search from them finds nothing. The tiles as refined hold three within
    5.4%: sought from them, the nine lie within 9.3%.
    """
    return _searched_again(image, small, scale, masks, count, [sound], [_sound(image, [refined])])


def _cards_off(mask: np.ndarray, scale: float, tiles: list[np.ndarray]) -> bool:
    """Whether ``mask`` (of the working copy, ``scale`` of the photo) holds a patch off the outline
    round ``tiles`` (photo pixels; patches cut apart at thin bridges, as `vision.blocks.blocks`
    cuts them) of `OFF_PUZZLE` of that outline's area or more: cards a puzzle of all of them holds.

    Light-blue sports cards scattered on red and white gingham under a lamp
    (hard sports scattered 5520): the colour look sees eight of them in
    pieces round their figures, outlines no quadrilateral round those
    (0.50-0.62 of one traced, under `vision.blocks.TRACED`), and outlines
    the ninth alone, which its print's lines at the thirds cut 3x3. No lone
    tile sizes it, so its nine cells, a third of a card each, were a puzzle
    taken at once. Four of the patches left off it are 0.35-0.60 of that
    card's area; off a puzzle of all the cards, the largest seen is 0.27
    (hard lookalikes touching 5057, of 2,405 first-look puzzles).

    >>> mask = np.zeros((100, 200), np.uint8); mask[10:40, 10:40] = 1; mask[50:80, 120:150] = 1
    >>> cells = [np.float32([[x, y], [x + 10, y], [x + 10, y + 10], [x, y + 10]])
    ...          for y in (10, 20, 30) for x in (10, 20, 30)]
    >>> _cards_off(mask, 1.0, cells), _cards_off(mask[:, :100], 1.0, cells)
    (True, False)
    """
    outline = cv2.convexHull(np.concatenate([(tile + 0.5) * scale - 0.5 for tile in tiles]).astype(np.float32))
    inside = cv2.fillConvexPoly(np.zeros(mask.shape, np.uint8), np.int32(np.round(outline)), 1) > 0
    count, labels, stats, _ = cv2.connectedComponentsWithStats(cv2.erode(mask, bridge_kernel(mask)[1]))
    on = np.bincount(labels[inside], minlength=count)
    area = stats[:, cv2.CC_STAT_AREA]
    return bool(np.any((area[1:] >= OFF_PUZZLE * cv2.contourArea(outline)) & (on[1:] < 0.1 * area[1:])))


def _sided_cards(image: np.ndarray, mask: np.ndarray, scale: float, count: int | None) -> list[np.ndarray] | None:
    """The cards `_block_cards` lays in the block outlined on the four longest sides of ``mask``'s
    largest patch (`vision.blocks.sided_quad`; ``mask`` at ``scale`` of ``image``), or None
    where that outline lays none.

    Last before an exit 3: a light patch of desk joined to a block's side
    (hard witches touching 4242, the block under glare seen as one tile by
    every look) bends the smallest quadrilateral round it, two corners 10-18%
    of the block's side off, and its even cells lie 20-90% off their cards;
    the patch's four longest sides pass the bump by.
    """
    block = sided_quad(mask)
    return None if block is None else _block_cards(image, scale, [[block / scale]], count)


def _sided_for_edgeless(image: np.ndarray, mask: np.ndarray, scale: float, tiles: list[np.ndarray],
                        count: int | None) -> list[np.ndarray]:
    """``tiles``; or, where they make a puzzle of ``count`` with a side along no card's edge (`_edgeless`),
    the cards `_sided_cards` lays from ``mask`` (at ``scale`` of ``image``) when they lie right (`_laid_right`).

    Where nothing better was found, a look's puzzle refused for such a side
    is given as found. On hard meadow touching 3604 (blue gingham, tilt 30°)
    the colour look's smallest quadrilateral round the block runs off its
    cards at the top, and its nine, 19-63% off, were given (no exit 3); the
    block outlined on its patch's four longest sides lays them within 2.2%.
    """
    if problem(tiles, count) is not None or not _edgeless(image, tiles):
        return tiles
    sided = _sided_cards(image, mask, scale, count)
    return sided if _laid_right(image, sided, count, len(sided or ())) else tiles


def _joined_cards(image: np.ndarray, small: np.ndarray, scale: float, masks: tuple,
                  count: int | None, seen: list | None = None) -> list[np.ndarray] | None:
    """The tiles seen (`_tiles_seen`) where the colour look or the print look (``masks``, of the
    working copy ``small``, ``scale`` of ``image``) sees card, when they make a puzzle of ``count``
    on one view along card edges (`_laid_right`); else None. ``seen``, when given, gets those tiles.

    Light cards on a light desk under a lamp (hard sports touching 4554 and
    4638, light-blue faces on a white desk): glare washes the faces to the
    desk's colour, so the colour look keeps the block in pieces round the
    figures, and the print look keeps the figures but not the plain faces
    between them. Each fills the other's holes: the block is seen whole
    (tests/test_detect_images.py, 4638).
    """
    tiles = _tiles_seen(image, small, scale, masks[0] | masks[1])
    if seen is not None:
        seen += tiles
    return tiles if _laid_right(image, tiles, count, len(tiles)) else None


def _joined_sought(image: np.ndarray, small: np.ndarray, scale: float, masks: tuple, seen: list[np.ndarray],
                   count: int | None, searched: list) -> list[np.ndarray] | None:
    """The puzzle of ``count`` sought (`_searched_again`, with ``masks``, not again from ``searched``) from
    the sound tiles of ``seen``, the tiles `_joined_cards` sees where the colour or the print look sees
    card, when they are no more than the puzzle's count (nine unless known): cards, not bits; else None.

    Last before an exit 3. Light-blue sports cards on blue and white
    gingham under a lamp (hard sports loose 5107): the faces are a little
    darker than the white checks, so the colour look keeps each card in
    pieces round its white and blue figures (11 bits, 50-100% off), and
    the print look keeps the figures alone; the searches from their bits
    find nothing. Together the two see four cards whole (within 4.6%),
    three of them sound, but no puzzle, so `_joined_cards` gave nothing:
    sought from those three, the nine lie within 4.6%. Where the two see
    more tiles than the puzzle has, they cut cards into bits of their print,
    and bits sound along their sides are no cards (hard sports loose 4519
    on red gingham: 36 bits, 11 sound; 25 s of CPU to search from them in
    vain). Where a search was made from tiles half the size of these
    sound ones or larger, it saw cards, not bits, and one more search from
    cards finds nothing it did not (hard vintage scattered 2665: the two
    see six tiles, three sound; 20 s of CPU in vain, of 60). Unless the two
    see as many tiles as the puzzle has, one on each card, worn vintage
    cards on wood under a steep view (hard vintage scattered 4681 and loose
    4464): each set searched before held a tile 11-20% off, the two see
    three and five sound within 8.1%, and sought from those the nines lie
    within 8.6% (3-4 s of CPU).
    """
    cards = count or 9
    sound = _sound(image, [seen]) if 0 < len(seen) <= cards else []
    if len(sound) < 2:  # too few to seek from (`_searched_again`)
        return None
    if len(seen) < cards:  # cards missed, which a search from cards made before missed too
        card = np.median([cv2.contourArea(tile) for tile in sound])
        if any(np.median([cv2.contourArea(tile) for tile in tiles]) >= card / 2 for tiles in searched if tiles):
            return None
    return _searched_again(image, small, scale, masks, count, searched, [sound])


def _print_sought(image: np.ndarray, small: np.ndarray, scale: float, masks: tuple, taken: list[np.ndarray],
                  count: int | None) -> list[np.ndarray] | None:
    """The puzzle `_from_sound` makes from the sound tiles ``taken`` for print on a cloth's block
    (`_print_in_block`; none when it took none), when the block's cards were not laid; else None.

    Only where the photo would otherwise exit 3. Green cards on green
    gingham (hard meadow loose 5025) leave only the dark checks to
    `vision.table.cloth_checks`; the light checks, bands and cards make one
    net round them, whose outline, opened, stops 22-47 px inside the
    photo's left and top edges and reaches its right and bottom ones, so
    `vision.blocks.cloth_blocks` takes it for the block (it reaches no two
    opposite edges). The three sound cards, a fifth of its cells each,
    passed as print: no search ran, no cards were laid in the block, exit 3.
    From them the search finds the nine within 3.4%.
    """
    return _from_sound(image, small, scale, masks, taken, count) if taken else None


def _print_in_block(tiles: list[np.ndarray], blocks: list[np.ndarray], count: int | None) -> bool:
    """Whether ``tiles`` (two at least) all lie in one of ``blocks`` and are each smaller than
    its ``count`` cells let a tile be (`_least_tile`): print on the block's cards, not cards.

    >>> block = np.float32([[0, 0], [90, 0], [90, 90], [0, 90]])
    >>> box = np.float32([[0, 0], [8, 0], [8, 8], [0, 8]])
    >>> _print_in_block([box + 10, box + 50], [block], 9), _print_in_block([block / 3, box + 50], [block], 9)
    (True, False)
    >>> _print_in_block([box + 10, box + 95], [block], 9), _print_in_block([box + 10], [block], 9)  # one off it; one
    (False, False)
    """
    return len(tiles) >= 2 and any(
        all(_within(tile, block) and cv2.contourArea(np.float32(tile)) < _least_tile(block, count) for tile in tiles)
        for block in blocks)


def _least_tile(block: np.ndarray, count: int | None) -> float:
    """0.4 times the area of one of ``block``'s ``count`` cells (nine unless known), the least
    `problem` lets a tile be.

    >>> _least_tile(np.float32([[0, 0], [90, 0], [90, 90], [0, 90]]), 9)
    360.0
    """
    return 0.4 * cv2.contourArea(np.float32(block)) / (count or 9)


def _cloth_cards(image: np.ndarray, blocks: list[np.ndarray], scale: float, count: int | None,
                 sound: list[np.ndarray] = ()) -> list[np.ndarray] | None:
    """The cards `_block_cards` lays in the block on a checked cloth, in the first of its outlines
    ``blocks`` (`vision.blocks.cloth_blocks`, in the working copy, ``scale`` of ``image``) they are laid
    in that leaves none of the ``sound`` tiles out (`_left_out`); None on no cloth, none laid, or laid
    off the block (`_faint`).

    Art of the cloth's hue along the block's outline (red cars on sports
    cards on red gingham, hard 2958) lets the checks reach into the block:
    its outline then crosses cards, and so do the cards laid in it, along
    sides far fainter than those on the cards' edges.
    """
    for block in blocks:
        if _left_out(sound, block / scale, count):
            continue
        cards = _block_cards(image, scale, [[block / scale]], count)
        if cards is not None:
            return None if _faint(image, cards) else cards
    return None


def _left_out(tiles: list[np.ndarray], block: np.ndarray, count: int | None) -> bool:
    """Whether one of ``tiles`` (photo pixels) lies off ``block`` (shares under a tenth of its
    area with it) and is no smaller than its ``count`` cells let a tile be (`_least_tile`): a card
    that a block of all the puzzle's cards would hold.

    Loose cards on a checked cloth, the white checks between them, leave
    the coloured checks a region the shape of a block of two by two cards
    (normal witches loose 5411 on red gingham: its nine cells 36-44% off,
    laid over four cards); the looks found the cards beside it whole.

    >>> block = np.float32([[0, 0], [90, 0], [90, 90], [0, 90]])
    >>> card = np.float32([[0, 0], [30, 0], [30, 30], [0, 30]])
    >>> _left_out([card + 10, card + [120, 0]], block, 9), _left_out([card + 10, card / 3 + 120], block, 9)
    (True, False)
    >>> _left_out([card + [75, 0]], block, 9), _left_out([], block, 9)  # half on it; none found
    (False, False)
    """
    least = _least_tile(block, count)
    return any(area >= least and cv2.intersectConvexConvex(np.float32(tile), np.float32(block))[0] < 0.1 * area
               for tile in tiles if (area := cv2.contourArea(np.float32(tile))))


def _cloth_between(checks: np.ndarray | None, scale: float, block: np.ndarray, cards: list[np.ndarray]) -> bool:
    """Whether a checked cloth's coloured ``checks`` (`vision.table.cloth_checks` of the working copy,
    ``scale`` of the photo; None: no such cloth) cover `GAPS` of ``block`` outside ``cards`` (photo
    pixels): cards lying apart.

    >>> cloth = np.full((100, 100, 3), 250, np.uint8); cloth[:, ::10] = cloth[::10] = (200, 60, 30)
    >>> block = np.float32([[10, 10], [90, 10], [90, 90], [10, 90]])
    >>> card = np.float32([[0, 0], [30, 0], [30, 30], [0, 30]])
    >>> checks = cloth_checks(cloth)
    >>> _cloth_between(checks, 1.0, block, [card + 15, card + 55]), _cloth_between(checks, 1.0, block, [block])
    (True, False)
    """
    if checks is None:
        return False
    between = cv2.fillConvexPoly(np.zeros(checks.shape, np.uint8), np.int32((block + 0.5) * scale - 0.5), 255)
    for card in cards:
        cv2.fillConvexPoly(between, np.int32((card + 0.5) * scale - 0.5), 0)
    inside = checks[between > 0]
    return inside.size > 0 and bool(np.mean(inside > 0) >= GAPS)


def _from_sound(image: np.ndarray, small: np.ndarray, scale: float, masks: tuple, sound: list[np.ndarray],
                count: int | None, made: list | None = None, refused: list | None = None,
                print_laid: list | None = None) -> list[np.ndarray] | None:
    """A puzzle of ``count`` tiles (`problem`) made of ``sound`` and the tiles sought from them (`_sought`),
    agreeing on one view (`_one_view`), in reading order; else None. ``made``, when given, gets the
    tiles sought; ``refused``, those `_sought` refused; ``print_laid``, its search on the print look's bits."""
    searches = {}  # sought again framed below, the searches are judged again, not made again
    sought = _sought(image, small, scale, masks, sound, count, searches, refused=refused, print_laid=print_laid)
    if made is not None:
        made.append(sought)
    if problem(sought, count) is None and _one_view(image, sought, len(sound)):
        return reading_order([orient(tile) for tile in sought])
    # A sound tile off its card (a side on a check's edge) keeps the nine
    # from one view: the others, sought along card edges, say where it lies.
    again = relaid(image, scale, sought, misfit_among, MISFIT / 2) if problem(sought, count) is None else None
    if _laid_right(image, again, count, len(sound)):
        return reading_order([orient(tile) for tile in again])
    # Vintage cards on wood, their worn frames the wood's colour: tiles
    # sought stop at the frames' inner lines, 3-9% inside the cards (hard
    # vintage 2385, normal 2140), and fit no one view, or a ninth is refused
    # as short of its card (the frame past it is card). Moved out to their
    # cards' cut edges, they may; the search runs again only for a ninth.
    nine, one_short = sought, (count or 9) - len(sought) == 1
    if one_short:
        sought = _sought(image, small, scale, masks, sound, count, searches, framed=True)
    if (out := _laid_out(image, scale, sought, count, len(sound))) is not None:
        return out
    # A glared card's figures lie further apart than a part of its side: their
    # bits, each too few to seek from, make no patch (hard lookalikes scattered
    # 3671 on red gingham: eight found, the ninth under glare). Grouped wider,
    # two lost cards' bits make one patch, so only the last card is sought so.
    if one_short:
        last = [orient(tile) for tile in seek_lost(image, small, scale, masks[0], nine, form_at, misfit_among,
                                                   MISFIT / 2, reach=GLARED)]
        if _laid_right(image, last, count, len(sound)):
            return reading_order(last)
    return _edged_nine(image, scale, nine, count, len(sound))


def _edged_nine(image: np.ndarray, scale: float, tiles: list[np.ndarray], count: int | None,
                sound: int) -> list[np.ndarray] | None:
    """``tiles`` (the first ``sound`` sound, the rest sought) with those sought lacking a card's edge all round
    laid again (`edged_again`), in reading order, when they make a puzzle of ``count`` on one view along card
    edges (`_laid_right`); else None.

    A tile sought on few tiles' view, along three card edges and a check's
    line, fits their shape but tilts the view (hard sports 3756): the
    others, found since, place its square better.
    """
    again = edged_again(image, scale, tiles, sound, misfit_among, MISFIT / 2) if problem(tiles, count) is None else None
    return reading_order([orient(tile) for tile in again]) if _laid_right(image, again, count, sound) else None


def _laid_out(image: np.ndarray, scale: float, tiles: list[np.ndarray], count: int | None,
              sound: int) -> list[np.ndarray] | None:
    """``tiles`` (the first ``sound`` sound) moved out to their cards' cut edges (`cut_out`), or else as
    they are, in reading order, when they make a puzzle of ``count`` on one view along card edges
    (`_laid_right`); else None.

    A card moved out onto a shadow's or a plank's step (hard vintage 3316)
    can bend the view the cards as sought fit: those are taken then.
    """
    for laid in (cut_out(image, scale, tiles), tiles):
        laid = [orient(tile) for tile in laid]
        if _laid_right(image, laid, count, sound):
            return reading_order(laid)
    return None


def _framed_nine(image: np.ndarray, scale: float, print_laid: list, count: int | None) -> list[np.ndarray] | None:
    """The first puzzle of ``count`` (`_laid_out`) that a search on the print look's bits makes when the
    tiles it laid are judged short of their card from their cut edges (`on_card`'s ``framed``); else None.
    ``print_laid``: each search as `_sought` keeps it, with the look's mask, the tiles it laid
    (`lost_laid`), how many it was made from and how many of those are sound.

    Last before an exit 3. Small worn cards far off under a steep view
    (hard vintage scattered 4933, tilt 33 degrees): the print look's mask
    swells a few pixels past every card, a tenth or more of a far card's
    side, so cards laid on their edges leave card past a side and are
    dropped as short of it; judged from their cut edges, as a ninth is
    (`_from_sound`), they are not. The searches are judged again, not made
    again (0.1 s of CPU each).
    """
    for mask, laid, start, sound in print_laid:
        nine = _laid_out(image, scale, on_card(image, scale, mask, laid, start, framed=True), count, sound)
        if nine is not None:
            return nine
    return None


def _laid_right(image: np.ndarray, tiles: list[np.ndarray] | None, count: int | None, sound: int) -> bool:
    """Whether ``tiles`` laid again (the first ``sound`` sound) make a puzzle of ``count`` (`problem`) on
    one view (`_one_view`), no side facing the table along no card's edge (`_edgeless`)."""
    return tiles is not None and problem(tiles, count) is None and _one_view(image, tiles, sound) \
        and not _edgeless(image, tiles)


def _sharp_sided(image: np.ndarray, sound: list[np.ndarray]) -> list[np.ndarray] | None:
    """``sound`` less the tile with the faintest side, when that side's step is under `SHARP` times the
    usual along their sides (`side_steps`); else None."""
    steps = np.float32([side_steps(image, tile) for tile in sound])
    worst = int(np.argmin(steps.min(axis=1)))
    return sound[:worst] + sound[worst + 1:] if steps[worst].min() < SHARP * np.median(steps) else None


def _sought(image: np.ndarray, small: np.ndarray, scale: float, masks: tuple, sound: list[np.ndarray],
            count: int | None, searches: dict, framed: bool = False,
            refused: list | None = None, print_laid: list | None = None) -> list[np.ndarray]:
    """``sound`` and the tiles sought (`seek_lost`, ``framed`` as there) where bits of card lie on the
    colour look's mask (``masks[0]``, working scale ``scale``), then, when that makes no puzzle of
    ``count`` (`problem`), on the print look's (``masks[1]``). ``searches`` keeps each search
    (`_searched`) for a later call to judge again rather than make again. ``refused``, when given,
    gets the print look's tiles refused for a side along no card's edge, with how many of them are sound;
    ``print_laid``, the search on the print look's bits as `_framed_nine` takes it."""
    sought = _searched(image, small, scale, masks, 0, sound, framed, searches)
    if problem(sought, count) is not None:  # a card the table's colour (in shadow, faded) shows by its print
        more = _searched(image, small, scale, masks, 1, sought, framed, searches)
        if print_laid is not None:
            print_laid.append((masks[1], searches[_search_key(1, sought)], len(sought), len(sound)))
        # The print shows figures, not where a card ends: its sides must run along card edges.
        edgeless = _edgeless(image, more)
        if edgeless and refused is not None:
            refused.append((more, len(sound)))
        sought = sought if edgeless else more
    return sought


def _searched(image: np.ndarray, small: np.ndarray, scale: float, masks: tuple, which: int, tiles: list[np.ndarray],
              framed: bool, searches: dict) -> list[np.ndarray]:
    """`seek_lost` from ``tiles`` on ``masks[which]``, framed or not, its search (`lost_laid`) taken from
    ``searches`` where made there before from the same tiles, and kept there.

    The search does not depend on ``framed``, only the judging of the squares
    it laid (`on_card`): sought again framed, a ninth short (`_from_sound`),
    it was half of an exit 3's CPU where the colour look's search runs twice
    (hard sports loose 4519)."""
    key = _search_key(which, tiles)
    if key not in searches:
        searches[key] = lost_laid(image, small, scale, masks[which], tiles, form_at, misfit_among, MISFIT / 2)
    return on_card(image, scale, masks[which], searches[key], len(tiles), framed)


def _search_key(which: int, tiles: list[np.ndarray]) -> tuple[int, bytes]:
    """The key `_searched` keeps a search from ``tiles`` on mask ``which`` by."""
    return which, b"".join(np.float32(tile).tobytes() for tile in tiles)


def photo_tiles(photo: Photo, path) -> tuple[Photo, list[np.ndarray]]:
    """`find_tiles` in a photo as `vision.images.read_photo` decoded it; the photo as the tiles were found in.

    A photo decoded shrunk whose tiles come out smaller than `SMALL_TILE`
    (their median side: rendered 1600x1200 photos have tiles of 160-340 px,
    where finding tiles is measured) is decoded from ``path`` again whole and
    its tiles found there, so a puzzle that fills little of a big photo keeps
    every pixel it has. Tiles are in ``photo.image`` pixels, as `find_tiles` gives them.
    """
    tiles = find_tiles(photo.image)
    if photo.shrink > 1 and tiles and np.median([np.sqrt(cv2.contourArea(t)) for t in tiles]) < SMALL_TILE:
        photo = Photo(read_image(path))
        tiles = find_tiles(photo.image)
    return photo, tiles


def _working_copy(image: np.ndarray) -> np.ndarray:
    """``image`` shrunk by a whole factor to a long side of `WORK_SIDE` at most, where tiles are sought."""
    size = _working_size(image)
    return image if size == image.shape[1::-1] else cv2.resize(image, size, interpolation=cv2.INTER_AREA)


def _working_size(image: np.ndarray) -> tuple[int, int]:
    """The (width, height) of `_working_copy`'s copy of ``image``.

    >>> _working_size(np.zeros((3000, 4000, 3), np.uint8)), _working_size(np.zeros((600, 800, 3), np.uint8))
    ((1000, 750), (800, 600))
    """
    shrink = -(-max(image.shape[:2]) // WORK_SIDE)  # whole pixels average fastest
    return image.shape[1] // shrink, image.shape[0] // shrink


def counted_cards(image: np.ndarray, tiles: list[np.ndarray], count: int | None) -> list[np.ndarray]:
    """``tiles``; or, when they make no puzzle of ``count`` tiles, the ``count``
    cards of one square block that they cut into another grid, laid as
    `_block_cards` lays them, if it finds them.

    `find_tiles` is not told how many tiles the puzzle has, so a block cut
    along seams the art fakes into a square grid of other cells is a puzzle
    to it (hard frogs 2367: a 3x3 block cut 4x4). A library knows its count.

    Examples
    --------
    >>> card = np.float32([[0, 0], [10, 0], [10, 10], [0, 10]])
    >>> len(counted_cards(np.zeros((40, 40, 3), np.uint8), [card + [x, 0] for x in (0, 20)], 9))  # no block
    2
    """
    if count is None or problem(tiles, count) is None:
        return tiles
    return _block_cards(image, _working_size(image)[0] / image.shape[1], [tiles], count, most=len(tiles),
                        counted=True) or tiles


def _block_cards(image: np.ndarray, scale: float, looks: list[list[np.ndarray]],
                 count: int | None, most: int = 8, counted: bool = False) -> list[np.ndarray] | None:
    """The cards of the first look that saw one square block and nothing else
    (`_one_block`), each of its cells laid on its own card's edges
    (`vision.seek.laid_cards`), when they make a puzzle whose every card
    fits the view the others give it within half `MISFIT`, along seams the
    look missed; else None.

    Cards laid edge to edge by hand, each a few degrees turned against the
    others, show no seam straight across the block: every look may see it
    as one tile (hard frogs 1919), or cut where art fakes straighter seams
    (in quarters: hard critters 2060). Such a block holds the puzzle's
    count (nine unless known), a square grid. The seams: the cards' sides
    facing each other (`_inner_steps`) run along steps a third as sharp as
    the block's outline at least, and twice as sharp as those of the look's
    own tiles. A look whose tiles' seams are that sharp saw cards: a 2x2
    puzzle's four (0.49-3.4 of the outline on seven hard renders, where 3x3
    cells laid over them reach at most 0.25); art's seams cutting 2060 in
    quarters, 0.18, and its laid cards' 0.86.

    Cards off the even grid (a column a fifth of a side lower than the
    next: hard frogs 2815, cut into six by the colour look along some of
    their seams, sharp ones) leave cells too far off their cards for that:
    unless the look's tiles are a square grid of their own (a 2x2 puzzle's
    four, whose sharp seams they are), the cells are laid again from their
    neighbours (`vision.seek.laid_from_neighbours`), and the nine are taken
    when each then has a card's edge all round and they fit one view.
    """
    look, block = next(((tiles, block) for tiles in looks if (block := _one_block(tiles, most)) is not None),
                       (None, None))
    if look is None:
        return None
    # Sharp seams of tiles that are a square grid of their own are those cards (a 2x2 puzzle's four);
    # ``counted``, the look's tiles are known to be no puzzle, however sharp they are (hard frogs 1443).
    usual, own = sharpness(image, [block]), 0.0 if counted else _inner_steps(image, look)
    if own >= usual / 3 and problem(look, len(look)) is None:
        return None
    side = round(np.sqrt(count or 9))
    laid = laid_cards(image, scale, block, [clockwise(cell) for cell in cells(block, (side, side))],
                      misfit_among, MISFIT / 2)
    cards = reading_order([orient(card) for card in laid])
    if own < usual / 3 and _laid_whole(cards, count) and _inner_steps(image, cards) >= max(usual / 3, 2 * own):
        # A card laid on its own edges may take a line printed inside the next card for their seam
        # (hard sports touching 4302 on blue gingham: card 2's S side on card 5's rocket window, 16%
        # out, the two sharing 9.6%, under `problem`'s tenth; on 100 other photos two of the nine
        # share 1.7% at most): then the block's even cells, each refined a short reach, when whole.
        across = lying_across(cards, ACROSS) is not None
        return (_framed_cards(image, block, side, count, seams=False) if across else None) or cards
    # Cards off the even grid, each its own way (a look cut them along some
    # of their seams and art's lines): laid again from their neighbours, each
    # with a card's edge all round.
    again = laid_from_neighbours(image, scale, block, laid, side, misfit_among, MISFIT / 2)
    cards = None if again is None else reading_order([orient(card) for card in again])
    if cards is not None and _laid_whole(cards, count):
        return cards
    return _framed_cards(image, block, side, count)


def _framed_cards(image: np.ndarray, block: np.ndarray, side: int, count: int | None,
                  seams: bool = True) -> list[np.ndarray] | None:
    """The ``side`` x ``side`` even cells of ``block`` (its outline refined as
    `_tiles_seen` refines a block's), each refined a short reach, when the
    seams between them run along dark bands where printed frames meet
    (`vision.blocks.framed_seams`; not asked unless ``seams``) and they make
    a puzzle of ``count`` on one view whose sides facing the table run
    along the cards' edges (`_faint`); else None.

    No step marks the seam between two dark frames: laid on its own card's
    edges, each card stops at its frame's inner line (hard lookalikes 2929
    on blue gingham: 3-5% inside, view misfits to 0.09), where the even
    cells of the refined outline lie within 1% of the cards. A short refine
    finds a cell's edge and cannot reach the frame's inner line.
    """
    outline = refine(image, block, reach=0.06 / side, framed=True)
    if seams and not framed_seams(image, outline, (side, side)):
        return None
    cards = reading_order([orient(refine(image, clockwise(cell), 1, 0.015, outline=False))
                           for cell in cells(outline, (side, side))])
    return cards if _laid_whole(cards, count) and not _faint(image, cards) else None


def _touching_cards(image: np.ndarray, sets: list[list[np.ndarray]], count: int | None) -> list[np.ndarray] | None:
    """The cards of a block of touching framed cards: the even cells (`_framed_cards`) of the
    block that the first of ``sets`` whose ``count`` tiles (nine unless known) lie across each
    other (`lying_across`) fills (`_one_block`), when they make a puzzle; else None.

    Worn vintage cards laid edge to edge meet in a band of two printed
    frames, the wood's colour or near it, with no step where they meet:
    a card's side is found at its own frame's inner line or at the
    neighbour's, a frame's width past the seam, and a card found so lies
    across its neighbour (hard vintage touching 3939: the nine sought, two
    lying across each other, 4-12% off; normal 3575: the plain look's nine,
    5.5% in and out). The block they fill is right, and so are its even
    cells, each refined a short reach (within 4.4% and 5.4%). Their seams'
    dark bands, the frames the wood's colour and the cards laid a little
    off the even split by hand, show along 35-65% of a seam, too little
    for `vision.blocks.framed_seams` to tell them from art.

    >>> from vision.blocks import cells
    >>> image = np.full((330, 330, 3), 40, np.uint8); image[15:315, 15:315] = 220
    >>> for k in (110, 210): image[15:315, k - 4:k + 5] = image[k - 4:k + 5, 15:315] = 120  # frames meeting
    >>> block = np.float32([[15, 15], [315, 15], [315, 315], [15, 315]]) - 0.5
    >>> grown = [cell + 6 * np.float32([[-1, -1], [1, -1], [1, 1], [-1, 1]]) for cell in cells(block, (3, 3))]
    >>> cards = _touching_cards(image, [grown], 9)
    >>> len(cards), round(float(np.abs(cards[0] - cells(block, (3, 3))[0]).max()))
    (9, 0)
    >>> _touching_cards(image, [cells(block, (3, 3))], 9) is None  # lying apart: found as they are
    True
    """
    side = round(np.sqrt(count or 9))
    return next((cards for tiles in sets if len(tiles) == side * side and lying_across(tiles) is not None
                 and (cards := _block_cells(image, tiles, side, count)) is not None), None)


def _print_cut_cards(image: np.ndarray, looks: list[list[np.ndarray]], count: int | None) -> list[np.ndarray] | None:
    """The cards of a block that a look cut into more tiles than the puzzle has (``count``, nine unless
    known): the even cells (`_framed_cards`) of the one square block the first such look's tiles fill
    (`_one_block`), when they make a puzzle; else None.

    Last before an exit 3: under a steep view the figures' boxes on touching
    vintage cards line up across the block into straighter seams than the
    worn frames meeting (hard vintage touching 4695: the print look's tiles
    fill the block, cut 8x8 along the figures; the colour look sees the faces
    in pieces, lit wood their colour). The block is right, and its even cells
    each refined a short reach lie within 5.3% of the cards. (Hard frogs
    touching 1443, 32 bits: within 2.0%, where `_sided_cards` laid 3.7%.)

    >>> from vision.blocks import cells
    >>> image = np.full((330, 330, 3), 40, np.uint8); image[15:315, 15:315] = 220
    >>> for k in (110, 210): image[15:315, k - 4:k + 5] = image[k - 4:k + 5, 15:315] = 120  # frames meeting
    >>> block = np.float32([[15, 15], [315, 15], [315, 315], [15, 315]]) - 0.5
    >>> cards = _print_cut_cards(image, [cells(block, (4, 4))], 9)  # cut 4x4 along the print
    >>> len(cards), round(float(np.abs(cards[0] - cells(block, (3, 3))[0]).max()))
    (9, 0)
    >>> _print_cut_cards(image, [cells(block, (3, 3))[:8]], 9) is None  # fewer than the puzzle's: not cut
    True
    """
    side = round(np.sqrt(count or 9))
    return next((cards for tiles in looks if len(tiles) > side * side
                 and (cards := _block_cells(image, tiles, side, count)) is not None), None)


def _block_cells(image: np.ndarray, tiles: list[np.ndarray], side: int, count: int | None) -> list[np.ndarray] | None:
    """The ``side`` x ``side`` even cells (`_framed_cards`, no seams asked) of the one square block
    ``tiles`` fill (`_one_block`), when they make a puzzle of ``count``; else None."""
    block = _one_block(tiles, len(tiles))
    return None if block is None else _framed_cards(image, block, side, count, seams=False)


def _laid_whole(cards: list[np.ndarray], count: int | None) -> bool:
    """Whether cards laid in a block make a puzzle of ``count`` whose every card fits
    the shape the others give it within half `MISFIT` (`view_misfits`)."""
    return problem(cards, count) is None and view_misfits(cards).max() <= MISFIT / 2


def _one_block(tiles: list[np.ndarray], most: int = 8) -> np.ndarray | None:
    """The outline (clockwise) of the block ``tiles`` fill, when they are
    ``most`` at most (fewer than a puzzle's nine unless told) and cover
    nine tenths of it, and it is square within the 1.25 a view 35 degrees
    off square-on shortens it; else None.

    >>> card = np.float32([[0, 0], [10, 0], [10, 10], [0, 10]])
    >>> _one_block([card * 3]).tolist(), _one_block([card * [2, 1]]), _one_block([card, card + [20, 0]])
    ([[0.0, 0.0], [30.0, 0.0], [30.0, 30.0], [0.0, 30.0]], None, None)
    >>> cv2.contourArea(_one_block([card + [x, y] for x in (0, 10) for y in (0, 10)]))  # seen in quarters
    400.0
    """
    if not 0 < len(tiles) <= most:
        return None
    block = clockwise(outline_quad(cv2.convexHull(np.float32(np.concatenate(tiles)))))
    width, height = block_size(block)
    filled = sum(cv2.contourArea(np.float32(tile)) for tile in tiles) >= 0.9 * cv2.contourArea(block)
    return block if filled and abs(np.log(width / height)) < np.log(1.25) else None


def _inner_steps(image: np.ndarray, tiles: list[np.ndarray]) -> float:
    """The median over ``tiles`` of the sharpest step along a side of each
    facing another tile (`side_steps`; 0 for a tile that faces none).

    >>> image = np.zeros((40, 80, 3), np.uint8); image[10:30, 10:30] = 200; image[10:30, 30:50] = 120
    >>> card = np.float32([[10, 10], [30, 10], [30, 30], [10, 30]]) - 0.5
    >>> _inner_steps(image, [card, card + [20, 0]]) > 100, _inner_steps(image, [card])
    (True, 0.0)
    """
    return float(np.median([max([step for side, step in enumerate(side_steps(image, tile))
                                 if not _facing_table(tiles, i, side)], default=0.0)
                            for i, tile in enumerate(tiles)]))


def _one_view(image: np.ndarray, tiles: list[np.ndarray], sound: int) -> bool:
    """Whether ``tiles`` (the first ``sound`` of them sound, the rest sought) agree closely on one view of the table.

    Closely: each within half `MISFIT` of the shape the others give it (a
    glared side may be washed out), or `ALL_ROUND` times that when every
    tile sought has a card's edge all round (`edged_all_round`). The shape is
    fitted linear across the photo (`shape_misfits`), which bends towards a
    wide angle's far corner, or taken from the view of the table the others
    give each tile (`view_misfits`), which holds under a steep view where
    the line calls a big tile in the foreground off (hard frogs 1737: the
    nine at their true corners 11.8% off by the line, 0.4% in the view):
    they agree when either says so.
    """
    misfit = min(shape_misfits(tiles, fitted=4).max(), view_misfits(tiles).max())
    return misfit <= MISFIT / 2 or (misfit <= ALL_ROUND * MISFIT / 2
                                    and edged_all_round(image, tiles[sound:], tiles[:sound]))


def _edgeless(image: np.ndarray, tiles: list[np.ndarray], steps: list | None = None) -> bool:
    """Whether a side of ``tiles`` facing the table runs along no card's edge:
    a step `EDGELESS` times the usual along the tiles' sides at most
    (`side_steps`; ``steps``, each tile's, when known), or a third of it on
    bare table (`_astray`).

    A tile stretched over the table or its shadow, consistently enough that
    the others' shape allows it, has a side across bare table: the puzzle
    is then sought from the sound tiles of every look. A seam between
    touching cards may be faint: a side with a tile just past it is passed over.

    >>> image = np.zeros((40, 80, 3), np.uint8); image[10:30, 10:50] = 200  # two cards, their seam unseen
    >>> card = np.float32([[10, 10], [30, 10], [30, 30], [10, 30]]) - 0.5
    >>> pair = [card, card + [20, 0]]
    >>> _edgeless(image, pair), _edgeless(image, pair + [card + [45, 0]])  # a third on bare table
    (False, True)
    """
    steps = np.float32([side_steps(image, tile) for tile in tiles] if steps is None else steps)
    faint = np.argwhere(steps < EDGELESS * np.median(steps))
    return any(_facing_table(tiles, i, side) for i, side in faint) or _astray(image, tiles, steps)


def _faint(image: np.ndarray, tiles: list[np.ndarray], steps: list | None = None) -> bool:
    """Whether the median side of ``tiles`` facing the table runs along a step
    `ASTRAY` times as sharp as the sharpest such side at most (`side_steps`;
    ``steps``, each tile's, when known).

    A block outlined off its cards (a corner lost to glare, the outline
    slanted across the cards) keeps one or two sides on a card's edge while
    the others cross the cards' faces; its cells agree with each other in
    shape, and every side still crosses some print, so no side is edgeless.

    >>> image = np.zeros((60, 60, 3), np.uint8); image[10:50, 10:50] = 200; image[30:, 30:] = 150
    >>> card = np.float32([[10, 10], [50, 10], [50, 50], [10, 50]]) - 0.5
    >>> _faint(image, [card]), _faint(image, [card + np.float32([0, 20])])
    (False, True)
    """
    steps = [side_steps(image, tile) for tile in tiles] if steps is None else steps
    facing = [steps[i][side] for i in range(len(tiles)) for side in range(4) if _facing_table(tiles, i, side)]
    return bool(facing) and bool(np.median(facing) <= ASTRAY * max(facing))


def _facing_table(tiles: list[np.ndarray], i: int, side: int) -> bool:
    """Whether no other tile lies just past side ``side`` of tile ``i``."""
    start, end = np.float32(tiles[i][side]), np.float32(tiles[i][(side + 1) % 4])
    # Clockwise corners: the side's outward normal is its direction turned a quarter back.
    past = (start + end) / 2 + 0.1 * np.float32([end[1] - start[1], start[0] - end[0]])
    return not on_any(past, [other for j, other in enumerate(tiles) if j != i])


def _astray(image: np.ndarray, tiles: list[np.ndarray], steps: np.ndarray | None = None) -> bool:
    """Whether a third of a side of ``tiles`` facing the table has a step
    `BARE` times the usual along such sides at most: the side leaves the
    card's edge for bare table (or cuts across the card). ``steps``: each
    tile's `side_steps`, when known.

    A block's outline guessed from a patch that lost light cards to a light
    table is off by a slant; its cells agree with each other in shape, and
    their sides, whole, still reach a step along most of their length.

    >>> image = np.zeros((60, 60, 3), np.uint8); image[10:50, 10:50] = 200
    >>> card = np.float32([[10, 10], [50, 10], [50, 50], [10, 50]]) - 0.5
    >>> _astray(image, [card]), _astray(image, [card + np.float32([[0, 0], [8, 0], [8, 0], [0, 0]])])
    (False, True)
    """
    steps = [side_steps(image, tile) for tile in tiles] if steps is None else steps
    wholes, thirds = [], []
    for i, tile in enumerate(tiles):
        for side in range(4):
            if _facing_table(tiles, i, side):
                start, end = np.float32(tile[side]), np.float32(tile[(side + 1) % 4])
                cuts = [start + (end - start) * k / 3 for k in range(4)]
                wholes.append(steps[i][side])
                thirds += [((start, end - start), a, b) for a, b in zip(cuts, cuts[1:])]
    # The thirds read at once: a photo's first look has thirty-odd sides facing the table.
    return bool(wholes) and bool(contrasts(image, thirds, 24).min() <= BARE * np.median(wholes))


def _sound(image: np.ndarray, looks: list[list[np.ndarray]], usual: float | None = None,
           sharpest: bool = False) -> list[np.ndarray]:
    """The tiles of all looks that agree in shape (`_agreeing`, sides judged against ``usual`` as there),
    without repeats: those of the look with most tile area agreeing, of the looks whose sides
    no other look's run along twice as sharp steps (`_sharper`), or, ``sharpest``, of the look
    whose sides run along the sharpest steps (`sharpness`); and the others' that fit them."""
    agreed = [tiles for tiles in (_agreeing(tiles, image, usual) for tiles in looks) if tiles]
    if not agreed:
        return []
    # A look whose sides run along steps half as sharp as another's outlined
    # the table beside cards (a lit desk taken into a block's column): its
    # larger tiles do not outweigh the other look's card edges.
    edges = [sharpness(image, tiles) for tiles in agreed]  # once a look, not once a pair as `_sharper` would
    sharp = [tiles for tiles, own in zip(agreed, edges) if max(edges) <= SHARPER * own]
    sound = agreed[int(np.argmax(edges))] if sharpest else \
        max(sharp, key=lambda tiles: sum(cv2.contourArea(tile) for tile in tiles))
    for tiles in agreed:
        for tile in tiles:
            if misfit_among(sound, tile) <= MISFIT / 2:
                sound = sound + [tile]
    return sound


def _agreeing(tiles: list[np.ndarray], image: np.ndarray, usual: float | None = None) -> list[np.ndarray]:
    """``tiles`` whose every side is a card's edge, less the worst misfits
    until all fit closely the shape fitted linear across the photo
    (`shape_misfits`).

    A side is a card's edge when a step runs along it at least `SHARP` times
    as sharp as ``usual``, else as along the tiles' sides in the middle (`side_steps`): a tile
    that took in a shadow, or lost a strip to the table, has a side on one.
    The worst misfit is the tile both that line and the view the others give
    it (`view_misfits`) call far off: under a steep view the line calls the
    big tiles in the foreground off, and dropping them first kept a tile
    stretched over the gap to the next card (hard witches 2107: three
    "sound" tiles, one 25% off, every tile sought from them off too).
    """
    tiles = [tile for tile in tiles if sides_ratio(tile) < 1.4]
    steps = [side_steps(image, tile) for tile in tiles]
    if tiles:
        usual = np.median(steps) if usual is None else usual
        tiles = [tile for tile, sides in zip(tiles, steps) if min(sides) >= SHARP * usual]
    while len(tiles) > 3:
        misfits = shape_misfits(tiles, fitted=4)  # sharp-sided tiles: a few tell the view
        if misfits.max() <= MISFIT / 2:
            return tiles
        worst = int(np.argmax(np.minimum(misfits, view_misfits(tiles))))  # off by both
        tiles = tiles[:worst] + tiles[worst + 1:]
    # Three fit the view exactly, so cannot check each other, nor can two:
    # the whole puzzle sought from them does (`find_tiles`).
    return tiles if len(tiles) in (2, 3) else []


def _same_tiles(tiles: list[np.ndarray], others: list[np.ndarray]) -> bool:
    """Whether ``tiles`` and ``others`` hold the same corners, in any order.

    >>> square = np.float32([[0, 0], [10, 0], [10, 10], [0, 10]])
    >>> _same_tiles([square, square + 20], [square + 20, square]), _same_tiles([square], [square, square + 20])
    (True, False)
    """
    return sorted(np.float32(tile).tobytes() for tile in tiles) == sorted(np.float32(tile).tobytes() for tile in others)


def _cut_apart(small: np.ndarray, mask: np.ndarray, scale: float, first: list[np.ndarray],
               later: list[np.ndarray]) -> bool:
    """Whether ``later``'s tiles, lying in one of ``first``'s (a block seen
    whole), cut it apart in a way the first look (``mask`` on ``small``, of
    ``scale``) denies.

    Either they fill only a part of it: a look that saw the block in bits
    (glare and the table's colour cutting it up) and cut each bit into
    cells, so many too small tiles. Or they cut it along lines where the
    first look sees no seam at all, not even a faint one: a look whose
    table inside the block (flat print) fakes a finer grid.

    >>> block = np.float32([[0, 0], [90, 0], [90, 90], [0, 90]])
    >>> small = np.full((100, 100, 3), 90, np.uint8); small[:, 30::30] = small[30::30] = 20  # seams at thirds
    >>> mask = np.full((100, 100), 255, np.uint8)
    >>> cells = [block / 3 + np.float32([30 * i, 30 * j]) for i in range(3) for j in range(3)]
    >>> quarters = [block / 4 + np.float32([22.5 * i, 22.5 * j]) for i in range(4) for j in range(4)]
    >>> [_cut_apart(small, mask, 1, [block], tiles) for tiles in (cells, cells[:4], quarters)]
    [False, True, True]
    """
    for tile in first:
        inside = [other for other in later if _within(other, tile)]
        if len(inside) < 2:
            continue
        areas = [cv2.contourArea(np.float32(other)) for other in inside]
        if sum(areas) < 0.8 * cv2.contourArea(np.float32(tile)):
            return True
        block = clockwise((np.float32(tile) + 0.5) * scale - 0.5)
        side = np.sqrt(np.median(areas)) * scale
        grid = tuple(max(1, round(float(np.linalg.norm(block[i] - block[0])) / side)) for i in (3, 1))
        if weakest_seam(seam_profiles(small, mask, block), grid) <= 0.6:
            return True
    return False


def _within(inner: np.ndarray, outer: np.ndarray) -> bool:
    """Whether nine tenths of ``inner`` lie in ``outer``."""
    shared, _ = cv2.intersectConvexConvex(np.float32(inner), np.float32(outer))
    return shared > 0.9 * cv2.contourArea(np.float32(inner))


def _gaps_taken(image: np.ndarray, first: list[np.ndarray], later: list[np.ndarray]) -> bool:
    """Whether ``later``'s tiles take in the table around ``first``'s: a loose
    grid the print look ran into one block, cut into cells across the gaps.

    The print look reaches the card's edge and its drop shadow, not further:
    where tiles the colour look found each lie in a clearly larger later
    one, and their sides run along far sharper steps than the later ones'
    (a card's edge, not a gap's flat middle), the later ones hold gaps.
    A colour look that lost a light border to the table gives bits whose
    sides are no sharper.
    """
    inside, grown = [], []
    for tile in first:
        area = cv2.contourArea(tile)
        for other in later:
            if _within(tile, other):
                inside.append(tile)
                grown.append(cv2.contourArea(other) / area)
    return len(grown) >= 3 and float(np.median(grown)) > GROWN and _sharper(image, inside, later)


def _sharper(image: np.ndarray, tiles: list[np.ndarray], than: list[np.ndarray]) -> bool:
    """Whether the sides of ``tiles`` run along steps `SHARPER` times as sharp as those of ``than`` (`sharpness`):
    a card's edges, where ``than``'s run along a gap's flat middle or bare table.

    >>> image = np.zeros((40, 40, 3), np.uint8); image[10:30, 10:30] = 200
    >>> card = np.float32([[10, 10], [30, 10], [30, 30], [10, 30]]) - 0.5
    >>> _sharper(image, [card], [card * 1.2 - 4]), _sharper(image, [card * 1.2 - 4], [card])
    (True, False)
    """
    return sharpness(image, tiles) > SHARPER * sharpness(image, than)


def _tiles_seen(image: np.ndarray, small: np.ndarray, scale: float, mask: np.ndarray, plain: bool = False,
                reach: float = 0.06, largest: bool = False, seen: list | None = None,
                refined: list | None = None) -> list[np.ndarray]:
    """`find_tiles` with ``mask`` telling tile from table; a printed sheet's
    ground is looked into as ``plain`` or not (`on_sheet`); ``reach``: how
    far out of the mask, over the side, a tile's edge is sought (`refine`);
    ``largest``: lone tiles sized as `sized_grids` says there. ``seen``, the
    tiles seen so but without ``largest``, are given back as they are where
    it sizes every block alike (the same tiles, not refined again: 1-5 s of
    CPU on an exit 3). ``refined``, when given, gets the tiles as refined,
    before `_reshaped` moves any."""
    found = [inner for block in blocks(mask, small) for inner in on_sheet(small, block, plain)]
    found = [block for block in found if not cut_off(block, found, mask.shape)]
    seams = [seam_profiles(small, mask, block) for block in found]
    grids = [seam_grid(block, profiles) for block, profiles in zip(found, seams)]
    sized = sized_grids(found, grids, largest)
    if seen is not None and sized == sized_grids(found, grids):
        return seen
    # Lone tiles' size overrules seams that the art fakes, where the seams it
    # asks for show at least faintly.
    grids = [by_size if weakest_seam(profiles, by_size) > 0.6 else grid
             for grid, by_size, profiles in zip(grids, sized, seams)]
    # A block whose cells are far from the shape lone tiles give them is
    # something else on the table (a keyboard in full view).
    lone = [block for block, grid in zip(found, grids) if grid == (1, 1)]
    if len(lone) >= 4:
        kept = [grid == (1, 1) or shape_misfits(lone + cells(block, grid)[:1])[-1] < 2 * MISFIT
                for block, grid in zip(found, grids)]
        found, grids = [b for b, k in zip(found, kept) if k], [g for g, k in zip(grids, kept) if k]
    # Each pixel belongs to the nearest block: no edge is sought past the middle
    # of a gap (a neighbour's border may be missing from the mask, as may a tile's own).
    nearest = nearest_quad(found, small.shape)

    def seek(block: np.ndarray, grid: tuple) -> tuple[list, list]:
        x, y = np.clip(np.int32(block.mean(axis=0)), 0, np.array(nearest.shape[::-1]) - 1)
        # The reach is a share of a tile's side, not the block's (a cloth's checks beside a block).
        apart = fence(nearest, scale, nearest[y, x])
        outline = refine(image, (block + 0.5) / scale - 0.5, reach=2 * reach / sum(grid),
                         fence=apart, tile=grid == (1, 1), framed=True)
        if grid != (1, 1):  # a side off the card from a right corner
            outline = swung(image, outline, grid, 2 * reach / sum(grid), apart)
        kept, doubts = [], []
        for cell in cells(outline, grid):
            cover = tile_share(mask, (cell + 0.5) * scale - 0.5)
            # Seams inside a block are placed evenly: a short refine finds the
            # real one, and cannot reach the printed border just inside it.
            cell = cell if grid == (1, 1) else refine(image, cell, 1, 0.015, outline=False)
            if cover > 0.5:
                kept.append(cell)
            elif cover > 0.2 and grid != (1, 1):
                doubts.append((cover, cell))
        return kept, doubts

    # blocks are sought on all cores: numpy and OpenCV let go of the GIL for most of it (1.4x on two)
    with ThreadPoolExecutor(os.cpu_count()) as pool:
        seen = list(pool.map(seek, found, grids))
    tiles, doubtful = [], []
    for kept, doubts in seen:
        tiles += kept
        doubtful += doubts if len(kept) >= 2 * len(doubts) else []  # a block of tiles, not a keyboard
    # A block's cell that is mostly table colour is a tile whose art is that
    # colour (a cream tile on white checks) when a square grid lacks it.
    tiles = [tile for tile in tiles if not speck(tile, tiles)]
    lacking = max(9, round(np.ceil(np.sqrt(len(tiles)))) ** 2) - len(tiles)
    if 0 < lacking <= len(doubtful):
        tiles += [cell for _, cell in sorted(doubtful, key=lambda pair: pair[0])[-lacking:]]
    tiles = [orient(tile) for tile in tiles]
    if refined is not None:
        refined += tiles
    return reading_order(_reshaped(image, tiles))


def _reshaped(image: np.ndarray, tiles: list[np.ndarray]) -> list[np.ndarray]:
    """``tiles`` with each one far from the shape the others give it moved to that shape.

    A tile whose art runs into the table's colour (snow on a white desk)
    loses a strip along a side. The others say how long each way it should
    be; the side that moves out to that length is the one whose refined
    outline then fits best (`refine` finds the card's edge). A tile whose
    four sides run along card edges that end at its corners
    (`edged_all_round`: a cloth's check it took in runs on past a corner)
    is not shrunk onto a fainter step (`_onto_print`): a card found at its
    cut edge among cards found inside their printed frames is larger than
    the others say, and shrunk it lands on its print, where a tile that
    took in its shadow finds the card's sharper edge. A tile that cannot be
    made to fit is left as it was.
    """
    tiles, tried = list(tiles), set()
    rows, cols = image.shape[:2]
    while len(tiles) >= 5:
        # The worst first: a wrong tile also skews what the others are told.
        every = expected_forms(tiles)
        misfits = stretches_from(tiles, every)
        misfits[list(tried)] = 0
        i = int(np.argmax(misfits))
        if misfits[i] <= MISFIT / 2:
            break
        tried.add(i)
        expected = every[i]
        best, fit = tiles[i], misfits[i]
        tile = clockwise(np.float32(tiles[i]))
        edged = edged_all_round(image, [tile], tiles[:i] + tiles[i + 1:])
        for candidate in _grown(tile, expected):
            x, y = candidate[:, 0], candidate[:, 1]
            if not (cv2.isContourConvex(candidate) and x.min() >= 0 and y.min() >= 0
                    and x.max() < cols and y.max() < rows):
                continue  # no tile, or one the photo's edge cuts: nothing to check it by
            candidate = refine(image, candidate)
            misfit = stretch_from(tile_forms(candidate[None])[0], expected)
            if misfit < fit and not (edged and _onto_print(image, tile, candidate)):
                best, fit = candidate, misfit
        # Moved only when a card's edge is where the others say: a far better fit.
        if fit < min(misfits[i], MISFIT) / 2:
            tiles[i] = orient(best)
    return tiles


def _onto_print(image: np.ndarray, tile: np.ndarray, moved: np.ndarray) -> bool:
    """Whether a side of ``moved`` (clockwise, as ``tile``) lies inside ``tile``'s, a hundredth
    of a side or more, along a fainter step than ``tile``'s side there (`side_steps`).

    >>> image = np.zeros((60, 60, 3), np.uint8); image[10:50, 10:50] = 200; image[10:50, 30] = 120
    >>> card = np.float32([[10, 10], [50, 10], [50, 50], [10, 50]]) - 0.5
    >>> _onto_print(image, card, card * [0.5, 1] + [5, 0]), _onto_print(image, card * 1.1 - 3, card)
    (True, False)
    """
    inward = (np.roll(tile, -1, axis=0) - tile) @ np.float32([[0, 1], [-1, 0]])  # clockwise sides turned a quarter
    inward /= np.linalg.norm(inward, axis=1, keepdims=True)
    moves = (moved + np.roll(moved, -1, axis=0) - tile - np.roll(tile, -1, axis=0)) / 2
    shrunk = np.sum(moves * inward, axis=1) > 0.01 * np.linalg.norm(tile[1] - tile[0])
    before, after = side_steps(image, tile), side_steps(image, moved)
    return any(after[k] < before[k] for k in np.nonzero(shrunk)[0])


def _grown(quad: np.ndarray, expected: np.ndarray) -> list[np.ndarray]:
    """The quads with one or two sides moved along the tile's own directions so it
    is as long across and down as ``expected`` says: each way, either side."""
    across, down = mean_sides(quad).T
    u, v = across / np.linalg.norm(across), down / np.linalg.norm(down)
    # a^2 u u^T + b^2 v v^T = expected, in least squares.
    basis = np.float32([[u[0] * u[0], v[0] * v[0]], [u[0] * u[1], v[0] * v[1]], [u[1] * u[1], v[1] * v[1]]])
    squares, *_ = np.linalg.lstsq(basis, np.float32([expected[0, 0], expected[0, 1], expected[1, 1]]), rcond=None)
    a, b = np.sqrt(np.maximum(squares, 0))
    grow_across = (a - np.linalg.norm(across)) * u
    grow_down = (b - np.linalg.norm(down)) * v
    # Each way that is off by more than a few percent: either side moves. A
    # tile loses a strip, or gains a shadow; a quad far larger is no tile.
    if a < 0.75 * np.linalg.norm(across) or b < 0.75 * np.linalg.norm(down):
        return []
    moves = [[0, 1, 1, 0], [-1, 0, 0, -1]] if abs(a / np.linalg.norm(across) - 1) > 0.04 else [[0] * 4]
    downs = [[0, 0, 1, 1], [-1, -1, 0, 0]] if abs(b / np.linalg.norm(down) - 1) > 0.04 else [[0] * 4]
    return [quad + np.float32(m)[:, None] * grow_across + np.float32(d)[:, None] * grow_down
            for m in moves for d in downs if any(m) or any(d)]


# --- orientation and order ---------------------------------------------------------

def orient(quad: np.ndarray) -> np.ndarray:
    """Corners NW, NE, SE, SW: clockwise, starting with the side facing most upward.

    Going clockwise, the side whose outward normal points most upward is the
    one whose direction points most to the right.

    >>> orient(np.float32([[10, 10], [10, 0], [0, 0], [0, 10]])).tolist()
    [[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]]
    """
    quad = clockwise(np.float32(quad))
    along = np.roll(quad, -1, axis=0) - quad
    rightward = along[:, 0] / np.linalg.norm(along, axis=1)
    return np.roll(quad, -int(np.argmax(rightward)), axis=0)


def reading_order(tiles: list[np.ndarray]) -> list[np.ndarray]:
    """Tiles in rows top to bottom, each row left to right.

    Rows follow the tiles' common tilt when they share one (a loose grid shot
    at an angle); a new row starts where the centres step down by more than
    half a tile.
    """
    if not tiles:
        return []
    centres = np.float32([t.mean(axis=0) for t in tiles])
    side = np.median([np.linalg.norm(t[1] - t[0]) for t in tiles])
    tilt = _common_tilt(tiles)
    turn = np.float32([[np.cos(tilt), np.sin(tilt)], [-np.sin(tilt), np.cos(tilt)]])
    level = centres @ turn.T  # centres with the tilt taken out
    by_height = np.argsort(level[:, 1], kind="stable")
    rows, row = [], [by_height[0]]
    for previous, index in zip(by_height, by_height[1:]):
        if level[index, 1] - level[previous, 1] > 0.5 * side:
            rows.append(row)
            row = []
        row.append(index)
    rows.append(row)
    return [tiles[i] for row in rows for i in sorted(row, key=lambda i: level[i, 0])]


def _common_tilt(tiles) -> float:
    """The tiles' shared angle to the image axes (radians), or 0 if they differ."""
    angles = [np.arctan2(*(t[1] - t[0])[::-1]) for t in tiles]
    quarter = np.exp(4j * np.float64(angles))  # angles modulo a quarter turn
    mean = quarter.mean()
    return float(np.angle(mean) / 4) if abs(mean) > 0.9 else 0.0
