"""edgematch's eyes: find tiles in a photo, read their edges, draw the answer.

The path a photo takes is the module list: `images` (read, EXIF) ->
`detect` (tile quadrilaterals, by `table`, `blocks` and `corners`) ->
`rectify` (square tiles) -> `edges` (half-figure crops) -> `describe`/`read`
(codes) -> `solver` (search) -> `draw` (the annotated photo). `render`
makes synthetic photos with ground truth; `cli` is the `edgematch` command.
"""
