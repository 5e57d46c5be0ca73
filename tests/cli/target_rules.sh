# The version table's rules (src/rules/kver.c) against what the recorded
# kernels said: each line of the list below is a target and a corpus
# program; bpfvet --target TARGET must give the verdict (and, for a
# rejection, the first error, unless the line says "verdict") of that
# kernel's row in tests/conformance/kernel-TARGET.csv. Uses the real profiles (make
# profiles), whose BTF and symbols the rules read; a target without one is
# skipped.
. tests/lib.sh
need_corpus target_rules_corpus

# target object program [verdict]: why it is here
cat >"$TMP/cases" <<'LIST'
6.1 bpf_iter_bpf_hash_map.bpf.o dump_bpf_hash_map: iterator ctx and walked pointers plain before 6.2
6.1 bpf_iter_tasks.bpf.o dump_task_sleepable: no RCU rule for sleepable walks before 6.2
6.1 local_storage.bpf.o socket_post_create: LSM arguments plain before 6.2
6.1 test_sk_storage_tracing.bpf.o tcp_retransmit_synack: fentry walk stays plain
6.1 test_ringbuf_map_key.bpf.o test_ringbuf_mem_map_key verdict: map keys from the stack, packet or maps only before 6.2
6.1 bpf_iter_bpf_array_map.bpf.o dump_bpf_array_map: an iterator's buffer is no map key before 6.2
6.12 bpf_iter_bpf_sk_storage_helpers.bpf.o fill_socket_owner: walk from a helper's plain pointer stays plain
6.12 bpf_iter_task_vmas.bpf.o proc_maps: walk from an iterator's plain argument stays plain
6.12 cgrp_ls_attach_cgroup.bpf.o set_cookie: walk from a plain pointer stays plain
LIST

profiles=${XDG_CACHE_HOME:-$HOME/.cache}/bpfvet/profiles
for v in $(cut -d' ' -f1 "$TMP/cases" | sort -u); do
	if [ ! -s "$profiles/$v/btf" ]; then
		skip "target_rules_$v" "no profile $profiles/$v (make profiles)"
		continue
	fi
	grep "^$v " "$TMP/cases" | cut -d: -f1 | while read -r _ obj prog mode; do
		"$BPFVET" "build/corpus/progs/$obj" --target "$v" -p "$prog" -o csv \
			-e file_name,prog_name,verdict,error 2>/dev/null | tail -n +2 |
			sed "s/\$/,$mode/"
	done >"$TMP/got-$v.csv"
	python3 - "tests/conformance/kernel-$v.csv" "$TMP/got-$v.csv" "$v" "$TMP/cases" <<'PY'
import csv, sys
want = {(r['file'], r['prog']): r for r in csv.DictReader(open(sys.argv[1]))}
got = list(csv.reader(open(sys.argv[2])))
seen = {(g[0], g[1]) for g in got}
for line in open(sys.argv[4]):
    f = line.split(':')[0].split()
    if f[0] == sys.argv[3] and (f[1], f[2]) not in seen:
        print('FAIL target_rules_%s %s/%s: no row from bpfvet' % (f[0], f[1], f[2]))
for g in got:
    k = want[(g[0], g[1])]
    name = 'target_rules_%s %s/%s' % (sys.argv[3], g[0], g[1])
    w = (k['verdict'], k['error'] if k['verdict'] == 'failure' else '')
    h = (g[2], g[3] if g[2] == 'failure' else '')
    if g[4] == 'verdict':
        w, h = w[:1], h[:1]
    print('PASS %s' % name if w == h else 'FAIL %s: got %s, kernel %s' % (name, h, w))
PY
done
