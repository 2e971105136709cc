/* bare6502.run - the bare6502 machine through the real mcphost binary, the
 * way a user runs a test program:
 *
 *   mcphost --machine bare6502 --transport none --warp --config program=FILE ...
 *
 * Each test assembles a small program with the SDK assembler, writes it as
 * a .prg (or raw binary) into a temporary directory, runs the binary with
 * run_mcphost.h and checks its exit code, stdout and stderr. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mcphost/asm6502.h"
#include "mh_test.h"
#include "run_mcphost.h"

#ifndef MH_MCPHOST_BIN
#error "MH_MCPHOST_BIN (the path of the mcphost binary) must be defined by tests/CMakeLists.txt"
#endif


static char tmpdir[] = "/tmp/mh_bare6502_run_XXXXXX";

static int suite_init(void) { return mkdtemp(tmpdir) ? 0 : -1; }

static int suite_cleanup(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static void path_in_tmp(char *out, size_t size, const char *name)
{
    snprintf(out, size, "%s/%s", tmpdir, name);
}

static int write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    size_t n = fwrite(data, 1, size, f);
    return fclose(f) == 0 && n == size ? 0 : -1;
}

/* The file's first 63 bytes as text ("" when it cannot be read). */
static const char *read_text(const char *path)
{
    static char text[64];
    text[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (!f) return text;
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    return text;
}

/* Assembles source; writes a .prg (raw 0: load address first) or a raw
 * binary of the bytes from the lowest to the highest address written.
 * Returns 0 on success. */
static int assemble_to(const char *path, const char *source, int raw)
{
    mh_asm6502_result result;
    mh_status status = mh_asm6502_assemble(source, strlen(source), NULL, &result);
    if (status != MH_OK) {
        fprintf(stderr, "assembly failed: %s\n", result.error);
        mh_asm6502_result_free(&result);
        return -1;
    }
    static uint8_t image[65536 + 2], written[8192];
    memset(image, 0, sizeof image);
    mh_asm6502_to_image(&result, image + 2, written);
    mh_asm6502_result_free(&result);
    int lo = -1, hi = -1;
    for (int a = 0; a < 65536; a++)
        if (written[a / 8] & (1u << (a % 8))) {
            if (lo < 0) lo = a;
            hi = a;
        }
    if (lo < 0) return -1;
    image[lo] = (uint8_t)(lo & 0xFF); /* the .prg header goes just before */
    image[lo + 1] = (uint8_t)(lo >> 8);
    if (raw) return write_file(path, image + 2 + lo, (size_t)(hi - lo + 1));
    return write_file(path, image + lo, (size_t)(hi - lo + 3));
}


/* Runs a program file with extra args; the common headless options first. */
#define RUN(r, ...)                                                                           \
    do {                                                                                      \
        const char *args_[] = {"--machine", "bare6502", "--transport", "none", "--warp",      \
                               __VA_ARGS__, NULL};                                            \
        CU_ASSERT_EQUAL_FATAL(mh_test_run_mcphost(args_, 30, (r)), 0);                                    \
    } while (0)

static char config_program[4200];

static const char *program_option(const char *path)
{
    snprintf(config_program, sizeof config_program, "program=%s", path);
    return config_program;
}

#define HELLO_SOURCE                      \
    "        *= $0800\n"                  \
    "        LDX #0\n"                    \
    "loop    LDA text,X\n"                \
    "        BEQ done\n"                  \
    "        STA $F001\n"                 \
    "        INX\n"                       \
    "        BNE loop\n"                  \
    "done    LDA #42\n"                   \
    "        STA $F002\n"                 \
    "        LDA #'X'\n"                  \
    "        STA $F001  ; never reached\n" \
    "text    .text \"HELLO\"\n"           \
    "        .byte 0\n"

static void test_hello_stdout(void)
{
    char prg[4096];
    path_in_tmp(prg, sizeof prg, "hello.prg");
    CU_ASSERT_EQUAL_FATAL(assemble_to(prg, HELLO_SOURCE, 0), 0);
    mh_test_output r;
    RUN(&r, "--config", program_option(prg), "--config", "output=stdout");
    CU_ASSERT_EQUAL(r.exit_code, 42);
    CU_ASSERT_STRING_EQUAL(r.out, "HELLO");
    if (r.exit_code != 42) fprintf(stderr, "stderr: %s\n", r.err);
}

static void test_hello_default_output_is_stderr(void)
{
    char prg[4096];
    path_in_tmp(prg, sizeof prg, "hello2.prg");
    CU_ASSERT_EQUAL_FATAL(assemble_to(prg, HELLO_SOURCE, 0), 0);
    mh_test_output r;
    RUN(&r, "--config", program_option(prg));
    CU_ASSERT_EQUAL(r.exit_code, 42);
    CU_ASSERT_STRING_EQUAL(r.out, "");
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "HELLO"));
    CU_ASSERT_PTR_NULL(strstr(r.err, "HELLOX"));
}

static void test_output_to_file(void)
{
    char prg[4096], out[4096], option[4200];
    path_in_tmp(prg, sizeof prg, "hello3.prg");
    path_in_tmp(out, sizeof out, "hello3.out");
    snprintf(option, sizeof option, "output=%s", out);
    CU_ASSERT_EQUAL_FATAL(assemble_to(prg, HELLO_SOURCE, 0), 0);
    mh_test_output r;
    RUN(&r, "--config", program_option(prg), "--config", option);
    CU_ASSERT_EQUAL(r.exit_code, 42);
    CU_ASSERT_STRING_EQUAL(r.out, "");
    CU_ASSERT_STRING_EQUAL(read_text(out), "HELLO");

    /* The file exists now: a second run refuses to truncate it ... */
    CU_ASSERT_EQUAL(write_file(out, "precious", 8), 0);
    RUN(&r, "--config", program_option(prg), "--config", option);
    CU_ASSERT_EQUAL(r.exit_code, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "already exists"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--config overwrite=true"));
    CU_ASSERT_STRING_EQUAL(read_text(out), "precious");
    /* ... unless told to. */
    RUN(&r, "--config", program_option(prg), "--config", option, "--config", "overwrite=true");
    CU_ASSERT_EQUAL(r.exit_code, 42);
    CU_ASSERT_STRING_EQUAL(read_text(out), "HELLO");
}

static void test_limit_cycles_ends_endless_loop(void)
{
    char prg[4096];
    path_in_tmp(prg, sizeof prg, "loop.prg");
    CU_ASSERT_EQUAL_FATAL(assemble_to(prg, "*= $1000\nloop JMP loop\n", 0), 0);
    mh_test_output r;
    RUN(&r, "--config", program_option(prg), "--limit-cycles", "200000");
    CU_ASSERT_EQUAL(r.exit_code, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "cycle limit 200000 reached"));
}

static void test_jam_keeps_the_clock_running(void)
{
    /* A jammed CPU executes nothing, but the machine's clock goes on, so
     * --limit-cycles still ends the run (a stuck clock would hang here). */
    char prg[4096];
    path_in_tmp(prg, sizeof prg, "jam.prg");
    CU_ASSERT_EQUAL_FATAL(assemble_to(prg, "*= $0800\nLDA #'J'\nSTA $F001\nJAM\nSTA $F002\n", 0), 0);
    mh_test_output r;
    RUN(&r, "--config", program_option(prg), "--config", "output=stdout", "--limit-cycles",
        "300000");
    CU_ASSERT_EQUAL(r.exit_code, 1);
    CU_ASSERT_STRING_EQUAL(r.out, "J");
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "cycle limit 300000 reached"));
}

static void test_irq_through_the_irq_port(void)
{
    char prg[4096];
    path_in_tmp(prg, sizeof prg, "irq.prg");
    const char *source = "        *= $0800\n"
                         "        LDA #<irq\n"
                         "        STA $FFFE\n"
                         "        LDA #>irq\n"
                         "        STA $FFFF\n"
                         "        CLI\n"
                         "        LDA #1\n"
                         "        STA $F003   ; assert IRQ\n"
                         "wait    JMP wait\n"
                         "irq     LDA $F003   ; reads back 1\n"
                         "        CLC\n"
                         "        ADC #'H'    ; 'I'\n"
                         "        STA $F001\n"
                         "        LDA #0\n"
                         "        STA $F003   ; release IRQ\n"
                         "        LDA #7\n"
                         "        STA $F002\n";
    CU_ASSERT_EQUAL_FATAL(assemble_to(prg, source, 0), 0);
    mh_test_output r;
    RUN(&r, "--config", program_option(prg), "--config", "output=stdout", "--limit-cycles",
        "1000000");
    CU_ASSERT_EQUAL(r.exit_code, 7);
    CU_ASSERT_STRING_EQUAL(r.out, "I");
}

static void test_irq_is_masked_by_i(void)
{
    /* With I set the IRQ must wait; the program exits by itself with 3. */
    char prg[4096];
    path_in_tmp(prg, sizeof prg, "irqmask.prg");
    const char *source = "        *= $0800\n"
                         "        LDA #<irq\n"
                         "        STA $FFFE\n"
                         "        LDA #>irq\n"
                         "        STA $FFFF\n"
                         "        SEI\n"
                         "        LDA #1\n"
                         "        STA $F003\n"
                         "        NOP\n"
                         "        NOP\n"
                         "        LDA #3\n"
                         "        STA $F002\n"
                         "irq     LDA #4\n"
                         "        STA $F002\n";
    CU_ASSERT_EQUAL_FATAL(assemble_to(prg, source, 0), 0);
    mh_test_output r;
    RUN(&r, "--config", program_option(prg), "--limit-cycles", "1000000");
    CU_ASSERT_EQUAL(r.exit_code, 3);
}

static void test_nmi_through_the_irq_port(void)
{
    /* NMI is taken even with I set. */
    char prg[4096];
    path_in_tmp(prg, sizeof prg, "nmi.prg");
    const char *source = "        *= $0800\n"
                         "        LDA #<nmi\n"
                         "        STA $FFFA\n"
                         "        LDA #>nmi\n"
                         "        STA $FFFB\n"
                         "        SEI\n"
                         "        LDA #2\n"
                         "        STA $F003   ; NMI edge\n"
                         "wait    JMP wait\n"
                         "nmi     LDA #'N'\n"
                         "        STA $F001\n"
                         "        LDA #9\n"
                         "        STA $F002\n";
    CU_ASSERT_EQUAL_FATAL(assemble_to(prg, source, 0), 0);
    mh_test_output r;
    RUN(&r, "--config", program_option(prg), "--config", "output=stdout", "--limit-cycles",
        "1000000");
    CU_ASSERT_EQUAL(r.exit_code, 9);
    CU_ASSERT_STRING_EQUAL(r.out, "N");
}

static void test_raw_binary_start_and_reset_vector(void)
{
    /* Raw binary at $FF00 with its own reset vector: the reset vector wins
     * over the load address; `start` wins over both. */
    char bin[4096], option[64];
    path_in_tmp(bin, sizeof bin, "raw.bin");
    const char *source = "        *= $FF00\n"
                         "        LDA #3\n"
                         "        STA $F002\n"
                         "second  LDA #4\n"
                         "        STA $F002\n"
                         "third   LDA #5\n"
                         "        STA $F002\n"
                         "        *= $FFFC\n"
                         "        .word second\n";
    CU_ASSERT_EQUAL_FATAL(assemble_to(bin, source, 1), 0);
    mh_test_output r;
    RUN(&r, "--config", program_option(bin), "--config", "load_address=$FF00");
    CU_ASSERT_EQUAL(r.exit_code, 4);
    snprintf(option, sizeof option, "start=0x%X", 0xFF0A);
    RUN(&r, "--config", program_option(bin), "--config", "load_address=65280", "--config", option);
    CU_ASSERT_EQUAL(r.exit_code, 5);
}

static void test_ports_can_move_and_be_disabled(void)
{
    /* Output at $0300 (a number), exit at $0301 ("$" form), irq port off:
     * a write to $F003 is plain RAM then and must not interrupt. */
    char prg[4096];
    path_in_tmp(prg, sizeof prg, "moved.prg");
    const char *source = "        *= $0800\n"
                         "        LDA #<irq\n"
                         "        STA $FFFA\n"
                         "        LDA #>irq\n"
                         "        STA $FFFB\n"
                         "        LDA #2\n"
                         "        STA $F003\n"
                         "        LDA $F003\n"
                         "        STA $F001   ; plain RAM now\n"
                         "        CLC\n"
                         "        ADC #'0'\n"
                         "        STA $0300   ; prints '2'\n"
                         "        LDA #6\n"
                         "        STA $0301\n"
                         "irq     LDA #8\n"
                         "        STA $0301\n";
    CU_ASSERT_EQUAL_FATAL(assemble_to(prg, source, 0), 0);
    mh_test_output r;
    RUN(&r, "--config", program_option(prg), "--config", "output=stdout", "--config",
        "output_port=768", "--config", "exit_port=$0301", "--config", "irq_port=none",
        "--limit-cycles", "1000000");
    CU_ASSERT_EQUAL(r.exit_code, 6);
    CU_ASSERT_STRING_EQUAL(r.out, "2");
}

static void expect_refused(const char *const *extra, const char *needle1, const char *needle2)
{
    const char *args[16] = {"--machine", "bare6502", "--transport", "none", "--warp"};
    size_t n = 5;
    for (size_t i = 0; extra[i] && n < 15; i++) args[n++] = extra[i];
    args[n] = NULL;
    mh_test_output r;
    CU_ASSERT_EQUAL_FATAL(mh_test_run_mcphost(args, 30, &r), 0);
    CU_ASSERT_EQUAL(r.exit_code, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, needle1));
    if (needle2) CU_ASSERT_PTR_NOT_NULL(strstr(r.err, needle2));
    if (r.exit_code != 2 || !strstr(r.err, needle1) || (needle2 && !strstr(r.err, needle2)))
        fprintf(stderr, "\nexit %d, stderr:\n%s\n", r.exit_code, r.err);
}

static void test_bad_options_exit_2(void)
{
    char prg[4096], one[4096], empty[4096], big[4096], missing[4096];
    path_in_tmp(prg, sizeof prg, "ok.prg");
    path_in_tmp(one, sizeof one, "one.prg");
    path_in_tmp(empty, sizeof empty, "empty.prg");
    path_in_tmp(big, sizeof big, "big.bin");
    path_in_tmp(missing, sizeof missing, "no-such-file.prg");
    CU_ASSERT_EQUAL_FATAL(assemble_to(prg, "*= $0800\nJMP $0800\n", 0), 0);
    CU_ASSERT_EQUAL_FATAL(write_file(one, "\x01", 1), 0);
    CU_ASSERT_EQUAL_FATAL(write_file(empty, "", 0), 0);
    static uint8_t bytes[300];
    CU_ASSERT_EQUAL_FATAL(write_file(big, bytes, sizeof bytes), 0);

    char p_prg[4200], p_one[4200], p_empty[4200], p_big[4200], p_missing[4200];
    snprintf(p_prg, sizeof p_prg, "program=%s", prg);
    snprintf(p_one, sizeof p_one, "program=%s", one);
    snprintf(p_empty, sizeof p_empty, "program=%s", empty);
    snprintf(p_big, sizeof p_big, "program=%s", big);
    snprintf(p_missing, sizeof p_missing, "program=%s", missing);

    /* An unknown option name: named, with the names that exist. */
    expect_refused((const char *[]){"--config", p_prg, "--config", "colour=1", NULL},
                   "unknown option \"colour\"", "program, load_address, start");
    /* A missing program file: named, with the reason. */
    expect_refused((const char *[]){"--config", p_missing, NULL}, missing,
                   "No such file or directory");
    /* A bad address string: names the option and the forms it takes. */
    expect_refused((const char *[]){"--config", p_prg, "--config", "exit_port=$G001", NULL},
                   "exit_port: expected", "\"none\"");
    expect_refused((const char *[]){"--config", p_prg, "--config", "start=$10000", NULL},
                   "start: $10000 is above the highest address $FFFF", NULL);
    /* A .prg of 1 byte, an empty file, a binary too big for its address. */
    expect_refused((const char *[]){"--config", p_one, NULL}, one, "at least 1 byte of data");
    expect_refused((const char *[]){"--config", p_empty, NULL}, empty, "the file is empty");
    expect_refused((const char *[]){"--config", p_big, "--config", "load_address=$FF00", NULL},
                   big, "300 bytes loaded at $FF00 run past $FFFF (at most 256 bytes fit there)");
    /* Other values. */
    expect_refused((const char *[]){"--config", p_prg, "--config", "clock_hz=fast", NULL},
                   "clock_hz: expected an integer from 1000 to 1000000000", NULL);
    expect_refused((const char *[]){"--config", p_prg, "--config", "output_port=$F002", NULL},
                   "exit_port: $F002 is also output_port", NULL);
    expect_refused((const char *[]){"--config", p_prg, "--config", "output=/no/such/dir/out", NULL},
                   "output: cannot write \"/no/such/dir/out\"", "does not exist");
    expect_refused((const char *[]){"--config", "load_address=$1000", NULL},
                   "load_address: only means something with program", NULL);
}

MH_SUITE("bare6502.run", suite_init, suite_cleanup, MH_TEST(test_hello_stdout),
         MH_TEST(test_hello_default_output_is_stderr), MH_TEST(test_output_to_file),
         MH_TEST(test_limit_cycles_ends_endless_loop), MH_TEST(test_jam_keeps_the_clock_running),
         MH_TEST(test_irq_through_the_irq_port), MH_TEST(test_irq_is_masked_by_i),
         MH_TEST(test_nmi_through_the_irq_port), MH_TEST(test_raw_binary_start_and_reset_vector),
         MH_TEST(test_ports_can_move_and_be_disabled), MH_TEST(test_bad_options_exit_2))
