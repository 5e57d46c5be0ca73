#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""The kernel's disassembly of every corpus program it verifies, as a
fixture, and bpfvet's disassembly compared with it.

  disasm-fixture.py record FIXTURE.xz     (root, Linux 6.18: regenerate)
  disasm-fixture.py check FIXTURE.xz EXCEPTIONS   (bpfvet dump against it)
  disasm-fixture.py live FIXTURE.xz EXCEPTIONS OBJ...  (bpfvet dump and the
                                  fixture against the running kernel)
  disasm-fixture.py meta FIXTURE.xz       (where it was recorded, and here)
  disasm-fixture.py drift FIXTURE.xz      (the running kernel against the
                                          record: DRIFT lines, make kernel-check)

The kernel prints "N: (xx) text" for every instruction it processes at log
level 2 (level 1 keeps only the path that failed). Every program of
build/corpus/{verifier,progs} and build/realworld that the kernel verifies
(accepted or rejected, not refused before the first instruction) is loaded
once at level 2 with bpfvet's loader (`bpfvet kernel --kernel-only`); the
fixture keeps, per program, each instruction index the kernel printed with
its masked text (the masks of `bpfvet kernel --log-diff`). `check` compares
these with `bpfvet dump` of the same object (CO-RE relocated against the
running kernel's BTF, as the kernel did) at the same index.

Fixture format (xz text): '#' comment lines (kernel release, BTF digest,
corpus build), then per object "O PATH", per program "P NAME", per printed
instruction "INDEX TEXT". Programs with no instruction lines are not listed.

EXCEPTIONS lists the known differences, none of them in printing:
"PATH/PROG<TAB>INDEX<TAB>KERNEL<TAB>BPFVET<TAB>WHY". A listed line that no
longer differs fails the check, so the list cannot go stale.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernel_logs as kl  # noqa: E402

DIRS = ('build/corpus/verifier', 'build/corpus/progs', 'build/realworld')
# More than this many differing lines for one program are counted, not shown.
SHOW = 3


def objects():
    out = []
    for d in DIRS:
        full = os.path.join(kl.ROOT, d)
        if not os.path.isdir(full):
            kl.die('disasm-fixture: %s is missing (make corpus realworld)' % d)
        for n in sorted(os.listdir(full)):
            if n.endswith('.o'):
                out.append(os.path.join(d, n))
    return out


def corpus_id():
    try:
        return os.path.basename(os.readlink(os.path.join(kl.ROOT, 'build/corpus')))
    except OSError:
        return 'none'


def kernel_insns(paths):
    """{path: {prog: {index: text}}} from the running kernel."""
    by_base = {os.path.basename(p): p for p in paths}
    out = {}
    for f, prog, lines in kl.kernel_logs([os.path.join(kl.ROOT, p) for p in paths], 2):
        seen = {}
        for line in lines:
            t = kl.insn_text(line)
            if t and seen.setdefault(t[0], t[1]) != t[1]:
                print('%s/%s: index %d printed as %r and %r' % (f, prog, t[0], seen[t[0]],
                                                               t[1]), file=sys.stderr)
        if seen:
            out.setdefault(by_base[f], {})[prog] = seen
    return out


def record(fixture):
    paths = objects()
    text = ['# Kernel disassembly (log level 2, masked) of the corpus programs it verifies',
            '# kernel %s' % kl.release(), '# btf %s' % kl.btf_digest(),
            '# corpus %s' % corpus_id(),
            '# written by scripts/disasm-fixture.py record; see the script for the format']
    nprog = nline = 0
    # Several objects per run: one bpfvet process per object costs more
    # than the small programs.
    for i in range(0, len(paths), 50):
        chunk = paths[i:i + 50]
        got = kernel_insns(chunk)
        for p in chunk:
            if p not in got:
                continue
            text.append('O ' + p)
            for prog in sorted(got[p]):
                text.append('P ' + prog)
                nprog += 1
                for idx in sorted(got[p][prog]):
                    text.append('%d %s' % (idx, got[p][prog][idx]))
                    nline += 1
        print('%d/%d objects' % (min(i + 50, len(paths)), len(paths)), file=sys.stderr)
    kl.write_xz(fixture, '\n'.join(text) + '\n')
    print('%d programs, %d instruction lines' % (nprog, nline))


def read_fixture(fixture):
    meta, objs = {}, {}
    cur_o = cur_p = None
    for line in kl.read_xz(fixture).split('\n'):
        if not line:
            continue
        if line.startswith('# '):
            k, _, v = line[2:].partition(' ')
            meta[k] = v
        elif line.startswith('O '):
            cur_o = objs.setdefault(line[2:], {})
        elif line.startswith('P '):
            cur_p = cur_o.setdefault(line[2:], {})
        else:
            idx, _, text = line.partition(' ')
            cur_p[int(idx)] = text
    return meta, objs


def read_exceptions(path):
    """{(PATH/PROG, INDEX): (KERNEL, BPFVET)} from EXCEPTIONS lines
    "PATH/PROG<TAB>INDEX<TAB>KERNEL<TAB>BPFVET<TAB>WHY"."""
    exc = {}
    if path:
        with open(path) as f:
            for line in f:
                line = line.rstrip('\n')
                if line and not line.startswith('#'):
                    name, idx, k, v, _why = line.split('\t')
                    exc[(name, int(idx))] = (k, v)
    return exc


def compare(name, want, got, exceptions, used, equal=None):
    """Differences of bpfvet's dump (got) from the kernel's lines (want)
    that are not listed exceptions."""
    bad = []
    for idx in sorted(want):
        have = got.get(idx, '<no instruction>')
        if have == want[idx]:
            if equal is not None:
                equal[0] += 1
            continue
        if exceptions.get((name, idx)) == (want[idx], have):
            used.add((name, idx))
            continue
        if os.environ.get('DISASM_PROPOSE'):
            print('PROPOSE\t%s\t%d\t%s\t%s\t?' % (name, idx, want[idx], have))
        bad.append('%s %d: kernel %r, bpfvet %r' % (name, idx, want[idx], have))
    return bad


def check(fixture, exc_path):
    meta, objs = read_fixture(fixture)
    exceptions = read_exceptions(exc_path)
    used = set()
    nprog = nline = ndiff = 0
    shown = 0
    equal = [0]
    full = {os.path.join(kl.ROOT, p): p for p in objs}
    dumps = {full[k]: v for k, v in kl.dump_many(sorted(full)).items()}
    for path in sorted(objs):
        dumped = dumps[path]
        for prog, want in sorted(objs[path].items()):
            nprog += 1
            nline += len(want)
            bad = compare('%s/%s' % (path, prog), want, dumped.get(prog, {}), exceptions, used,
                          equal)
            ndiff += len(bad)
            for b in bad[:SHOW]:
                if shown < 40:
                    print('DIFF ' + b)
                shown += 1
    for key in sorted(set(exceptions) - used):
        print('STALE %s %d: listed as an exception, but bpfvet prints the kernel\'s line '
              'now (or the program is gone): remove it' % key)
        ndiff += 1
    print('%d programs, %d instruction lines compared, %d equal, %d known exceptions, '
          '%d differ' % (nprog, nline, equal[0], len(used), ndiff))
    return ndiff


def live(fixture, exc_path, paths):
    """The running kernel against the fixture and against bpfvet."""
    _, objs = read_fixture(fixture)
    exceptions = read_exceptions(exc_path)
    got = kernel_insns(paths)
    nprog = nline = bad = 0
    for path in paths:
        dumped = kl.dump_programs(os.path.join(kl.ROOT, path))
        for prog, lines in sorted(got.get(path, {}).items()):
            nprog += 1
            nline += len(lines)
            rec = objs.get(path, {}).get(prog)
            if rec != lines:
                print('FIXTURE %s/%s: the kernel now prints other lines than recorded' %
                      (path, prog))
                bad += 1
            diffs = compare('%s/%s' % (path, prog), lines, dumped.get(prog, {}), exceptions,
                            set())
            for d in diffs[:SHOW]:
                print('DIFF ' + d)
            bad += len(diffs)
        for prog in objs.get(path, {}):
            # A load the kernel refuses now (memory, a busy machine) says
            # nothing about printing: noted, not counted.
            if prog not in got.get(path, {}):
                print('NOTE %s/%s: recorded, but the kernel printed no instruction now' %
                      (path, prog))
    print('live: %d programs, %d instruction lines, %d problems' % (nprog, nline, bad))
    return bad


def drift(fixture):
    """The running kernel against the fixture, for `make kernel-check`: a
    DRIFT line for each program whose printed instructions are not the
    recorded ones (the first that differs), then a DRIFT-SUMMARY line."""
    _, objs = read_fixture(fixture)
    paths = sorted(objs)
    got = {}
    for i in range(0, len(paths), 50):
        got.update(kernel_insns(paths[i:i + 50]))
    nprog = bad = 0
    for path in paths:
        for prog, want in sorted(objs[path].items()):
            nprog += 1
            have = got.get(path, {}).get(prog)
            if have is None:
                print('DRIFT %s/%s: disassembly: recorded %d lines, live none (not verified)' %
                      (path, prog, len(want)))
                bad += 1
                continue
            for idx in sorted(set(want) | set(have)):
                if want.get(idx) != have.get(idx):
                    print('DRIFT %s/%s: insn %d: recorded %r, live %r' %
                          (path, prog, idx, want.get(idx), have.get(idx)))
                    bad += 1
                    break
    print('DRIFT-SUMMARY %s: %d programs compared, %d drifted' %
          (os.path.relpath(fixture, kl.ROOT), nprog, bad))
    return 0


def main(argv):
    if len(argv) < 3 or argv[1] not in ('record', 'check', 'live', 'meta', 'drift'):
        kl.die(__doc__)
    fixture = argv[2]
    if argv[1] == 'record':
        record(fixture)
        return 0
    if argv[1] == 'drift':
        return drift(fixture)
    if argv[1] == 'meta':
        meta, _ = read_fixture(fixture)
        for k, v in sorted(meta.items()):
            print(k, v)
        print('current-kernel', kl.release())
        print('current-btf', kl.btf_digest())
        print('current-corpus', corpus_id())
        return 0
    if argv[1] == 'check' and len(argv) == 4:
        return 1 if check(fixture, argv[3]) else 0
    if argv[1] == 'live' and len(argv) >= 5:
        return 1 if live(fixture, argv[3], argv[4:]) else 0
    kl.die(__doc__)


if __name__ == '__main__':
    sys.exit(main(sys.argv))
