/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The expectations that the selftest macros of progs/bpf_misc.h attach to a
 * test program, read back from the object's BTF the way the kernel's
 * selftest loader (test_loader.c) reads them: BTF_KIND_DECL_TAG entries
 * whose target is the program's BTF_KIND_FUNC and whose component_idx is -1,
 * in type-id order.
 *
 * Also the message patterns of __msg / __not_msg and their matcher: the
 * patterns are searched in order through a verifier log, plain text as a
 * substring, `{{...}}` as POSIX extended regular expressions.
 */
#ifndef CONF_ANNOTATIONS_H
#define CONF_ANNOTATIONS_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct btf;

/* Test modes, as bits of conf_spec.mode_mask. */
#define CONF_PRIV	1
#define CONF_UNPRIV	2

/* Architectures of __arch_*, as bits of conf_spec.arch_mask. */
#define CONF_ARCH_X86_64	(1u << 0)
#define CONF_ARCH_ARM64		(1u << 1)
#define CONF_ARCH_RISCV64	(1u << 2)
#define CONF_ARCH_S390X		(1u << 3)
#define CONF_ARCH_OTHER		(1u << 31)	/* a name this reader does not know */

/* __load_if_JITed / __load_if_no_JITed (conf_spec.load_mode). */
#define CONF_LOAD_JITED		1
#define CONF_LOAD_NO_JITED	2

/* BPF_F_* load flags that __flag() names (values of the kernel's uapi). */
#define CONF_F_STRICT_ALIGNMENT		(1u << 0)
#define CONF_F_ANY_ALIGNMENT		(1u << 1)
#define CONF_F_TEST_RND_HI32		(1u << 2)
#define CONF_F_TEST_STATE_FREQ		(1u << 3)
#define CONF_F_SLEEPABLE		(1u << 4)
#define CONF_F_XDP_HAS_FRAGS		(1u << 5)
#define CONF_F_TEST_REG_INVARIANTS	(1u << 7)

/* The flags every test starts from (the runner's testing_prog_flags()). */
#define CONF_DEFAULT_FLAGS (CONF_F_TEST_RND_HI32 | CONF_F_TEST_REG_INVARIANTS)

/* Capability numbers used by __caps_unpriv. */
#define CONF_CAP_NET_ADMIN	12
#define CONF_CAP_SYS_ADMIN	21
#define CONF_CAP_PERFMON	38
#define CONF_CAP_BPF		39

struct conf_msg {
	char *text;		/* the pattern as written in the source */
	bool negative;		/* __not_msg: must not appear */
	bool is_regex;		/* contains {{...}}: `re` is compiled */
	regex_t re;
};

struct conf_msgs {
	struct conf_msg *v;
	size_t cnt;
};

/* What one mode (privileged or unprivileged) expects. */
struct conf_subspec {
	bool expect_failure;
	struct conf_msgs msgs;
	size_t xlated_cnt;	/* __xlated lines: kernel-only, counted */
	size_t jited_cnt;	/* __jited lines for this arch: counted */
	bool execute;		/* __retval given: BPF_PROG_TEST_RUN */
	int retval;
	bool retval_any;	/* POINTER_VALUE: any value is accepted */
};

struct conf_spec {
	char *prog_name;
	char *description;	/* __description, or NULL */
	struct conf_subspec priv;
	struct conf_subspec unpriv;
	int mode_mask;		/* CONF_PRIV | CONF_UNPRIV */
	bool auxiliary;		/* __auxiliary[_unpriv]: loaded, never run */
	uint32_t log_level;
	uint32_t prog_flags;	/* default flags with every __flag applied */
	uint32_t flags_named;	/* set by a __flag, default or not */
	uint32_t arch_mask;	/* 0: every architecture */
	uint64_t caps_unpriv;	/* bit n: capability n kept in unpriv mode */
	int load_mode;		/* 0, CONF_LOAD_JITED or CONF_LOAD_NO_JITED */
	char *btf_path;		/* __btf_path, or NULL */
	size_t unknown_tags;	/* comment: tags this reader ignored */
};

/*
 * Reads the annotations of program `prog_name` from `btf`. `default_flags`
 * are the load flags before __flag() (CONF_DEFAULT_FLAGS for the selftest
 * runner). `arch` is the CONF_ARCH_* bit of the target: it selects the
 * __jited lines that apply. Returns 0, or a negative errno with a reason in
 * `err`: -ENOENT when the program has no BTF FUNC, -EINVAL for an
 * annotation the selftest loader would refuse as well (bad number, unknown
 * flag value, bad regex, __jited before __arch), -ENOMEM.
 * On error the spec holds nothing that needs freeing.
 */
int conf_spec_parse(const struct btf *btf, const char *prog_name, uint32_t default_flags,
		    uint32_t arch, struct conf_spec *spec, char *err, size_t err_sz);
void conf_spec_free(struct conf_spec *spec);

/* Test name: the description, else the program name. */
const char *conf_spec_name(const struct conf_spec *spec);

/*
 * Adds one pattern. Text outside {{ }} is literal; inside it is a POSIX
 * extended regex; the whole is compiled with REG_NEWLINE. Returns 0,
 * -EINVAL (unbalanced braces or a bad regex, reason in err) or -ENOMEM.
 */
int conf_msgs_add(struct conf_msgs *msgs, const char *text, bool negative,
		  char *err, size_t err_sz);
int conf_msgs_copy(struct conf_msgs *to, const struct conf_msgs *from,
		   char *err, size_t err_sz);
void conf_msgs_free(struct conf_msgs *msgs);

/* Why conf_msgs_check() failed. */
enum conf_msg_status {
	CONF_MSG_OK = 0,
	CONF_MSG_MISSING,	/* a __msg was not found after the previous one */
	CONF_MSG_UNEXPECTED,	/* a __not_msg was found between its neighbours */
};

/*
 * Checks `log` against the patterns as the selftest loader does: positive
 * patterns are searched one after the other, each from the end of the
 * previous match; a negative pattern must not match inside the span between
 * the end of the positive match before it and the start of the one after
 * it. Returns CONF_MSG_OK, or the status of the first failing pattern in
 * source order with its index in *idx.
 */
enum conf_msg_status conf_msgs_check(const struct conf_msgs *msgs, const char *log,
				     size_t *idx);

#endif
