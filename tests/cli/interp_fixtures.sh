# The interpreter fixtures (docs/interp-fixtures.md) without privileges:
# each file is whole gzip, stays small, names the kernel that recorded it
# and has the shape of the shared format (tests/unit/test_interp_fixtures
# parses every field and has bpfvet verify every program).
. tests/lib.sh

MAX_BYTES=2097152
for fam in scalar mem branchy fib; do
	f=tests/fixtures/interp/$fam.txt.gz
	name=interp_fixtures_$fam
	if ! gzip -t "$f" 2>"$TMP/err"; then
		fail "$name" "$f: $(head -c 200 "$TMP/err")"
		continue
	fi
	size=$(wc -c <"$f")
	if [ "$size" -ge "$MAX_BYTES" ]; then
		fail "$name" "$f has $size bytes, more than $MAX_BYTES"
		continue
	fi
	# One awk pass: line kinds in order, p/. balanced, code in whole
	# instructions, six fields per run, xdp return values 0..3.
	gzip -dc "$f" | awk -v fam="$fam" '
		NR == 1 && !/^# [0-9]+\.[0-9]+/ { print "line 1 does not name the kernel"; bad = 1; exit }
		/^#/ { next }
		/^p / { if (open) { print NR ": p inside a program"; bad = 1; exit }
			if ($3 != "socket_filter" && $3 != "sched_cls" && $3 != "xdp") {
				print NR ": type " $3; bad = 1; exit }
			open = 1; type = $3; code = 0; runs = 0; progs++; next }
		/^m / { if (!open || code || NF != 5) { print NR ": bad map line"; bad = 1; exit } next }
		/^c / { if (!open || code || length($2) % 16 || $2 !~ /^[0-9a-f]+$/) {
				print NR ": bad code line"; bad = 1; exit }
			code = 1; insns += length($2) / 16; next }
		/^r / { if (!code || NF != 6 || $4 !~ /^[0-9]+$/) { print NR ": bad run line"; bad = 1; exit }
			if (type == "xdp" && $4 > 3) { print NR ": xdp returned " $4; bad = 1; exit }
			runs++; total++; next }
		/^\.$/ { if (!open || !runs) { print NR ": empty program"; bad = 1; exit }
			open = 0; next }
		{ print NR ": unknown line"; bad = 1; exit }
		END { if (bad) exit 1
		      if (open || !progs) { print "unterminated or empty"; exit 1 }
		      printf "%s: %d programs, %d insns, %d runs\n", fam, progs, insns, total }
	' >"$TMP/out" 2>&1
	if [ $? -eq 0 ]; then
		cat "$TMP/out"
		pass "$name"
	else
		fail "$name" "$f: $(head -c 200 "$TMP/out")"
	fi
done

# All four come from one kernel build.
kernels=$(for fam in scalar mem branchy fib; do
	gzip -dc tests/fixtures/interp/$fam.txt.gz 2>/dev/null | head -n 1
done | sort -u | wc -l)
if [ "$kernels" -eq 1 ]; then
	pass interp_fixtures_one_kernel
else
	fail interp_fixtures_one_kernel "$kernels different first lines"
fi
