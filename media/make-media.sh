#!/usr/bin/env bash
# Generates the sample media of 闪映 into public/media/ and writes media/manifest.json.
#
#   npm run media            (or)   bash media/make-media.sh
#
# Requirements: ffmpeg (with libx264, libwebp, libfreetype, libfontconfig),
# ffprobe, python3 and the fonts-noto-cjk package.
#
# Everything is regenerated from scratch on every run; all generated sources
# use fixed seeds and the encoders run with fixed thread counts and bitexact
# flags, so re-running with the same ffmpeg build gives byte-identical files.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$ROOT/public/media"
MANIFEST="$ROOT/media/manifest.json"

die() { echo "make-media: $*" >&2; exit 1; }

# ---------------------------------------------------------------- preflight --
for bin in ffmpeg ffprobe python3; do
  command -v "$bin" >/dev/null 2>&1 || die "'$bin' not found in PATH"
done

FONT_DIR=/usr/share/fonts/opentype/noto
for f in NotoSansCJK-Bold.ttc NotoSansCJK-Regular.ttc; do
  [[ -f "$FONT_DIR/$f" ]] || die "font $FONT_DIR/$f is missing — install it with: sudo apt-get install fonts-noto-cjk"
done

# The .ttc files hold JP, KR, SC, TC and HK faces; a plain fontfile= path would
# always open face #0 (Japanese glyph forms, e.g. 今/直/骨 look wrong for
# Chinese). drawtext hands a fontfile that is not a file path to fontconfig as
# a pattern, which selects the Simplified Chinese face of the same .ttc.
# (Filter-level escaping: "\\\:" ends up as a literal ":" in the pattern.)
BOLD='fontfile=Noto Sans CJK SC\\\:style=Bold'
REGULAR='fontfile=Noto Sans CJK SC\\\:style=Regular'

TMP="$(mktemp -d)"
# On abort, stop clip jobs still running (our own background jobs and their
# ffmpeg children, by pid), then clean up.
cleanup() {
  local pid
  for pid in $(jobs -p); do
    pkill -TERM -P "$pid" 2>/dev/null || true
    kill -TERM "$pid" 2>/dev/null || true
  done
  rm -rf "$TMP"
}
trap cleanup EXIT

# Check that fontconfig really resolves those patterns to the Noto CJK files.
for spec in "$BOLD:NotoSansCJK-Bold.ttc" "$REGULAR:NotoSansCJK-Regular.ttc"; do
  printf 'color=s=64x64:d=0.04,drawtext=%s:text=闪映:fontsize=20\n' "${spec%:*}" >"$TMP/fontcheck.txt"
  ffmpeg -nostdin -hide_banner -loglevel verbose -filter_complex_script "$TMP/fontcheck.txt" -f null - 2>&1 \
    | grep -q "Using \"$FONT_DIR/${spec##*:}\"" \
    || die "drawtext/fontconfig does not pick $FONT_DIR/${spec##*:} — install it with: sudo apt-get install fonts-noto-cjk (and check 'fc-list | grep \"Noto Sans CJK SC\"')"
done

FF=(ffmpeg -nostdin -hide_banner -loglevel error -y)
BITEXACT=(-fflags +bitexact -map_metadata -1 -map_chapters -1)

rm -rf "$OUT/clips" "$OUT/posters" "$OUT/avatars" "$OUT/banners"
mkdir -p "$OUT/clips" "$OUT/posters" "$OUT/avatars" "$OUT/banners"

declare -A CHANNEL_NAME=(
  [300201]=娱乐 [300203]=知识 [300204]=美食 [300205]=游戏
  [300206]=二次元 [300207]=体育 [300208]=时尚 [300209]=音乐
)
CHANNELS=(300201 300203 300204 300205 300206 300207 300208 300209)

# -------------------------------------------------------------------- clips --
# A clip carries no words about its topic: many videos of a channel share one, and each video's own title is on its
# own poster (rendered by the seed). The caption column only names the clip in the manifest.
# id | seconds | fps | channel | caption | tone1 Hz | tone2 Hz | accent colour |
# background: a filter chain that must end with a 540x960 stream labelled [bg]
CLIPS=(
  'c01|8|30|300204|今天的美食探店|262|392|0xffd166|gradients=s=540x960:r=30:type=radial:n=4:c0=0xff7a18:c1=0xd7263d:c2=0xffd166:c3=0x6a0572:x0=270:y0=420:x1=540:y1=960:speed=0.03:seed=101[bg]'
  'c02|7|25|300201|猫咪的日常|330|495|0xffc2d1|life=s=36x64:r=12.5:mold=6:ratio=0.32:seed=42:life_color=0xffc2d1:death_color=0x2b1b3a:mold_color=0x6d4c9e,scale=540:960:flags=neighbor,fps=25[bg]'
  'c03|9|30|300207|篮球高光时刻|196|294|0xff8c00|testsrc2=s=320x180:r=30,scale=-2:960:flags=bicubic,crop=540:960,hue=h=40*t[bg]'
  'c04|6|25|300209|古风舞蹈|220|330|0xffe4b5|mandelbrot=s=270x480:r=25:start_x=-0.743643887037158704752191506114774:start_y=-0.131825904205311970493132056385139:start_scale=1.2:end_scale=0.3:end_pts=400:maxiter=128:outer=normalized_iteration_count:inner=period,scale=540:960:flags=bicubic,hue=h=20*t[bg]'
  'c05|10|30|300206|二次元手绘|523|659|0xff9de2|cellauto=s=36x64:r=10:rule=18:ratio=0.5:seed=7:scroll=1:full=1,scale=540:960:flags=neighbor,fps=30,lutrgb=r=0.55*val+70:g=0.30*val+30:b=0.50*val+90[bg]'
  'c06|7.5|25|300203|科普小知识|440|554|0x7fdbff|sierpinski=s=135x240:r=25:type=triangle:jump=1:seed=3,scale=540:960:flags=neighbor,lutrgb=r=0.15*val+20:g=0.70*val+35:b=0.80*val+70,hue=h=25*t[bg]'
  'c07|8.5|30|300205|游戏精彩集锦|294|370|0x39ff14|smptehdbars=s=540x960:r=30[bars];testsrc=s=180x180:r=30[tb];[bars][tb]overlay=x=180+160*sin(2*PI*t/3):y=390+300*sin(2*PI*t/4.25)[bg]'
  'c08|6.5|25|300208|街头时尚穿搭|349|466|0xffffff|colorspectrum=s=960x540:r=25:type=all,transpose=1,scroll=v=0.012,hue=h=30*t[bg]'
  'c09|9.5|30|300209|电吉他弹唱|165|247|0xffe600|rgbtestsrc=s=540x960:r=30,hue=H=2*PI*t/4,rotate=a=0.25*sin(2*PI*t/5):c=0x101010[bg]'
  'c10|7|25|300207|健身打卡|247|370|0xffffff|color=c=0xff3355:s=540x960:r=25,hue=h=50*t,vignette=angle=PI/3+0.25*sin(2*PI*t):eval=frame[bg]'
  'c11|8|30|300205|像素闯关挑战|392|587|0x39ff14|life=s=36x64:r=8:rule=B36/S23:ratio=0.3:seed=99:life_color=0x39ff14:death_color=0x0d0d26:mold=0,scale=540:960:flags=neighbor,fps=30[bg]'
  'c12|6|25|300203|手工制作|277|415|0xfff3b0|colorchart=r=25:patch_size=160x160,transpose=1,crop=540:960:x=50+50*sin(2*PI*t/3):y=0,hue=h=15*t[bg]'
  'c13|9|30|300206|动漫角色仿妆|587|740|0xffd1f5|gradients=s=540x960:r=30:type=spiral:n=3:c0=0xff6ec7:c1=0x7b2ff7:c2=0x00d4ff:x0=270:y0=480:x1=540:y1=960:speed=0.02:seed=13[bg]'
  'c14|7|25|300201|搞笑日常|311|415|0xffff66|testsrc=s=270x480:r=25,scale=540:960:flags=neighbor,hue=h=-35*t:s=1.2[bg]'
  'c15|10|25|300208|古风汉服穿搭|233|349|0xffe9a8|gradients=s=540x960:r=25:type=circular:n=3:c0=0x0f766e:c1=0xd4a017:c2=0x7f1d1d:x0=270:y0=300:x1=0:y1=960:speed=0.015:seed=15[bg]'
  'c16|8|30|300204|深夜烧烤摊|185|277|0xffb347|haldclutsrc=level=8:r=30,scale=960:960,crop=540:960:x=210+200*sin(2*PI*t/8):y=0,hue=h=20*t[bg]'
)

# x264 is only bit-for-bit repeatable here with a single encoder thread (frame
# threads made the output differ from run to run), so clips are encoded with
# -threads 1 and two clips are rendered side by side instead.
VIDEO_ENC=(-c:v libx264 -preset veryfast -profile:v high -pix_fmt yuv420p
           -crf 24 -maxrate 640k -bufsize 1280k -g 60 -force_key_frames 1 -threads 1
           -flags:v +bitexact)
AUDIO_ENC=(-c:a aac -b:a 64k -ar 44100 -ac 2 -flags:a +bitexact)

# make_clip N ROW: renders clip number N (1-based) described by ROW, its
# poster, and its manifest row ($TMP/<id>.row).
make_clip() {
  local n=$1 id dur fps channel caption f1 f2 accent bg cname total
  IFS='|' read -r id dur fps channel caption f1 f2 accent bg <<<"$2"
  cname="${CHANNEL_NAME[$channel]}"
  total=$(python3 -c "import math; d=math.ceil($dur); print(f'{d//60:02d}\\\\:{d%60:02d}')")
  echo "clip  $id  ${dur}s ${fps}fps  $channel $cname  $caption"
  # star orbit and phase differ per clip so no two clips move alike
  cat >"$TMP/$id.filter" <<FILTER
$bg;
[bg]format=yuv420p,
drawtext=$BOLD:text=闪映:fontsize=34:fontcolor=white@0.85:shadowx=2:shadowy=2:shadowcolor=black@0.6:x=w-text_w-24:y=28,
drawtext=$REGULAR:text='%{eif\:t/60\:d\:2}\:%{eif\:mod(t\,60)\:d\:2} / $total':fontsize=24:fontcolor=white:box=1:boxcolor=black@0.45:boxborderw=8:x=24:y=32,
drawtext=$BOLD:text=★:fontsize=54:fontcolor=$accent:borderw=2:bordercolor=black@0.5:x=(w-text_w)/2+190*sin(2*PI*t/$((3 + n % 3))+$n):y=h*0.40+150*cos(2*PI*t/$((2 + n % 4))+$n)[txt];
color=c=white:s=540x8:r=$fps[bar];
[txt][bar]overlay=x=-w+w*t/$dur:y=H-h:shortest=1,setsar=1[v];
sine=f=$f1:sample_rate=44100:beep_factor=$((2 + n % 3)),volume=0.30[s1];
sine=f=$f2:sample_rate=44100,tremolo=f=$((2 + n % 5)):d=0.6,volume=0.20[s2];
anoisesrc=c=pink:a=0.04:r=44100:seed=$((1000 + n))[ns];
[s1][s2][ns]amix=inputs=3:normalize=0,afade=t=in:d=0.3,afade=t=out:st=$(python3 -c "print($dur-0.5)"):d=0.5,aformat=channel_layouts=stereo[a]
FILTER
  "${FF[@]}" -filter_complex_script "$TMP/$id.filter" -map '[v]' -map '[a]' -t "$dur" -r "$fps" \
    "${VIDEO_ENC[@]}" "${AUDIO_ENC[@]}" "${BITEXACT[@]}" -movflags +faststart \
    "$OUT/clips/$id.mp4"
  # poster: the frame at 1 s (forced to be a keyframe above, so it is crisp)
  "${FF[@]}" -ss 1 -i "$OUT/clips/$id.mp4" -frames:v 1 -an \
    -c:v libwebp -quality 70 -compression_level 6 "${BITEXACT[@]}" "$OUT/posters/$id.webp"

  local width height duration bytes ms
  width=$(probe "$id" stream=width -select_streams v:0)
  height=$(probe "$id" stream=height -select_streams v:0)
  duration=$(probe "$id" format=duration)
  bytes=$(probe "$id" format=size)
  ms=$(python3 -c "print(round(float('$duration')*1000))")
  printf '%s\tclips/%s.mp4\tposters/%s.webp\t%s\t%s\t%s\t%s\t%s\t%s\n' \
    "$id" "$id" "$id" "$ms" "$width" "$height" "$bytes" "$caption" "$channel" >"$TMP/$id.row"
}

probe() {  # probe ID ENTRIES [ffprobe args...]
  ffprobe -v error -show_entries "$2" -of default=noprint_wrappers=1:nokey=1 "${@:3}" "$OUT/clips/$1.mp4"
}

# Two clips at a time (each encoder is single-threaded, see above).
JOBS=2
pids=()
for i in "${!CLIPS[@]}"; do
  if (( ${#pids[@]} >= JOBS )); then
    wait "${pids[0]}"        # a failed clip aborts the run (set -e)
    pids=("${pids[@]:1}")
  fi
  make_clip $((i + 1)) "${CLIPS[$i]}" &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done

printf 'id\tvideo\tposter\tdurationMs\twidth\theight\tbytes\tcaption\tchannel\n' >"$TMP/clips.tsv"
for row in "${CLIPS[@]}"; do cat "$TMP/${row%%|*}.row" >>"$TMP/clips.tsv"; done

# ------------------------------------------------------ static backgrounds --
# gradient_src W H "C0 C1 [C2 ...]" DX DY -> a one-frame lavfi source with a
# linear gradient along direction (DX,DY). Built with geq so the result is
# fully determined by the arguments (the gradients source rotates randomly).
gradient_src() {
  python3 - "$@" <<'PY'
import sys
w, h, colors, dx, dy = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3].split(), float(sys.argv[4]), float(sys.argv[5])
rgb = [tuple(int(c[2:][i:i + 2], 16) for i in (0, 2, 4)) for c in colors]
span = dx * (w - 1) + dy * (h - 1)
p = f"(({dx}*X+{dy}*Y)/{span})"          # 0..1 along the gradient
k = len(rgb) - 1
def channel(j):
    expr = str(rgb[0][j])
    for i in range(k):                       # piecewise-linear between stops
        d = rgb[i + 1][j] - rgb[i][j]
        expr += f"+{d}*clip({k}*{p}-{i}\\,0\\,1)"
    return expr
print(f"color=s={w}x{h}:d=1:r=1,format=rgb24,geq=r={channel(0)}:g={channel(1)}:b={channel(2)},format=yuv420p")
PY
}

# ------------------------------------------------------------------ avatars --
AVATAR_CHARS=(闪 映 星 月 云 风 花 雨 山 海 光 影 夏 秋 冬 春 乐 梦 阳 晨 夜 雪 林 川)
printf 'id\timage\tchar\n' >"$TMP/avatars.tsv"
for i in "${!AVATAR_CHARS[@]}"; do
  id=$(printf 'a%02d' $((i + 1)))
  ch="${AVATAR_CHARS[$i]}"
  # hue steps of 15° (×7 mod 24 so neighbours differ), two tones per avatar
  read -r c0 c1 < <(python3 - "$i" <<'PY'
import colorsys, sys
i = int(sys.argv[1])
h = ((i * 7) % 24) / 24
def hexc(h, l, s):
    r, g, b = colorsys.hls_to_rgb(h % 1, l, s)
    return "0x%02x%02x%02x" % (round(r * 255), round(g * 255), round(b * 255))
print(hexc(h, 0.58, 0.70), hexc(h + 0.08, 0.36, 0.75))
PY
)
  "${FF[@]}" -filter_complex "$(gradient_src 200 200 "$c0 $c1" 1 1),drawtext=$BOLD:text=$ch:fontsize=116:fontcolor=white:shadowx=0:shadowy=3:shadowcolor=black@0.25:x=(w-text_w)/2:y=(h-text_h)/2" \
    -frames:v 1 -c:v libwebp -quality 75 -compression_level 6 "${BITEXACT[@]}" "$OUT/avatars/$id.webp"
  printf '%s\tavatars/%s.webp\t%s\n' "$id" "$id" "$ch" >>"$TMP/avatars.tsv"
done
echo "avatars  ${#AVATAR_CHARS[@]}"

# ------------------------------------------------------------------ banners --
declare -A BANNER_COLORS=(
  [300201]='0xff512f 0xdd2476 0x7b1fa2'   # 娱乐
  [300203]='0x1e3c72 0x2a5298 0x00b4db'   # 知识
  [300204]='0xf7971e 0xff5e3a 0xb31217'   # 美食
  [300205]='0x0f0c29 0x302b63 0x24c6dc'   # 游戏
  [300206]='0xff6ec7 0x7b2ff7 0x3ad1ff'   # 二次元
  [300207]='0x11998e 0x38ef7d 0x0b6e4f'   # 体育
  [300208]='0x232526 0x8e2de2 0xd4a017'   # 时尚
  [300209]='0xfc466b 0x3f5efb 0x1a1a40'   # 音乐
)
printf 'channel\timage\n' >"$TMP/banners.tsv"
for ch in "${CHANNELS[@]}"; do
  name="${CHANNEL_NAME[$ch]}"
  "${FF[@]}" -filter_complex "$(gradient_src 1200 240 "${BANNER_COLORS[$ch]}" 1 0.6),drawtext=$BOLD:text=$name:fontsize=120:fontcolor=white:shadowx=0:shadowy=4:shadowcolor=black@0.3:x=80:y=(h-text_h)/2-6,drawtext=$REGULAR:text=闪映 · $name频道:fontsize=32:fontcolor=white@0.85:x=w-text_w-60:y=h-text_h-36" \
    -frames:v 1 -c:v libwebp -quality 72 -compression_level 6 "${BITEXACT[@]}" "$OUT/banners/$ch.webp"
  printf '%s\tbanners/%s.webp\n' "$ch" "$ch" >>"$TMP/banners.tsv"
done
echo "banners  ${#CHANNELS[@]}"
# Profile banners (users' cover_url): SVGs, no ffmpeg needed.
python3 "$ROOT/media/profile-banners.py" "$OUT/banners" "$TMP/profile-banners.tsv"
echo "profile banners  $(($(wc -l <"$TMP/profile-banners.tsv") - 1))"

# ----------------------------------------------------------------- manifest --
python3 - "$TMP" "$MANIFEST" <<'PY'
import csv, json, sys
tmp, out = sys.argv[1], sys.argv[2]
def rows(name):
    with open(f"{tmp}/{name}.tsv", encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))
ints = {"durationMs", "width", "height", "bytes", "channel"}
manifest = {
    "clips": [{k: (int(v) if k in ints else v) for k, v in r.items()} for r in rows("clips")],
    "avatars": rows("avatars"),
    "banners": [{"channel": int(r["channel"]), "image": r["image"]} for r in rows("banners")],
    "profileBanners": rows("profile-banners"),
}
with open(out, "w", encoding="utf-8") as fh:
    json.dump(manifest, fh, ensure_ascii=False, indent=2)
    fh.write("\n")
PY
echo "manifest $(realpath --relative-to="$ROOT" "$MANIFEST")"
du -sh "$OUT" | sed 's/^/total    /'
