#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""How well `bpfvet explain` names the kernel's error on a corpus.

  scripts/explain-corpus.py BPFVET CSV OBJ_DIR... [--save TSV | --recorded TSV]
                            [-- BPFVET_OPTIONS...]

For every program CSV (tests/conformance/kernel-6.18.csv) records as
rejected by the verifier, loads its object into the running kernel at log
level 1 (bpfvet kernel --kernel-only -l 1, needs root), takes the
instruction the kernel's log names for the error and the source line it
printed for it, and asks `bpfvet explain -o json` for the same program.
Counts the programs whose log has a source line (the object has
line_info), and among them those where explain names the same
instruction, and the same line. --save writes the kernel's side, one row
per program, for tests to compare against without privileges;
--recorded reads that instead of loading (no privileges needed).

The reference is CSV, not the running kernel: where the running build's
message differs from the one CSV recorded while bpfvet gives CSV's
message and instruction count, the build drifted from the reference (a
backport, say) and the program is counted apart as drift (DRIFT lines),
not as a miss of explain's.
"""
import csv
import json
import os
import re
import subprocess
import sys

INSN = re.compile(r'^(\d+): \(')
SRC = re.compile(r'^; .* @ (\S+):(\d+)$')


def kernel_errors(bpfvet, obj):
    out = subprocess.run([bpfvet, 'kernel', obj, '--kernel-only', '-l', '1'],
                         capture_output=True, text=True, errors='replace').stdout
    return log_errors(out, r'Kernel log for [^/]+/(\S+):$')


def log_errors(out, header, fresh_only=False):
    """Per program (its log begins with a line matching header, the
    program's name its group 1): the instruction a level-1 log names for
    the error, that instruction's source line, and the error line. The
    log ends at the kernel's "verification time" line, or at the
    statistics line where there is none (bpfvet's own log). The source
    line is the last one the log printed before the instruction; with
    fresh_only, only one printed right before it (a log that resumes a
    branch may print none for the line it lands on)."""
    res, cur = {}, None
    for line in out.splitlines():
        m = re.match(header, line)
        if m:
            cur, last, src, prev, insn_src, loop = m.group(1), -1, None, None, {}, None
            fresh = False
            continue
        if cur is None:
            continue
        if line.startswith('verification time') or line.startswith('processed '):
            insn = last
            m = re.search(r'insn (\d+)', prev or '')
            if m:
                insn = int(m.group(1))
            if loop:
                insn, prev = loop
            res[cur] = (insn, insn_src.get(insn), prev)
            cur = None
            continue
        # 6.7+ print the two states that closed the loop after it.
        m = re.match(r'infinite loop detected at insn (\d+)', line)
        if m:
            loop = (int(m.group(1)), line)
        m = SRC.match(line)
        if m:
            src = int(m.group(2))
            fresh = True
        m = INSN.match(line)
        if m:
            last = int(m.group(1))
            insn_src[last] = src if fresh or not fresh_only else None
            fresh = False
        prev = line
    return res


def recorded_errors(path):
    res = {}
    with open(path) as f:
        for line in f:
            if line.startswith('#'):
                continue
            obj, prog, insn, src, msg = line.rstrip('\n').split('\t', 4)
            res.setdefault(obj, {})[prog] = (int(insn), None if src == '-1' else int(src), msg)
    return res


def explained(bpfvet, obj, extra):
    out = subprocess.run([bpfvet, 'explain', obj, '-o', 'json'] + extra, capture_output=True,
                         text=True, errors='replace').stdout
    docs = {}
    for line in out.splitlines():
        try:
            d = json.loads(line)
        except ValueError:
            continue
        docs[d['program']] = d
    return docs


def drifted(live_msg, ref, doc):
    """The running kernel's message is not the reference's, and bpfvet's
    walk is the reference's: its message and its instruction count."""
    ref_msg, ref_insns = ref
    err = doc and doc.get('error')
    if not err or live_msg == ref_msg or not ref_insns.isdigit():
        return False
    first = (err.get('message') or '').split('\n')[0]
    return first == ref_msg and doc.get('insns_processed') == int(ref_insns)


def main(argv):
    save = recorded = None
    extra = []
    if '--' in argv:
        i = argv.index('--')
        argv, extra = argv[:i], argv[i + 1:]
    if '--recorded' in argv:
        i = argv.index('--recorded')
        recorded = recorded_errors(argv[i + 1])
        argv = argv[:i] + argv[i + 2:]
    if '--save' in argv:
        i = argv.index('--save')
        save = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    bpfvet, table, dirs = argv[0], argv[1], argv[2:]
    rejected, reference = {}, {}
    with open(table) as f:
        for row in csv.DictReader(f):
            if row['verdict'] == 'failure' and row['stage'] == 'verifier':
                rejected.setdefault(row['file'], set()).add(row['prog'])
                reference[(row['file'], row['prog'])] = (row['error'], row['insns'])
    total = with_line = insn_ok = line_ok = drift = 0
    rows = []
    for obj_name in sorted(rejected):
        path = next((os.path.join(d, obj_name) for d in dirs
                     if os.path.exists(os.path.join(d, obj_name))), None)
        if not path:
            continue
        kern = recorded.get(obj_name, {}) if recorded is not None else kernel_errors(bpfvet, path)
        if not kern:
            continue
        docs = explained(bpfvet, path, extra)
        for prog in sorted(rejected[obj_name]):
            if prog not in kern:
                continue
            total += 1
            insn, src, msg = kern[prog]
            rows.append((obj_name, prog, insn, src if src is not None else -1, msg))
            if src is None or insn < 0:
                continue
            d = docs.get(prog)
            err = d and d.get('error')
            if drifted(msg, reference[(obj_name, prog)], d):
                drift += 1
                print('DRIFT %s/%s: the live kernel says "%s", the reference "%s" as bpfvet does' %
                      (obj_name, prog, msg, reference[(obj_name, prog)][0]))
                continue
            with_line += 1
            if err and err.get('insn') == insn:
                insn_ok += 1
                if err.get('line') and err['line']['line'] == src:
                    line_ok += 1
                    continue
            print('MISS %s/%s: kernel insn %d line %s, explain %s line %s' %
                  (obj_name, prog, insn, src, err and err.get('insn'),
                   err and err.get('line') and err['line']['line']))
    print('kernel-rejected programs: %d, with a source line: %d' % (total, with_line))
    print('drift of this kernel from the reference (left out): %d' % drift)
    print('explain names the error insn: %d of %d, and its source line: %d of %d' %
          (insn_ok, with_line, line_ok, with_line))
    if save:
        with open(save, 'w') as f:
            f.write('# object\tprogram\tkernel error insn\tits source line\terror\n')
            for r in rows:
                f.write('%s\t%s\t%d\t%d\t%s\n' % r)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
