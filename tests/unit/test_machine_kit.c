/* test_machine_kit.c - the SDK's machine kit (mcphost/machine_kit.h,
 * kernal.h) on a toy machine: a 6502 on 64 KiB of RAM whose bus counts
 * its cycles (the "chips"), with an exit port at $F002. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcphost/kernal.h"
#include "mcphost/machine_kit.h"
#include "mcphost/media_d64.h"
#include "mh_test.h"
#include "test_media_build.h"

#define EXIT_PORT 0xF002u

typedef struct toy {
    mh_cpu6502 cpu;
    mh_machine_kit kit;
    mh_kit_state run;
    uint8_t ram[65536];
    uint8_t nybbles[16];
    uint64_t bus_cycles; /* every cycle the machine's bus saw */
    unsigned services, run_ends;
    uint32_t largest_chunk;
    uint32_t chunk_cap;
    unsigned pokes;
} toy;

static uint8_t toy_read(void *user, uint16_t addr)
{
    toy *t = user;
    t->bus_cycles++;
    return t->ram[addr];
}

static void toy_write(void *user, uint16_t addr, uint8_t value)
{
    toy *t = user;
    t->bus_cycles++;
    if (addr == EXIT_PORT) {
        if (!t->run.exit_pending) mh_kit_request_exit(&t->kit, value, 1);
        return;
    }
    t->ram[addr] = value;
}

static uint32_t toy_chunk_limit(void *machine, uint32_t chunk)
{
    toy *t = machine;
    if (t->chunk_cap && chunk > t->chunk_cap) chunk = t->chunk_cap;
    if (chunk > t->largest_chunk) t->largest_chunk = chunk;
    return chunk;
}

static void toy_service(void *machine, uint32_t ran)
{
    toy *t = machine;
    (void)ran;
    CU_ASSERT_TRUE(mh_cpu6502_at_boundary(&t->cpu) || t->cpu.jammed);
    t->services++;
}

static void toy_run_end(void *machine) { ((toy *)machine)->run_ends++; }

static const mh_kit_run_ops plain_ops = {sizeof(mh_kit_run_ops), 0, toy_chunk_limit, NULL,
                                         toy_run_end, NULL};
static const mh_kit_run_ops boundary_ops = {sizeof(mh_kit_run_ops), MH_KIT_RUN_BOUNDARY,
                                            toy_chunk_limit, toy_service, toy_run_end, NULL};

/* A toy with program at $0200, reset sequence already run. */
static toy *toy_new(const uint8_t *program, size_t size, const mh_kit_run_ops *ops)
{
    toy *t = calloc(1, sizeof *t);
    memcpy(t->ram + 0x0200, program, size);
    t->ram[0xFFFC] = 0x00;
    t->ram[0xFFFD] = 0x02;
    mh_cpu6502_desc desc = {0};
    desc.read = toy_read;
    desc.write = toy_write;
    desc.user = t;
    CU_ASSERT_EQUAL_FATAL(mh_cpu6502_init(&t->cpu, &desc), MH_OK);
    mh_kit_state_reset(&t->run);
    mh_kit_init(&t->kit, &t->cpu, &t->run, ops, t, toy_read, toy_write, t, 0);
    mh_cpu6502_step(&t->cpu); /* the reset sequence */
    t->bus_cycles = 0;
    return t;
}

static void test_budget(void)
{
    const uint8_t loop[] = {0xEA, 0xEA, 0x4C, 0x00, 0x02}; /* NOP NOP JMP $0200 */
    toy *t = toy_new(loop, sizeof loop, &plain_ops);
    mh_run_result r = {sizeof r, 0, 0, 0};
    CU_ASSERT_EQUAL(mh_kit_run(&t->kit, 100001, &r), MH_OK);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_BUDGET);
    CU_ASSERT_EQUAL(r.cycles, 100001); /* exact: may end mid-instruction */
    CU_ASSERT_EQUAL(t->run.cycles, 100001);
    CU_ASSERT_EQUAL(t->bus_cycles, 100001);
    CU_ASSERT_EQUAL(t->largest_chunk, MH_KIT_DEFAULT_CHUNK);
    CU_ASSERT_EQUAL(t->run_ends, 1);
    free(t);

    t = toy_new(loop, sizeof loop, &boundary_ops);
    t->chunk_cap = 1000;
    CU_ASSERT_EQUAL(mh_kit_run(&t->kit, 10001, &r), MH_OK);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_BUDGET);
    CU_ASSERT_TRUE(r.cycles >= 10001 && r.cycles <= 10003); /* the instruction finished */
    CU_ASSERT_TRUE(mh_cpu6502_at_boundary(&t->cpu));
    CU_ASSERT_EQUAL(t->largest_chunk, 1000);
    CU_ASSERT_TRUE(t->services >= 10);
    CU_ASSERT_EQUAL(mh_kit_run(&t->kit, 0, &r), MH_OK); /* at a boundary: nothing to do */
    CU_ASSERT_EQUAL(r.cycles, 0);
    free(t);
}

/* mh_kit_set_run_cpu: the machine's own CPU runner gets the chunks. */
static unsigned run_cpu_calls;
static uint64_t run_cpu_cycles;

static uint32_t toy_run_cpu(void *machine, uint32_t cycles)
{
    toy *t = machine;
    run_cpu_calls++;
    uint32_t ran = mh_cpu6502_run(&t->cpu, cycles);
    run_cpu_cycles += ran;
    return ran;
}

static void test_run_cpu(void)
{
    const uint8_t loop[] = {0xEA, 0xEA, 0x4C, 0x00, 0x02}; /* NOP NOP JMP $0200 */
    toy *t = toy_new(loop, sizeof loop, &plain_ops);
    t->chunk_cap = 1000;
    run_cpu_calls = 0;
    run_cpu_cycles = 0;
    mh_kit_set_run_cpu(&t->kit, toy_run_cpu);
    mh_run_result r = {sizeof r, 0, 0, 0};
    CU_ASSERT_EQUAL(mh_kit_run(&t->kit, 10001, &r), MH_OK);
    CU_ASSERT_EQUAL(r.cycles, 10001);
    CU_ASSERT_EQUAL(run_cpu_calls, 11); /* ten chunks of 1000 and one of 1 */
    CU_ASSERT_EQUAL(run_cpu_cycles, 10001);
    CU_ASSERT_EQUAL(t->bus_cycles, 10001);
    mh_kit_set_run_cpu(&t->kit, NULL); /* back to mh_cpu6502_run */
    CU_ASSERT_EQUAL(mh_kit_run(&t->kit, 500, &r), MH_OK);
    CU_ASSERT_EQUAL(r.cycles, 500);
    CU_ASSERT_EQUAL(run_cpu_calls, 11);
    free(t);
}

static void test_exit(void)
{
    /* LDA #$2A; STA $F002; INC $10; JMP * */
    const uint8_t prog[] = {0xA9, 0x2A, 0x8D, 0x02, 0xF0, 0xE6, 0x10, 0x4C, 0x07, 0x02};
    toy *t = toy_new(prog, sizeof prog, &boundary_ops);
    uint64_t start = t->cpu.cycles;
    mh_run_result r = {sizeof r, 0, 0, 0};
    CU_ASSERT_EQUAL(mh_kit_run(&t->kit, 50000, &r), MH_OK);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_EXIT);
    CU_ASSERT_EQUAL(r.exit_code, 0x2A);
    CU_ASSERT_EQUAL(r.cycles, 6); /* exactly after the writing cycle */
    CU_ASSERT_EQUAL(t->cpu.cycles - start, 6);
    CU_ASSERT_EQUAL(t->bus_cycles, 6); /* the halt ticked nothing */
    CU_ASSERT_EQUAL(t->cpu.pc, 0x0205);
    CU_ASSERT_TRUE(mh_cpu6502_at_boundary(&t->cpu));
    CU_ASSERT_FALSE(mh_kit_halted(&t->kit));
    CU_ASSERT_EQUAL(t->cpu.rdy, 1);
    CU_ASSERT_EQUAL(t->ram[0x10], 0);
    /* The next run goes on from there. */
    CU_ASSERT_EQUAL(mh_kit_run(&t->kit, 5, &r), MH_OK);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_BUDGET);
    CU_ASSERT_EQUAL(t->ram[0x10], 1);
    CU_ASSERT_EQUAL(mh_kit_undo_exit_stall(&t->kit), 0); /* not halted */
    free(t);
}

static void test_exit_read_modify_write(void)
{
    /* INC $F002: the dummy write of the old value requests the exit; the
     * second write is a real cycle. */
    const uint8_t prog[] = {0xEE, 0x02, 0xF0, 0x4C, 0x03, 0x02};
    toy *t = toy_new(prog, sizeof prog, &plain_ops);
    t->ram[EXIT_PORT] = 0x41;
    mh_run_result r = {sizeof r, 0, 0, 0};
    CU_ASSERT_EQUAL(mh_kit_run(&t->kit, 50000, &r), MH_OK);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_EXIT);
    CU_ASSERT_EQUAL(r.exit_code, 0x41);
    CU_ASSERT_EQUAL(r.cycles, 6);
    CU_ASSERT_EQUAL(t->bus_cycles, 6);
    CU_ASSERT_EQUAL(t->cpu.pc, 0x0203);
    free(t);
}

static void test_exit_from_debugger(void)
{
    const uint8_t loop[] = {0x4C, 0x00, 0x02};
    toy *t = toy_new(loop, sizeof loop, &plain_ops);
    mh_kit_request_exit(&t->kit, 7, 0);
    CU_ASSERT_FALSE(mh_kit_halted(&t->kit));
    mh_run_result r = {sizeof r, 0, 0, 0};
    CU_ASSERT_EQUAL(mh_kit_run(&t->kit, 1000, &r), MH_OK);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_EXIT);
    CU_ASSERT_EQUAL(r.exit_code, 7);
    CU_ASSERT_EQUAL(r.cycles, 0);
    CU_ASSERT_EQUAL(mh_kit_run(&t->kit, 1000, &r), MH_OK);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_BUDGET);
    free(t);
}

static void test_jam(void)
{
    const uint8_t prog[] = {0xEA, 0x02}; /* NOP; JAM */
    toy *t = toy_new(prog, sizeof prog, &boundary_ops);
    mh_run_result r = {sizeof r, 0, 0, 0};
    CU_ASSERT_EQUAL(mh_kit_run(&t->kit, 1000, &r), MH_OK);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_JAMMED);
    CU_ASSERT_TRUE(r.cycles < 1000);
    /* The clock and the chips go on: later runs use their whole budget. */
    uint64_t bus = t->bus_cycles;
    CU_ASSERT_EQUAL(mh_kit_run(&t->kit, 40000, &r), MH_OK);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_JAMMED);
    CU_ASSERT_EQUAL(r.cycles, 40000);
    CU_ASSERT_EQUAL(t->bus_cycles - bus, 40000);
    free(t);
}

static int stop_at_0203(void *user, uint16_t pc)
{
    (void)user;
    return pc == 0x0203;
}

static void test_break(void)
{
    const uint8_t prog[] = {0xEA, 0xEA, 0xEA, 0xEA, 0x4C, 0x00, 0x02};
    toy *t = toy_new(prog, sizeof prog, &boundary_ops);
    mh_cpu6502_set_hooks(&t->cpu, stop_at_0203, NULL, t);
    mh_run_result r = {sizeof r, 0, 0, 0};
    CU_ASSERT_EQUAL(mh_kit_run(&t->kit, 1000, &r), MH_OK);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_BREAK);
    CU_ASSERT_EQUAL(t->cpu.pc, 0x0203);
    CU_ASSERT_EQUAL(r.cycles, 6);
    free(t);
}

/* ---- mh.memory/1 ---- */

static uint8_t port_peek(const void *instance, uint32_t address)
{
    return (uint8_t)(((const toy *)instance)->ram[address] ^ 0xFF);
}

static void port_poke(void *instance, uint32_t address, uint8_t value)
{
    ((toy *)instance)->ram[address] = (uint8_t)(value ^ 0xFF);
}

static size_t toy_bank_at(const void *instance, uint16_t address)
{
    (void)instance;
    return address >= 0xF000 ? 2 : 0;
}

static void toy_after_poke(void *instance) { ((toy *)instance)->pokes++; }

static const mh_kit_space toy_spaces[] = {
    {{"ram", "RAM", 65536, 0, 1}, offsetof(toy, ram), 0, NULL, NULL},
    {{"nybbles", "4-bit cells", 16, 0xD800, 1}, offsetof(toy, nybbles), 0x0F, NULL, NULL},
    {{"inverted", "a port", 256, 0xF000, 1}, 0, 0, port_peek, port_poke},
    {{"rom", "read-only", 16, 0, 0}, offsetof(toy, ram), 0, NULL, NULL},
};
static const mh_kit_memory_map toy_map = {toy_spaces, 4, toy_bank_at, toy_after_poke, NULL};

static void test_memory(void)
{
    toy *t = calloc(1, sizeof *t);
    mh_kit_memory memory;
    mh_chip chip = mh_kit_memory_chip(&memory, &toy_map, t, "toy memory");
    CU_ASSERT_STRING_EQUAL(chip.interface_id, MH_IFACE_MEMORY);
    CU_ASSERT_STRING_EQUAL(chip.instance, "memory");
    const mh_memory_iface *m = chip.vtable;
    CU_ASSERT_EQUAL(m->space_count(chip.context), 4);
    CU_ASSERT_STRING_EQUAL(m->space(chip.context, 1)->name, "nybbles");
    CU_ASSERT_PTR_NULL(m->space(chip.context, 4));

    const uint8_t bytes[3] = {0x12, 0xAB, 0xF0};
    uint8_t out[3];
    CU_ASSERT_EQUAL(m->poke(chip.context, 0, 0x1000, bytes, 3), MH_OK);
    CU_ASSERT_EQUAL(t->ram[0x1001], 0xAB);
    CU_ASSERT_EQUAL(m->poke(chip.context, 1, 13, bytes, 3), MH_OK);
    CU_ASSERT_EQUAL(t->nybbles[14], 0x0B); /* masked on write */
    t->nybbles[15] = 0xF7;
    CU_ASSERT_EQUAL(m->peek(chip.context, 1, 13, out, 3), MH_OK);
    CU_ASSERT_EQUAL(out[2], 0x07); /* and on read */
    CU_ASSERT_EQUAL(m->poke(chip.context, 2, 0x10, bytes, 1), MH_OK);
    CU_ASSERT_EQUAL(t->ram[0x10], 0xED);
    CU_ASSERT_EQUAL(m->peek(chip.context, 2, 0x10, out, 1), MH_OK);
    CU_ASSERT_EQUAL(out[0], 0x12);
    CU_ASSERT_EQUAL(t->pokes, 3);
    /* Range, space and writable checks. */
    CU_ASSERT_EQUAL(m->peek(chip.context, 1, 14, out, 3), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(m->peek(chip.context, 1, 16, out, 0), MH_OK); /* empty, at the end */
    CU_ASSERT_EQUAL(m->peek(chip.context, 1, 17, out, 0), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(m->peek(chip.context, 9, 0, out, 1), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(m->peek(chip.context, 0, 0, NULL, 1), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(m->poke(chip.context, 3, 0, bytes, 1), MH_ERR_UNSUPPORTED);
    CU_ASSERT_EQUAL(t->pokes, 3);
    CU_ASSERT_EQUAL(m->bank_at(chip.context, 0x1234), 0);
    CU_ASSERT_EQUAL(m->bank_at(chip.context, 0xF002), 2);
    free(t);
}

/* peek_runs without a span(): plain bytes as one run in place, masked
 * bytes and a per-byte space in chunks, the same bytes as peek. */
typedef struct runs_seen {
    uint8_t bytes[300];
    size_t length, runs;
    const uint8_t *first;
} runs_seen;

static void collect_run(void *user, const uint8_t *bytes, size_t n)
{
    runs_seen *r = user;
    if (!r->runs++) r->first = bytes;
    if (n <= sizeof r->bytes - r->length) memcpy(r->bytes + r->length, bytes, n);
    r->length += n;
}

static void test_memory_runs(void)
{
    toy *t = calloc(1, sizeof *t);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    mh_kit_memory memory;
    mh_chip chip = mh_kit_memory_chip(&memory, &toy_map, t, "toy memory");
    const mh_memory_iface *m = chip.vtable;
    CU_ASSERT_TRUE(MH_MEMORY_IFACE_HAS(m, peek_runs));
    for (size_t i = 0; i < sizeof t->ram; i++) t->ram[i] = (uint8_t)(i * 7 + (i >> 8));
    for (size_t i = 0; i < sizeof t->nybbles; i++) t->nybbles[i] = (uint8_t)(0xA0 + i);
    static const struct {
        size_t space;
        uint32_t address, length;
    } reads[] = {{0, 0x1234, 300}, {1, 3, 13}, {2, 0, 256}, {2, 200, 56}};
    for (size_t k = 0; k < sizeof reads / sizeof reads[0]; k++) {
        uint8_t want[300];
        runs_seen seen = {{0}, 0, 0, NULL};
        CU_ASSERT_EQUAL(m->peek(chip.context, reads[k].space, reads[k].address, want,
                                reads[k].length), MH_OK);
        CU_ASSERT_EQUAL(m->peek_runs(chip.context, reads[k].space, reads[k].address,
                                     reads[k].length, collect_run, &seen), MH_OK);
        CU_ASSERT_EQUAL(seen.length, reads[k].length);
        CU_ASSERT_EQUAL(memcmp(seen.bytes, want, reads[k].length), 0);
    }
    /* plain RAM is handed over in place, in one run */
    runs_seen ram = {{0}, 0, 0, NULL};
    CU_ASSERT_EQUAL(m->peek_runs(chip.context, 0, 0x1234, 300, collect_run, &ram), MH_OK);
    CU_ASSERT_EQUAL(ram.runs, 1);
    CU_ASSERT_PTR_EQUAL(ram.first, t->ram + 0x1234);
    /* a range out of the space: refused, nothing handed over */
    runs_seen none = {{0}, 0, 0, NULL};
    CU_ASSERT_EQUAL(m->peek_runs(chip.context, 1, 10, 7, collect_run, &none),
                    MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(none.runs, 0);
    free(t);
}

/* ---- machine_create ---- */

typedef struct fake_session {
    unsigned added, fail_at;
    const char *names[8];
} fake_session;

static mh_status fake_add_chip(mh_session *session, const mh_chip *chip)
{
    fake_session *s = (fake_session *)session;
    if (s->added + 1 == s->fail_at) return MH_ERR_EXISTS;
    s->names[s->added++] = chip->instance;
    return MH_OK;
}

static const mh_session_service fake_sessions = {sizeof(mh_session_service), NULL, NULL, NULL,
                                                 fake_add_chip, NULL, NULL, NULL};

static const void *fake_get_service(const mh_host *host, const char *id)
{
    (void)host;
    return strcmp(id, MH_SESSION_SERVICE_ID) == 0 ? &fake_sessions : NULL;
}

static const mh_host fake_host = {sizeof(mh_host), MH_ABI_MAJOR, MH_ABI_MINOR, "test",
                                  fake_get_service, NULL};

static int made, destroyed, created;

static mh_status make_ok(const mh_host *host, const char *options, void **instance, char *error,
                         size_t error_size)
{
    (void)host;
    (void)error;
    (void)error_size;
    if (strcmp(options, "{\"bad\":1}") == 0) {
        snprintf(error, error_size, "bad: no such option");
        return MH_ERR_INVALID_ARGUMENT;
    }
    made++;
    *instance = &made;
    return MH_OK;
}

static size_t two_chips(void *instance, mh_chip *chips, size_t max)
{
    CU_ASSERT_EQUAL(max, MH_KIT_MAX_CHIPS);
    chips[0] = (mh_chip){sizeof(mh_chip), "x.a/1", "a", "A", NULL, instance};
    chips[1] = (mh_chip){sizeof(mh_chip), "x.b/1", "b", "B", NULL, instance};
    return 2;
}

static void destroy_count(void *instance)
{
    CU_ASSERT_PTR_EQUAL(instance, &made);
    destroyed++;
}

static void created_count(void *instance)
{
    (void)instance;
    created++;
}

static const mh_kit_machine_ops create_ops = {sizeof(mh_kit_machine_ops), make_ok, two_chips,
                                              destroy_count, created_count};

static void test_create(void)
{
    fake_session s = {0, 0, {0}};
    void *instance = NULL;
    char error[256];
    made = destroyed = created = 0;
    CU_ASSERT_EQUAL(mh_kit_machine_create(&create_ops, &fake_host, (mh_session *)&s, "{}",
                                          &instance, error, sizeof error),
                    MH_OK);
    CU_ASSERT_PTR_EQUAL(instance, &made);
    CU_ASSERT_EQUAL(s.added, 2);
    CU_ASSERT_STRING_EQUAL(s.names[1], "b");
    CU_ASSERT_EQUAL(created, 1);
    CU_ASSERT_EQUAL(destroyed, 0);

    /* A chip that cannot be registered: the instance is destroyed. */
    fake_session s2 = {0, 2, {0}};
    CU_ASSERT_EQUAL(mh_kit_machine_create(&create_ops, &fake_host, (mh_session *)&s2, "{}",
                                          &instance, error, sizeof error),
                    MH_ERR_EXISTS);
    CU_ASSERT_PTR_NULL(instance);
    CU_ASSERT_EQUAL(destroyed, 1);
    CU_ASSERT_EQUAL(created, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "cannot register the b chip (x.b/1)"));

    /* Options refused: make's own message, nothing made. */
    CU_ASSERT_EQUAL(mh_kit_machine_create(&create_ops, &fake_host, (mh_session *)&s, "{\"bad\":1}",
                                          &instance, error, sizeof error),
                    MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_STRING_EQUAL(error, "bad: no such option");
    CU_ASSERT_EQUAL(made, 2);

    /* No session service. */
    CU_ASSERT_EQUAL(mh_kit_machine_create(&create_ops, NULL, (mh_session *)&s, "{}", &instance,
                                          error, sizeof error),
                    MH_ERR_UNSUPPORTED);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, MH_SESSION_SERVICE_ID));
}

/* ---- KERNAL glue ---- */

/* A layout unlike the C64's, so nothing works by accident. */
static const mh_kernal_layout test_layout = {
    sizeof(mh_kernal_layout),
    .status = 0x90,
    .verify_flag = 0x93,
    .load_end = 0x9D,
    .file_name_length = 0xAB,
    .secondary_address = 0xAD,
    .device = 0xAE,
    .file_name = 0xAF,
    .load_start = 0xB2,
    .keyboard_count = 0xEF,
    .keyboard_buffer = 0x0527,
    .keyboard_size = 10,
    .basic_start = 0x2B,
    .basic_end = 0x2D,
    .basic_program = 0x1001,
    .load_entry = 0xFFD5,
    .directory_address = 0x1001,
};

static void kernal_setup(toy *t, mh_kernal *k)
{
    memset(k, 0, sizeof *k);
    k->layout = &test_layout;
    k->cpu = &t->cpu;
    k->ram = t->ram;
}

static void test_kernal_keys(void)
{
    const uint8_t loop[] = {0x4C, 0x00, 0x02};
    toy *t = toy_new(loop, sizeof loop, &plain_ops);
    mh_kernal k;
    kernal_setup(t, &k);
    mh_kernal_queue *q = calloc(1, sizeof *q);
    uint8_t text[12];
    for (unsigned i = 0; i < 12; i++) text[i] = (uint8_t)('A' + i);
    char error[200];
    CU_ASSERT_EQUAL(mh_kernal_queue_push(q, text, 12, error, sizeof error), MH_OK);
    t->cpu.p |= MH_CPU6502_FLAG_I;
    mh_kernal_feed(&k, q); /* inside an interrupt handler: nothing */
    CU_ASSERT_EQUAL(t->ram[0xEF], 0);
    t->cpu.p &= (uint8_t)~MH_CPU6502_FLAG_I;
    mh_kernal_feed(&k, q);
    CU_ASSERT_EQUAL(t->ram[0xEF], 10);
    CU_ASSERT_EQUAL(t->ram[0x0527], 'A');
    CU_ASSERT_EQUAL(t->ram[0x0530], 'J');
    mh_kernal_feed(&k, q); /* the buffer is not empty yet */
    CU_ASSERT_EQUAL(q->count, 2);
    t->ram[0xEF] = 0;
    mh_kernal_feed(&k, q);
    CU_ASSERT_EQUAL(t->ram[0xEF], 2);
    CU_ASSERT_EQUAL(t->ram[0x0528], 'L');
    CU_ASSERT_EQUAL(q->count, 0);
    uint8_t *many = calloc(MH_KERNAL_QUEUE_SIZE, 1);
    CU_ASSERT_EQUAL(mh_kernal_queue_push(q, many, MH_KERNAL_QUEUE_SIZE, error, sizeof error), MH_OK);
    CU_ASSERT_EQUAL(mh_kernal_queue_push(q, text, 1, error, sizeof error), MH_ERR_LIMIT);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "cannot queue 1 characters"));
    mh_kernal_queue_clear(q);
    CU_ASSERT_EQUAL(q->count, 0);
    free(many);
    free(q);

    /* The wait for a key: LDA $EF with I clear and the buffer empty. */
    t->ram[0xE000] = 0xA5;
    t->ram[0xE001] = 0xEF;
    t->ram[0xEF] = 0;
    CU_ASSERT_TRUE(mh_kernal_waits_for_key(&k, 0xE000));
    t->ram[0xEF] = 1;
    CU_ASSERT_FALSE(mh_kernal_waits_for_key(&k, 0xE000));
    t->ram[0xEF] = 0;
    t->cpu.p |= MH_CPU6502_FLAG_I;
    CU_ASSERT_FALSE(mh_kernal_waits_for_key(&k, 0xE000));
    free(t);
}

static void test_kernal_inject(void)
{
    const uint8_t loop[] = {0x4C, 0x00, 0x02};
    toy *t = toy_new(loop, sizeof loop, &plain_ops);
    mh_kernal k;
    kernal_setup(t, &k);
    const uint8_t program[4] = {1, 2, 3, 4};
    char typed[16];
    /* A BASIC program at basic_program: the pointers and RUN. */
    uint32_t end = mh_kernal_inject(&k, program, 4, 0x1001, 1, typed, sizeof typed);
    CU_ASSERT_EQUAL(end, 0x1005);
    CU_ASSERT_EQUAL(t->ram[0x1003], 3);
    CU_ASSERT_EQUAL(t->ram[0x9D] | t->ram[0x9E] << 8, 0x1005);
    CU_ASSERT_EQUAL(t->ram[0x31] | t->ram[0x32] << 8, 0x1005);
    CU_ASSERT_STRING_EQUAL(typed, "RUN");
    CU_ASSERT_EQUAL(t->ram[0xEF], 4);
    CU_ASSERT_EQUAL(memcmp(t->ram + 0x0527, "RUN\r", 4), 0);
    /* Machine code elsewhere: SYS, BASIC's pointers left alone. */
    t->ram[0xEF] = 0;
    end = mh_kernal_inject(&k, program, 4, 0xC000, 1, typed, sizeof typed);
    CU_ASSERT_STRING_EQUAL(typed, "SYS49152");
    CU_ASSERT_EQUAL(t->ram[0x31] | t->ram[0x32] << 8, 0x1005);
    CU_ASSERT_EQUAL(t->ram[0xEF], 9);
    /* Nothing typed; cut at $FFFF. */
    t->ram[0xEF] = 0;
    end = mh_kernal_inject(&k, program, 4, 0xFFFE, 0, typed, sizeof typed);
    CU_ASSERT_EQUAL(end, 0x10000);
    CU_ASSERT_EQUAL(t->ram[0xFFFF], 2);
    CU_ASSERT_EQUAL(t->ram[0xEF], 0);
    CU_ASSERT_STRING_EQUAL(typed, "");
    free(t);
}

/* LOAD's caller: JSR $FFD5 from $0200 (the return address $0202 pushed). */
static void call_load(toy *t, const char *name, uint8_t device, uint8_t sa, uint8_t a)
{
    size_t length = strlen(name);
    memcpy(t->ram + 0x0400, name, length);
    t->ram[0xAB] = (uint8_t)length;
    t->ram[0xAF] = 0x00;
    t->ram[0xB0] = 0x04;
    t->ram[0xAE] = device;
    t->ram[0xAD] = sa;
    t->cpu.a = a;
    t->cpu.x = 0x00;
    t->cpu.y = 0x30;
    t->cpu.s = 0xFD;
    t->ram[0x1FE] = 0x02;
    t->ram[0x1FF] = 0x02;
    t->cpu.pc = 0xFFD5;
}

static void test_kernal_load(void)
{
    const uint8_t loop[] = {0x4C, 0x00, 0x02};
    toy *t = toy_new(loop, sizeof loop, &plain_ops);
    mh_kernal k;
    kernal_setup(t, &k);
    tb_d64 b;
    tb_d64_init(&b, 35, false, "KIT", "01");
    const uint8_t prg[5] = {0x00, 0x20, 0xAA, 0xBB, 0xCC}; /* $2000: AA BB CC */
    tb_d64_add_file(&b, "HELLO", 0x82, prg, sizeof prg);
    mh_d64 *disk = mh_d64_open(b.img, b.size, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(disk);
    char message[256];

    call_load(t, "HELLO", 9, 1, 0);
    CU_ASSERT_EQUAL(mh_kernal_load_trap(&k, 8, disk, message, sizeof message), 0); /* device 9 */
    CU_ASSERT_EQUAL(mh_kernal_load_trap(&k, 8, NULL, message, sizeof message), 0); /* no disk */

    call_load(t, "HEL*", 8, 1, 0);
    CU_ASSERT_EQUAL(mh_kernal_load_trap(&k, 8, disk, message, sizeof message), 1);
    CU_ASSERT_EQUAL(t->ram[0x2002], 0xCC);
    CU_ASSERT_FALSE(t->cpu.p & MH_CPU6502_FLAG_C);
    CU_ASSERT_EQUAL(t->cpu.x | t->cpu.y << 8, 0x2003);
    CU_ASSERT_EQUAL(t->ram[0x9D] | t->ram[0x9E] << 8, 0x2003);
    CU_ASSERT_EQUAL(t->ram[0xB2] | t->ram[0xB3] << 8, 0x2000);
    CU_ASSERT_EQUAL(t->ram[0x90], 0x40);
    CU_ASSERT_EQUAL(t->cpu.pc, 0x0203); /* returned from the JSR */
    CU_ASSERT_EQUAL(t->cpu.s, 0xFF);
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "loaded \"HEL*\" $2000-$2002"));

    /* SA 0 loads at X/Y; VERIFY compares. */
    call_load(t, "HELLO", 8, 0, 0);
    CU_ASSERT_EQUAL(mh_kernal_load_trap(&k, 8, disk, message, sizeof message), 1);
    CU_ASSERT_EQUAL(t->ram[0x3000], 0xAA);
    call_load(t, "HELLO", 8, 0, 1);
    t->ram[0x3001] = 0;
    CU_ASSERT_EQUAL(mh_kernal_load_trap(&k, 8, disk, message, sizeof message), 1);
    CU_ASSERT_EQUAL(t->ram[0x90], 0x50); /* EOF + verify error */
    CU_ASSERT_EQUAL(t->ram[0x3001], 0);  /* verify writes nothing */

    /* Errors: carry and the KERNAL's code. */
    call_load(t, "NOPE", 8, 1, 0);
    CU_ASSERT_EQUAL(mh_kernal_load_trap(&k, 8, disk, message, sizeof message), 1);
    CU_ASSERT_TRUE(t->cpu.p & MH_CPU6502_FLAG_C);
    CU_ASSERT_EQUAL(t->cpu.a, 4);
    CU_ASSERT_EQUAL(t->cpu.pc, 0x0203);
    call_load(t, "", 8, 1, 0);
    CU_ASSERT_EQUAL(mh_kernal_load_trap(&k, 8, disk, message, sizeof message), 1);
    CU_ASSERT_EQUAL(t->cpu.a, 8);
    CU_ASSERT_STRING_EQUAL(message, "LOAD without a file name");

    mh_d64_free(disk);
    tb_d64_free(&b);
    free(t);
}

static void test_log_without_host(void)
{
    mh_kit_log(NULL, MH_LOG_INFO, "nothing %d", 1); /* no host: no crash */
    mh_kit_log(&fake_host, MH_LOG_INFO, "no log service %d", 2);
    CU_PASS("logged nowhere");
}

MH_SUITE("sdk.machine_kit", NULL, NULL, MH_TEST(test_budget), MH_TEST(test_run_cpu),
         MH_TEST(test_exit),
         MH_TEST(test_exit_read_modify_write), MH_TEST(test_exit_from_debugger),
         MH_TEST(test_jam), MH_TEST(test_break), MH_TEST(test_memory), MH_TEST(test_memory_runs),
         MH_TEST(test_create),
         MH_TEST(test_kernal_keys), MH_TEST(test_kernal_inject), MH_TEST(test_kernal_load),
         MH_TEST(test_log_without_host))
