/* number.c - JSON number tokens to values: an exact integer check on the
 * decimal digits, a double by Clinger's exact fast path or strtod(), and
 * the shortest round-trip text of a double for the writer. Independent of
 * LC_NUMERIC in both directions. */
#include "json_internal.h"

#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The k-th digit of the integer digits followed by the fraction digits. */
static unsigned digit_at(const mh_json_number_parts *p, size_t k)
{
    size_t int_len = (size_t)(p->int_end - p->int_begin);
    char c = k < int_len ? p->int_begin[k] : p->frac_begin[k - int_len];
    return (unsigned)(c - '0');
}

/* strtod() on a copy, with the locale's decimal point if it is not '.'. */
static mh_status convert_strtod(const mh_json_number_parts *p, double *out)
{
    char small[64];
    const char *point = NULL;
    size_t point_len = 1;
    for (int attempt = 0; attempt < 2; attempt++) {
        size_t need = p->text_length + (point ? point_len : 1) + 1;
        char *buf = need <= sizeof small ? small : malloc(need);
        if (!buf) return MH_ERR_NO_MEMORY;
        size_t o = 0;
        for (size_t i = 0; i < p->text_length; i++) {
            if (p->text[i] == '.' && point) {
                memcpy(buf + o, point, point_len);
                o += point_len;
            } else {
                buf[o++] = p->text[i];
            }
        }
        buf[o] = '\0';
        char *end = NULL;
        double value = strtod(buf, &end);
        int complete = end == buf + o;
        if (buf != small) free(buf);
        if (complete) {
            *out = value;
            return MH_OK;
        }
        /* strtod stopped at '.': LC_NUMERIC uses another decimal point. */
        point = localeconv()->decimal_point;
        if (!point || !*point) break;
        point_len = strlen(point);
    }
    return MH_ERR_INTERNAL;
}

mh_status mh_json_i_number(const mh_json_number_parts *p, mh_json *out)
{
    size_t int_len = (size_t)(p->int_end - p->int_begin);
    size_t frac_len = (size_t)(p->frac_end - p->frac_begin);
    size_t total = int_len + frac_len;
    size_t first = 0, last = total;

    out->type = MH_JSON_NUMBER;
    out->flags = p->negative ? MH_JSON_F_NEGATIVE : 0;
    out->u.num.magnitude = 0;

    while (first < total && digit_at(p, first) == 0) first++;
    if (first == total) { /* zero, however written */
        out->flags |= MH_JSON_F_INTEGRAL | MH_JSON_F_FITS;
        out->u.num.value = p->negative ? -0.0 : 0.0;
        return MH_OK;
    }
    while (digit_at(p, last - 1) == 0) last--;

    /* value = D * 10^e10 with D = digits[first, last) (no leading or
     * trailing zeros). The exponent is saturated, so this cannot overflow. */
    size_t sig = last - first;
    long long e10 = (long long)p->exponent - (long long)frac_len + (long long)(total - last);
    uint64_t d = 0;
    if (sig <= 19)
        for (size_t k = first; k < last; k++) d = d * 10 + digit_at(p, k);

    if (e10 >= 0) {
        out->flags |= MH_JSON_F_INTEGRAL;
        if (sig <= 20 && (long long)sig + e10 <= 20) {
            uint64_t m = 0;
            int fits = 1;
            for (size_t k = first; k < last && fits; k++) {
                unsigned dig = digit_at(p, k);
                if (m > (UINT64_MAX - dig) / 10) fits = 0;
                else m = m * 10 + dig;
            }
            for (long long k = 0; k < e10 && fits; k++) {
                if (m > UINT64_MAX / 10) fits = 0;
                else m *= 10;
            }
            if (fits) {
                out->flags |= MH_JSON_F_FITS;
                out->u.num.magnitude = m;
            }
        }
    }

#if FLT_EVAL_METHOD == 0
    /* Clinger: D and 10^|e10| are exact doubles, so one IEEE operation
     * rounds correctly. */
    static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    if (sig <= 19 && d <= (UINT64_C(1) << 53) && e10 >= -22 && e10 <= 22) {
        double v = (double)d;
        v = e10 >= 0 ? v * pow10[e10] : v / pow10[-e10];
        out->u.num.value = p->negative ? -v : v;
        return MH_OK;
    }
#endif
    double v;
    mh_status st = convert_strtod(p, &v);
    if (st != MH_OK) return st;
    if (isinf(v)) return MH_ERR_LIMIT;
    out->u.num.value = v;
    return MH_OK;
}

size_t mh_json_i_format_double(char *buf, double value)
{
    char tmp[40];
    int n = 0;
    for (int precision = 15; precision <= 17; precision++) {
        n = snprintf(tmp, sizeof tmp, "%.*g", precision, value);
        if (precision == 17 || strtod(tmp, NULL) == value) break;
    }
    /* Copy, turning the locale's decimal point (any non-number bytes) into '.'. */
    size_t o = 0;
    int in_point = 0;
    for (int i = 0; i < n; i++) {
        char c = tmp[i];
        if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == 'e' || c == 'E') {
            buf[o++] = c;
            in_point = 0;
        } else if (!in_point) {
            buf[o++] = '.';
            in_point = 1;
        }
    }
    buf[o] = '\0';
    return o;
}
