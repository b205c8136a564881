#!/bin/sh
# Regenerate the sample photos and their truth JSON: sh samples/photos/render.sh
# The witches photos all show one puzzle (same seed), so a template library
# taught from one reads the others.
set -e
cd "$(dirname "$0")"
r() { out=$1; shift; edgematch render "$out" --size 1600x1200 "$@" > /dev/null; }
r witches-scattered-normal.jpg   --art witches --seed 1 --unique --layout scattered --difficulty normal --table wood
r witches-loose-easy.jpg         --art witches --seed 1 --unique --layout loose --difficulty easy --table cloth
r witches-touching-normal.jpg    --art witches --seed 1 --unique --layout touching --difficulty normal --table white
r witches-scan-easy.jpg          --art witches --seed 1 --unique --layout scan --difficulty easy --size 1200x1600
r witches-scattered-hard-exif.jpg --art witches --seed 1 --unique --layout scattered --difficulty hard --table dark --exif 90
r frogs-touching-normal.jpg      --art frogs --seed 2 --unique --layout touching --difficulty normal --table wood
r frogs-scattered-easy.jpg       --art frogs --seed 2 --unique --layout scattered --difficulty easy --table white
r critters-scattered-hard.jpg    --art critters --seed 3 --unique --layout scattered --difficulty hard --table dark
r critters-scan-normal.jpg       --art critters --seed 3 --unique --layout scan --difficulty normal
r lookalikes-loose-normal.jpg    --art lookalikes --seed 4 --unique --layout loose --difficulty normal --table wood
r sports-loose-hard.jpg          --art sports --seed 5 --unique --layout loose --difficulty hard --table cloth
r vintage-scattered-normal.jpg   --art vintage --seed 6 --unique --layout scattered --difficulty normal --table wood
r vintage-touching-easy.jpg      --art vintage --seed 6 --unique --layout touching --difficulty easy --table dark
r meadow-loose-normal.jpg        --art meadow --seed 7 --unique --layout loose --difficulty normal --table dark
r meadow-scattered-hard-exif.jpg --art meadow --seed 7 --unique --layout scattered --difficulty hard --table wood --exif 270
