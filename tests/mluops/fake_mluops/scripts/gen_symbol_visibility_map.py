#!/usr/bin/env python3
# gen_symbol_visibility_map.py <map> <header> <header>: libmluops exports mluOp*.
import sys

with open(sys.argv[1], "w") as out:
    out.write("MLUOP_ABI_1.0 {\n\tglobal: mluOp*;\n\tlocal: *;\n};\n")
