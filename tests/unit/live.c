/* SPDX-License-Identifier: BSD-2-Clause */
/* The --live mode of the kernel tests: drift lines and preconditions. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>

#include "live.h"

#define PROBE_LOG_SIZE (64u * 1024)

void drift_init(struct drift *d, const char *binary)
{
	memset(d, 0, sizeof(*d));
	d->binary = binary;
}

void drift_field(struct drift *d, const char *item, const char *field,
		 const char *recorded, const char *live)
{
	printf("DRIFT %s: %s: recorded %s, live %s\n", item, field, recorded,
	       live);
	d->cur = true;
}

bool drift_str(struct drift *d, const char *item, const char *field,
	       const char *recorded, const char *live)
{
	char r[512], l[512];

	if (!strcmp(recorded, live))
		return false;
	snprintf(r, sizeof(r), "\"%s\"", recorded);
	snprintf(l, sizeof(l), "\"%s\"", live);
	drift_field(d, item, field, r, l);
	return true;
}

bool drift_num(struct drift *d, const char *item, const char *field,
	       long long recorded, long long live)
{
	char r[32], l[32];

	if (recorded == live)
		return false;
	snprintf(r, sizeof(r), "%lld", recorded);
	snprintf(l, sizeof(l), "%lld", live);
	drift_field(d, item, field, r, l);
	return true;
}

void drift_item_end(struct drift *d)
{
	d->items++;
	d->drifted += d->cur;
	d->cur = false;
}

void drift_summary(const struct drift *d)
{
	printf("DRIFT-SUMMARY %s: %lu items compared, %lu drifted\n",
	       d->binary, d->items, d->drifted);
	fflush(stdout);
}

int live_parse_args(int argc, char **argv, const char *extra_usage,
		    bool *live)
{
	*live = false;
	if (argc == 2 && !strcmp(argv[1], "--live")) {
		*live = true;
		return 0;
	}
	if (argc == 1)
		return 0;
	fprintf(stderr, "usage: %s [--live]%s%s\n", argv[0],
		extra_usage ? "\n       " : "", extra_usage ? extra_usage : "");
	return -1;
}

bool live_bpf_usable(char *why, size_t sz)
{
	/* call pc+2; r0 = 0; exit; r0 = 0; exit: the subprogram call is what
	 * needs CAP_BPF, without which the kernel's logs differ. */
	const struct bpf_insn insns[] = {
		{ .code = BPF_JMP | BPF_CALL, .src_reg = BPF_PSEUDO_CALL,
		  .imm = 2 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K },
		{ .code = BPF_JMP | BPF_EXIT },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "probe", "GPL",
			       insns, 5, NULL);

	if (fd < 0) {
		snprintf(why, sz, "this process cannot load BPF programs "
			 "(bpf(BPF_PROG_LOAD): %s)", strerror(errno));
		return false;
	}
	close(fd);
	return true;
}

bool live_is_6_18(char *release, size_t sz)
{
	struct utsname u;

	if (uname(&u)) {
		snprintf(release, sz, "unknown");
		return false;
	}
	snprintf(release, sz, "%s", u.release);
	return !strncmp(u.release, "6.18", 4) &&
	       (u.release[4] == '.' || u.release[4] == '-' || !u.release[4]);
}

int live_map_errno(uint32_t type, uint32_t key, uint32_t value, uint32_t max,
		   uint32_t flags, uint64_t extra, uint32_t inner_type)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = flags,
		    .map_extra = extra);
	int inner = -1, fd, err;

	if (inner_type) {
		inner = bpf_map_create(inner_type, "probe_in", 4, 4, 1, NULL);
		if (inner < 0)
			return -errno;
		opts.inner_map_fd = (uint32_t)inner;
	}
	fd = bpf_map_create(type, "probe", key, value, max, &opts);
	err = fd < 0 ? -errno : 0;
	if (fd >= 0)
		close(fd);
	if (inner >= 0)
		close(inner);
	return err;
}

int live_prog_flags_errno(uint32_t flags)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .prog_flags = flags);
	int fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "probe", "GPL",
			       insns, 2, &opts);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/* The last non-empty line of a log before its statistics. */
static void last_line(const char *log, char *buf, size_t sz)
{
	const char *p = log, *best = "";
	size_t best_len = 0;

	while (*p) {
		size_t len = strcspn(p, "\n");

		if (len && strncmp(p, "processed ", 10) &&
		    strncmp(p, "verification time", 17) &&
		    strncmp(p, "stack depth", 11)) {
			best = p;
			best_len = len;
		}
		p += len + (p[len] == '\n');
	}
	snprintf(buf, sz, "%.*s", (int)best_len, best);
}

bool live_prog_says(const void *insns, size_t cnt, uint32_t log_level,
		    const char *want, char *said, size_t sz)
{
	char *log = malloc(PROBE_LOG_SIZE);
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = log,
		    .log_size = PROBE_LOG_SIZE, .log_level = log_level);
	bool found;
	int fd;

	if (!log) {
		snprintf(said, sz, "(out of memory)");
		return false;
	}
	log[0] = '\0';
	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "probe", "GPL", insns,
			   cnt, &opts);
	if (fd >= 0)
		close(fd);
	found = strstr(log, want) != NULL;
	last_line(log, said, sz);
	if (!said[0])
		snprintf(said, sz, "(no log: %s)", fd < 0 ? strerror(errno) : "accepted");
	free(log);
	return found;
}

static struct btf *kernel_btf;
static bool kernel_btf_tried;

bool live_btf_has(const char *name, const char *kind)
{
	int k = !strcmp(kind, "func") ? BTF_KIND_FUNC :
		!strcmp(kind, "struct") ? BTF_KIND_STRUCT : BTF_KIND_TYPEDEF;

	if (!kernel_btf_tried) {
		kernel_btf = btf__load_vmlinux_btf();
		kernel_btf_tried = true;
	}
	return kernel_btf && btf__find_by_name_kind(kernel_btf, name, k) > 0;
}

bool live_kallsyms_has(const char *name)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[512], sym[256];
	unsigned long long addr;
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%llx %*s %255s", &addr, sym) == 2 && addr &&
			!strcmp(sym, name);
	fclose(f);
	return found;
}

void live_free(void)
{
	btf__free(kernel_btf);
	kernel_btf = NULL;
	kernel_btf_tried = false;
}
