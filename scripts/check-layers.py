#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""The layering of src/, from its #include lines.

  scripts/check-layers.py [--root DIR]          check; exit 1 on a violation
  scripts/check-layers.py --dot [--root DIR]    the folder graph, for graphviz

src/layers.txt lists the folders bottom first. A file of folder X may
include, with quotes:
  - headers of its own folder (by their name, or data/NAME.h, or X/NAME.h);
  - the contract header Y/Y.h of a folder Y listed before X, and the few
    other public headers named in PUBLIC below;
  - the public API, bpfvet.h.
Every folder of src/ is listed and has its contract header. Hand-written
files (not under a data/ folder) stay under MAX_LINES lines.
"""
import collections
import os
import re
import sys

MAX_LINES = 1500
# Public headers besides the contracts, and why.
PUBLIC = {
    # The 6.18 BPF ABI; it replaces <linux/bpf.h>, which libbpf's headers
    # pull in, so base.h cannot include it (base/base.h says more).
    'base/uapi.h',
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def read_layers(root):
    with open(os.path.join(root, 'src', 'layers.txt')) as f:
        return [l.strip() for l in f if l.strip() and not l.startswith('#')]


def sources(root):
    for dirpath, _, names in os.walk(os.path.join(root, 'src')):
        for n in sorted(names):
            if n.endswith(('.c', '.h')):
                full = os.path.join(dirpath, n)
                yield os.path.relpath(full, os.path.join(root, 'src'))


def check(root):
    layers = read_layers(root)
    rank = {l: i for i, l in enumerate(layers)}
    problems = []
    for d in sorted(os.listdir(os.path.join(root, 'src'))):
        full = os.path.join(root, 'src', d)
        if os.path.isdir(full):
            if d not in rank:
                problems.append('src/%s: a folder that src/layers.txt does not list' % d)
            elif not os.path.isfile(os.path.join(full, d + '.h')):
                problems.append('src/%s: no contract header %s/%s.h' % (d, d, d))
        elif d.endswith(('.c', '.h')):
            problems.append('src/%s: a source file outside the layer folders' % d)
    for l in layers:
        if not os.path.isdir(os.path.join(root, 'src', l)):
            problems.append('src/layers.txt: no folder src/%s' % l)
    edges = collections.Counter()
    for rel in sources(root):
        folder = rel.split('/')[0]
        if folder not in rank:
            continue
        with open(os.path.join(root, 'src', rel), errors='replace') as f:
            text = f.read()
        if '/data/' not in '/' + rel and text.count('\n') > MAX_LINES:
            problems.append('src/%s: %d lines, more than %d' % (rel, text.count('\n'), MAX_LINES))
        here = os.path.dirname(os.path.join(root, 'src', rel))
        for inc in INCLUDE.findall(text):
            if inc == 'bpfvet.h':
                continue
            if os.path.isfile(os.path.join(here, inc)) and '..' not in inc:
                continue  # its own folder (or a data/ folder in it)
            top = inc.split('/')[0]
            if top not in rank:
                problems.append('src/%s: includes "%s", which is no header of src/' % (rel, inc))
                continue
            if top == folder:
                continue
            edges[(folder, top)] += 1
            if inc != '%s/%s.h' % (top, top) and inc not in PUBLIC:
                problems.append('src/%s: includes "%s", not the contract %s/%s.h' %
                                (rel, inc, top, top))
            if rank[top] > rank[folder]:
                problems.append('src/%s: includes "%s" of %s, a higher layer than %s' %
                                (rel, inc, top, folder))
    return layers, edges, problems


def dot(root, layers, edges):
    out = ['// The layers of src/ and who includes whom, written by',
           '// scripts/check-layers.py --dot; drawn by `make architecture`.',
           'digraph layers {',
           '\trankdir=TB;',
           '\tnode [shape=box, style="rounded,filled", fillcolor="#eef3fb", fontname="Helvetica"];',
           '\tedge [color="#7a8ca8", arrowsize=0.7];']
    for l in layers:
        n = sum(1 for r in sources(root) if r.split('/')[0] == l and r.endswith('.c'))
        out.append('\t"%s" [label="%s/\\n%d files"];' % (l, l, n))
    for (a, b), n in sorted(edges.items()):
        out.append('\t"%s" -> "%s" [label="%d", fontsize=9, fontname="Helvetica"];' % (a, b, n))
    out.append('}')
    return '\n'.join(out) + '\n'


def main(argv):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    args = argv[1:]
    if '--root' in args:
        i = args.index('--root')
        root = args[i + 1]
        del args[i:i + 2]
    layers, edges, problems = check(root)
    if args == ['--dot']:
        sys.stdout.write(dot(root, layers, edges))
        return 1 if problems else 0
    if args:
        sys.exit(__doc__)
    for p in problems:
        print(p)
    print('%d folders, %d include edges between them, %d problems' %
          (len(layers), len(edges), len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
