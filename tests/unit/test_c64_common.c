/* test_c64_common.c - see test_c64_common.h (no suites here). */
#include "test_c64_common.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mcphost/asm6502.h"

#ifndef MH_MCPHOST_BIN
#error "MH_MCPHOST_BIN must be defined"
#endif


int c64t_assemble(const char *source, uint8_t image[65536], int *lo, int *hi)
{
    mh_asm6502_result result;
    if (mh_asm6502_assemble(source, strlen(source), NULL, &result) != MH_OK) {
        fprintf(stderr, "assembly failed: %s\n", result.error);
        mh_asm6502_result_free(&result);
        return -1;
    }
    static uint8_t written[8192];
    memset(image, 0, 65536);
    memset(written, 0, sizeof written);
    mh_asm6502_to_image(&result, image, written);
    mh_asm6502_result_free(&result);
    *lo = *hi = -1;
    for (int a = 0; a < 65536; a++)
        if (written[a / 8] & (1u << (a % 8))) {
            if (*lo < 0) *lo = a;
            *hi = a;
        }
    return *lo < 0 ? -1 : 0;
}

char *c64t_read_program(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", MH_C64_PROGRAM_DIR, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return NULL;
    }
    char *text = malloc(1 << 20);
    size_t n = text ? fread(text, 1, (1 << 20) - 1, f) : 0;
    fclose(f);
    if (text) text[n] = '\0';
    return text;
}

int c64t_make_prg(const char *dir, const char *name, char *out, size_t out_size)
{
    char *source = c64t_read_program(name);
    if (!source) return -1;
    static uint8_t image[65536];
    int lo, hi;
    int rc = c64t_assemble(source, image, &lo, &hi);
    free(source);
    if (rc != 0) return -1;
    size_t len = strlen(name);
    snprintf(out, out_size, "%s/%.*s.prg", dir, (int)(len > 2 ? len - 2 : len), name);
    FILE *f = fopen(out, "wb");
    if (!f) return -1;
    uint8_t header[2] = {(uint8_t)(lo & 0xFF), (uint8_t)(lo >> 8)};
    fwrite(header, 1, 2, f);
    fwrite(image + lo, 1, (size_t)(hi - lo + 1), f);
    return fclose(f);
}

char c64t_screen_char(uint8_t code)
{
    code &= 0x7F;
    if (code == 0) return '@';
    if (code <= 26) return (char)('A' + code - 1);
    if (code == 0x1B) return '[';
    if (code == 0x1D) return ']';
    if (code >= 0x20 && code < 0x40) return (char)code;
    return '?';
}

void c64t_screen_text(const uint8_t screen[1000], char out[25 * 41 + 1])
{
    size_t at = 0;
    for (int row = 0; row < 25; row++) {
        for (int col = 0; col < 40; col++) out[at++] = c64t_screen_char(screen[row * 40 + col]);
        out[at++] = '\n';
    }
    out[at] = '\0';
}

