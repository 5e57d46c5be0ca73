/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What changed in the verifier between the kernels bpfvet targets, in one
 * table (kver.c): each behaviour with the first version that has it. The
 * verifier asks kver_has() instead of comparing versions where it stands.
 * Version 0 (unknown) is the newest target, Linux 6.18.
 */
#ifndef BPFVET_RULES_KVER_H
#define BPFVET_RULES_KVER_H

#include <stdbool.h>
#include <stdint.h>

/* Verifier rules: behaviours by which builds of one release differ, so
 * that no version tells them; the target says which it follows
 * (bpfvet_open_opts.verifier_rules, BPFVET_RULE_* in bpfvet.h). The
 * verifier asks env_rule(). docs/verifier-rules.md gives the evidence. */
enum krule {
	/* A call that runs a callback synchronously is an SCC of its own:
	 * pruned callback returns are back-edges (they count in
	 * peak_states), precision propagates over them at the SCC's exit,
	 * checkpoints inside compare as a loop's and are not cleaned
	 * (6.18.44 build v1272; the reference v1098 has none of it). */
	KRULE_CALLBACK_SCC = 1u << 0,
	/* Comparing with a checkpoint of a loop still being explored
	 * (RANGE_WITHIN) does not require equal stack slot types; only the
	 * exact comparison does (v1272; v1098 requires them in both). */
	KRULE_LOOP_SLOT_TYPES = 1u << 1,
};

enum kver_feature {
	/* Sign-extending loads and moves, signed division and modulo,
	 * unconditional byte swaps: the instructions of ISA v4. */
	KVER_ISA_V4,
	/* The may_goto instruction (BPF_JMP | BPF_JCOND). */
	KVER_MAY_GOTO,
	/* A pointer that may be NULL compared equal to one that is not
	 * is not NULL on that branch. */
	KVER_JEQ_INFER_NOT_NULL,
	KVER_MAP_PTR_NOT_NULL,
	/* Branches are decided and narrowed by the ranges of both operands;
	 * before, only against a constant, equality only between constants,
	 * and the "not equal" edge learnt nothing. */
	KVER_BRANCH_RANGES,
	/* "arg:ctx", "arg:nonnull", "arg:trusted"... decl tags on global
	 * functions' parameters; before, they are ignored. */
	KVER_ARG_TAGS,
	/* Global functions are verified after the main program, those that
	 * verified code calls; before, all of them, first. */
	KVER_LAZY_GLOBALS,
	/* Spilled scalars keep their links: a spill shares an id with its
	 * register, zeros and unbounded scalars spill too, a narrower fill
	 * keeps the value when it fits, and a branch narrows the spilled
	 * copies of a register as well as the registers. */
	KVER_SPILL_TRACKING,
	/* Static subprograms may be called while holding a bpf_spin_lock
	 * (and return holding it). */
	KVER_LOCKED_SUBPROG_CALLS,
	/* Global functions that cannot sleep may be called with preemption
	 * disabled. */
	KVER_GLOBAL_CALL_PREEMPT,
	/* bpf_rdonly_cast() to type id 0 gives untrusted read-only memory. */
	KVER_RDONLY_CAST_VOID,
	/* bpf_map_lookup_elem() of a constant key inside an array returns a
	 * pointer that is not NULL. */
	KVER_CONST_KEY_NONNULL,
	/* Callbacks (bpf_loop, bpf_for_each_map_elem) are walked as if
	 * called any number of times, until their states converge; before,
	 * once, inline, returning after the helper call. */
	KVER_CALLBACK_ITERATION,
	/* Any edge of the CFG may close a bounded loop; before, a plain
	 * instruction's or a call's fall-through into the loop was a
	 * back-edge. The records place it after 6.1. */
	KVER_ANY_BACK_EDGE,
	/* A tail call, or a call of a global function that may change the
	 * packet, invalidates packet pointers (6.13, in Debian's 6.12 as a
	 * stable fix). */
	KVER_CALLS_CHANGE_PKT,
	/* A loop is infinite when a state repeats exactly, and the log then
	 * prints both states; before, by the comparison that prunes. */
	KVER_EXACT_LOOP_CHECK,
	/* A 32-bit move of a scalar that fits shares its id. */
	KVER_MOV32_IDS,
	/* A helper's size argument that may be 0 where 0 is not allowed is
	 * "R%d invalid zero-sized read: u64=[..]"; before, the memory was
	 * checked for an access of 0 bytes. The records place it after 6.1. */
	KVER_ZERO_SIZE_MSG,
	/* Pruning compares the ids of registers in every case; before, a
	 * register identical to the old one matched without its ids entering
	 * the map, a map value's id was not compared, and an old packet
	 * pointer without id matched any. */
	KVER_REGSAFE_IDS,
	/* A scalar plus or minus a constant stays linked to its base
	 * (r1 = r0; r1 += 4), for branches to narrow both. */
	KVER_LINKED_ADD_CONST,
	/* BPF_NEG keeps the bounds of its result (r0 = -r0 of 0 is 0); before,
	 * an unknown scalar. The records place it after 6.12. */
	KVER_NEG_TRACKING,
	/* BPF_END keeps the bounds of its result (le16/le32 truncate, le64
	 * changes nothing, be and bswap swap the tnum's bytes), and le64 keeps
	 * the register's id; before, an unknown scalar without id (the 6.12
	 * record: be16 of a u16 gives scalar()). The records place it after
	 * 6.12. */
	KVER_END_TRACKING,
	/* A sign-extending load that may change the value (its sign bit may
	 * be set) leaves the links of the spill it fills from; before, the
	 * filled register kept the spill's id (the 6.12 source), and a branch
	 * on it narrowed the spill by the extended value. Live 6.18.44:
	 * s8 of [0,127] keeps id=1, s8 of [0,255] has none. */
	KVER_LDSX_UNLINK,
	/* Pointer trust (helper and ctx typing). */
	/* Pointers carry trust: tracing, LSM and iterator ctx arguments
	 * are trusted_ptr_, walks follow the RCU and __safe_* rules (6.2).
	 * Before, ctx arguments and walked pointers were plain ptr_ and
	 * only an untrusted source made an untrusted one. */
	KVER_PTR_TRUSTED,
	/* A pointer walked from a plain ptr_, or from a field of a trusted
	 * one that no rule lists, is untrusted_ptr_ (seen on 6.18; 6.12
	 * still gave the plain ptr_ that helpers take). */
	KVER_WALK_UNTRUSTED,
	/* A walk through a union of several members is untrusted and may
	 * read past the end of the member it lands in (6.3); before, the
	 * member's end bounded the read. */
	KVER_UNION_WALK_UNTRUSTED,
	/* Only GPL-compatible programs read kernel structs through BTF
	 * pointers (6.2); before, any program. */
	KVER_BTF_ACCESS_GPL_ONLY,
	/* Map key and value arguments of helpers take any readable memory
	 * (mem, ringbuf records, iterator buffers) (6.2); before, only the
	 * stack, packet and map memory. */
	KVER_MAP_ARG_ANY_MEM,
	/* Attach checks. */
	/* The kernel's own fmod_ret set: bpf_modify_return_test* may be
	 * fmod_ret targets and bpf_fentry_test1 a sleepable one without
	 * error injection (6.2); before, only the error injection list. */
	KVER_FMODRET_TEST_SET,
	/* update_socket_protocol is in an fmod_ret set (6.6), for MPTCP. */
	KVER_FMODRET_SOCKET_PROTOCOL,
	/* Helper availability. */
	/* raw_tp and tp_btf programs may call bpf_get_attach_cookie (6.10). */
	KVER_RAW_TP_COOKIE,
	/* bpf_get_ns_current_pid_tgid is a base helper, offered to every
	 * program type (6.10); before, to tracing programs only. */
	KVER_BASE_NS_PID_TGID,
	/* Return values. */
	/* LSM programs return what their hook may: an errno or 0, or a
	 * bool (6.12); before, any scalar. */
	KVER_LSM_RETVAL_RANGE,
	/* Context fields. */
	/* struct bpf_sock_ops ends with skb_hwtstamp (6.2). */
	KVER_SOCK_OPS_HWTSTAMP,
	/* Program structure. */
	/* BPF exceptions (6.7): the "exception_callback:" tag names a
	 * callback no code may call; before, the tag meant nothing. */
	KVER_EXCEPTIONS,
	/* A struct_ops program that implements no struct (attach_btf_id 0)
	 * is refused without a message (6.9), which the recorded kernels
	 * count as refused before the verifier; before, the verifier said
	 * "attach_btf_id 0 is not a supported struct". */
	KVER_STRUCT_OPS_UNSET_QUIET,
	/* bpf_for_each_map_elem may see different maps at one call (6.9);
	 * before, the second map "abused" the call's recorded map. */
	KVER_FOR_EACH_MULTI_MAPS,
	/* A tcp_congestion_ops program may write tcp_sock's snd_cwnd_stamp
	 * and app_limited (6.10, with cong_control's new arguments); before,
	 * "no write support to tcp_sock at off N". 6.1's record shows it
	 * for app_limited. */
	KVER_TCP_CA_WRITE_CWND_STAMP,
	/* struct_ops programs may be sleepable (6.3); before, "Only
	 * fentry/fexit/fmod_ret, lsm, and kprobe/uprobe programs can be
	 * sleepable". */
	KVER_STRUCT_OPS_SLEEPABLE,
	/* LD_IMM64 may load a kernel function's address (a BTF FUNC, as
	 * libbpf emits for a typeless function ksym) (6.4); before, only a
	 * BTF VAR. */
	KVER_LDIMM64_FUNC,
	/* Arena (BPF_MAP_TYPE_ARENA): the addr_space_cast form of
	 * BPF_MOV (off 1), PTR_TO_ARENA registers (6.9); before, off 1 is
	 * a reserved field. */
	KVER_ARENA,
	/* Sign-extending loads through an arena pointer (BPF_PROBE_MEM32SX,
	 * x86-64 JIT) (6.18); before, the rewrite after the walk refuses
	 * them. */
	KVER_ARENA_LDSX,
	/* Stack. */
	/* A helper that only reads stack memory leaves it as it was (seen
	 * on 6.18); 6.12 and before treated every helper access as a write:
	 * spilled registers and zeros read by it became misc bytes. */
	KVER_HELPER_READ_KEEPS_STACK,
	/* The combined stack of a call chain counts each frame rounded up
	 * to 16 bytes, as the JIT lays it out (6.8); before, each frame
	 * counted at least 1 byte rounded up to 32. */
	KVER_STACK_ROUND_16,
	/* Tracing subprograms with 64 bytes of stack or more get a private
	 * stack, outside the 512-byte chain (6.13). */
	KVER_PRIV_STACK,
	/* Map value fields. */
	/* Kptr tags as named since 6.3: __kptr is referenced,
	 * __kptr_untrusted not (also __percpu_kptr, 6.6). Before, "kptr" was
	 * the unreferenced one and "kptr_ref" the referenced; any other tag
	 * spoils the value's fields. */
	KVER_KPTR_TAG_NAMES,

	/* Messages: how a behaviour the recorded kernels share is worded
	 * (tests/conformance/kernel-6.1.csv, kernel-6.12.csv). */
	/* Leaving the program names the resource left held after one
	 * check of them all, "BPF_EXIT instruction in main prog would lead
	 * to reference leak"; before, each exit point had its own words:
	 * "bpf_spin_unlock is missing", the "Unreleased reference" lines
	 * alone, "BPF_LD_[ABS|IND] cannot be mixed with socket references". */
	KVER_MSG_RESOURCE_LEAK,
	/* A return value out of its range is told by bounds, "has smin=0
	 * smax=3 should have been in [0, 1]"; before, by tnums, "has value
	 * (0x0; 0x3) should have been in (0x0; 0x1)", and the async
	 * callback's exit was "At async callback". */
	KVER_MSG_RETVAL_BOUNDS,
	/* A helper the program type does not offer: "program of this type
	 * cannot use helper NAME#ID"; before, "unknown func NAME#ID". */
	KVER_MSG_HELPER_NOT_OFFERED,
	/* A helper's access to the stack out of bounds is a "read from" or
	 * "write to" it; before, an "indirect access to" it, and a read of
	 * what was never written an "invalid indirect read from stack". */
	KVER_MSG_HELPER_ACCESS_KIND,
	/* "invalid variable-offset ... stack R2 var_off=(...) off=0 size=8";
	 * before, without "off=". */
	KVER_MSG_VAR_OFF_STACK_OFF,
	/* A misaligned access prints a constant offset as a number, "off
	 * 0+0+-4"; before, as a tnum, "off (0x0; 0x0)+0+-4". */
	KVER_MSG_CONST_TNUM_NUMBER,
	/* "Caller passes invalid args into func#1 ('foo')"; before, the
	 * subprogram had no name in it. */
	KVER_MSG_SUBPROG_NAMED,
	/* The types a helper's argument is listed to take ("R1 type=scalar
	 * expected=..."): trusted and RCU pointers, any memory for map keys
	 * and values; before, 6.1's shorter lists. Words only: what is
	 * accepted is not versioned here. */
	KVER_MSG_ARG_TYPE_LISTS,
	/* BPF_ST may store an immediate into the context; before, "BPF_ST
	 * stores into R1 ctx is not allowed". */
	KVER_ST_INTO_CTX,
	/* Ring buffer memory is "ringbuf_mem"; before, "alloc_mem". */
	KVER_MSG_RINGBUF_NAME,
	/* A released pointer with an offset: "R1 must have zero offset when
	 * passed to release func or trusted arg to kfunc"; before, the
	 * generic "dereference of modified alloc_mem ptr R1 off=8
	 * disallowed". */
	KVER_MSG_RELEASE_OFF,
	KVER_MSG_MAP_PTR_STRUCT,
	/* Register and stack states in the log are compact: "ctx()", no
	 * default off=0/imm=0, numbers past +-32K in hex, equal bounds
	 * merged ("smin=smin32=0"), smax32= for s32_max=, spilled registers
	 * in full, frame numbers on other frames' stack pointers. Before,
	 * "ctx(off=0,imm=0)", all decimal, each bound by itself, and a
	 * spilled register only by its type name. */
	KVER_LOG_STATE_FORMAT,
	/* The dynptr a bpf_user_ringbuf_drain callback receives is checked
	 * as a constant one: releasing it is "cannot release unowned const
	 * bpf_dynptr", initialising it again "Dynptr has to be an
	 * uninitialized dynptr"; before, "arg 1 is an unacquired reference",
	 * and a helper could initialise it again. */
	KVER_CONST_DYNPTR_ARGS,
	/* Every dynptr has an id, which its slices keep: the one a
	 * bpf_user_ringbuf_drain callback receives shows as
	 * "dynptr_ptr(id=1,type=local)"; before, it had none. */
	KVER_DYNPTR_IDS,
	/* A global function's struct bpf_dynptr parameter takes an
	 * initialised dynptr, which the function sees as a constant local
	 * one; before, it was memory of 16 bytes. */
	KVER_GLOBAL_DYNPTR_ARGS,
	/* The dynptr slice kfuncs: the constant size of the buffer is
	 * marked precise once more, after the two checks of the buffer,
	 * and a global function's dynptr parameter is of the skb kind
	 * ("dynptr_ptr(id=2,type=skb)"); before, of the local kind. */
	KVER_DYNPTR_SLICE_618,
	/* bpf_rbtree_remove takes an owning reference to a node as well as
	 * a non-owning one ("%s can only take non-owning or refcounted
	 * bpf_rb_node pointer", and "%s not allowed in rbtree cb" with the
	 * kfunc's name); before, only a non-owning one ("rbtree_remove node
	 * input must be non-owning ref"). */
	KVER_GRAPH_OWNING_REMOVE,
	/* An internal inconsistency the verifier reports is a "verifier
	 * bug: ..."; before, a "verifier internal error: ...". */
	KVER_MSG_VERIFIER_BUG,
	/* A BTF pointer member to something other than a struct loads as
	 * read-only untrusted memory ("rdonly_untrusted_mem"); before, as a
	 * scalar. */
	KVER_WALK_PTR_UNTRUSTED_MEM,
	/* A call of bpf_obj_new, bpf_obj_drop or bpf_refcount_acquire (and
	 * their per-CPU twins) serves one type: the kernel patches the
	 * call's hidden argument once, so a second visit with another size
	 * or other special fields is refused ("same call cannot be used
	 * with different types"); before, the last visit won. */
	KVER_ALLOC_CALL_ONE_TYPE,
	/* Workqueues as Linux 6.18.44 checks them: the bpf_wq argument is
	 * checked as a timer's (a constant offset, a map with BTF and a
	 * bpf_wq field, each with its message); the map argument of
	 * bpf_wq_init must be the workqueue's, whatever it holds; and a
	 * program that cannot sleep may not set a workqueue callback, which
	 * sleeps ("sleepable callback in a program that is not sleepable";
	 * so for the task works, which only 6.18 has).
	 * Before, only the offset was compared, and only with maps holding
	 * a workqueue. */
	KVER_WQ_618,
	/* An object left untrusted by bpf_rcu_read_unlock (a local kptr
	 * loaded in the section) may still be read; before, the read was
	 * the kernel's "ref_obj_id for allocated object must be non-zero"
	 * error. */
	KVER_UNTRUSTED_OBJ_READ,
	/* A speculative path that meets an error it could be cured of by a
	 * barrier (-EACCES, -EINVAL, -EPERM) ends there, the instruction
	 * marked nospec; before, the error refused the program (6.17). */
	KVER_NOSPEC_FALLBACK,
	/* scalar += pointer: the sanitation sees the scalar as it was;
	 * before, dst already held the pointer copy, so the pointer was
	 * taken for the offset and the messages named the other register. */
	KVER_SANITIZE_OFF_COPY,
	/* A packet pointer at or beyond the end (range -1 or -2) moved by a
	 * constant has range 0 (probed on 6.18; 6.12 kept the range). */
	KVER_PKT_END_MOVE_RANGE,
	KVER__COUNT,
};

/* KERNEL_VERSION(a, b, c), as the tables of rules/ write versions. */
#define KV(a, b, c) (((uint32_t)(a) << 16) | ((uint32_t)(b) << 8) | (uint32_t)(c))

/* kver: KERNEL_VERSION(a, b, c) of the target, 0 when unknown. */
bool kver_has(uint32_t kver, enum kver_feature f);
/* "ISA v4 (6.6)", for messages and docs. */
const char *kver_feature_name(enum kver_feature f);

#endif
