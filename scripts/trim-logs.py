#!/usr/bin/env python3
"""Keeps the end of each rejection log of a kernel-vm.sh log file.

  scripts/trim-logs.py IN OUT [LINES]

The file is a series of sections, each from a "== OBJ/PROG" line. A
rejection's level-1 log can run to millions of lines for a program that
is too complex, while what explains the verdict is at its end: each
section keeps its first 3 lines and its last LINES (default 200), with a
line saying how many were left out.
"""
import sys


def flush(out, head, keep):
    if not head:
        return
    out.write(head[0])
    body = head[1:]
    if len(body) <= 3 + keep:
        out.writelines(body)
        return
    out.writelines(body[:3])
    out.write('... %d lines left out ...\n' % (len(body) - 3 - keep))
    out.writelines(body[-keep:])


def main(argv):
    if len(argv) not in (3, 4):
        sys.exit('usage: trim-logs.py IN OUT [LINES]')
    keep = int(argv[3]) if len(argv) == 4 else 200
    sec = []
    with open(argv[1], errors='replace') as f, open(argv[2], 'w') as out:
        for line in f:
            if line.startswith('== '):
                flush(out, sec, keep)
                sec = []
            sec.append(line)
        flush(out, sec, keep)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
