/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Loading problems that libbpf treats as fatal but that leave the rest of
 * an object inspectable: an extern that static linking should have
 * resolved, a relocation with no target, an invalid map attribute. A
 * strict open (libbpf's behaviour) fails on the first one; a lenient open
 * records each as a warning of the object and lets the caller attach it to
 * the program or map it spoils.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "steps.h"

static int add_warning(struct loader *ld, const char *fmt, va_list ap,
		       const char **textp)
{
	struct bpfvet_object *obj = ld->obj;
	char **arr, *text = NULL;

	if (vasprintf(&text, fmt, ap) < 0)
		return errbuf_set(ld->eb, -ENOMEM, "out of memory");
	arr = realloc(obj->warnings, (obj->warning_cnt + 1) * sizeof(*arr));
	if (!arr) {
		free(text);
		return errbuf_set(ld->eb, -ENOMEM, "out of memory");
	}
	obj->warnings = arr;
	arr[obj->warning_cnt++] = text;
	if (textp)
		*textp = text;
	return 0;
}

int ld_problem(struct loader *ld, const char **textp, int err, const char *fmt, ...)
{
	va_list ap;
	int ret;

	if (textp)
		*textp = NULL;
	va_start(ap, fmt);
	if (ld->lenient) {
		ret = add_warning(ld, fmt, ap, textp);
	} else {
		char msg[512];

		vsnprintf(msg, sizeof(msg), fmt, ap);
		ret = errbuf_set(ld->eb, err, "%s", msg);
	}
	va_end(ap);
	return ret;
}

int ld_refuse(struct loader *ld, struct bpfvet_program *prog, int err, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = add_warning(ld, fmt, ap, &prog->problem);
	va_end(ap);
	if (!ret)
		prog->problem_err = err;
	return ret;
}

int ld_warning(struct loader *ld, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = add_warning(ld, fmt, ap, NULL);
	va_end(ap);
	return ret;
}

void problems_free(struct bpfvet_object *obj)
{
	size_t i;

	for (i = 0; i < obj->warning_cnt; i++)
		free(obj->warnings[i]);
	free(obj->warnings);
	obj->warnings = NULL;
	obj->warning_cnt = 0;
}
