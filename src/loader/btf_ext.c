/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * .BTF.ext: per-section func_info, line_info and CO-RE relocation records,
 * keyed by byte offset inside the ELF section. We parse the documented
 * layout ourselves (header, then for each kind a record size followed by
 * {section name, count, records} groups) and re-index the records of each
 * function to its place in every program that contains it.
 *
 * As in libbpf, a malformed .BTF.ext is dropped rather than fatal: the
 * programs are still usable without debug info.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "steps.h"

#define BTF_EXT_MAGIC 0xeB9F
#define HDR_MIN_LEN 24		/* through line_info_len */
#define HDR_CORE_LEN 32		/* through core_relo_len */
#define FUNC_REC_MIN 8
#define LINE_REC_MIN 16
#define CORE_REC_MIN 16

static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void info_free(struct ext_info *info)
{
	free(info->secs);
	memset(info, 0, sizeof(*info));
}

static int add_info_sec(struct loader *ld, struct ext_info *info,
			uint32_t name_off, const uint8_t *recs, uint32_t cnt)
{
	struct ext_info_sec *secs;
	const char *name = btf__name_by_offset(ld->obj->btf, name_off);

	secs = realloc(info->secs, (info->sec_cnt + 1) * sizeof(*secs));
	if (!secs)
		return -ENOMEM;
	info->secs = secs;
	secs[info->sec_cnt].elf_sec =
		name && name[0] ? elf_file_sec_by_name(&ld->elf, name) : 0;
	secs[info->sec_cnt].recs = recs;
	secs[info->sec_cnt].cnt = cnt;
	info->sec_cnt++;
	return 0;
}

/* One kind of records: [rec_size][{name_off, cnt, recs[cnt]}...]. */
static int parse_info(struct loader *ld, struct ext_info *info,
		      const uint8_t *data, size_t size, uint32_t hdr_len,
		      uint32_t off, uint32_t len, uint32_t min_rec)
{
	const uint8_t *p;
	uint64_t left;

	if (len == 0)
		return 0;
	if (off % 4 || (uint64_t)hdr_len + off + len > size || len < 4)
		return -EINVAL;
	p = data + hdr_len + off;
	info->rec_size = rd32(p);
	if (info->rec_size < min_rec || info->rec_size % 4)
		return -EINVAL;
	p += 4;
	left = len - 4;
	if (!left)
		return -EINVAL;
	while (left) {
		uint32_t name_off, cnt;
		uint64_t total;

		if (left < 8)
			return -EINVAL;
		name_off = rd32(p);
		cnt = rd32(p + 4);
		total = 8 + (uint64_t)cnt * info->rec_size;
		if (cnt == 0 || total > left)
			return -EINVAL;
		if (add_info_sec(ld, info, name_off, p + 8, cnt))
			return -ENOMEM;
		p += total;
		left -= total;
	}
	return 0;
}

static int parse_all(struct loader *ld, const uint8_t *d, size_t size)
{
	uint32_t hdr_len;
	uint16_t magic;
	int err;

	if (size < 8)
		return -EINVAL;
	memcpy(&magic, d, sizeof(magic));
	hdr_len = rd32(d + 4);
	if (magic != BTF_EXT_MAGIC || d[2] != 1 || d[3] != 0)
		return -EINVAL;
	if (hdr_len < HDR_MIN_LEN || hdr_len >= size)
		return -EINVAL;
	err = parse_info(ld, &ld->ext.func, d, size, hdr_len, rd32(d + 8),
			 rd32(d + 12), FUNC_REC_MIN);
	if (!err)
		err = parse_info(ld, &ld->ext.line, d, size, hdr_len, rd32(d + 16),
				 rd32(d + 20), LINE_REC_MIN);
	if (!err && hdr_len >= HDR_CORE_LEN)
		err = parse_info(ld, &ld->ext.core, d, size, hdr_len, rd32(d + 24),
				 rd32(d + 28), CORE_REC_MIN);
	return err;
}

void btf_ext_parse(struct loader *ld)
{
	const struct elf_sec *sec = elf_file_sec(&ld->elf, ld->btf_ext_shndx);

	if (!sec || !sec->data || !ld->obj->btf)
		return;
	if (parse_all(ld, sec->data, sec->size)) {
		btf_ext_free(ld);
		return;
	}
	ld->ext.present = true;
}

void btf_ext_free(struct loader *ld)
{
	info_free(&ld->ext.func);
	info_free(&ld->ext.line);
	info_free(&ld->ext.core);
	ld->ext.present = false;
}

/* The group of records for the function's section (libbpf uses the first
 * group naming that section). */
static const struct ext_info_sec *group_of(const struct ext_info *info,
					   const struct func *fn)
{
	size_t i;

	for (i = 0; i < info->sec_cnt; i++)
		if (info->secs[i].elf_sec == fn->sec_idx)
			return &info->secs[i];
	return NULL;
}

/* Record r's instruction index if it falls inside fn, else -1. */
static long rec_insn(const struct ext_info *info, const struct ext_info_sec *g,
		     uint32_t r, const struct func *fn)
{
	uint32_t off = rd32(g->recs + (size_t)r * info->rec_size) / INSN_SZ;

	if (off < fn->sec_insn_off || off >= fn->sec_insn_off + fn->insn_cnt)
		return -1;
	return (long)(off - fn->sec_insn_off + fn->sub_insn_off);
}

static size_t count_in(const struct ext_info *info, const struct ext_info_sec *g,
		       const struct func *fn)
{
	size_t n = 0;
	uint32_t r;

	for (r = 0; g && r < g->cnt; r++)
		n += rec_insn(info, g, r, fn) >= 0;
	return n;
}

static int grow(void **arr, size_t cnt, size_t add, size_t elem)
{
	void *p = realloc(*arr, (cnt + add) * elem);

	if (!p)
		return -ENOMEM;
	*arr = p;
	return 0;
}

/* Writes one record's fields, the instruction index already made
 * relative to the program, into its slot of the program's array. */
typedef void (*fill_fn)(void *slot, uint32_t insn, const uint8_t *rec);

static void fill_func_info(void *slot, uint32_t insn, const uint8_t *rec)
{
	struct bpfvet_func_info *fi = slot;

	fi->insn_off = insn;
	fi->type_id = rd32(rec + 4);
}

static void fill_line_info(void *slot, uint32_t insn, const uint8_t *rec)
{
	struct bpfvet_line_info *li = slot;

	li->insn_off = insn;
	li->file_name_off = rd32(rec + 4);
	li->line_off = rd32(rec + 8);
	li->line_col = rd32(rec + 12);
}

static void fill_core_relo(void *slot, uint32_t insn, const uint8_t *rec)
{
	struct bpfvet_core_relo *cr = slot;

	cr->insn_off = insn;
	cr->type_id = rd32(rec + 4);
	cr->access_str_off = rd32(rec + 8);
	cr->kind = rd32(rec + 12);
}

/* Appends the records of group g that fall inside fn to the array *arr
 * of *cnt elements of elem bytes. Returns how many (0 when none, g NULL
 * included) or -ENOMEM. */
static long append_group(const struct ext_info *info, const struct ext_info_sec *g,
			 const struct func *fn, void **arr, size_t *cnt, size_t elem,
			 fill_fn fill)
{
	size_t n = count_in(info, g, fn);
	uint32_t r;

	if (!n)
		return 0;
	if (grow(arr, *cnt, n, elem))
		return -ENOMEM;
	for (r = 0; r < g->cnt; r++) {
		const uint8_t *rec = g->recs + (size_t)r * info->rec_size;
		long insn = rec_insn(info, g, r, fn);

		if (insn < 0)
			continue;
		fill((uint8_t *)*arr + *cnt * elem, (uint32_t)insn, rec);
		++*cnt;
	}
	return (long)n;
}

/* Returns -ENOENT when the function has no records of this kind. */
static int append_func_info(const struct ext_info *info, struct bpfvet_program *prog,
			    const struct func *fn)
{
	long n = append_group(info, group_of(info, fn), fn, (void **)&prog->func_info,
			      &prog->func_info_cnt, sizeof(*prog->func_info),
			      fill_func_info);

	return n < 0 ? (int)n : n ? 0 : -ENOENT;
}

static int append_line_info(const struct ext_info *info, struct bpfvet_program *prog,
			    const struct func *fn)
{
	long n = append_group(info, group_of(info, fn), fn, (void **)&prog->line_info,
			      &prog->line_info_cnt, sizeof(*prog->line_info),
			      fill_line_info);

	return n < 0 ? (int)n : n ? 0 : -ENOENT;
}

static int append_core(const struct ext_info *info, struct bpfvet_program *prog,
		       const struct func *fn)
{
	size_t i;

	/* CO-RE records of one section may come in several groups. */
	for (i = 0; i < info->sec_cnt; i++) {
		const struct ext_info_sec *g = &info->secs[i];

		if (g->elf_sec != fn->sec_idx)
			continue;
		if (append_group(info, g, fn, (void **)&prog->core_relos,
				 &prog->core_relo_cnt, sizeof(*prog->core_relos),
				 fill_core_relo) < 0)
			return -ENOMEM;
	}
	return 0;
}

/*
 * Follows libbpf: when the entry function has no records of a kind, the
 * program gets none of that kind; when the entry has some but an appended
 * subprogram has none, the program cannot be loaded.
 */
int btf_ext_append(struct loader *ld, struct bpfvet_program *prog,
		   const struct func *fn)
{
	bool is_entry = fn->sub_insn_off == 0;
	int err;

	if (!ld->ext.present)
		return 0;
	if (is_entry || prog->func_info_cnt) {
		err = append_func_info(&ld->ext.func, prog, fn);
		if (err == -ENOMEM)
			return errbuf_set(ld->eb, err, "out of memory");
		if (err && !is_entry)
			return errbuf_set(ld->eb, -ENOENT,
					  "program %s: no .BTF.ext func_info for subprogram %s",
					  prog->name, fn->name);
	}
	if (is_entry || prog->line_info_cnt) {
		err = append_line_info(&ld->ext.line, prog, fn);
		if (err == -ENOMEM)
			return errbuf_set(ld->eb, err, "out of memory");
		if (err && !is_entry)
			return errbuf_set(ld->eb, -ENOENT,
					  "program %s: no .BTF.ext line_info for subprogram %s",
					  prog->name, fn->name);
	}
	if (append_core(&ld->ext.core, prog, fn))
		return errbuf_set(ld->eb, -ENOMEM, "out of memory");
	return 0;
}
