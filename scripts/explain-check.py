#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Checks `bpfvet explain -o json` against the markers of crafted programs.

  scripts/explain-check.py BPFVET SRC_DIR OBJ... [-- BPFVET_OPTIONS...]

Each program's source (SRC_DIR/NAME.c for OBJ NAME.o) marks the line of
its root cause with ROOT:prog and may name its class with
CLASS:prog:class. Prints one PASS/FAIL line per marker, then the share of
programs whose root line explain named; exits 1 below --min percent.
"""
import json
import os
import re
import subprocess
import sys

MARK = re.compile(r'(ROOT|CLASS):([A-Za-z0-9_]+)(?::([a-z-]+))?')


def markers(src):
    roots, classes = {}, {}
    with open(src) as f:
        for n, line in enumerate(f, 1):
            for kind, prog, cls in MARK.findall(line):
                if kind == 'ROOT':
                    roots[prog] = n
                else:
                    classes[prog] = cls
    return roots, classes


def main(argv):
    extra = []
    if '--' in argv:
        i = argv.index('--')
        argv, extra = argv[:i], argv[i + 1:]
    min_pct = 90.0
    if argv and argv[0].startswith('--min='):
        min_pct = float(argv.pop(0)[6:])
    bpfvet, src_dir, objs = argv[0], argv[1], argv[2:]
    total = named = 0
    for obj in objs:
        base = os.path.splitext(os.path.basename(obj))[0]
        roots, classes = markers(os.path.join(src_dir, base + '.c'))
        out = subprocess.run([bpfvet, 'explain', obj, '-o', 'json'] + extra,
                             capture_output=True, text=True).stdout
        docs = {}
        for line in out.splitlines():
            d = json.loads(line)
            docs[d['program']] = d
        for prog, want in sorted(roots.items()):
            total += 1
            d = docs.get(prog)
            root = d and d.get('root')
            got = root and root.get('line') and root['line']['line']
            if got == want:
                named += 1
                print('PASS explain_root %s' % prog)
            else:
                print('FAIL explain_root %s: root line %s, want %d (%s)' %
                      (prog, got, want, d and d['error'] and d['error']['message']))
        for prog, want in sorted(classes.items()):
            d = docs.get(prog)
            got = d and d['class']
            if got == want:
                print('PASS explain_class %s' % prog)
            else:
                print('FAIL explain_class %s: %s, want %s' % (prog, got, want))
    pct = 100.0 * named / total if total else 0.0
    print('explain root lines named: %d of %d (%.1f%%)' % (named, total, pct))
    return 0 if pct >= min_pct else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
