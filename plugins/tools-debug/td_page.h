/* td_page.h - paging of the history and trace tools (tools_history.c,
 * tools_trace.c): the count/offset/order arguments, how many rows a page
 * holds, the members every page starts with, and which row comes i-th.
 * [emu-thread] inside a handler; nothing here is global. */
#ifndef TD_PAGE_H
#define TD_PAGE_H

#include <stddef.h>
#include <stdint.h>

#include "td_util.h"

#define TD_PAGE_DEFAULT 20
#define TD_PAGE_MAX 1000

/* count, offset and order ("newest" first by default). Returns 0, or -1
 * after answering with the error. */
int td_page_args(td_call *c, int64_t *count, int64_t *offset, int *oldest_first);

/* How many of n matching records a page from offset holds, at most count. */
static inline size_t td_page_size(size_t n, int64_t offset, int64_t count)
{
    size_t shown = (size_t)offset < n ? n - (size_t)offset : 0;
    return shown > (size_t)count ? (size_t)count : shown;
}

/* Record i of n matching ones (held newest first) in the page's order. */
static inline size_t td_page_index(size_t n, int64_t offset, size_t i, int oldest_first)
{
    return oldest_first ? n - 1 - (size_t)offset - i : (size_t)offset + i;
}

/* The members every page starts with: the ring's size, how many records
 * matched, and the page's offset. */
void td_page_head(mh_json_writer *w, size_t capacity, size_t matched, int64_t offset);

/* Ends a page: "more" (and the text's "more: offset N" line). */
void td_page_tail(mh_json_writer *w, td_buf *text, size_t n, int64_t offset, size_t shown);

#endif
