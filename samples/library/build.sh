#!/bin/sh
# Rebuild the sample template libraries: sh samples/library/build.sh
# Each is taught from one sample photo, with the codes a person would type
# (SET.codes.json, keyed by the tile numbers `edgematch detect` draws), and
# reads the other photos of its art set.
set -e
cd "$(dirname "$0")"
for pair in witches:witches-scan-easy frogs:frogs-scattered-easy critters:critters-scan-normal \
            vintage:vintage-touching-easy meadow:meadow-loose-normal; do
    set=${pair%%:*} photo=${pair#*:}
    rm -rf "$set"
    edgematch label "../photos/$photo.jpg" --library "$set" --codes "$set.codes.json"
done
