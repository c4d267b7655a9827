#!/usr/bin/env bash
# Regenerates the media fixtures in test/fixtures/media/ with Debian's ffmpeg
# (apt-get install -y ffmpeg; 5.1 with libx264, libx265, libvpx, libaom, libmp3lame,
# libopus, libwebp). Only needed to regenerate fixtures, never at test time.
# Every fixture is tiny: short, low resolution or a flat colour at the lowest quality.
# The expected outcome of each file is listed in test/fixtures/media/README.md.
set -euo pipefail

cd "$(dirname "$0")/.."
OUT=test/fixtures/media
mkdir -p "$OUT"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

ff() { ffmpeg -hide_banner -loglevel error -y -nostdin "$@"; }

# Deterministic output: no encoder or creation-time metadata.
META=(-map_metadata -1 -fflags +bitexact -flags:v +bitexact -flags:a +bitexact)
SRC=(-f lavfi -i "testsrc2=size=160x90:rate=30:duration=2")
TONE=(-f lavfi -i "sine=frequency=440:sample_rate=44100:duration=2")
X264=(-c:v libx264 -preset veryfast -crf 40 -pix_fmt yuv420p -x264-params log-level=error)
X265=(-c:v libx265 -preset veryfast -crf 40 -pix_fmt yuv420p -x265-params log-level=error)
AAC=(-c:a aac -b:a 24k)

# --- valid videos -----------------------------------------------------------------
ff "${SRC[@]}" "${TONE[@]}" "${X264[@]}" "${AAC[@]}" "${META[@]}" -movflags +faststart \
  "$OUT/h264-aac-faststart.mp4"
ff "${SRC[@]}" "${TONE[@]}" "${X264[@]}" "${AAC[@]}" "${META[@]}" "$OUT/h264-aac-moov-end.mp4"
ff "${SRC[@]}" "${X264[@]}" "${META[@]}" "$OUT/h264-noaudio.mp4"
ff "${SRC[@]}" "${TONE[@]}" "${X265[@]}" -tag:v hvc1 "${AAC[@]}" "${META[@]}" "$OUT/hevc-aac.mp4"
ff "${SRC[@]}" "${X265[@]}" -tag:v hev1 "${META[@]}" "$OUT/hevc-hev1-noaudio.mp4"
ff "${SRC[@]}" "${TONE[@]}" "${X264[@]}" "${AAC[@]}" "${META[@]}" -f mov "$OUT/h264-aac.mov"
ff "${SRC[@]}" "${TONE[@]}" "${X264[@]}" "${AAC[@]}" "${META[@]}" -g 15 \
  -movflags frag_keyframe+empty_moov+default_base_moof "$OUT/fragmented.mp4"

# Frame rates: 60 and 59.94 pass, 61 fails.
for rate in 60 61 60000/1001; do
  name=${rate/60000\/1001/59.94}
  ff -f lavfi -i "testsrc2=size=64x36:rate=$rate:duration=1" "${X264[@]}" "${META[@]}" \
    "$OUT/fps-$name.mp4"
done

# Durations: a static 16x16 frame at 1 fps with near-silent 8 kHz AAC; 180 s passes, 181 s fails.
for seconds in 180 181; do
  ff -f lavfi -i "color=c=gray:size=16x16:rate=1:duration=$seconds" \
    -f lavfi -i "anullsrc=channel_layout=mono:sample_rate=8000" -t "$seconds" \
    "${X264[@]}" -g 600 -c:a aac -b:a 8k "${META[@]}" -movflags +faststart \
    "$OUT/duration-$seconds.mp4"
done

# Dimensions: one flat frame at the lowest quality.
big() { # width height name [extra args...]
  local w=$1 h=$2 name=$3
  shift 3
  ff -f lavfi -i "color=c=navy:size=${w}x${h}:rate=1:duration=1" -c:v libx264 -preset ultrafast \
    -crf 51 -pix_fmt yuv420p -x264-params log-level=error "${META[@]}" "$@" "$OUT/$name"
}
big 2160 3840 size-2160x3840.mp4
big 3840 2160 size-3840x2160.mp4
big 2160 3842 size-2160x3842.mp4
big 2162 3840 size-2162x3840.mp4
# A landscape frame with a 90 degree display matrix (set on remux; ffmpeg 5.1 drops it
# when encoding): displayed as 2160x3840.
ff -i "$OUT/size-3840x2160.mp4" -c copy -metadata:s:v:0 rotate=90 "${META[@]}" \
  "$OUT/size-3840x2160-rotated.mp4"

# --- unsupported codecs and containers ---------------------------------------------
SHORT=(-f lavfi -i "testsrc2=size=64x36:rate=10:duration=1")
BEEP=(-f lavfi -i "sine=frequency=440:sample_rate=48000:duration=1")
ff "${SHORT[@]}" -c:v libvpx-vp9 -b:v 50k -deadline realtime "${META[@]}" "$OUT/vp9.webm"
ff "${SHORT[@]}" -c:v libvpx-vp9 -b:v 50k -deadline realtime "${META[@]}" "$OUT/vp9.mp4"
ff "${SHORT[@]}" -c:v libaom-av1 -cpu-used 8 -crf 63 "${META[@]}" "$OUT/av1.mp4"
ff "${SHORT[@]}" -c:v mpeg4 -q:v 31 "${META[@]}" "$OUT/mpeg4-part2.mp4"
ff "${SHORT[@]}" "${BEEP[@]}" "${X264[@]}" -c:a libmp3lame -b:a 32k "${META[@]}" "$OUT/h264-mp3.mp4"
ff "${SHORT[@]}" "${BEEP[@]}" "${X264[@]}" -c:a libopus -b:a 16k "${META[@]}" "$OUT/h264-opus.mp4"
ff "${SHORT[@]}" "${BEEP[@]}" "${X264[@]}" "${AAC[@]}" "${META[@]}" \
  -encryption_scheme cenc-aes-ctr -encryption_key 00112233445566778899aabbccddeeff \
  -encryption_kid 00112233445566778899aabbccddeeff "$OUT/encrypted.mp4"

# --- broken files --------------------------------------------------------------------
# Cut in the middle of the media data of a moov-at-end file: no moov at all.
whole=$(stat -c %s "$OUT/h264-aac-moov-end.mp4")
head -c $((whole / 2)) "$OUT/h264-aac-moov-end.mp4" >"$OUT/truncated-no-moov.mp4"
# Cut 200 bytes into the moov of a faststart file (moov follows ftyp).
ftyp=$(od -An -tu4 --endian=big -N4 "$OUT/h264-aac-faststart.mp4" | tr -d ' ')
head -c $((ftyp + 200)) "$OUT/h264-aac-faststart.mp4" >"$OUT/truncated-in-moov.mp4"
# Media data cut short after a complete moov.
head -c $((whole * 3 / 4)) "$OUT/h264-aac-faststart.mp4" >"$OUT/truncated-mdat.mp4"
printf 'This is a text file, not a video.\n' >"$OUT/text.mp4"

# --- images ----------------------------------------------------------------------------
IMG=(-f lavfi -i "testsrc2=size=64x48:rate=1" -frames:v 1)
ff "${IMG[@]}" "${META[@]}" "$OUT/image.png"
ff "${IMG[@]}" -q:v 8 "${META[@]}" "$OUT/image.jpg"
ff "${IMG[@]}" -c:v libwebp -quality 30 "${META[@]}" "$OUT/image-lossy.webp"
ff "${IMG[@]}" -c:v libwebp -lossless 1 "${META[@]}" "$OUT/image-lossless.webp"
ff "${IMG[@]}" -vf "format=rgba,colorchannelmixer=aa=0.5" -c:v libwebp -quality 30 "${META[@]}" \
  "$OUT/image-alpha.webp"
ff -f lavfi -i "color=c=white:size=8192x8:rate=1,format=rgb24" -frames:v 1 "${META[@]}" "$OUT/image-8192x8.png"
ff -f lavfi -i "color=c=white:size=8193x8:rate=1,format=rgb24" -frames:v 1 "${META[@]}" "$OUT/image-8193x8.png"
ff -f lavfi -i "color=c=white:size=16x8200:rate=1" -frames:v 1 -q:v 31 "${META[@]}" \
  "$OUT/image-16x8200.jpg"
head -c 20 "$OUT/image.png" >"$OUT/image-truncated.png"
printf 'Not an image either.\n' >"$OUT/text.png"

# HEIC: ffmpeg 5.1 cannot write HEIF, so the container is assembled here around a real
# one-frame x265 bitstream: ftyp (heic, mif1), meta (hdlr pict, pitm, iinf/infe hvc1,
# iloc, iprp/ipco with hvcC and ispe 64x48, ipma) and mdat with the length-prefixed NALs.
ff "${IMG[@]}" "${X265[@]}" -f hevc "$TMP/frame.hevc"
node --input-type=module - "$TMP/frame.hevc" "$OUT/image.heic" <<'JS'
import { readFileSync, writeFileSync } from 'node:fs';
const [input, output] = process.argv.slice(2);
const es = readFileSync(input);
const nals = [];
for (let i = 0, start = -1; i <= es.length; i += 1) {
  const atCode = i + 2 < es.length && es[i] === 0 && es[i + 1] === 0 && es[i + 2] === 1;
  if (atCode || i === es.length) {
    if (start >= 0) {
      let end = i;
      while (end > start && es[end - 1] === 0) end -= 1;
      nals.push(es.subarray(start, end));
    }
    if (atCode) { start = i + 3; i += 2; }
  }
}
const type = (n) => (n[0] >> 1) & 0x3f;
const vps = nals.find((n) => type(n) === 32);
const sps = nals.find((n) => type(n) === 33);
const pps = nals.find((n) => type(n) === 34);
const slices = nals.filter((n) => type(n) < 32);
const rbsp = [];
for (let i = 0, zeros = 0; i < sps.length; i += 1) {
  if (zeros >= 2 && sps[i] === 3) { zeros = 0; continue; }
  zeros = sps[i] === 0 ? zeros + 1 : 0;
  rbsp.push(sps[i]);
}
const ptl = rbsp.slice(3, 15); // general profile_tier_level: 12 byte-aligned bytes
const u16 = (v) => [v >> 8, v & 255];
const u32 = (v) => [(v >>> 24) & 255, (v >> 16) & 255, (v >> 8) & 255, v & 255];
const str = (s) => [...Buffer.from(s, 'latin1')];
const box = (t, ...parts) => { const body = parts.flat(); return [...u32(body.length + 8), ...str(t), ...body]; };
const full = (t, v, f, ...parts) => box(t, [v, (f >> 16) & 255, (f >> 8) & 255, f & 255], ...parts);
const array = (n) => [0x80 | type(n), ...u16(1), ...u16(n.length), ...n];
const hvcC = box('hvcC', [1, ...ptl, 0xf0, 0x00, 0xfc, 0xfd, 0xf8, 0xf8, 0, 0, 0x0f, 3],
  array(vps), array(sps), array(pps));
const ispe = full('ispe', 0, 0, u32(64), u32(48));
const payload = slices.flatMap((n) => [...u32(n.length), ...n]);
const ftyp = box('ftyp', str('heic'), u32(0), str('mif1'), str('heic'));
const meta = (offset) => full('meta', 0, 0,
  full('hdlr', 0, 0, u32(0), str('pict'), u32(0), u32(0), u32(0), [0]),
  full('pitm', 0, 0, u16(1)),
  full('iinf', 0, 0, u16(1), full('infe', 2, 0, u16(1), u16(0), str('hvc1'), [0])),
  full('iloc', 0, 0, [0x44, 0x00], u16(1), u16(1), u16(0), u16(1), u32(offset), u32(payload.length)),
  box('iprp', box('ipco', hvcC, ispe), full('ipma', 0, 0, u32(1), u16(1), [2, 0x81, 0x02])));
const head = ftyp.length + meta(0).length + 8;
writeFileSync(output, Buffer.from([...ftyp, ...meta(head), ...box('mdat', payload)]));
JS

echo "fixtures written to $OUT:"
ls -l "$OUT" | awk 'NR > 1 { total += $5; print "  " $9 " " $5 } END { print "  total " total " bytes" }'
