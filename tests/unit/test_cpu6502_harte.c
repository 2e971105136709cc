/* Tom Harte's 6502 single-step vectors (../shared/testdata/harte6502/v1),
 * read in place: every test of every opcode, in each of the core's four
 * loop variants (bus callbacks or flat memory, with or without hooks) and
 * in three instances of the engine a machine makes of its own
 * (cpu6502_engine.h, as the C64's c64_cpu.c does, with this file's bus
 * inlined): threaded dispatch, and the portable switch dispatch
 * (MH_CPU6502_SWITCH_DISPATCH) without and with hooks, so the fallback
 * for other compilers is proven on every build.
 * Registers, memory and the cycle-by-cycle bus trace (address, value,
 * read/write) must match. A missing or unreadable file fails the run,
 * naming the opcode. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcphost/cpu6502.h"
#include "mh_test.h"

#define MAX_TRACE 16

typedef struct trace_entry {
    uint16_t addr;
    uint8_t value;
    uint8_t write;
} trace_entry;

typedef struct harte_bus {
    uint8_t *mem;
    trace_entry trace[MAX_TRACE];
    int count;
    int overflow;
} harte_bus;

static void trace_add(harte_bus *bus, uint16_t addr, uint8_t value, int write)
{
    if (bus->count >= MAX_TRACE) {
        bus->overflow = 1;
        return;
    }
    bus->trace[bus->count].addr = addr;
    bus->trace[bus->count].value = value;
    bus->trace[bus->count].write = (uint8_t)write;
    bus->count++;
}

static uint8_t bus_read(void *user, uint16_t addr)
{
    harte_bus *bus = user;
    trace_add(bus, addr, bus->mem[addr], 0);
    return bus->mem[addr];
}

static void bus_write(void *user, uint16_t addr, uint8_t value)
{
    harte_bus *bus = user;
    trace_add(bus, addr, value, 1);
    bus->mem[addr] = value;
}

static int hook_access(void *user, uint16_t addr, uint8_t value, int write)
{
    trace_add(user, addr, value, write);
    return 0;
}

static int hook_sync(void *user, uint16_t pc)
{
    (void)user;
    (void)pc;
    return 0;
}

/* The engine instances (each a static function). */
#define MH_ENGINE_NAME harte_engine
#define MH_ENGINE_HOOKS 0
#define MH_ENGINE_READ bus_read
#define MH_ENGINE_WRITE bus_write
#define MH_ENGINE_READ_LINK bus_read
#define MH_ENGINE_WRITE_LINK bus_write
#include "cpu6502_engine.h"

#define MH_CPU6502_SWITCH_DISPATCH
#define MH_ENGINE_NAME harte_engine_switch
#define MH_ENGINE_HOOKS 0
#define MH_ENGINE_READ bus_read
#define MH_ENGINE_WRITE bus_write
#define MH_ENGINE_READ_LINK bus_read
#define MH_ENGINE_WRITE_LINK bus_write
#include "cpu6502_engine.h"

#define MH_ENGINE_NAME harte_engine_switch_hooks
#define MH_ENGINE_HOOKS 1
#define MH_ENGINE_READ bus_read
#define MH_ENGINE_WRITE bus_write
#define MH_ENGINE_READ_LINK bus_read
#define MH_ENGINE_WRITE_LINK bus_write
#include "cpu6502_engine.h"
#undef MH_CPU6502_SWITCH_DISPATCH

typedef struct regs {
    int pc, s, a, x, y, p;
} regs;

#define MAX_RAM 24

/* One vector, parsed out of the JSON (and corrected where the errata say). */
typedef struct vector {
    const char *name;
    regs initial, final;
    int initial_ram[MAX_RAM][2], final_ram[MAX_RAM][2];
    int initial_count, final_count;
    trace_entry cycles[MAX_TRACE];
    int ncycles;
} vector;

static int get_int(const cJSON *obj, const char *key)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsNumber(item) ? item->valueint : -1;
}

static regs get_regs(const cJSON *state)
{
    regs r = {get_int(state, "pc"), get_int(state, "s"), get_int(state, "a"),
              get_int(state, "x"), get_int(state, "y"), get_int(state, "p")};
    return r;
}

static int get_ram(const cJSON *state, int ram[MAX_RAM][2])
{
    int n = 0;
    const cJSON *cell;
    cJSON_ArrayForEach(cell, cJSON_GetObjectItemCaseSensitive(state, "ram")) {
        if (n == MAX_RAM || cJSON_GetArraySize(cell) != 2) return -1;
        ram[n][0] = cJSON_GetArrayItem(cell, 0)->valueint & 0xFFFF;
        ram[n][1] = cJSON_GetArrayItem(cell, 1)->valueint & 0xFF;
        n++;
    }
    return n;
}

/* Returns 0 when the test object has the expected shape. */
static int parse_vector(const cJSON *test, vector *v)
{
    memset(v, 0, sizeof *v);
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(test, "name");
    const cJSON *initial = cJSON_GetObjectItemCaseSensitive(test, "initial");
    const cJSON *final = cJSON_GetObjectItemCaseSensitive(test, "final");
    const cJSON *cycles = cJSON_GetObjectItemCaseSensitive(test, "cycles");
    if (!cJSON_IsString(name) || !cJSON_IsObject(initial) || !cJSON_IsObject(final) ||
        !cJSON_IsArray(cycles))
        return -1;
    v->name = name->valuestring;
    v->initial = get_regs(initial);
    v->final = get_regs(final);
    v->initial_count = get_ram(initial, v->initial_ram);
    v->final_count = get_ram(final, v->final_ram);
    if (v->initial_count < 0 || v->final_count < 0 || v->initial.pc < 0 || v->final.pc < 0)
        return -1;
    const cJSON *c;
    cJSON_ArrayForEach(c, cycles) {
        if (v->ncycles == MAX_TRACE || cJSON_GetArraySize(c) != 3) return -1;
        const cJSON *kind = cJSON_GetArrayItem(c, 2);
        if (!cJSON_IsString(kind)) return -1;
        trace_entry *t = &v->cycles[v->ncycles++];
        t->addr = (uint16_t)cJSON_GetArrayItem(c, 0)->valueint;
        t->value = (uint8_t)cJSON_GetArrayItem(c, 1)->valueint;
        t->write = strcmp(kind->valuestring, "write") == 0;
    }
    return v->ncycles > 0 ? 0 : -1;
}

/* --- Errata ------------------------------------------------------------
 * The vectors in ../shared are a 2022 snapshot. Upstream later fixed two
 * errors in it, and the core follows the hardware, so for these opcodes the
 * test corrects the expectation the way upstream did and then compares
 * just as strictly (the corrected vectors are counted and printed):
 *  - ProcessorTests issue #46 (fixed with TomHarte/CLK PR #1161): NOP abs
 *    ($0C) reads its operand address in a 4th cycle, and NOP abs,X ($1C $3C
 *    $5C $7C $DC $FC) takes the extra cycle (a read at the fixed address)
 *    when indexing crosses a page, like every other indexed read.
 *  - ProcessorTests issue #61 (corrected to Visual6502 results): SHA ($93
 *    $9F), SHX ($9E), SHY ($9C) and TAS ($9B) store reg & (H+1), H being the
 *    high byte of the base address, and on a page cross that value also
 *    becomes the high byte of the address written. */

static int initial_byte(const vector *v, int addr)
{
    for (int i = 0; i < v->initial_count; i++)
        if (v->initial_ram[i][0] == addr) return v->initial_ram[i][1];
    return 0; /* not listed: the test memory holds zero there */
}

static void set_final_byte(vector *v, int addr, int value)
{
    for (int i = 0; i < v->final_count; i++)
        if (v->final_ram[i][0] == addr) {
            v->final_ram[i][1] = value;
            return;
        }
    if (v->final_count < MAX_RAM) {
        v->final_ram[v->final_count][0] = addr;
        v->final_ram[v->final_count][1] = value;
        v->final_count++;
    }
}

/* Operand address of an abs,X / abs,Y / (zp),Y instruction: base and index. */
static int base_address(const vector *v, int opcode, int *index)
{
    int pc = v->initial.pc;
    int lo = initial_byte(v, (pc + 1) & 0xFFFF);
    if (opcode == 0x93) {
        *index = v->initial.y;
        return initial_byte(v, lo) | initial_byte(v, (lo + 1) & 0xFF) << 8;
    }
    int hi = initial_byte(v, (pc + 2) & 0xFFFF);
    *index = (opcode & 0x1F) == 0x1C ? v->initial.x : v->initial.y; /* $xC: X, $xE/$xF/$9B: Y */
    return lo | hi << 8;
}

/* Applies the errata to one vector; returns 1 if it changed it. */
static int apply_errata(int opcode, vector *v)
{
    if (opcode == 0x0C) {
        int addr = initial_byte(v, (v->initial.pc + 1) & 0xFFFF) |
                   initial_byte(v, (v->initial.pc + 2) & 0xFFFF) << 8;
        trace_entry *t = &v->cycles[v->ncycles++];
        t->addr = (uint16_t)addr;
        t->value = (uint8_t)initial_byte(v, addr);
        t->write = 0;
        return 1;
    }
    int index;
    if (opcode == 0x1C || opcode == 0x3C || opcode == 0x5C || opcode == 0x7C ||
        opcode == 0xDC || opcode == 0xFC) {
        int base = base_address(v, opcode, &index);
        int fixed = (base + index) & 0xFFFF;
        if ((fixed >> 8) == (base >> 8)) return 0;
        trace_entry *t = &v->cycles[v->ncycles++];
        t->addr = (uint16_t)fixed;
        t->value = (uint8_t)initial_byte(v, fixed);
        t->write = 0;
        return 1;
    }
    if (opcode == 0x93 || opcode == 0x9B || opcode == 0x9C || opcode == 0x9E || opcode == 0x9F) {
        int base = base_address(v, opcode, &index);
        int fixed = (base + index) & 0xFFFF;
        if ((fixed >> 8) == (base >> 8)) return 0;
        int reg = opcode == 0x9C ? v->initial.y
                  : opcode == 0x9E ? v->initial.x
                                   : (v->initial.a & v->initial.x);
        int value = reg & (((base >> 8) + 1) & 0xFF);
        int addr = (value << 8) | (fixed & 0xFF);
        trace_entry *t = &v->cycles[v->ncycles - 1]; /* the write */
        set_final_byte(v, t->addr, initial_byte(v, t->addr)); /* not written after all */
        t->addr = (uint16_t)addr;
        t->value = (uint8_t)value;
        set_final_byte(v, addr, value);
        return 1;
    }
    return 0;
}

enum variant {
    V_BUS, V_BUS_HOOKS, V_FLAT, V_FLAT_HOOKS,
    V_ENGINE, V_ENGINE_SWITCH, V_ENGINE_SWITCH_HOOKS, /* the bus variant's set-up */
    V_COUNT
};
static const char *const variant_names[V_COUNT] = {
    "bus", "bus+hooks", "flat", "flat+hooks", "engine", "engine (switch)",
    "engine (switch)+hooks"};

typedef struct harte_run {
    uint8_t *mem;
    harte_bus bus;
    char first_error[512];
    int failures;
} harte_run;

static void fail(harte_run *run, const char *name, const char *variant, const char *what)
{
    if (run->failures++ == 0)
        snprintf(run->first_error, sizeof run->first_error, "test \"%s\" (%s): %s", name, variant,
                 what);
}

/* Runs one vector in one loop variant of the core. */
static void run_vector(harte_run *run, const vector *vec, enum variant variant)
{
    const char *vname = variant_names[variant];
    char what[256];

    for (int i = 0; i < vec->initial_count; i++)
        run->mem[vec->initial_ram[i][0]] = (uint8_t)vec->initial_ram[i][1];
    run->bus.mem = run->mem;
    run->bus.count = 0;
    run->bus.overflow = 0;

    mh_cpu6502_desc desc;
    memset(&desc, 0, sizeof desc);
    if (variant != V_FLAT && variant != V_FLAT_HOOKS) {
        desc.read = bus_read;
        desc.write = bus_write;
        desc.user = &run->bus;
    } else {
        desc.memory = run->mem;
    }
    mh_cpu6502 cpu;
    if (mh_cpu6502_init(&cpu, &desc) != MH_OK) {
        fail(run, vec->name, vname, "init failed");
        return;
    }
    if (variant == V_BUS_HOOKS || variant == V_ENGINE_SWITCH_HOOKS)
        mh_cpu6502_set_hooks(&cpu, hook_sync, NULL, NULL);
    if (variant == V_FLAT_HOOKS) mh_cpu6502_set_hooks(&cpu, hook_sync, hook_access, &run->bus);
    cpu.pc = (uint16_t)vec->initial.pc;
    cpu.s = (uint8_t)vec->initial.s;
    cpu.a = (uint8_t)vec->initial.a;
    cpu.x = (uint8_t)vec->initial.x;
    cpu.y = (uint8_t)vec->initial.y;
    cpu.p = (uint8_t)vec->initial.p;
    cpu.state = MH_CPU6502_STATE_FETCH;
    cpu.cycles = 0;

    uint32_t ran = 0;
    cpu.stop_reason = MH_CPU6502_STOP_NONE; /* as mh_cpu6502_run() for the engines */
    if (variant == V_BUS || variant == V_BUS_HOOKS) {
        for (int i = 0; i < vec->ncycles; i++) ran += mh_cpu6502_tick(&cpu);
    } else if (variant == V_ENGINE) {
        ran = harte_engine(&cpu, (uint32_t)vec->ncycles);
    } else if (variant == V_ENGINE_SWITCH) {
        /* cycle by cycle: every state entered at the top of a run */
        for (int i = 0; i < vec->ncycles; i++) ran += harte_engine_switch(&cpu, 1);
    } else if (variant == V_ENGINE_SWITCH_HOOKS) {
        ran = harte_engine_switch_hooks(&cpu, (uint32_t)vec->ncycles);
    } else {
        ran = mh_cpu6502_run(&cpu, (uint32_t)vec->ncycles);
    }

    const regs *want = &vec->final;
    if (ran != (uint32_t)vec->ncycles) {
        snprintf(what, sizeof what, "ran %u cycles, want %d", (unsigned)ran, vec->ncycles);
        fail(run, vec->name, vname, what);
    } else if (cpu.pc != want->pc || cpu.s != want->s || cpu.a != want->a || cpu.x != want->x ||
               cpu.y != want->y || cpu.p != want->p) {
        snprintf(what, sizeof what,
                 "registers pc=%04X s=%02X a=%02X x=%02X y=%02X p=%02X, want pc=%04X s=%02X "
                 "a=%02X x=%02X y=%02X p=%02X",
                 cpu.pc, cpu.s, cpu.a, cpu.x, cpu.y, cpu.p, want->pc, want->s, want->a, want->x,
                 want->y, want->p);
        fail(run, vec->name, vname, what);
    } else if (!cpu.jammed && cpu.state != MH_CPU6502_STATE_FETCH) {
        fail(run, vec->name, vname, "not at an instruction boundary after the cycles");
    } else if (cpu.cycles != (uint64_t)vec->ncycles) {
        fail(run, vec->name, vname, "cycle counter does not match");
    }

    for (int i = 0; i < vec->final_count; i++) {
        int addr = vec->final_ram[i][0], value = vec->final_ram[i][1];
        if (run->mem[addr] != value) {
            snprintf(what, sizeof what, "ram[$%04X] = $%02X, want $%02X", addr, run->mem[addr],
                     value);
            fail(run, vec->name, vname, what);
            break;
        }
    }

    if (variant != V_FLAT) {
        if (run->bus.overflow || run->bus.count != vec->ncycles) {
            snprintf(what, sizeof what, "%d bus accesses, want %d", run->bus.count, vec->ncycles);
            fail(run, vec->name, vname, what);
        } else {
            for (int i = 0; i < vec->ncycles; i++) {
                const trace_entry *t = &run->bus.trace[i], *w = &vec->cycles[i];
                if (t->addr != w->addr || t->value != w->value || t->write != w->write) {
                    snprintf(what, sizeof what,
                             "cycle %d: %s $%04X = $%02X, want %s $%04X = $%02X", i + 1,
                             t->write ? "write" : "read", t->addr, t->value,
                             w->write ? "write" : "read", w->addr, w->value);
                    fail(run, vec->name, vname, what);
                    break;
                }
            }
        }
    }

    /* Clean up: everything this vector touched back to zero. */
    for (int i = 0; i < vec->initial_count; i++) run->mem[vec->initial_ram[i][0]] = 0;
    for (int i = 0; i < vec->final_count; i++) run->mem[vec->final_ram[i][0]] = 0;
    for (int i = 0; i < run->bus.count; i++) run->mem[run->bus.trace[i].addr] = 0;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) != 0) {
        fclose(f);
        return NULL;
    }
    long size = ftell(f);
    rewind(f);
    char *text = size >= 0 ? malloc((size_t)size + 1) : NULL;
    if (text && fread(text, 1, (size_t)size, f) != (size_t)size) {
        free(text);
        text = NULL;
    }
    if (text) text[size] = '\0';
    fclose(f);
    return text;
}

/* Runs every vector of one opcode; returns the number of vectors that
 * passed in all variants, or -1 (with *error set) when the file is bad. */
static int run_opcode(int opcode, uint8_t *mem, int *vectors, int *corrected, char *error,
                      size_t error_size)
{
    char rel[64];
    snprintf(rel, sizeof rel, "harte6502/v1/%02x.json", opcode);
    char *path = mh_test_shared_path(rel);
    char *text = path ? read_file(path) : NULL;
    if (!text) {
        snprintf(error, error_size, "opcode $%02X: cannot read %s", opcode, path ? path : rel);
        free(path);
        return -1;
    }
    cJSON *tests = cJSON_Parse(text);
    free(text);
    if (!cJSON_IsArray(tests) || cJSON_GetArraySize(tests) == 0) {
        snprintf(error, error_size, "opcode $%02X: %s is not a JSON array of tests", opcode, path);
        cJSON_Delete(tests);
        free(path);
        return -1;
    }
    free(path);

    harte_run run;
    memset(&run, 0, sizeof run);
    run.mem = mem;
    int passed = 0, total = 0;
    const cJSON *test;
    cJSON_ArrayForEach(test, tests) {
        vector vec;
        total++;
        if (parse_vector(test, &vec) != 0) {
            fail(&run, "?", "parse", "a test does not have the Harte v1 layout");
            continue;
        }
        *corrected += apply_errata(opcode, &vec);
        int before = run.failures;
        for (int v = 0; v < V_COUNT; v++) run_vector(&run, &vec, (enum variant)v);
        if (run.failures == before) passed++;
    }
    cJSON_Delete(tests);
    for (int i = 0; i < 0x10000; i++) {
        if (mem[i]) {
            snprintf(error, error_size, "opcode $%02X: stray write to $%04X", opcode, i);
            memset(mem, 0, 0x10000);
            return -1;
        }
    }
    *vectors = total;
    if (run.failures) {
        snprintf(error, error_size, "opcode $%02X: %d of %d vectors failed; first: %s", opcode,
                 total - passed, total, run.first_error);
        return -1;
    }
    return passed;
}

static int harte_total_passed;
static int harte_total_vectors;
static int harte_total_corrected;

static void run_row(int row)
{
    uint8_t *mem = calloc(1, 0x10000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mem);
    for (int op = row * 16; op < row * 16 + 16; op++) {
        char error[1024];
        int vectors = 0;
        int passed = run_opcode(op, mem, &vectors, &harte_total_corrected, error, sizeof error);
        harte_total_vectors += vectors;
        if (passed < 0) {
            fprintf(stderr, "\n  harte6502: %s\n", error);
            CU_FAIL(error);
        } else {
            harte_total_passed += passed;
        }
    }
    free(mem);
}

#define HARTE_ROW(n) \
    static void test_harte_row_##n(void) { run_row(0x##n); }
HARTE_ROW(0) HARTE_ROW(1) HARTE_ROW(2) HARTE_ROW(3) HARTE_ROW(4) HARTE_ROW(5) HARTE_ROW(6)
HARTE_ROW(7) HARTE_ROW(8) HARTE_ROW(9) HARTE_ROW(a) HARTE_ROW(b) HARTE_ROW(c) HARTE_ROW(d)
HARTE_ROW(e) HARTE_ROW(f)

static void test_harte_summary(void)
{
    fprintf(stderr,
            "\n  harte6502: %d of %d vectors passed in all seven loop variants (%d of them with "
            "the upstream errata #46/#61 applied to the expectation)\n",
            harte_total_passed, harte_total_vectors, harte_total_corrected);
    CU_ASSERT(harte_total_vectors >= 256);
    CU_ASSERT_EQUAL(harte_total_passed, harte_total_vectors);
}

MH_SUITE("cpu6502.harte", NULL, NULL, MH_TEST(test_harte_row_0), MH_TEST(test_harte_row_1),
         MH_TEST(test_harte_row_2), MH_TEST(test_harte_row_3), MH_TEST(test_harte_row_4),
         MH_TEST(test_harte_row_5), MH_TEST(test_harte_row_6), MH_TEST(test_harte_row_7),
         MH_TEST(test_harte_row_8), MH_TEST(test_harte_row_9), MH_TEST(test_harte_row_a),
         MH_TEST(test_harte_row_b), MH_TEST(test_harte_row_c), MH_TEST(test_harte_row_d),
         MH_TEST(test_harte_row_e), MH_TEST(test_harte_row_f), MH_TEST(test_harte_summary))
