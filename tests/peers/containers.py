"""Minimal, bounds-checked parsers used to aim the tamper flips.

- JPEG: marker segments up to SOS (APP11 C2PA packets: CI 'JP', En, Z).
- ISO BMFF: top-level boxes (size, type, largesize, uuid usertype).
- JUMBF: superboxes ('jumb') with their description box ('jumd': type UUID,
  toggles, label) and content boxes; a tree with absolute file offsets.

Offsets are absolute positions in the file (for JUMBF inside a JPEG, the
reassembled store is mapped back to file offsets through the packet map).
"""

import struct

C2PA_BMFF_UUID = bytes.fromhex("d8fec3d61b0e483c92975828877ec481")


class ContainerError(Exception):
    pass


# ---------------------------------------------------------------- JPEG

class JpegSegment:
    def __init__(self, marker, offset, length):
        self.marker = marker      # e.g. 0xEB for APP11
        self.offset = offset      # offset of the 0xFF byte
        self.length = length      # total bytes incl. marker and length field

    @property
    def payload_offset(self):
        return self.offset + 4


def jpeg_segments(data):
    """Marker segments from SOI up to and including SOS (entropy data not walked)."""
    if data[:2] != b"\xff\xd8":
        raise ContainerError("not a JPEG (no SOI)")
    segs = [JpegSegment(0xD8, 0, 2)]
    pos = 2
    while pos + 4 <= len(data):
        if data[pos] != 0xFF:
            raise ContainerError(f"expected marker at {pos}")
        marker = data[pos + 1]
        if marker == 0xFF:          # fill byte
            pos += 1
            continue
        if 0xD0 <= marker <= 0xD9 or marker == 0x01:
            segs.append(JpegSegment(marker, pos, 2))
            pos += 2
            continue
        (ln,) = struct.unpack(">H", data[pos + 2:pos + 4])
        if ln < 2 or pos + 2 + ln > len(data):
            raise ContainerError(f"segment at {pos} overruns the file")
        segs.append(JpegSegment(marker, pos, ln + 2))
        pos += 2 + ln
        if marker == 0xDA:
            break
    return segs


def jpeg_c2pa_store(data):
    """Reassemble the C2PA JUMBF store from APP11 packets.

    Returns (store_bytes, offset_map, segments) where offset_map is a list of
    (store_offset, file_offset, length) runs so a store offset maps to a file offset.
    """
    runs, store, segs = [], bytearray(), []
    expected_z = 1
    for s in jpeg_segments(data):
        if s.marker != 0xEB:
            continue
        p = s.payload_offset
        end = s.offset + s.length
        if data[p:p + 2] != b"JP" or end - p < 16:
            continue
        z = struct.unpack(">I", data[p + 4:p + 8])[0]
        box_type = data[p + 12:p + 16]
        if box_type != b"jumb":
            continue
        if z != expected_z:
            raise ContainerError(f"APP11 packet sequence {z}, expected {expected_z}")
        # First packet keeps its LBox/TBox; later packets repeat them, so skip 8.
        start = p + 8 if z == 1 else p + 16
        runs.append((len(store), start, end - start))
        store += data[start:end]
        segs.append(s)
        expected_z += 1
    return bytes(store), runs, segs


def map_store_offset(runs, store_offset):
    for s_off, f_off, ln in runs:
        if s_off <= store_offset < s_off + ln:
            return f_off + (store_offset - s_off)
    raise ContainerError(f"store offset {store_offset} not mapped")


# ---------------------------------------------------------------- ISO boxes (BMFF and JUMBF)

class Span:
    """A box: type, absolute offset, total size and header length."""

    def __init__(self, box_type, offset, size, header):
        self.type = box_type
        self.offset = offset
        self.size = size
        self.header = header

    @property
    def payload_offset(self):
        return self.offset + self.header

    @property
    def end(self):
        return self.offset + self.size


def box_header(data, pos, end):
    """(type, size, header length) of the ISO box at pos; size 0 runs to `end`."""
    if pos + 8 > end:
        raise ContainerError(f"box header at {pos} truncated")
    size, typ = struct.unpack(">I4s", data[pos:pos + 8])
    header = 8
    if size == 1:
        if pos + 16 > end:
            raise ContainerError(f"largesize at {pos} truncated")
        (size,) = struct.unpack(">Q", data[pos + 8:pos + 16])
        header = 16
    elif size == 0:
        size = end - pos
    if size < header or pos + size > end:
        raise ContainerError(f"box {typ!r} at {pos} overruns")
    return typ.decode("latin-1"), size, header


class Box(Span):
    def __init__(self, box_type, offset, size, header, usertype=None):
        super().__init__(box_type, offset, size, header)  # header includes the usertype
        self.usertype = usertype


def bmff_boxes(data, start=0, end=None):
    end = len(data) if end is None else end
    out, pos = [], start
    while pos < end:
        typ, size, header = box_header(data, pos, end)
        usertype = None
        if typ == "uuid":
            if size < header + 16:
                raise ContainerError(f"uuid box at {pos} too short")
            usertype = data[pos + header:pos + header + 16]
            header += 16
        out.append(Box(typ, pos, size, header, usertype))
        pos += size
    return out


def bmff_c2pa_box(data):
    """The top-level C2PA uuid box: returns (box, purpose, merkle_offset, jumbf_offset)."""
    for b in bmff_boxes(data):
        if b.type == "uuid" and b.usertype == C2PA_BMFF_UUID:
            p = b.payload_offset + 4        # version(1) + flags(3)
            nul = data.find(b"\x00", p, b.end)
            if nul < 0:
                raise ContainerError("uuid purpose string not terminated")
            purpose = data[p:nul].decode()
            q = nul + 1
            if purpose == "manifest":
                (merkle,) = struct.unpack(">Q", data[q:q + 8])
                q += 8
            else:
                merkle = None
            return b, purpose, merkle, q
    return None


# ---------------------------------------------------------------- JUMBF

class JumbfBox(Span):
    """A box inside a JUMBF store; offsets relative to the store bytes."""

    def __init__(self, box_type, offset, size, header):
        super().__init__(box_type, offset, size, header)
        self.label = None        # superboxes only
        self.uuid = None         # superbox content type
        self.children = []       # superboxes: content boxes (after jumd)
        self.desc = None         # superboxes: the jumd box

    def find(self, label):
        for c in self.children:
            if c.label == label:
                return c
        return None

    def content(self):
        """First non-superbox child (the content box of a leaf superbox)."""
        for c in self.children:
            if c.type != "jumb":
                return c
        return None

    def walk(self, path=""):
        here = f"{path}/{self.label}" if self.label is not None else path
        yield here, self
        for c in self.children:
            yield from c.walk(here)


def parse_jumbf(data, pos=0, end=None, depth=0):
    end = len(data) if end is None else end
    if depth > 16:
        raise ContainerError("JUMBF nesting too deep")
    typ, size, header = box_header(data, pos, end)
    box = JumbfBox(typ, pos, size, header)
    if typ != "jumb":
        return box
    q = pos + header
    dtyp, dsize, dheader = box_header(data, q, box.end)
    if dtyp != "jumd":
        raise ContainerError("superbox without jumd")
    d = q + dheader
    if dsize - dheader < 17:
        raise ContainerError(f"jumd at {q} shorter than type UUID + toggles")
    box.uuid = data[d:d + 16]
    toggles = data[d + 16]
    if toggles & 0x02:
        nul = data.find(b"\x00", d + 17, q + dsize)
        if nul < 0:
            raise ContainerError(f"jumd label at {d + 17} not terminated")
        box.label = data[d + 17:nul].decode()
    box.desc = JumbfBox("jumd", q, dsize, dheader)
    q += dsize
    while q < box.end:
        child = parse_jumbf(data, q, box.end, depth + 1)
        box.children.append(child)
        q = child.end
    return box


# ---------------------------------------------------------------- BMFF edits

_CONTAINERS = {"moov", "trak", "mdia", "minf", "stbl", "edts", "dinf", "mvex", "moof", "traf"}


def _chunk_offset_tables(data, start, end, depth=0):
    if depth > 8:
        raise ContainerError("box nesting too deep")
    for b in bmff_boxes(data, start, end):
        if b.type in _CONTAINERS:
            yield from _chunk_offset_tables(data, b.payload_offset, b.end, depth + 1)
        elif b.type in ("stco", "co64"):
            yield b


def shift_chunk_offsets(data, at, delta):
    """Add delta to every stco/co64 entry pointing at or after file offset `at`."""
    out = bytearray(data)
    for top in bmff_boxes(data):
        if top.type != "moov":
            continue
        for t in _chunk_offset_tables(data, top.payload_offset, top.end):
            p = t.payload_offset + 4
            (n,) = struct.unpack(">I", data[p:p + 4])
            width, fmt = (4, ">I") if t.type == "stco" else (8, ">Q")
            if p + 4 + n * width > t.end:
                raise ContainerError(f"{t.type} entry count overruns its box")
            for k in range(n):
                q = p + 4 + k * width
                (v,) = struct.unpack(fmt, data[q:q + width])
                if v >= at:
                    struct.pack_into(fmt, out, q, v + delta)
    return bytes(out)


def insert_bytes(data, at, blob):
    """Insert blob at file offset `at` (a top-level box boundary), fixing chunk offsets."""
    fixed = shift_chunk_offsets(data, at, len(blob))
    # moov may sit after `at`; its table offsets were computed on the old layout, fine:
    # the table bytes themselves do not move relative to the values they hold.
    return fixed[:at] + blob + fixed[at:]


def remove_bytes(data, at, length):
    """Remove a top-level box [at, at+length), fixing chunk offsets."""
    fixed = shift_chunk_offsets(data, at + length, -length)
    return fixed[:at] + fixed[at + length:]
