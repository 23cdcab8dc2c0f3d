#!/usr/bin/env python3
"""chaos_smoke's look at a report page: its screenshot (headless Chromium)
must be a PNG of the size asked for that shows the lanes, i.e. holds many
strongly coloured pixels (fault windows, request dots, VM bars); a blank
page, or one of text alone, has next to none.

    page_check.py SHOT.png WIDTH HEIGHT [MIN_COLOURED]

Prints what it found; exits 1 when the page does not pass, 2 on a file
that is not a PNG it can read (8-bit RGB or RGBA, not interlaced)."""
import struct
import sys
import zlib


def read_png(path):
    with open(path, "rb") as f:
        data = f.read(64 << 20)
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, ihdr = 8, [], None
    while pos + 8 <= len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + n
    if not ihdr:
        raise ValueError("no IHDR")
    w, h, depth, ctype, _, _, interlace = ihdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise ValueError(f"unsupported PNG (depth {depth}, colour type {ctype})")
    return w, h, 3 if ctype == 2 else 4, zlib.decompress(b"".join(idat))


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


def rows(w, h, bpp, raw):
    stride, prev, at = w * bpp, bytearray(w * bpp), 0
    for _ in range(h):
        kind, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
            line[i] = (line[i] + (0, a, b, (a + b) // 2, paeth(a, b, c))[kind]) & 0xFF
        yield line
        prev = line


def main(argv):
    if len(argv) < 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    path, want_w, want_h = argv[1], int(argv[2]), int(argv[3])
    need = int(argv[4]) if len(argv) > 4 else 2000
    try:
        w, h, bpp, raw = read_png(path)
    except (OSError, ValueError, zlib.error) as e:
        print(f"page_check: {path}: {e}")
        return 2
    coloured = 0
    for line in rows(w, h, bpp, raw):
        for i in range(0, w * bpp, bpp):
            r, g, b = line[i], line[i + 1], line[i + 2]
            coloured += max(r, g, b) - min(r, g, b) > 80
    ok = (w, h) == (want_w, want_h) and coloured >= need
    print(f"page_check: {path}: {w}x{h}, {coloured} strongly coloured pixels "
          f"(need {need}): {'ok' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
