/* SPDX-License-Identifier: BSD-2-Clause */
/* Helper-specific rules that are not part of a prototype. */
#include "verifier.h"

const char *helper_name_or_unknown(uint32_t id)
{
	const char *n = helper_name(id);

	return n ? n : "unknown";
}

/*
 * Helpers that return the socket they were given under another type: the
 * result shares the argument's reference (released together). Checked on
 * Linux 6.18: skc_to_mptcp_sock is one, skc_to_unix_sock is not.
 */
bool helper_is_ptr_cast(int func_id)
{
	switch (func_id) {
	case 95:	/* sk_fullsock */
	case 96:	/* tcp_sock */
	case 136:	/* skc_to_tcp6_sock */
	case 137:	/* skc_to_tcp_sock */
	case 138:	/* skc_to_tcp_timewait_sock */
	case 139:	/* skc_to_tcp_request_sock */
	case 140:	/* skc_to_udp6_sock */
	case 196:	/* skc_to_mptcp_sock */
		return true;
	default:
		return false;
	}
}

bool helper_acquires(const struct helper_proto *fn, const struct bpfvet_map *map)
{
	if (fn->acquire)
		return true;
	return fn->id == HELPER_MAP_LOOKUP_ELEM && map &&
	       (map->type == BPF_MAP_TYPE_SOCKMAP || map->type == BPF_MAP_TYPE_SOCKHASH);
}

int check_helper_special_rules(struct vet_env *env, int func_id)
{
	(void)env;
	(void)func_id;
	return 0;
}
