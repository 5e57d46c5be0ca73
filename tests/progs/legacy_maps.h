/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The map definitions of the loaders before BTF-defined maps, in a
 * "maps" section, one after another: what the loaders read is their
 * layout, whatever each project named the struct.
 */
#ifndef BPFVET_TEST_LEGACY_MAPS_H
#define BPFVET_TEST_LEGACY_MAPS_H

/* 20 bytes: libbpf 0.x's struct bpf_map_def, which Suricata's and Open
 * vSwitch's objects use. */
struct legacy_map_def {
	unsigned int type;
	unsigned int key_size;
	unsigned int value_size;
	unsigned int max_entries;
	unsigned int map_flags;
};

/* 28 bytes: samples/bpf's bpf_load.h (inner_map_idx names another map
 * of the section for map-in-map), which Falco's probe copies. */
struct legacy_map_def_ext {
	unsigned int type;
	unsigned int key_size;
	unsigned int value_size;
	unsigned int max_entries;
	unsigned int map_flags;
	unsigned int inner_map_idx;
	unsigned int numa_node;
};

#endif
