#!/usr/bin/env python3
"""Re-derives the `error` of the rows of tests/conformance/kernel-VERSION.csv
whose recorded error is a line of source from the level-1 logs recorded
beside it (kernel-VERSION-logs.txt.xz), without booting the kernel again.

  scripts/kernel-csv-errors.py VERSION

The csv's errors come from level-4 logs, where the kernel may print the
source line of the failing instruction after its message; the extraction
took that line for the message until src/kernel/kernel_stats.c learnt to
pass over lines of source. Only those rows are re-derived: the level-1 log
of any other row is a different log of the same load (and may be trimmed),
so its recorded error stays as it is. The rule is kernel_stats.c's: the
last line that is neither blank, statistics nor source.
"""
import csv
import lzma
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STATS = ('verification time ', 'stack depth ', 'processed ')


def read_logs(path):
    """{"file/prog": [lines]} of a kernel-vm.sh log file."""
    logs, cur = {}, None
    with lzma.open(path, 'rt', errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('== '):
                cur = logs.setdefault(line[3:], [])
            elif cur is not None and not line.startswith('Kernel log for '):
                cur.append(line)
    return logs


def error_line(lines):
    for line in reversed(lines):
        glued = line.find('verification time ')
        if glued > 0:
            line = line[:glued]
        if line.strip() and not line.startswith(STATS) and not line.startswith('; '):
            return line
    return None


def main(argv):
    if len(argv) != 2:
        sys.exit('usage: kernel-csv-errors.py VERSION')
    base = os.path.join(ROOT, 'tests/conformance/kernel-%s' % argv[1])
    logs = read_logs(base + '-logs.txt.xz')
    with open(base + '.csv', newline='') as f:
        reader = csv.reader(f)
        head = next(reader)
        rows = list(reader)
    col = head.index('error')
    changed = 0
    for r in rows:
        if not r[col].startswith('; '):
            continue
        err = error_line(logs.get('%s/%s' % (r[0], r[1]), []))
        if err is None:
            print('kernel-csv-errors: no log for %s/%s' % (r[0], r[1]), file=sys.stderr)
            continue
        r[col] = err
        changed += 1
    with open(base + '.csv', 'w', newline='') as f:
        w = csv.writer(f, lineterminator='\n')
        w.writerow(head)
        w.writerows(rows)
    print('kernel-csv-errors: %d rows of %s.csv re-derived' % (changed, base))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
