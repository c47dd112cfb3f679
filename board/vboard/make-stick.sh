#!/usr/bin/env bash
# Makes the virtual board's USB stick: an MBR-partitioned disk image with one FAT32 partition
# (at 1 MiB) holding generated MP3s, each a different chord so that tracks are told apart.
# Usage: board/vboard/make-stick.sh DIR      (needs sox, lame, sfdisk, mkfs.vfat, mtools)
# Writes DIR/stick.img and DIR/tracks/ (the MP3s, as on the stick). Idempotent: does nothing
# when DIR/.complete is newer than this script.
set -euo pipefail
dir="$(realpath -m "$1")"
if [ -f "$dir/.complete" ] && [ "$dir/.complete" -nt "$0" ]; then exit 0; fi
rm -rf "$dir"; mkdir -p "$dir/tracks/Album"; cd "$dir/tracks"

track() { # track PATH LOW HIGH: 12 s of two rising tones, 44.1 kHz stereo, 192 kbps
  sox -q -n -r 44100 -c 2 -b 16 "$dir/tone.wav" synth 12 sine "$2-$3" sine "$(( $2 * 3 / 2 ))-$(( $3 * 3 / 2 ))" vol 0.4
  lame --quiet -b 192 "$dir/tone.wav" "$1"
}
track "Album/One.mp3" 220 880
track "Album/Two.mp3" 300 600
track "Café del Mar.mp3" 440 1320
track "Four.mp3" 150 1200
rm -f "$dir/tone.wav"

# 64 MiB: FAT32's smallest comfortable size (mkfs.vfat -F 32 needs 65525 clusters at 512 bytes).
image="$dir/stick.img"
truncate -s 64M "$image"
echo 'start=2048, type=c' | sfdisk -q "$image"
mkfs.vfat -F 32 -S 512 -s 1 --offset 2048 -i CAFE0001 -n SHFLSTICK "$image" $(( (64 * 1024 - 1024) )) >/dev/null
export MTOOLS_SKIP_CHECK=1 LC_ALL=C.UTF-8
mmd -i "$image@@1M" ::/Album
for f in Album/One.mp3 Album/Two.mp3 "Café del Mar.mp3" Four.mp3; do mcopy -i "$image@@1M" "$f" "::/$f"; done
mdir -i "$image@@1M" -/ ::/ >"$dir/listing.txt"
touch "$dir/.complete"
