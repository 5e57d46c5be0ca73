#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""bpfvet's level-1 register and stack states against a recorded kernel's.

  target-log-states.py RECORD.xz TARGET [--floor N] [--no-liveness] [PROG...]

RECORD is a kernel-<ver>-logs.txt.xz of tests/conformance (each program
headed by "== FILE/PROG", trimmed to its last 200 lines), TARGET a profile
folder (build/target-6.1). The state part of each state line of the
record ("N: R1=..." at a subprogram's entry, "N: (..) insn ; STATE",
"from X to Y: STATE") must be among bpfvet's state lines for the same
program (each of bpfvet's matches once). The records' trims cut logs at
the top, so only the record's lines are counted.

With --no-liveness, the liveness marks (_w, _r, _rw, _D) are taken out
of both sides: bpfvet prints 6.1's "_w" (written since the last
checkpoint) only.

PROG names (FILE/PROG) must agree in full: one line per disagreement and
exit 1 otherwise. With none, every program of the record found in
build/corpus is compared, and the count of agreeing lines must reach the
floor. The last line is the summary.
"""
import collections
import lzma
import os
import re
import subprocess
import sys

STATE_LINE = re.compile(r'^(\d+: R\d|\d+: \(.* ; |from \d+ to \d+: )')
LIVENESS = re.compile(r'(R\d+|fp-\d+)_[rwD]+=')
DIRS = ('build/corpus/verifier', 'build/corpus/progs')


def read_record(path):
    progs, cur = {}, None
    for line in lzma.decompress(open(path, 'rb').read()).decode().split('\n'):
        if line.startswith('== '):
            cur = line[3:]
            progs[cur] = []
        elif cur:
            progs[cur].append(line)
    return progs


def state_part(line):
    """The state a line prints; the instruction before ' ; ' is another
    test's business (disassembly)."""
    if not line.startswith('from ') and ' ; ' in line:
        return line[line.index(' ; ') + 3:].strip()
    return line.strip()


def states(lines, drop_liveness):
    out = []
    for line in lines:
        if not STATE_LINE.match(line):
            continue
        s = state_part(line)
        if drop_liveness:
            s = LIVENESS.sub(r'\1=', s)
        out.append(s)
    return out


def object_path(name):
    for d in DIRS:
        p = os.path.join(d, name)
        if os.path.exists(p):
            return p
    return None


def compare(key, record_lines, target, drop_liveness):
    """(agreeing lines, record lines, first disagreement or None), or None
    when the object is not in the corpus."""
    obj, prog = key.split('/', 1)
    path = object_path(obj)
    if not path:
        return None
    run = subprocess.run([os.environ.get('BPFVET', 'build/bpfvet'), path,
                          '--target', target, '-l', '1', '-p', prog],
                         capture_output=True, text=True)
    mine = collections.Counter(states(run.stdout.split('\n'), drop_liveness))
    first, ok = None, 0
    want = states(record_lines, drop_liveness)
    for s in want:
        if mine[s] > 0:
            mine[s] -= 1
            ok += 1
        elif first is None:
            first = s
    return ok, len(want), first


def main(argv):
    floor, drop, names, args = 0, False, [], []
    it = iter(argv[1:])
    for a in it:
        if a == '--floor':
            floor = int(next(it))
        elif a == '--no-liveness':
            drop = True
        else:
            args.append(a)
    record, target, names = args[0], args[1], args[2:]
    progs = read_record(record)
    ok = total = bad = 0
    for key in names or progs:
        if key not in progs:
            print(f'{key}: not in the record')
            bad += 1
            continue
        r = compare(key, progs[key], target, drop)
        if r is None:
            if names:
                print(f'{key}: not in the corpus')
                bad += 1
            continue
        ok += r[0]
        total += r[1]
        if names and (r[0] != r[1] or r[1] == 0):
            print(f'{key}: {r[0]} of {r[1]} state lines agree; first other: {r[2]}')
            bad += 1
    print(f'{ok} of {total} state lines agree')
    return 1 if bad or ok < floor else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
