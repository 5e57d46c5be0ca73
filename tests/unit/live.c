/* SPDX-License-Identifier: BSD-2-Clause */
/* The --live mode of the kernel tests: drift lines and preconditions. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "live.h"

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
