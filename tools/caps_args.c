/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The capability switches every verifying command takes: --unpriv,
 * --test-caps and --privileged-maps. One parser, so that verify, kernel,
 * explain and report mean the same user by the same words.
 */
#include <string.h>

#include "cli.h"

const char caps_args_usage[] =
	"  --unpriv       without CAP_BPF, CAP_PERFMON, CAP_NET_ADMIN, CAP_SYS_ADMIN,\n"
	"                 as an unprivileged user loading the object with libbpf:\n"
	"                 no object BTF (the kernel refuses it), maps hardened\n"
	"                 against Spectre v1\n"
	"  --privileged-maps  with --unpriv: the object's BTF and maps were created\n"
	"                 by a privileged process; only the program load is\n"
	"                 unprivileged\n"
	"  --test-caps    drop only CAP_NET_ADMIN and CAP_SYS_ADMIN (the selftest runner)\n";

bool caps_args_parse(const char *s, struct caps_args *a)
{
	if (!strcmp(s, "--unpriv"))
		a->drop_caps = UNPRIV_DROP_CAPS;
	else if (!strcmp(s, "--test-caps"))
		a->drop_caps = BPFVET_CAP_NET_ADMIN | BPFVET_CAP_SYS_ADMIN;
	else if (!strcmp(s, "--privileged-maps"))
		a->privileged_maps = true;
	else
		return false;
	return true;
}

uint32_t caps_args_loader(const struct caps_args *a)
{
	return a->privileged_maps ? 0 : a->drop_caps;
}
