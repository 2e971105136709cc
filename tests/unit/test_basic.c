/* test_basic.c - Commodore BASIC tokenising and listing (mcphost/basic.h):
 * the shared tokenizer vectors (../shared/testdata/basic-tokenizer, which
 * VICE's petcat also passes), listing each back to text that tokenises to
 * the same bytes, BASIC 3.5's tokens, every refusal, and hostile memory
 * for the lister: broken chains end with a report, never a loop. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcphost/basic.h"
#include "mh_test.h"

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    if (text && fread(text, 1, (size_t)size, f) != (size_t)size) {
        free(text);
        text = NULL;
    }
    if (text) text[size] = '\0';
    fclose(f);
    return text;
}

typedef struct listed {
    char text[8192];
    unsigned lines;
} listed;

static int collect(void *user, const mh_basic_line *line)
{
    listed *l = user;
    size_t used = strlen(l->text);
    snprintf(l->text + used, sizeof l->text - used, "%s\n", line->text);
    l->lines++;
    return 0;
}

/* Tokenises source at $0801 and compares with the vector's hex (which
 * starts with the load address); then lists the program and tokenises the
 * listing again: the same bytes. */
static void check_vector(const char *source, const char *hex, unsigned *checked)
{
    uint8_t program[4096];
    size_t length = 0;
    char error[200];
    mh_status status = mh_basic_tokenize(MH_BASIC_V2, source, 0x0801, program, sizeof program,
                                         &length, error, sizeof error);
    if (status != MH_OK) fprintf(stderr, "\n  basic: \"%s\": %s\n", source, error);
    CU_ASSERT_EQUAL_FATAL(status, MH_OK);
    char got[8192] = "0108";
    for (size_t i = 0; i < length; i++) snprintf(got + 4 + 2 * i, 3, "%02x", program[i]);
    if (strcmp(got, hex) != 0) fprintf(stderr, "\n  basic: \"%s\"\n    got  %s\n    want %s\n", source, got, hex);
    CU_ASSERT_STRING_EQUAL(got, hex);

    static uint8_t memory[65536];
    memset(memory, 0xEA, sizeof memory);
    memcpy(memory + 0x0801, program, length);
    listed l = {{0}, 0};
    mh_basic_listing result;
    CU_ASSERT_EQUAL(mh_basic_list(MH_BASIC_V2, memory, 0x0801, collect, &l, &result), MH_OK);
    CU_ASSERT_FALSE(result.broken);
    CU_ASSERT_EQUAL(result.end, 0x0801 + length);
    uint8_t again[4096];
    size_t again_length = 0;
    CU_ASSERT_EQUAL_FATAL(mh_basic_tokenize(MH_BASIC_V2, l.text, 0x0801, again, sizeof again,
                                            &again_length, error, sizeof error),
                          MH_OK);
    CU_ASSERT_EQUAL(again_length, length);
    CU_ASSERT_EQUAL(memcmp(again, program, length), 0);
    (*checked)++;
}

/* The Falderal file: "    | source" lines, then "    = hex". */
static void test_shared_vectors(void)
{
    char *path = mh_test_shared_path("basic-tokenizer/Commodore-BASIC-2.0.md");
    char *text = path ? read_text(path) : NULL;
    if (!text) fprintf(stderr, "\n  basic: cannot read %s\n", path ? path : "the vectors");
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    char source[2048] = "";
    unsigned checked = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (strncmp(line, "    | ", 6) == 0) {
            strncat(source, line + 6, sizeof source - strlen(source) - 2);
            strcat(source, "\n");
        } else if (strncmp(line, "    = ", 6) == 0) {
            check_vector(source, line + 6, &checked);
            source[0] = '\0';
        }
    }
    fprintf(stderr, "\n  basic: %u shared tokenizer vectors pass, and list back\n", checked);
    CU_ASSERT(checked >= 15);
    free(text);
    free(path);
}

static size_t tokenize(mh_basic_dialect dialect, const char *source, uint8_t *out, size_t size)
{
    size_t length = 0;
    char error[200];
    CU_ASSERT_EQUAL(mh_basic_tokenize(dialect, source, 0x1001, out, size, &length, error, sizeof error),
                    MH_OK);
    return length;
}

static void test_dialects(void)
{
    uint8_t out[64];
    /* "scnclr" is BASIC 3.5's token $E8; BASIC 2.0 reads S C N and CLR. */
    CU_ASSERT_EQUAL(tokenize(MH_BASIC_V35, "10 scnclr", out, sizeof out), 8);
    CU_ASSERT_EQUAL(out[4], 0xE8);
    CU_ASSERT_EQUAL(tokenize(MH_BASIC_V2, "10 scnclr", out, sizeof out), 11);
    CU_ASSERT_EQUAL(memcmp(out + 4, "\x53\x43\x4e\x9c", 4), 0);
    /* DO:LOOP UNTIL, WHILE is the last token. */
    size_t n = tokenize(MH_BASIC_V35, "10 do:loop until x:while", out, sizeof out);
    CU_ASSERT_EQUAL(n, 4 + 9 + 1 + 2);
    CU_ASSERT_EQUAL(memcmp(out + 4, "\xeb\x3a\xec\x20\xfc\x20\x58\x3a\xfd", 9), 0);
    /* DATA is literal up to ':'; ? is PRINT; the links point at $1001+. */
    n = tokenize(MH_BASIC_V2, "10 data print,to:?", out, sizeof out);
    CU_ASSERT_EQUAL(memcmp(out + 4, "\x83\x20\x50\x52\x49\x4e\x54\x2c\x54\x4f\x3a\x99\x00", 13), 0);
    CU_ASSERT_EQUAL(out[0] | out[1] << 8, 0x1001 + 4 + 13);
    /* {$hh}, the arrows and pound. */
    n = tokenize(MH_BASIC_V2, "1 ?\"{$07}\xC2\xA3\xE2\x86\x90\"", out, sizeof out);
    CU_ASSERT_EQUAL(memcmp(out + 4, "\x99\x22\x07\x5c\x5f\x22\x00", 7), 0);
}

static void refused(const char *source, size_t out_size, mh_status status, const char *needle)
{
    uint8_t out[600];
    size_t length = 99;
    char error[200] = "";
    CU_ASSERT_EQUAL(mh_basic_tokenize(MH_BASIC_V2, source, 0x0801, out, out_size, &length, error,
                                      sizeof error),
                    status);
    if (!strstr(error, needle)) fprintf(stderr, "\n  basic: \"%s\": %s\n", source, error);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, needle));
}

static void test_refusals(void)
{
    refused("print", 600, MH_ERR_INVALID_ARGUMENT, "line 1 of the text: no line number");
    refused("64000 print", 600, MH_ERR_INVALID_ARGUMENT, "end at 63999");
    refused("20 a=1\n10 b=2", 600, MH_ERR_INVALID_ARGUMENT, "line 2 of the text: line number 10 after 20");
    refused("10 print\"{nope}\"", 600, MH_ERR_INVALID_ARGUMENT, "unknown code {nope}");
    refused("10 print\"{clr\"", 600, MH_ERR_INVALID_ARGUMENT, "without");
    refused("10 print \"~\"", 600, MH_ERR_INVALID_ARGUMENT, "0x7E has no PETSCII");
    refused("10   ", 600, MH_ERR_INVALID_ARGUMENT, "has no statements");
    refused("10 print", 5, MH_ERR_NO_MEMORY, "needs 8 bytes");
    char longline[400] = "10 rem ";
    memset(longline + 7, 'x', 300);
    refused(longline, 600, MH_ERR_INVALID_ARGUMENT, "longer than 250 bytes");
}

static int stop_after_one(void *user, const mh_basic_line *line)
{
    (void)line;
    (*(unsigned *)user)++;
    return 1;
}

static void list_broken(uint8_t *memory, uint16_t start, const char *needle)
{
    listed l = {{0}, 0};
    mh_basic_listing result;
    CU_ASSERT_EQUAL(mh_basic_list(MH_BASIC_V2, memory, start, collect, &l, &result), MH_OK);
    CU_ASSERT_TRUE(result.broken);
    if (!strstr(result.problem, needle)) fprintf(stderr, "\n  basic: %s\n", result.problem);
    CU_ASSERT_PTR_NOT_NULL(strstr(result.problem, needle));
}

static void test_hostile_memory(void)
{
    static uint8_t memory[65536];
    memset(memory, 0, sizeof memory);
    /* A line that links to itself: listed once, then reported. */
    uint8_t self[] = {0x01, 0x08, 0x0a, 0x00, 0x99, 0x00};
    memcpy(memory + 0x0801, self, sizeof self);
    list_broken(memory, 0x0801, "line 10 at $0801 links back to $0801");
    /* A link into the line's own text. */
    memory[0x0801] = 0x05;
    list_broken(memory, 0x0801, "links into its own text");
    /* No 0 anywhere: the line has no end. */
    memset(memory, 0x41, sizeof memory);
    list_broken(memory, 0x0801, "has no end");
    /* Near the top of memory. */
    list_broken(memory, 0xFFFF, "past $FFFF");
    /* Random memory: every start ends, listing at most one line per 5 bytes. */
    srand(1234);
    for (int round = 0; round < 200; round++) {
        for (size_t i = 0; i < sizeof memory; i++) memory[i] = (uint8_t)rand();
        listed l = {{0}, 0};
        mh_basic_listing result;
        uint16_t start = (uint16_t)rand();
        CU_ASSERT_EQUAL(mh_basic_list(round & 1 ? MH_BASIC_V35 : MH_BASIC_V2, memory, start,
                                      stop_after_one, &l.lines, &result), MH_OK);
        CU_ASSERT(result.lines <= 1);
    }
    /* The callback can stop the listing. */
    uint8_t out[64];
    size_t n = tokenize(MH_BASIC_V2, "10 a=1\n20 b=2\n30 c=3", out, sizeof out);
    memcpy(memory + 0x1001, out, n);
    unsigned seen = 0;
    mh_basic_listing result;
    CU_ASSERT_EQUAL(mh_basic_list(MH_BASIC_V2, memory, 0x1001, stop_after_one, &seen, &result), MH_OK);
    CU_ASSERT_EQUAL(seen, 1);
    CU_ASSERT_FALSE(result.broken);
}

MH_SUITE("text.basic", NULL, NULL, MH_TEST(test_shared_vectors), MH_TEST(test_dialects),
         MH_TEST(test_refusals), MH_TEST(test_hostile_memory))
