// SPDX-License-Identifier: BSD-2-Clause
/* Programs carrying selftest-style annotations (BTF decl tags) for the
 * conformance runner's annotation reader (tests/unit/test_conf_annotations.c).
 * The tag strings follow the encoding of the kernel's progs/bpf_misc.h:
 * "comment:KEY" or "comment:KEY=VALUE", and for repeatable keys
 * "comment:KEY=<counter>=VALUE" so that equal values stay distinct. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define TAG(s)		__attribute__((btf_decl_tag(s)))
#define STR_(x)		#x
#define STR(x)		STR_(x)
#define COUNTED(key, v)	TAG("comment:" key "=" STR(__COUNTER__) "=" v)

#define T_SUCCESS	TAG("comment:test_expect_success")
#define T_FAILURE	TAG("comment:test_expect_failure")
#define T_SUCCESS_UNPRIV TAG("comment:test_expect_success_unpriv")
#define T_FAILURE_UNPRIV TAG("comment:test_expect_failure_unpriv")
#define T_MSG(m)	COUNTED("test_expect_msg", m)
#define T_MSG_UNPRIV(m)	COUNTED("test_expect_msg_unpriv", m)
#define T_NOT_MSG(m)	COUNTED("test_expect_not_msg", m)
#define T_XLATED(m)	COUNTED("test_expect_xlated", m)
#define T_JITED(m)	COUNTED("test_jited", m)
#define T_DESC(d)	TAG("comment:test_description=" d)
#define T_LOG_LEVEL(n)	TAG("comment:test_log_level=" #n)
#define T_FLAG(f)	TAG("comment:test_prog_flags=" #f)
#define T_RETVAL(v)	TAG("comment:test_retval=" #v)
#define T_AUX		TAG("comment:test_auxiliary")
#define T_AUX_UNPRIV	TAG("comment:test_auxiliary_unpriv")
#define T_ARCH(a)	TAG("comment:test_arch=" a)
#define T_BTF_PATH(p)	TAG("comment:test_btf_path=" p)
#define T_CAPS_UNPRIV(c) TAG("comment:test_caps_unpriv=" c)
#define T_LOAD_MODE(m)	TAG("comment:load_mode=" m)

#define BODY { return 0; }

SEC("socket") int p_plain(void *ctx) BODY

SEC("socket")
T_DESC("failing test") T_FAILURE T_MSG("first") T_MSG("R{{[0-9]+}} pointer (x)")
T_MSG("first") T_LOG_LEVEL(2) T_FLAG(BPF_F_STRICT_ALIGNMENT) T_FLAG(!BPF_F_TEST_RND_HI32)
T_FLAG(0x40)
int p_failure(void *ctx) BODY

SEC("socket")
T_SUCCESS T_FAILURE_UNPRIV T_MSG("priv only") T_MSG_UNPRIV("unpriv only") T_RETVAL(POINTER_VALUE)
int p_both(void *ctx) BODY

SEC("socket")
T_FAILURE T_MSG("inherited") T_RETVAL(-7) T_CAPS_UNPRIV("12|21") T_XLATED("r0 = 0")
T_FLAG(BPF_F_TEST_STATE_FREQ) T_FLAG(!BPF_F_TEST_REG_INVARIANTS) T_FLAG(!4)
int p_inherit(void *ctx) BODY

SEC("socket") T_AUX int p_aux(void *ctx) BODY
SEC("socket") T_AUX_UNPRIV int p_aux_unpriv(void *ctx) BODY

SEC("socket")
T_ARCH("ARM64") T_JITED("arm only") T_ARCH("X86_64") T_JITED("x86 one") T_JITED("x86 two")
T_RETVAL(INT_MIN)
int p_arch(void *ctx) BODY

SEC("socket")
T_BTF_PATH("btf__example.bpf.o") T_LOAD_MODE("jited") T_NOT_MSG("never") T_MSG("after")
TAG("comment:test_something_newer=1") TAG("not a comment tag") T_RETVAL(TEST_DATA_LEN)
T_CAPS_UNPRIV("CAP_BPF | CAP_PERFMON")
int p_misc(void *ctx TAG("comment:test_expect_failure")) BODY

SEC("socket") T_FLAG(BPF_F_BOGUS) int p_bad_flag(void *ctx) BODY
SEC("socket") T_MSG("{{unclosed") int p_bad_regex(void *ctx) BODY
SEC("socket") T_JITED("no arch yet") T_ARCH("X86_64") int p_jited_first(void *ctx) BODY
SEC("socket") T_ARCH("SPARC") T_RETVAL(0x10) int p_other_arch(void *ctx) BODY
SEC("socket") T_LOG_LEVEL(two) int p_bad_level(void *ctx) BODY
