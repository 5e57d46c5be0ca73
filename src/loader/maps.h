/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef BPFVET_MAPS_H
#define BPFVET_MAPS_H

#include <stdbool.h>
#include <stdint.h>

/* Kernel name of a map type ("hash", "array_of_maps", ...), or NULL. */
const char *map_type_name(uint32_t type);
/* Local storage maps, which must have max_entries 0: the kernel sizes
 * them. Other maps without a size are sized by their loader. */
bool map_sized_by_kernel(uint32_t type);

#endif
