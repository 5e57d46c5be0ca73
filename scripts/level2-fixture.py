#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""The kernel's level-2 verifier logs as fixtures, and bpfvet's compared
with them.

  level2-fixture.py select LIST            (write the in-scope program list)
  level2-fixture.py record LIST FIXTURE.xz (root, Linux 6.18: regenerate)
  level2-fixture.py check MODE FIXTURE.xz EXCEPTIONS
  level2-fixture.py live MODE LIST EXCEPTIONS [N]  (a sample, live kernel)
  level2-fixture.py drift FIXTURE.xz       (the running kernel against the
                                          record: DRIFT lines, make kernel-check)

LIST has one program per line: "PATH PROG FLAGS" (FLAGS: BPF_F_* load flags
for both sides, a number). The kernel's log comes from `bpfvet kernel
--kernel-only -l 2` (statistics included), bpfvet's from `bpfvet verify
-l 6` with the same flags; both are masked like `bpfvet kernel --log-diff`.

MODE full: every line must be equal (state lines, "; ... @ file:line"
source lines, the "Live regs" table, prune and precision lines, the
statistics with the time masked).
MODE prune: only the pruning lines ("N: safe", "from A to B: safe") and
the "mark_precise:" lines, in order.

Every difference must be listed in
EXCEPTIONS with the first differing line; an exception that no longer
matches (fixed, or another difference) fails the check too.

EXCEPTIONS lines: "MODE<TAB>PATH<TAB>PROG<TAB>FLAGS<TAB>LINE<TAB>KERNEL<TAB>BPFVET<TAB>WHY";
LINE is the 1-based index in the compared lines, KERNEL and BPFVET the two
lines there ("<end of log>" past the end), tabs written as \t and
backslashes as \\. `LEVEL2_PROPOSE=1 ... check` prints the lines to add.
"""
import csv
import os
import random
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernel_logs as kl  # noqa: E402

REF = 'tests/conformance/kernel-6.18.csv'
DIRS = ('build/corpus/verifier', 'build/corpus/progs')
# Accepted programs whose kernel log is longer are left out of the level-2
# selection, to keep the fixture small; few are.
MAX_INSNS = 4000
END = '<end of log>'
PRUNE = re.compile(r'^([0-9]+|from [0-9]+ to [0-9]+( \(speculative execution\))?): safe$')


def read_list(path):
    out = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith('#'):
                p, prog, flags = line.split()
                out.append((p, prog, int(flags, 0)))
    return out


# ---------------------------------------------------------------- select

def kernel_accepted():
    acc = {}
    with open(os.path.join(kl.ROOT, REF)) as f:
        for r in csv.DictReader(f):
            if r['verdict'] == 'success':
                acc[(r['file'], r['prog'])] = int(r['insns'] or 0)
    return acc


def program_shapes(path):
    """{prog: (subprog count, [call texts])} from bpfvet dump."""
    out = subprocess.run([kl.bpfvet(), 'dump', path], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL).stdout.decode()
    shapes, cur = {}, None
    for line in out.split('\n'):
        m = re.match(r'^prog [0-9]+: name=(\S+) .* subprogs=([0-9]+)$', line)
        if m:
            shapes[m.group(1)] = [int(m.group(2)), []]
            continue
        if line.endswith(':') and ' ' not in line:
            cur = shapes.get(line[:-1])
            continue
        t = kl.insn_text(line)
        if cur is not None and t and (t[1].startswith('(85)') or t[1].startswith('(8d)')):
            cur[1].append(t[1])
    return shapes


def bpfvet_verdicts(path):
    out = subprocess.run([kl.bpfvet(), 'verify', '-o', 'csv', '-e', 'prog_name,verdict',
                          path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
    return {r['prog_name']: r['verdict'] for r in csv.DictReader(out.decode().splitlines())}


def in_scope(shape):
    subprogs, calls = shape
    return subprogs == 1 and all(c == '(85) call bpf_map_lookup_elem#ID' for c in calls)


def select(list_path):
    acc = kernel_accepted()
    rows = []
    for d in DIRS:
        for n in sorted(os.listdir(os.path.join(kl.ROOT, d))):
            if not n.endswith('.o'):
                continue
            path = os.path.join(d, n)
            progs = [p for (f, p), insns in acc.items() if f == n and insns <= MAX_INSNS]
            if not progs:
                continue
            shapes = program_shapes(os.path.join(kl.ROOT, path))
            verdicts = None
            for p in sorted(progs):
                if p not in shapes or not in_scope(shapes[p]):
                    continue
                if verdicts is None:
                    verdicts = bpfvet_verdicts(os.path.join(kl.ROOT, path))
                # CO-RE without a target BTF, externs and other unsupported
                # features are out of scope.
                if verdicts.get(p) == 'unsupported':
                    continue
                rows.append('%s %s 0' % (path, p))
    with open(list_path, 'w') as f:
        f.write('# Accepted corpus programs without subprograms and without helper calls\n'
                '# other than bpf_map_lookup_elem, at most %d processed instructions.\n'
                '# Written by scripts/level2-fixture.py select; PATH PROG FLAGS.\n' % MAX_INSNS)
        f.write('\n'.join(rows) + '\n')
    print('%d programs' % len(rows))


# ---------------------------------------------------------------- logs

def group(entries):
    """{(path, flags): [progs]}: one bpfvet run per object and flags."""
    g = {}
    for p, prog, flags in entries:
        g.setdefault((p, flags), []).append(prog)
    return g


def kernel_side(entries):
    out = {}
    for (p, flags), progs in sorted(group(entries).items()):
        want = set(progs)
        # Only the wanted programs, when few: others may be long.
        only = progs if len(progs) <= 100 else ()
        for f, prog, lines in kl.kernel_logs([os.path.join(kl.ROOT, p)], 2, flags=flags,
                                             progs=only):
            if prog in want:
                out[(p, prog, flags)] = [kl.mask(line) for line in lines]
    return out


def bpfvet_side(entries):
    """bpfvet's logs of entries, {(path, prog, flags): [lines]}, verified
    for the recorded target: one process per flags value for all the
    objects, with a -p filter per program (the other programs of an object
    may be long: verifier_search_pruning/short_loop1 runs into the 1M
    limit), or none when most of an object's programs are wanted."""
    out = {}
    by_flags = {}
    for p, prog, flags in entries:
        by_flags.setdefault(flags, {}).setdefault(p, set()).add(prog)
    for flags, objs in sorted(by_flags.items()):
        cmd = [kl.bpfvet(), 'verify', '-q', '-l', '6'] + kl.TARGET
        if flags:
            cmd += ['-f', str(flags)]
        names = set().union(*objs.values())
        if len(names) <= 2000:
            for name in sorted(names):
                cmd += ['-p', name]
        base = {os.path.basename(p): p for p in objs}
        cmd += [os.path.join(kl.ROOT, p) for p in sorted(objs)]
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        for side, f, prog, lines in kl.split_logs(proc.stdout.splitlines(keepends=True)):
            p = base.get(f)
            if p is not None and prog in objs[p]:
                out[(p, prog, flags)] = [kl.mask(line) for line in lines]
    return out


def record(list_path, fixture):
    entries = read_list(list_path)
    logs = kernel_side(entries)
    text = ['# Kernel level-2 logs (masked) of the programs of %s' % list_path,
            '# kernel %s' % kl.release(),
            '# written by scripts/level2-fixture.py record; "L PATH PROG FLAGS", then "|LINE"']
    n = 0
    for key in entries:
        if key not in logs:
            print('no kernel log for %s/%s' % key[:2], file=sys.stderr)
            continue
        text.append('L %s %s %d' % key)
        text.extend('|' + line for line in logs[key])
        n += len(logs[key])
    kl.write_xz(fixture, '\n'.join(text) + '\n')
    print('%d programs, %d lines' % (len(logs), n))


def read_fixture(fixture):
    logs, cur = {}, None
    for line in kl.read_xz(fixture).split('\n'):
        if line.startswith('L '):
            p, prog, flags = line[2:].split(' ')
            cur = logs.setdefault((p, prog, int(flags)), [])
        elif line.startswith('|'):
            cur.append(line[1:])
    return logs


# ---------------------------------------------------------------- compare

def view(mode, lines):
    if mode == 'prune':
        return [line for line in lines if PRUNE.match(line) or line.startswith('mark_precise:')]
    return lines


def first_diff(klines, vlines):
    for i in range(max(len(klines), len(vlines))):
        k = klines[i] if i < len(klines) else END
        v = vlines[i] if i < len(vlines) else END
        if k != v:
            return i + 1, k, v
    return None


def enc(line):
    """Lines hold tabs (the source lines of asm blocks): escaped here."""
    return line.replace('\\', '\\\\').replace('\t', '\\t')


def dec(field):
    return re.sub(r'\\(.)', lambda m: '\t' if m.group(1) == 't' else m.group(1), field)


def read_exceptions(path):
    exc = {}
    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            if not line or line.startswith('#'):
                continue
            mode, p, prog, flags, n, k, v, why = line.split('\t')
            exc[(mode, p, prog, int(flags, 0))] = (int(n), dec(k), dec(v), why)
    return exc


class Tally:
    def __init__(self, mode):
        self.mode = mode
        self.progs = self.lines = self.equal = self.known = self.bad = 0

    def line(self):
        return ('%s: %d programs, %d lines compared; %d equal, %d known exceptions, '
                '%d failures' %
                (self.mode, self.progs, self.lines, self.equal, self.known, self.bad))


def compare_one(t, key, klines, vlines, exc, used):
    klines, vlines = view(t.mode, klines), view(t.mode, vlines)
    t.progs += 1
    t.lines += len(klines)
    d = first_diff(klines, vlines)
    ekey = (t.mode,) + key
    want = exc.get(ekey)
    if want:
        used.add(ekey)
    if d is None and want is None:
        t.equal += 1
        return
    name = '%s/%s flags %d' % key
    if d is None:
        print('FAIL %s: listed as an exception but the logs are equal now: '
              'remove it from the list' % name)
        t.bad += 1
    elif want is not None and d == want[:3]:
        t.known += 1
    elif os.environ.get('LEVEL2_PROPOSE'):
        # Prints an exception line to review (the why still to write).
        print('PROPOSE\t%s\t%s\t%s\t%d\t%d\t%s\t%s\t?' % ((t.mode,) + key + d[:1] +
                                                         (enc(d[1]), enc(d[2]))))
        t.bad += 1
    else:
        print('FAIL %s: line %d: kernel %r, bpfvet %r%s' % (
            name, d[0], d[1], d[2], '' if want is None else
            ' (the exception lists line %d: %r, %r)' % want[:3]))
        t.bad += 1


def check(mode, fixture, exc_path):
    logs = read_fixture(fixture)
    exc = read_exceptions(exc_path)
    t = Tally(mode)
    used = set()
    entries = list(logs)
    mine = bpfvet_side(entries)
    for key in sorted(entries):
        compare_one(t, key, logs[key], mine.get(key, []), exc, used)
    for ekey in exc:
        if ekey[0] == mode and ekey[1:] not in logs:
            print('FAIL %s/%s flags %d: an exception for a program not in the fixture' %
                  ekey[1:])
            t.bad += 1
    print(t.line())
    return t.bad


def live(mode, list_path, exc_path, count):
    entries = read_list(list_path)
    # A few whole objects: each `bpfvet kernel` run first reads the
    # kernel's BTF and configuration, which costs more than small programs.
    paths = sorted({e[0] for e in entries})
    random.Random(len(entries)).shuffle(paths)
    sample = []
    for path in paths:
        if len(sample) >= count:
            break
        sample += [e for e in entries if e[0] == path][:count - len(sample)]
    entries = sample
    exc = read_exceptions(exc_path)
    logs = kernel_side(entries)
    t = Tally(mode + ' live')
    t.mode = mode
    used = set()
    mine = bpfvet_side(entries)
    for key in sorted(entries):
        if key not in logs:
            print('FAIL %s/%s: no kernel log now' % key[:2])
            t.bad += 1
            continue
        compare_one(t, key, logs[key], mine.get(key, []), exc, used)
    print('live ' + t.line())
    return t.bad


def drift(fixture):
    """The running kernel against the fixture, for `make kernel-check`: a
    DRIFT line for each program whose log is not the recorded one (its
    first differing line), then a DRIFT-SUMMARY line."""
    rec = read_fixture(fixture)
    live_logs = kernel_side(list(rec))
    bad = 0
    for key in rec:
        name = '%s/%s flags %d' % key
        got = live_logs.get(key)
        if got is None:
            print('DRIFT %s: log: recorded %d lines, live none (not loaded)' %
                  (name, len(rec[key])))
            bad += 1
            continue
        d = first_diff(rec[key], got)
        if d:
            print('DRIFT %s: log line %d: recorded %r, live %r' % ((name,) + d))
            bad += 1
    print('DRIFT-SUMMARY %s: %d programs compared, %d drifted' %
          (os.path.relpath(fixture, kl.ROOT), len(rec), bad))
    return 0


def main(argv):
    cmd = argv[1] if len(argv) > 1 else ''
    if cmd == 'select' and len(argv) == 3:
        select(argv[2])
    elif cmd == 'record' and len(argv) == 4:
        record(argv[2], argv[3])
    elif cmd == 'check' and len(argv) == 5 and argv[2] in ('full', 'prune'):
        return 1 if check(argv[2], argv[3], argv[4]) else 0
    elif cmd == 'drift' and len(argv) == 3:
        return drift(argv[2])
    elif cmd == 'live' and len(argv) in (5, 6) and argv[2] in ('full', 'prune'):
        return 1 if live(argv[2], argv[3], argv[4], int(argv[5]) if len(argv) == 6 else 20) else 0
    else:
        kl.die(__doc__)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
