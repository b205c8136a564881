"""``python -m vision.cli``: the ``edgematch`` command, for a tree that is not installed."""

from vision.cli import main

main()
