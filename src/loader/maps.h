/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef BPFVET_MAPS_H
#define BPFVET_MAPS_H

#include <stdint.h>

/* Kernel name of a map type ("hash", "array_of_maps", ...), or NULL. */
const char *map_type_name(uint32_t type);

#endif
