#!/usr/bin/env python3
"""Compare two cubins section by section.

Exit 0 when every section is byte-identical except .nv_debug_ptx_txt (the PTX text itself, which
ptxas embeds under -G/-lineinfo and which is allowed to differ in whitespace)."""
import struct
import sys

ALLOWED = {".nv_debug_ptx_txt"}


def sections(path):
    data = open(path, "rb").read()
    if data[:4] != b"\x7fELF" or data[4] != 2:
        sys.exit(f"{path}: not a 64-bit ELF file")
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    names_offset = headers[shstrndx][4]
    result = {}
    for h in headers:
        name = data[names_offset + h[0]:data.index(b"\0", names_offset + h[0])].decode()
        result[name] = b"" if h[1] == 8 else data[h[4]:h[4] + h[5]]  # SHT_NOBITS has no bytes
    return result


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: cubin-compare.py A.cubin B.cubin")
    a, b = sections(sys.argv[1]), sections(sys.argv[2])
    differing = [n for n in sorted(set(a) | set(b)) if a.get(n) != b.get(n) and n not in ALLOWED]
    if differing:
        print("cubins differ in: " + ", ".join(differing))
        return 1
    print(f"cubins identical ({len(a)} sections compared)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
