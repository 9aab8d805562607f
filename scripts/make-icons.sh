#!/usr/bin/env bash
# The web app manifest's PNG icons: rendered from public/favicon.svg with ffmpeg's librsvg decoder.
# "any" icons keep the rounded tile; the maskable ones fill the square and keep the bolt inside the 80 % safe zone.
set -euo pipefail
cd "$(dirname "$0")/.."
out=public/icons
mkdir -p "$out"
maskable=$(mktemp --suffix=.svg)
trap 'rm -f "$maskable"' EXIT
cat >"$maskable" <<'SVG'
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="#fe2c55"/><g transform="translate(16 16) scale(0.62) translate(-16 -16)"><path d="M18 4 8 18h7l-2 10 11-15h-7z" fill="#fff"/></g></svg>
SVG
render() { ffmpeg -hide_banner -loglevel error -y -c:v librsvg -width "$3" -height "$3" -i "$1" -frames:v 1 "$2"; }
render public/favicon.svg "$out/icon-192.png" 192
render public/favicon.svg "$out/icon-512.png" 512
render "$maskable" "$out/maskable-192.png" 192
render "$maskable" "$out/maskable-512.png" 512
render public/favicon.svg "$out/apple-touch-icon.png" 180
ls -l "$out"
