#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Reads a page's DOM as headless Chromium dumped it (tests/cli/report.sh)
and prints facts about it, one per line, for the shell test to compare:
  section ID PROG VERDICT
  error ID TEXT             (the <pre class="error"> of the section)
  row ID INSN CLASSES MARKS v,s,h,m,p
  line ID LINE v,s,h,m,p    (a source line's row, with its totals)
  func ID NAME v,s,h,m,p TEXT  (a function's header row, with its totals)
  lines ID N                (source line rows drawn)
  rows ID N                 (instruction rows drawn)
  decisions ID N            (branch decisions listed)
  slice ID N                (slice items listed)
  element TAG               (every tag name seen, once)
  rendered VALUE
"""
import sys
from html.parser import HTMLParser


class Dom(HTMLParser):
    def __init__(self):
        super().__init__()
        self.out = []
        self.tags = set()
        self.section = None
        self.row = None       # [insn, classes, marks, counts]
        self.depth = 0        # open divs inside the current row
        self.span = None      # class of the open span in a row
        self.pre_error = False
        self.counts = {}

    def count(self, what):
        key = (what, self.section)
        self.counts[key] = self.counts.get(key, 0) + 1

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = a.get("class") or ""
        self.tags.add(tag)
        if tag == "body" and "data-rendered" in a:
            self.out.append(f"rendered {a['data-rendered']}")
        if tag == "section" and "prog" in cls.split():
            self.section = a.get("id")
            self.out.append(f"section {self.section} {a.get('data-prog')} {a.get('data-verdict')}")
        elif tag == "pre" and cls == "error":
            self.pre_error = True
            self.out.append(f"error {self.section} ")
        elif tag == "div" and "src" in cls.split() and "data-line" in a:
            self.row = ["line", a["data-line"], [], []]
            self.depth = 1
            self.count("lines")
        elif tag == "div" and "func" in cls.split() and "data-func" in a:
            self.row = ["func", a["data-func"], [], [], []]
            self.depth = 1
        elif tag == "div" and "insn" in cls.split() and "data-insn" in a:
            self.row = [a["data-insn"], ".".join(sorted(cls.split())), [], []]
            self.depth = 1
            self.count("rows")
        elif tag == "div" and self.row:
            self.depth += 1
        elif tag == "li" and "decision" in cls.split():
            self.count("decisions")
        elif tag == "tr" and "slice-item" in cls.split():
            self.count("slice")
        if self.row and tag in ("span", "b"):
            self.span = (tag, cls)

    def handle_endtag(self, tag):
        if tag == "pre":
            self.pre_error = False
        if tag == "div" and self.row:
            self.depth -= 1
            if not self.depth:
                insn, cls, marks, counts = self.row[:4]
                if insn == "func":
                    self.out.append(f"func {self.section} {cls} " + ",".join(counts) + " "
                                    + "".join(self.row[4]))
                elif insn == "line":
                    self.out.append(f"line {self.section} {cls} " + ",".join(counts))
                else:
                    self.out.append(f"row {self.section} {insn} {cls} {''.join(marks) or '-'} "
                                    + ",".join(counts))
                self.row = None

    def handle_data(self, data):
        if self.pre_error:
            self.out[-1] += data
        if self.row and self.span:
            tag, cls = self.span
            if tag == "span" and cls.split()[:1] == ["m"]:
                self.row[3].append(data)
            elif tag == "span" and cls == "txt" and self.row[0] == "func":
                self.row[4].append(data)
            elif tag == "b":
                self.row[2].append(data)
            self.span = None


def main():
    d = Dom()
    d.feed(open(sys.argv[1], encoding="utf-8").read())
    for line in d.out:
        print(line)
    for (what, sec), n in sorted(d.counts.items(), key=lambda x: (x[0][0], str(x[0][1]))):
        print(f"{what} {sec} {n}")
    for t in sorted(d.tags):
        print(f"element {t}")


main()
