#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""make kernel-check: the running kernel against the recorded Linux 6.18
reference. Prints what drifted and never fails because of it: tests check
bpfvet against the record, and this says how today's kernel differs.

  scripts/kernel-check.py [--strict] [--quick]

Sections, each ending with a DRIFT-SUMMARY line:
  build      this kernel's name, config and BTF against
             tests/conformance/kernel-6.18.build;
  verdicts   every program of the corpus and of the real-world objects
             loaded alone (bpfvet kernel --kernel-only), against
             tests/conformance/kernel-6.18.csv: verdict, stage, errno,
             insns, total and peak states, error;
  realworld  every program of `make realworld`, each object loaded by its
             own loader's conventions (scripts/kernel-reference.sh
             --realworld), against tests/conformance/kernel-6.18-realworld.csv;
  testloader the verifier selftests under the selftest loader's rules
             (build/conformance-runner --reference live), against
             tests/conformance/kernel-6.18-testloader.csv;
  logs       the kernel's level-2 logs and disassembly against
             tests/fixtures/logs (scripts/level2-fixture.py drift,
             scripts/disasm-fixture.py drift; --quick leaves the
             disassembly out, the longest part);
  unit       the unit tests that probe the kernel (test_*_kernel --live):
             their fixtures against the kernel.

A drift line reads "DRIFT ITEM: FIELD: recorded X, live Y". Exit status: 0,
also when something drifted (1 with --strict); 2 when the check cannot run
(no BPF privileges, a missing build).
"""
import csv
import gzip
import hashlib
import os
import platform
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD_FILE = 'tests/conformance/kernel-6.18.build'
REF = 'tests/conformance/kernel-6.18.csv'
REF_RW = 'tests/conformance/kernel-6.18-realworld.csv'
TESTLOADER = 'tests/conformance/kernel-6.18-testloader.csv'
LOGS = 'tests/fixtures/logs'
BPFVET = 'build/bpfvet'
# Unit test binaries with a --live mode.
UNIT_LIVE = ('test_ctx_kernel', 'test_disasm_kernel', 'test_helpers_kernel',
             'test_maps_kernel', 'test_scalar_kernel')
FIELDS = (('verdict', 'kernel_verdict'), ('stage', 'kernel_stage'),
          ('errno', 'kernel_errno'), ('insns', 'kernel_total_insns'),
          ('total_states', 'kernel_total_states'), ('peak_states', 'kernel_peak_states'),
          ('error', 'kernel_error'))


class Report:
    def __init__(self):
        self.drifted = 0  # items, over all sections

    def drift(self, item, field, recorded, live):
        print('DRIFT %s: %s: recorded %s, live %s' % (item, field, recorded, live))

    def summary(self, section, compared, drifted):
        print('DRIFT-SUMMARY %s: %d compared, %d drifted' % (section, compared, drifted))
        print()
        self.drifted += drifted


def die(msg):
    print('kernel-check: ' + msg, file=sys.stderr)
    sys.exit(2)


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def read_build_file():
    out = {}
    with open(os.path.join(ROOT, BUILD_FILE)) as f:
        for line in f:
            if line.startswith('#') or ':' not in line:
                continue
            k, _, v = line.partition(':')
            out[k.strip()] = v.strip()
    return out


def live_config():
    """The running kernel's config text, or None."""
    try:
        with gzip.open('/proc/config.gz', 'rb') as f:
            return f.read()
    except OSError:
        pass
    try:
        with open('/boot/config-' + platform.release(), 'rb') as f:
            return f.read()
    except OSError:
        return None


def check_build(rep):
    """This kernel's identity against the builds the reference names."""
    rec = read_build_file()
    cfg = live_config()
    try:
        with open('/sys/kernel/btf/vmlinux', 'rb') as f:
            btf = sha256(f.read())
    except OSError:
        btf = 'unreadable'
    live = {'release': platform.release(), 'version': platform.version(),
            'config_sha256': sha256(cfg) if cfg is not None else 'unreadable',
            'btf_sha256': btf}
    print('== build: this kernel against %s' % BUILD_FILE)
    print('running: Linux %s %s' % (live['release'], live['version']))
    n = bad = 0
    for who in ('verdicts', 'target'):
        for field in ('release', 'version', 'config_sha256', 'btf_sha256'):
            want = rec.get('%s.%s' % (who, field), 'not recorded')
            n += 1
            if want.startswith('not recorded'):
                continue
            want = want.split()[0]
            if not live[field].startswith(want):
                rep.drift('kernel (%s)' % who, field, want, live[field])
                bad += 1
    rep.summary('build', n, bad)


def kernel_loads():
    """Whether the kernel loads a program for us; the reason if not."""
    p = subprocess.run([BPFVET, 'kernel', '--kernel-only', '-o', 'csv', '-p', 'rodata_known',
                        'build/progs/kernel_data.o'], capture_output=True, text=True)
    if ',rodata_known,socket,socket_filter,success,' in p.stdout:
        return None
    return (p.stdout.strip().split('\n')[-1] + ' ' + p.stderr.strip())[:200]


def objects():
    out = []
    for d in ('build/corpus/verifier', 'build/corpus/progs', 'build/realworld'):
        full = os.path.join(ROOT, d)
        if not os.path.isdir(full):
            die('%s is missing: make corpus realworld' % d)
        out += [os.path.join(d, n) for n in sorted(os.listdir(full)) if n.endswith('.o')]
    return out


def check_verdicts(rep, tmp):
    print('== verdicts: every program loaded alone, against %s' % REF)
    out = os.path.join(tmp, 'live.csv')
    with open(out, 'w') as f:
        # Objects libbpf cannot open make it exit 2; they have no rows
        # in the reference either.
        subprocess.run([BPFVET, 'kernel', '--kernel-only', '-o', 'csv'] + objects(),
                       stdout=f, stderr=subprocess.DEVNULL)
    with open(os.path.join(ROOT, REF)) as f:
        ref = {(r['file'], r['prog']): r for r in csv.DictReader(f)}
    with open(out) as f:
        live = {(r['file_name'], r['prog_name']): r for r in csv.DictReader(f)}
    compare_rows(rep, 'verdicts', ref, live, FIELDS)


def compare_rows(rep, section, ref, live, fields, item_fmt='%s/%s', kind='program'):
    """Reports each row present on one side only, and each field of
    `fields` ((recorded name, live name) pairs) that differs."""
    bad = 0
    for key in sorted(set(ref) | set(live)):
        item = item_fmt % key
        if key not in live or key not in ref:
            rep.drift(item, kind, 'present' if key in ref else 'absent',
                      'present' if key in live else 'absent')
            bad += 1
            continue
        diffs = [(a, ref[key][a], live[key][b]) for a, b in fields
                 if ref[key][a] != live[key][b]]
        for a, r, v in diffs:
            rep.drift(item, a, r or '""', v or '""')
        bad += bool(diffs)
    rep.summary(section, len(ref), bad)


def check_realworld(rep, tmp):
    print('== realworld: each object by its own loader\'s conventions, against %s' % REF_RW)
    out = os.path.join(tmp, 'realworld.csv')
    p = subprocess.run(['scripts/kernel-reference.sh', '--realworld', out],
                       stderr=subprocess.PIPE, text=True)
    if p.returncode:
        die('scripts/kernel-reference.sh --realworld failed: ' + p.stderr.strip()[:300])
    with open(os.path.join(ROOT, REF_RW)) as f:
        ref = {(r['file'], r['prog']): r for r in csv.DictReader(f)}
    with open(out) as f:
        live = {(r['file'], r['prog']): r for r in csv.DictReader(f)}
    compare_rows(rep, 'realworld', ref, live, [(a, a) for a, _ in FIELDS])


def check_testloader(rep, tmp):
    print('== testloader: the verifier selftests as the selftest loader runs them, '
          'against %s' % TESTLOADER)
    out = os.path.join(tmp, 'testloader.csv')
    p = subprocess.run(['build/conformance-runner', '-q', '--reference', 'live', '--record',
                        out, 'build/corpus/verifier'], capture_output=True, text=True)
    if p.returncode not in (0, 1) or not os.path.exists(out):
        print('kernel-check: the live conformance run failed: %s' % p.stderr.strip()[:300])
        rep.summary('testloader', 0, 0)
        return

    def rows(path):
        with open(path) as f:
            lines = [l for l in f if not l.startswith('#')]
        return {(r['object'], r['program'], r['mode']): r for r in csv.DictReader(lines)}
    ref, live = rows(os.path.join(ROOT, TESTLOADER)), rows(out)
    compare_rows(rep, 'testloader', ref, live,
                 [(f, f) for f in ('verdict', 'errno', 'stage', 'msg_match', 'error')],
                 item_fmt='%s/%s (%s)', kind='test')


def run_drift_lines(rep, section, cmd):
    """Runs a command that prints DRIFT and DRIFT-SUMMARY lines itself."""
    p = subprocess.run(cmd, capture_output=True, text=True)
    n = bad = 0
    for line in p.stdout.split('\n'):
        if line.startswith('DRIFT-SUMMARY '):
            words = line.split()
            n += int(words[-5])
            bad += int(words[-2])
        elif line.startswith('DRIFT '):
            print(line)
        elif line.startswith('SKIP '):
            print(line)
    if p.returncode:
        print('kernel-check: %s exited with %d: %s' % (' '.join(cmd[:3]), p.returncode,
                                                      p.stderr.strip()[-300:]))
    rep.summary(section, n, bad)


def check_logs(rep, quick):
    print('== logs: the kernel\'s level-2 logs and disassembly against %s' % LOGS)
    for fx in ('level2', 'prune', 'btf_trace'):
        run_drift_lines(rep, 'logs %s' % fx, ['python3', 'scripts/level2-fixture.py', 'drift',
                                              '%s/%s.txt.xz' % (LOGS, fx)])
    if not quick:
        run_drift_lines(rep, 'logs disasm', ['python3', 'scripts/disasm-fixture.py', 'drift',
                                             LOGS + '/disasm.txt.xz'])


def check_unit(rep):
    print('== unit: the fixtures of the kernel-probing unit tests (--live)')
    for t in UNIT_LIVE:
        path = os.path.join('build/san/tests', t)
        if not os.access(path, os.X_OK):
            die('%s is missing: make check builds it' % path)
        run_drift_lines(rep, 'unit ' + t, [path, '--live'])


def main(argv):
    strict = '--strict' in argv
    quick = '--quick' in argv
    if any(a not in ('--strict', '--quick') for a in argv[1:]):
        die('usage: scripts/kernel-check.py [--strict] [--quick]')
    os.chdir(ROOT)
    if not os.access(BPFVET, os.X_OK):
        die('%s is missing: make' % BPFVET)
    rep = Report()
    check_build(rep)
    why = kernel_loads()
    if why:
        die('the kernel does not load BPF programs here, nothing to compare: ' + why)
    with tempfile.TemporaryDirectory() as tmp:
        check_verdicts(rep, tmp)
        check_realworld(rep, tmp)
        check_testloader(rep, tmp)
    check_logs(rep, quick)
    check_unit(rep)
    print('kernel-check: %d item(s) drifted from the record of Linux %s' %
          (rep.drifted, read_build_file().get('verdicts.release', '?')))
    return 1 if strict and rep.drifted else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
