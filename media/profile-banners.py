"""Writes the profile banners (Douyin's cover_url) as small SVGs: a two-tone gradient with soft circles and a wave.

    python3 media/profile-banners.py OUT_DIR TSV

Banner 00 is the one a new account gets; 01-12 go to the seeded users. Pure arithmetic on the index, so every run
writes the same bytes. make-media.sh calls it and lists TSV's rows in media/manifest.json.
"""
import colorsys
import sys

W, H = 1500, 500
COUNT = 12


def hexc(h, l, s):
    r, g, b = colorsys.hls_to_rgb(h % 1, l, s)
    return "#%02x%02x%02x" % (round(r * 255), round(g * 255), round(b * 255))


def banner(i):
    if i == 0:
        c0, c1, c2 = "#3a4a6b", "#5b6f95", "#8ea3c4"
    else:
        h = ((i * 5) % COUNT) / COUNT
        c0, c1, c2 = hexc(h, 0.30, 0.55), hexc(h + 0.07, 0.50, 0.65), hexc(h + 0.14, 0.72, 0.70)
    circles = "".join(
        f'<circle cx="{(i * 211 + k * 487) % W}" cy="{(i * 97 + k * 173) % H}" r="{140 + (i * 37 + k * 61) % 160}" fill="#fff" fill-opacity="{0.06 + 0.03 * k:.2f}"/>'
        for k in range(3)
    )
    a = 60 + (i * 29) % 80
    wave = f'<path d="M0 {H - a} C{W * 0.25:.0f} {H - a - 90} {W * 0.5:.0f} {H - a + 70} {W} {H - a - 40} V{H} H0 Z" fill="#000" fill-opacity="0.12"/>'
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}">'
        f'<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">'
        f'<stop offset="0" stop-color="{c0}"/><stop offset="0.55" stop-color="{c1}"/><stop offset="1" stop-color="{c2}"/>'
        f"</linearGradient></defs>"
        f'<rect width="{W}" height="{H}" fill="url(#g)"/>{circles}{wave}</svg>\n'
    )


def main(out_dir, tsv):
    with open(tsv, "w", encoding="utf-8") as rows:
        rows.write("image\n")
        for i in range(COUNT + 1):
            name = f"banners/profile-{i:02d}.svg"
            with open(f"{out_dir}/profile-{i:02d}.svg", "w", encoding="utf-8") as fh:
                fh.write(banner(i))
            if i > 0:
                rows.write(f"{name}\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
