#!/usr/bin/env python3
"""Cross-checks `bpfvet kernel --kernel-only` against `bpftool prog loadall`.

For each object, bpftool (libbpf) loads every program of it into a private
directory of bpffs; bpfvet loads each program on its own. Then:
  - bpftool loaded the object: every program must be accepted by bpfvet
    too, with the same number of verified instructions (bpftool's
    verified_insns, bpfvet's "processed N insns");
  - bpftool failed on a program's load: bpfvet must reject that program
    with the same last log message (libbpf rewrites the message of the
    calls it poisons, CO-RE and kfunc; the kernel's original counts);
  - bpftool failed before loading (libbpf could not prepare the object):
    agreement when bpfvet refuses some program for the same map or extern,
    otherwise reported as such, with libbpf's reason.
Objects with pinned maps are skipped: libbpf would pin them in the shared
/sys/fs/bpf. Prints one line per object and a summary; exit 1 on any
disagreement.

usage: scripts/kernel-vs-bpftool.py [--bpfvet PATH] OBJ.o...
"""
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

STATS = re.compile(r'^(processed \d+ insns|verification time|stack depth)')
LOAD_FAIL = re.compile(r"libbpf: prog '([^']+)': (BPF program load failed|failed to load)")


def bpftool_load(obj):
    """Returns (ok, {prog: verified_insns}, failed_prog, last_msg, reason)."""
    pin = tempfile.mkdtemp(prefix='bpfvet-cmp-', dir='/sys/fs/bpf')
    try:
        p = subprocess.run(['bpftool', '-d', 'prog', 'loadall', obj, pin],
                           capture_output=True, text=True)
        if p.returncode == 0:
            insns = {}
            for name in os.listdir(pin):
                q = subprocess.run(['bpftool', '-j', 'prog', 'show', 'pinned',
                                    os.path.join(pin, name)],
                                   capture_output=True, text=True)
                info = json.loads(q.stdout)
                insns[info.get('name', name)] = info.get('verified_insns')
            return True, insns, None, None, None
        return (False, {}) + parse_failure(p.stderr)
    finally:
        shutil.rmtree(pin, ignore_errors=True)


def parse_failure(err):
    lines = err.splitlines()
    failed = None
    for ln in lines:
        m = LOAD_FAIL.search(ln)
        if m:
            failed = m.group(1)
    msg = None
    if failed:
        begin = [i for i, ln in enumerate(lines) if '-- BEGIN PROG LOAD LOG --' in ln]
        end = [i for i, ln in enumerate(lines) if '-- END PROG LOAD LOG --' in ln]
        msg = ''
        if begin and end and end[-1] > begin[-1]:
            body = [ln for ln in lines[begin[-1] + 1:end[-1]]
                    if ln.strip() and not STATS.match(ln)]
            msg = body[-1] if body else ''
    # libbpf's own complaint, not its closing "failed to load object".
    reason = next((ln for ln in reversed(lines) if ln.startswith('libbpf:') and
                   'failed to load object' not in ln), '')
    return failed, msg, reason


# libbpf rewrites the kernel's message for the calls it poisoned itself;
# the kernel said "invalid func unknown#<poison>".
LIBBPF_REWRITES = (
    ('failed to resolve CO-RE relocation', 'invalid func unknown#195896080'),
    ("' is referenced but wasn't resolved", 'invalid func unknown#2002'),
)


def same_message(libbpf_msg, kernel_msg):
    if libbpf_msg == kernel_msg:
        return True
    return any(a in libbpf_msg and kernel_msg.startswith(b) for a, b in LIBBPF_REWRITES)


def bpfvet_load(bpfvet, obj):
    p = subprocess.run([bpfvet, 'kernel', '--kernel-only', '-o', 'csv', obj],
                       capture_output=True, text=True)
    return {r['prog_name']: r for r in csv.DictReader(io.StringIO(p.stdout))}


def has_pinning(obj):
    p = subprocess.run(['bpftool', 'btf', 'dump', 'file', obj], capture_output=True,
                       text=True)
    return "'pinning'" in p.stdout


def compare(bpfvet, obj):
    if has_pinning(obj):
        return 'skip', 'pinned maps'
    ok, insns, failed, msg, reason = bpftool_load(obj)
    mine = bpfvet_load(bpfvet, obj)
    if ok:
        for name, row in mine.items():
            if row['kernel_verdict'] != 'success':
                return 'DIFF', f'{name}: bpftool loaded it, bpfvet says {row["kernel_verdict"]}'
            want = insns.get(name[:15])
            if want is not None and str(want) != row['kernel_total_insns']:
                return 'DIFF', f'{name}: insns {want} vs {row["kernel_total_insns"]}'
        return 'agree', f'{len(mine)} accepted, insns equal'
    if failed:
        row = mine.get(failed) or next((r for n, r in mine.items() if n[:15] == failed), None)
        if not row:
            return 'DIFF', f'{failed}: bpfvet has no such program'
        if row['kernel_verdict'] == 'failure' and same_message(msg, row['kernel_error']):
            return 'agree', f'{failed} rejected: {msg}'
        if row['kernel_verdict'] == 'refused' and not msg:
            return 'agree', f'{failed} refused: {row["kernel_error"]}'
        return 'DIFF', (f'{failed}: bpftool "{msg}", bpfvet {row["kernel_verdict"]} '
                        f'"{row["kernel_error"]}"')
    # libbpf gave up before loading: do we refuse for the same reason (the
    # same map or extern)?
    names = re.findall(r"'([^']+)'", reason)
    for row in mine.values():
        if row['kernel_verdict'] == 'refused' and any(
                f"'{n}'" in row['kernel_error'] for n in names):
            return 'agree', f'both refuse: {reason}'
    return 'libbpf-failed', reason


def main():
    args = sys.argv[1:]
    bpfvet = 'build/bpfvet'
    if args[:1] == ['--bpfvet']:
        bpfvet, args = args[1], args[2:]
    tally = {}
    for obj in args:
        verdict, why = compare(bpfvet, obj)
        tally[verdict] = tally.get(verdict, 0) + 1
        print(f'{verdict:13} {os.path.basename(obj)}: {why}')
    print('summary: ' + ', '.join(f'{k} {v}' for k, v in sorted(tally.items())))
    return 1 if tally.get('DIFF') else 0


if __name__ == '__main__':
    sys.exit(main())
