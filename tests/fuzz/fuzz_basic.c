/* fuzz_basic.c - libFuzzer target for Commodore BASIC text
 * (mcphost/basic.h): the tokeniser reads program text a client sends, the
 * lister reads whatever a machine's memory holds.
 *
 * The first input byte picks the mode:
 *   even: the rest is program text, tokenised in both dialects; a program
 *         the tokeniser takes lists back whole (same line count, an
 *         unbroken chain ending where the program ends);
 *   odd:  the rest, from the third byte, is laid into memory at the
 *         address in bytes 1-2 and listed from there: it must end.
 *
 *   build: CC=clang cmake -B build-fuzz -DMH_FUZZ=ON && make -C build-fuzz fuzz_basic
 *   run:   build-fuzz/bin/fuzz_basic -max_total_time=60 -max_len=4096 CORPUS_DIR
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "mcphost/basic.h"

static uint8_t memory[65536];

static int count_line(void *user, const mh_basic_line *line)
{
    CHECK(line->text != NULL && strlen(line->text) > 0);
    (*(unsigned *)user)++;
    return 0;
}

static void tokenize_and_list(mh_basic_dialect dialect, const char *text)
{
    static uint8_t program[65536];
    size_t length = 0;
    char error[200];
    mh_status status = mh_basic_tokenize(dialect, text, 0x0801, program, sizeof program, &length,
                                         error, sizeof error);
    if (status != MH_OK) {
        CHECK(error[0] != '\0');
        return;
    }
    CHECK(length >= 2 && length <= 0x10000u - 0x0801);
    memset(memory, 0, sizeof memory);
    memcpy(memory + 0x0801, program, length);
    unsigned lines = 0;
    mh_basic_listing result;
    CHECK(mh_basic_list(dialect, memory, 0x0801, count_line, &lines, &result) == MH_OK);
    CHECK(!result.broken);
    CHECK(result.end == 0x0801 + length);
    CHECK(result.lines == lines);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    if ((data[0] & 1) == 0) {
        char *text = malloc(size);
        if (!text) return 0;
        memcpy(text, data + 1, size - 1);
        text[size - 1] = '\0';
        tokenize_and_list(MH_BASIC_V2, text);
        tokenize_and_list(MH_BASIC_V35, text);
        free(text);
        return 0;
    }
    if (size < 3) return 0;
    uint16_t start = (uint16_t)(data[1] | data[2] << 8);
    memset(memory, 0, sizeof memory);
    size_t n = size - 3;
    if (n > sizeof memory - start) n = sizeof memory - start;
    memcpy(memory + start, data + 3, n);
    unsigned lines = 0;
    mh_basic_listing result;
    CHECK(mh_basic_list(data[0] & 2 ? MH_BASIC_V35 : MH_BASIC_V2, memory, start, count_line, &lines,
                        &result) == MH_OK);
    CHECK(result.lines == lines && lines <= 65536 / 5);
    CHECK(result.broken ? result.problem[0] != '\0' : result.problem[0] == '\0');
    return 0;
}
