#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""`bpfvet explain` against bpfvet's own level-1 log, on any objects.

  scripts/explain-logcheck.py BPFVET OBJ... [-- BPFVET_OPTIONS...]

scripts/explain-corpus.py measures explain against a kernel's log, which
needs the kernel or a record of it. Objects nobody recorded (the ones
people ship, a held-out set) have bpfvet's log instead, which reproduces
the kernel's: for every rejected program, explain -o json must name the
instruction that log names for the error (the same rules as
explain-corpus.py) and, where the log prints one right before that
instruction, its source line. Prints
a MISS line per program that differs, then the figure; exits 1 on a miss.
"""
import importlib.util
import json
import os
import subprocess
import sys

_spec = importlib.util.spec_from_file_location(
    'explain_corpus', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'explain-corpus.py'))
explain_corpus = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(explain_corpus)


def main(argv):
    extra = []
    if '--' in argv:
        i = argv.index('--')
        argv, extra = argv[:i], argv[i + 1:]
    bpfvet, objs = argv[0], argv[1:]
    rejected = named = lines = with_line = 0
    for obj in objs:
        out = subprocess.run([bpfvet, obj, '-l', '1'] + extra, capture_output=True,
                             text=True, errors='replace').stdout
        logs = explain_corpus.log_errors(out, r'Log for [^/]+/(\S+):$', fresh_only=True)
        docs = explain_corpus.explained(bpfvet, obj, extra)
        for prog, (insn, src, msg) in sorted(logs.items()):
            d = docs.get(prog)
            if not d or d['verdict'] != 'rejected':
                continue
            rejected += 1
            err = d['error']
            ok = err['insn'] == insn
            named += ok
            if src is not None and insn >= 0:
                with_line += 1
                got = err.get('line') and err['line']['line']
                lines += ok and got == src
                ok = ok and got == src
            if not ok:
                print('MISS %s/%s: the log names insn %d line %s (%s), explain %s line %s' %
                      (os.path.basename(obj), prog, insn, src, msg, err['insn'],
                       err.get('line') and err['line']['line']))
    print('rejected programs: %d; explain names the log\'s error insn: %d of %d, '
          'its source line: %d of %d' % (rejected, named, rejected, lines, with_line))
    return 0 if named == rejected and lines == with_line else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
