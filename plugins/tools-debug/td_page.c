/* td_page.c - paging of the history and trace tools (td_page.h). */
#include "td_page.h"

int td_page_args(td_call *c, int64_t *count, int64_t *offset, int *oldest_first)
{
    static const char *const orders[] = {"newest", "oldest"};
    size_t order = 0;
    *count = TD_PAGE_DEFAULT;
    *offset = 0;
    mh_status s = mh_args_int(c->args, "count", 1, TD_PAGE_MAX, count, c->err, sizeof c->err);
    if (s == MH_OK || s == MH_ERR_NOT_FOUND)
        s = mh_args_int(c->args, "offset", 0, INT32_MAX, offset, c->err, sizeof c->err);
    if (s == MH_OK || s == MH_ERR_NOT_FOUND)
        s = mh_args_choice(c->args, "order", orders, 2, &order, c->err, sizeof c->err);
    if (s != MH_OK && s != MH_ERR_NOT_FOUND) return td_fail_arg(c);
    *oldest_first = order == 1;
    return 0;
}

void td_page_head(mh_json_writer *w, size_t capacity, size_t matched, int64_t offset)
{
    mh_json_write_key(w, "size");
    mh_json_write_uint(w, capacity);
    mh_json_write_key(w, "matched");
    mh_json_write_uint(w, matched);
    mh_json_write_key(w, "offset");
    mh_json_write_uint(w, (uint64_t)offset);
}

void td_page_tail(mh_json_writer *w, td_buf *text, size_t n, int64_t offset, size_t shown)
{
    mh_json_write_key(w, "more");
    mh_json_write_bool(w, (size_t)offset + shown < n);
    if ((size_t)offset + shown < n)
        td_buf_printf(text, "more: offset %zu\n", (size_t)offset + shown);
}
