/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Internal helpers shared by the scalar_*.c files (not for the verifier
 * core: use scalar.h).
 */
#ifndef BPFVET_SCALAR_IMPL_H
#define BPFVET_SCALAR_IMPL_H

#include <stdint.h>

#include "scalar.h"

static inline uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }
static inline uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }
static inline int64_t min_s64(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t max_s64(int64_t a, int64_t b) { return a > b ? a : b; }
static inline uint32_t min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }
static inline uint32_t max_u32(uint32_t a, uint32_t b) { return a > b ? a : b; }
static inline int32_t min_s32(int32_t a, int32_t b) { return a < b ? a : b; }
static inline int32_t max_s32(int32_t a, int32_t b) { return a > b ? a : b; }

/* Reset one half of the ranges to "anything" (var_off untouched). */
void bounds_unbound64(struct bounds *b);
void bounds_unbound32(struct bounds *b);
/* Ranges tightened from var_off (the kernel's __update_reg_bounds), and
 * only the 32-bit ones (__update_reg32_bounds). */
void bounds_tighten32_from_tnum(struct bounds *b);
void bounds_tighten_from_tnum(struct bounds *b);
/* 64-bit ranges rebuilt from the 32-bit ones (__reg_assign_32_into_64). */
void bounds_assign32_into64(struct bounds *b);
/* bounds_sync() without its shortcut for constant and unknown values. */
void bounds_sync_steps(struct bounds *b);
/* Zero extension without the following sync (zext_32_to_64). */
void bounds_zext32_raw(struct bounds *b);

#endif
