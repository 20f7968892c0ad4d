#!/usr/bin/env python3
"""Checks that pictures are well-formed, for the tile-render tests.

  check-image.py FILE... [--contains TEXT]... [--lacks TEXT]...
                 [--min-size W H]

A PNG must have the signature, an IHDR chunk first with a width and height
of at least --min-size (default 1 1), chunks whose CRCs are right, image
data that decompresses, and an IEND chunk last. An SVG must parse as XML
with an <svg> root, have a width and height, and hold every --contains text
and no --lacks text in its text (what a reader sees: <text> and <title>
elements). Prints one
line per good file, `FILE: png WxH` or `FILE: svg WxH`, and exits 1 at the
first bad one with `FILE: bad: why`.

Standard library only.
"""

import argparse
import os
import re
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
SVG_NS = "{http://www.w3.org/2000/svg}"


class Bad(Exception):
    pass


def check_png(data):
    if not data.startswith(PNG_SIGNATURE):
        raise Bad("no PNG signature")
    pos, chunks, idat = len(PNG_SIGNATURE), [], b""
    while pos < len(data):
        if pos + 8 > len(data):
            raise Bad("truncated chunk header at byte %d" % pos)
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        crc = data[pos + 8 + length:pos + 12 + length]
        if len(body) != length or len(crc) != 4:
            raise Bad("truncated %r chunk" % kind)
        if zlib.crc32(kind + body) != struct.unpack(">I", crc)[0]:
            raise Bad("bad CRC of the %r chunk" % kind)
        chunks.append((kind, body))
        if kind == b"IDAT":
            idat += body
        pos += 12 + length
    if not chunks or chunks[0][0] != b"IHDR" or len(chunks[0][1]) != 13:
        raise Bad("the first chunk is not IHDR")
    if chunks[-1][0] != b"IEND":
        raise Bad("the last chunk is not IEND")
    if not idat:
        raise Bad("no image data")
    try:
        if not zlib.decompress(idat):
            raise Bad("empty image data")
    except zlib.error as e:
        raise Bad("image data do not decompress: %s" % e)
    width, height = struct.unpack(">II", chunks[0][1][:8])
    return width, height


def svg_length(value):
    """'720pt' / '1234' / '10.5px' -> a number (units ignored)."""
    m = re.match(r"\s*([0-9.]+)", value or "")
    return float(m.group(1)) if m else 0.0


def check_svg(data, contains, lacks):
    try:
        root = ET.fromstring(data)
    except ET.ParseError as e:
        raise Bad("not well-formed XML: %s" % e)
    if root.tag not in (SVG_NS + "svg", "svg"):
        raise Bad("the root element is <%s>, not <svg>" % root.tag)
    width, height = svg_length(root.get("width")), svg_length(root.get(
        "height"))
    if (not width or not height) and root.get("viewBox"):
        box = root.get("viewBox").replace(",", " ").split()
        if len(box) == 4:
            width, height = float(box[2]), float(box[3])
    text = " ".join(
        "".join(el.itertext()) for el in root.iter()
        if el.tag in (SVG_NS + "text", SVG_NS + "title", "text", "title"))
    for want in contains:
        if want not in text:
            raise Bad("no text %r" % want)
    for unwanted in lacks:
        if unwanted in text:
            raise Bad("text %r" % unwanted)
    return int(width), int(height)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--contains", action="append", default=[],
                   metavar="TEXT", help="text an SVG must show")
    p.add_argument("--lacks", action="append", default=[],
                   metavar="TEXT", help="text an SVG must not show")
    p.add_argument("--min-size", nargs=2, type=int, default=[1, 1],
                   metavar=("W", "H"))
    args = p.parse_args(argv)
    for path in args.files:
        name = os.path.basename(path)
        try:
            try:
                with open(path, "rb") as f:
                    data = f.read()
            except OSError as e:
                raise Bad("cannot read: %s" % e.strerror)
            if not data:
                raise Bad("empty")
            if path.endswith(".png"):
                kind = "png"
                w, h = check_png(data)
            elif path.endswith(".svg"):
                kind = "svg"
                w, h = check_svg(data, args.contains, args.lacks)
            else:
                raise Bad("neither .png nor .svg")
            if w < args.min_size[0] or h < args.min_size[1]:
                raise Bad("%dx%d is smaller than %dx%d"
                          % (w, h, *args.min_size))
        except Bad as e:
            print("%s: bad: %s" % (name, e))
            return 1
        print("%s: %s %dx%d" % (name, kind, w, h))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
