#!/usr/bin/env python3
"""An independent PNG decoder for the tests, with Python's zlib and struct only:
checks the signature, every chunk's CRC and (through zlib) the Adler-32, undoes
the five row filters, and prints "WIDTH HEIGHT" then one line of hex RGB per row.

    scripts/decode-png.py FILE

Only 8-bit RGB without interlace (what sysstats writes); anything else fails.
"""
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n'
pos, chunks = 8, []
while pos < len(data):
    (length,) = struct.unpack('>I', data[pos:pos + 4])
    kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
    (crc,) = struct.unpack('>I', data[pos + 8 + length:pos + 12 + length])
    assert zlib.crc32(kind + body) == crc, kind
    chunks.append((kind, body))
    pos += 12 + length
assert chunks[0][0] == b'IHDR' and chunks[-1][0] == b'IEND'
w, h, depth, colour, _, _, interlace = struct.unpack('>IIBBBBB', chunks[0][1])
assert (depth, colour, interlace) == (8, 2, 0)
raw = zlib.decompress(b''.join(b for k, b in chunks if k == b'IDAT'))
stride = 3 * w + 1
assert len(raw) == stride * h
prev = bytearray(3 * w)
out = [f'{w} {h}']
for y in range(h):
    f, row = raw[y * stride], bytearray(raw[y * stride + 1:(y + 1) * stride])
    for i in range(3 * w):
        a = row[i - 3] if i >= 3 else 0
        b = prev[i]
        c = prev[i - 3] if i >= 3 else 0
        if f == 1: row[i] = (row[i] + a) & 255
        elif f == 2: row[i] = (row[i] + b) & 255
        elif f == 3: row[i] = (row[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        else: assert f == 0, f
    out.append(row.hex())
    prev = row
print('\n'.join(out))
