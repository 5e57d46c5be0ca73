/* SPDX-License-Identifier: BSD-2-Clause */
/* bpfvet command-line entry point: dispatches to subcommands. */
#include <link.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "bpfvet.h"
#include "cli.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: bpfvet [verify] OBJ.o... [options]   verify programs\n"
		"       bpfvet dump OBJ.o... [-p GLOB] [-t TYPE] maps, programs, disassembly\n"
		"       bpfvet ablate OBJ.o... [-p GLOB]       what each pruning technique is worth\n"
		"       bpfvet kernel OBJ.o... [options]     compare with the running kernel\n"
		"       bpfvet explain OBJ.o... [-p GLOB]    why a program is rejected (or slow)\n"
		"       bpfvet report OBJ.o... -o FILE.html  an HTML page: heatmap, failing path\n"
		"       bpfvet selfcheck OBJ.o... [-n RUNS]  the verifier's states against concrete runs\n"
		"       bpfvet help | --help | --version\n"
		"Run 'bpfvet COMMAND --help' for the options of a command.\n");
}

/* libbpf's BTF parser prints its own warnings; every subcommand reports
 * what went wrong in its own words. */
static int quiet_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/*
 * The verifier allocates and frees path states all the time. With glibc's
 * defaults, the loader's large buffers (vmlinux BTF: two of 5.4 MB) are
 * mmapped and unmapped, and the heap top is trimmed whenever 128 KiB
 * come free, so the walk keeps touching fresh pages: on the 2-core VMs a
 * page fault costs about 10 us, and test_sysctl_loop1's verification took
 * 2.4-7 ms, 200 of its faults, where it takes 0.55 ms on warm memory.
 * The CLI keeps what it frees for reuse; the library leaves its host's
 * allocator alone.
 */
static void keep_freed_memory(void)
{
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
}

/*
 * The verifier's code is faulted in on first use, page by page, and on
 * the VMs a fault costs about 10 us: a cold process spent most of a small
 * program's verification mapping code pages (twfw, 25 instructions: 130
 * us cold, 6 us warm), where the kernel's verifier is resident. The CLI
 * maps the code of itself and its libraries (libbpf, libelf, libc) at
 * start-up, before anything is timed. Failure (a kernel before 5.14,
 * without MADV_POPULATE_READ) only costs that time.
 *
 * Mapped is not enough under a hypervisor that shadows the guest's page
 * tables (the VMs here): the first access of a process to each page, even
 * a mapped one, traps to the hypervisor for about 5 us, which no fault
 * counter shows. A 2-instruction program then took 60-90 us where it
 * takes 6 us warm, and the kernel 57. So the CLI also reads one byte of
 * every page of its own image (its code, constant tables and data,
 * about 180 pages: under a millisecond, once per process). The bytes
 * read include the redzones AddressSanitizer puts between globals, which
 * it must not check here.
 */
__attribute__((no_sanitize("address")))
static void touch_pages(uintptr_t start, uintptr_t end, long page)
{
	volatile const char *p = (const char *)start;
	char sum = 0;

	for (uintptr_t a = start; a < end; a += (uintptr_t)page)
		sum += p[a - start];
	(void)sum;
}

static int map_code_of(struct dl_phdr_info *info, size_t size, void *data)
{
	long page = *(long *)data;
	/* The first object is the executable, which holds the library. */
	bool own = !info->dlpi_name[0];

	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start, end;

		if (ph->p_type != PT_LOAD || (!own && !(ph->p_flags & PF_X)))
			continue;
		start = (info->dlpi_addr + ph->p_vaddr) & ~(uintptr_t)(page - 1);
		end = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
		madvise((void *)start, end - start, MADV_POPULATE_READ);
		if (own)
			touch_pages(start, end, page);
	}
	return 0;
}

static void map_code(void)
{
	long page = sysconf(_SC_PAGESIZE);

	if (page > 0)
		dl_iterate_phdr(map_code_of, &page);
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;

	keep_freed_memory();
	map_code();

	if (!cmd) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(cmd, "--version")) {
		printf("bpfvet %d.%d\n", BPFVET_VERSION_MAJOR, BPFVET_VERSION_MINOR);
		return 0;
	}
	libbpf_set_print(quiet_libbpf);
	if (!strcmp(cmd, "dump"))
		return cmd_dump(argc - 1, argv + 1);
	if (!strcmp(cmd, "ablate"))
		return cmd_ablate(argc - 1, argv + 1);
	if (!strcmp(cmd, "verify"))
		return cmd_verify(argc - 1, argv + 1);
	if (!strcmp(cmd, "explain"))
		return cmd_explain(argc - 1, argv + 1);
	if (!strcmp(cmd, "report"))
		return cmd_report(argc - 1, argv + 1);
	if (!strcmp(cmd, "selfcheck"))
		return cmd_selfcheck(argc - 1, argv + 1);
	if (!strcmp(cmd, "kernel"))
		return cmd_kernel(argc - 1, argv + 1);
	/* `bpfvet OBJ.o...` is shorthand for `bpfvet verify OBJ.o...`. */
	return cmd_verify(argc, argv);
}
