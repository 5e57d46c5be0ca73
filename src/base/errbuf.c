/* SPDX-License-Identifier: BSD-2-Clause */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "errbuf.h"

void errbuf_init(struct errbuf *eb, char *buf, size_t sz)
{
	eb->buf = sz ? buf : NULL;
	eb->sz = buf ? sz : 0;
	eb->set = false;
	if (eb->buf)
		eb->buf[0] = '\0';
}

int errbuf_set(struct errbuf *eb, int err, const char *fmt, ...)
{
	va_list ap;

	if (!eb || eb->set)
		return err;
	eb->set = true;
	if (!eb->buf)
		return err;
	va_start(ap, fmt);
	vsnprintf(eb->buf, eb->sz, fmt, ap);
	va_end(ap);
	return err;
}

void errbuf_default(struct errbuf *eb, int err)
{
	if (err < 0)
		errbuf_set(eb, err, "%s", strerror(-err));
}
