#!/bin/sh
# bpfvet report: the page it writes, rendered by headless Chromium and
# asserted on the DOM the page's script builds (docs/report.md).
. tests/lib.sh
need_target report

LOOP=$PROGS/report_loop.o
SCALE=$PROGS/report_scale.o

# The inlined style and script are those of tools/report/.
python3 scripts/embed-report-assets.py "$TMP/assets.c"
if cmp -s "$TMP/assets.c" tools/report_assets.c; then
	pass "report assets up to date"
else
	fail "report assets up to date" "run scripts/embed-report-assets.py"
fi

expect_exit "report without -o" 2 $BPFVET report $TARGET "$LOOP"
# With explain_compiler.o's alu32_wrap, whose knowledge is lost at a
# 32-bit operation (insn 12), as section p2.
expect_exit "report of a rejected program" 1 $BPFVET report $TARGET "$LOOP" \
	"$PROGS/explain_compiler.o" -p sum_loop -p html_line -p alu32_wrap -o "$TMP/loop.html"
page=$TMP/loop.html

# Self-contained: nothing that the browser would fetch.
if [ -s "$page" ] && ! grep -Eiq '<(link|img|iframe)|(src|href)="?(https?:)?//' "$page"; then
	pass "report fetches nothing"
else
	fail "report fetches nothing" "$(grep -Eio '<(link|img|iframe)[^>]*|(src|href)="?(https?:)?//[^ ]*' "$page" | head -3)"
fi
# The source line of the error holds </script><b>x</b> & 'q': escaped
# in the summary's HTML and in the data's JSON.
if grep -qF "&lt;/script&gt;&lt;b&gt;x&lt;/b&gt;&quot; &amp; &#39;q&#39;" "$page" &&
   grep -qF '\u003c/script\u003e\u003cb\u003ex\u003c/b\u003e\" \u0026' "$page"; then
	pass "report escapes source text"
else
	fail "report escapes source text" "no escaped line in $page"
fi

# CHROMIUM=PATH picks the browser; CHROMIUM= (empty) leaves it out.
CHROMIUM=${CHROMIUM-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$CHROMIUM" ]; then
	skip "report in chromium" "no chromium (scripts/deps.sh installs Debian's)"
	exit 0
fi
# dump URL OUT: the DOM after the page's script ran.
dump() {
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --window-size=1280,900 \
		--user-data-dir="$TMP/chromium" \
		--dump-dom "file://$1" >"$2" 2>"$TMP/chromium.err"
}
facts() {
	python3 tests/cli/report_dom.py "$1"
}
# has NAME FILE LINE...: FILE holds each LINE whole.
has() {
	name=$1 file=$2
	shift 2
	for l in "$@"; do
		if ! grep -qxF -- "$l" "$file"; then
			fail "$name" "no '$l' in: $(grep -F -- "$(echo "$l" | cut -d' ' -f1-3)" "$file" | head -3)"
			return
		fi
	done
	pass "$name"
}

if ! dump "$(realpath "$page")" "$TMP/loop.dom" || ! grep -q 'data-rendered="yes"' "$TMP/loop.dom"; then
	fail "report renders" "$(tail -n 3 "$TMP/chromium.err")"
	exit 0
fi
facts "$TMP/loop.dom" >"$TMP/loop.facts"
has "report renders the programs" "$TMP/loop.facts" "rendered yes" \
	"section p0 sum_loop accepted" "section p1 html_line rejected" \
	"error p1 R0 max value is outside of the allowed memory range"
# The loop's head (insn 10: r3 = r0) is walked 8 times, stores a state,
# misses 8 prunes and is backtracked over 48 times by precision marking.
has "report heatmap of the loop head" "$TMP/loop.facts" "row p0 10 insn.row - 8,1,0,8,48"
# Every count drawn is the one explain gives.
$BPFVET explain $TARGET "$LOOP" -p sum_loop -o json | python3 -c '
import json, sys
d = json.load(sys.stdin)
for i, s in enumerate(d["insn_stats"]):
    if i != 5:	# the second slot of the LD_IMM64: no row
        print("row p0 %d insn.row - %s" % (i, ",".join(map(str, s))))' >"$TMP/want"
if [ -s "$TMP/want" ] && grep '^row p0 ' "$TMP/loop.facts" | diff - "$TMP/want" >"$TMP/diff"; then
	pass "report heatmap equals explain's counts"
else
	fail "report heatmap equals explain's counts" "$(head -5 "$TMP/diff")"
fi
# The rejected program: its failing path marked, the decision at
# `if (!v)` (not taken), the error's row with the slice's mark.
ei=$($BPFVET explain $TARGET "$LOOP" -p html_line -o json |
	python3 -c 'import json, sys; print(json.load(sys.stdin)["error"]["insn"])')
row=$(grep "^row p1 $ei " "$TMP/loop.facts")
case $row in
"row p1 $ei err.insn.path.row ES "*) pass "report marks the error on the path" ;;
*) fail "report marks the error on the path" "insn $ei: '$row'" ;;
esac
if grep -Eq "^row p1 [0-9]+ insn.path.row [A-Z]*N1 " "$TMP/loop.facts" &&
   grep -qx 'decisions p1 1' "$TMP/loop.facts" && grep -q '^slice p1 [1-9]' "$TMP/loop.facts"; then
	pass "report shows the decisions and the slice"
else
	fail "report shows the decisions and the slice" "$(grep -E '^(decisions|slice) p1|N1' "$TMP/loop.facts")"
fi
case $(grep '^row p2 12 ' "$TMP/loop.facts") in
"row p2 12 insn.loss.path.row LS "*) pass "report marks the loss point" ;;
*) fail "report marks the loss point" "$(grep '^row p2 12 ' "$TMP/loop.facts")" ;;
esac
if grep -qxF 'section p2 alu32_wrap rejected' "$TMP/loop.facts" &&
   grep -q '<dd class="loss">32-bit-op at <a class="jump" data-insn="12">' "$TMP/loop.dom"; then
	pass "report names the loss"
else
	fail "report names the loss" "$(grep -o '<dd class="loss">.\{0,60\}' "$TMP/loop.dom")"
fi
if ! grep -qF '<b>x</b>' "$TMP/loop.dom" && grep -qF '&lt;b&gt;x&lt;/b&gt;' "$TMP/loop.dom"; then
	pass "report source text stays text"
else
	fail "report source text stays text" "a <b>x</b> element in the DOM"
fi

# ?show=lines&metric=states: each source line once with its totals (the
# loop body's line 18: insns 10-13, 4 x 8 visits, 48 + 3 x 40 precision
# marks), the states column chosen.
if dump "$(realpath "$page")?show=lines&metric=states" "$TMP/lines.dom"; then
	facts "$TMP/lines.dom" >"$TMP/lines.facts"
fi
if grep -qxF 'line p0 18 32,1,0,8,168' "$TMP/lines.facts" && grep -qxF 'lines p0 7' "$TMP/lines.facts" &&
   ! grep -q '^rows p0 ' "$TMP/lines.facts" && grep -qF '<span class="m sel">states</span>' "$TMP/lines.dom"; then
	pass "report per-source-line totals"
else
	fail "report per-source-line totals" "$(grep -E '^(line|lines|rows) p0' "$TMP/lines.facts" | head -5)"
fi

# 100,003 instructions: the page opens at the error (#p0-i100001) with a
# window of rows drawn, not all of them.
expect_exit "report of 100,003 insns" 1 $BPFVET report $TARGET "$SCALE" -o "$TMP/scale.html"
if ! dump "$(realpath "$TMP/scale.html")#p0-i100001" "$TMP/scale.dom"; then
	fail "report of 100,003 insns renders" "$(tail -n 3 "$TMP/chromium.err")"
	exit 0
fi
facts "$TMP/scale.dom" >"$TMP/scale.facts"
n=$(sed -n 's/^rows p0 //p' "$TMP/scale.facts")
has "report of 100,003 insns renders" "$TMP/scale.facts" "rendered yes" \
	"section p0 scale rejected" "error p0 R6 invalid mem access 'scalar'"
case $(grep '^row p0 100001 ' "$TMP/scale.facts") in
"row p0 100001 err.insn.path.row E"*) ok=1 ;;
*) ok= ;;
esac
if [ -n "$ok" ] && [ "${n:-0}" -gt 10 ] && [ "$n" -lt 2000 ] &&
   grep -qF 'Failing path: 100002 instructions, 3200 branch decisions' "$TMP/scale.dom"; then
	pass "report of 100,003 insns: a window of $n rows at the error"
else
	fail "report of 100,003 insns: a window of rows at the error" "rows $n; $(grep '^row p0 100001' "$TMP/scale.facts")"
fi

# Functions: each has a header row, under the target the page names
# (Linux 6.18.44, from the API), with the totals of the instruction rows
# that follow it: with_calls calls the static half() twice and the global
# clamp(), which is verified on its own.
expect_exit "report of subprograms" 0 $BPFVET report $TARGET "$LOOP" -p with_calls -o "$TMP/calls.html"
if dump "$(realpath "$TMP/calls.html")" "$TMP/calls.dom"; then
	facts "$TMP/calls.dom" >"$TMP/calls.facts"
fi
has "report function headers" "$TMP/calls.facts" "section p0 with_calls accepted"
python3 - "$TMP/calls.facts" <<'PY' >"$TMP/calls.check"
import sys
funcs, cur = [], None
for line in open(sys.argv[1]):
    w = line.split()
    if w[0] == 'func':
        cur = [w[2], list(map(int, w[3].split(','))), [0] * 5, ' '.join(w[4:])]
        funcs.append(cur)
    elif w[0] == 'row' and cur:
        cur[2] = [a + int(b) for a, b in zip(cur[2], w[5].split(','))]
names = [(f[0], f[3].split('(')[1].split(',')[0]) for f in funcs]
want = [('with_calls', 'entry'), ('half', 'static subprogram'), ('clamp', 'global function')]
bad = [f[0] for f in funcs if f[1] != f[2]]
print('ok' if names == want and not bad else 'names %s; totals differ: %s' % (names, bad))
PY
if [ "$(cat "$TMP/calls.check")" = ok ] &&
   grep -qF 'for <span class="target">Linux 6.18.44</span>' "$TMP/calls.dom"; then
	pass "report function totals and target"
else
	fail "report function totals and target" "$(cat "$TMP/calls.check")"
fi
