/* bare6502.sessions - the bare6502 plugin in the in-process host: the built
 * machine-bare6502.so is loaded with the real loader, sessions are created
 * over MCP (tools/call session_create), run with the host's runner, and
 * inspected through the chips the machine registers (mh.cpu6502/1 and
 * mh.memory/1) on each session's own thread.
 *
 * bare6502.machine - the machine type's run() contract, called directly on
 * the session thread: exact cycles at an exit-port write, JAMMED in the
 * cycle the CPU jams and afterwards, BREAK from a debugger hook, ports seen
 * through peek/poke. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host_harness.h"
#include "loader.h"
#include "mcphost/asm6502.h"
#include "files.h"
#include "mcphost/machine.h"
#include "mh_test.h"
#include "test_memory_runs_common.h"
#include "registry.h"
#include "sessions.h"

#ifndef MH_BARE6502_PLUGIN
#error "MH_BARE6502_PLUGIN (the path of the built machine-bare6502.so) must be defined"
#endif

static mh_harness h;
static char tmpdir[64];

static int suite_init(void)
{
    char error[1024];
    snprintf(tmpdir, sizeof tmpdir, "/tmp/mh_bare6502_sessions_XXXXXX");
    if (!mkdtemp(tmpdir)) return -1;
    if (mh_harness_init(&h, 0) != 0) return -1;
    /* Programs are made in tmpdir: the allowed directory (mh.files/1). */
    void *allowed[1] = {tmpdir};
    mh_ptrvec dirs = {allowed, 1, 1};
    if (mh_files_setup(&h.ctx, &dirs, error, sizeof error) != 0) return -1;
    if (mh_loader_load_file(&h.ctx, MH_BARE6502_PLUGIN, error, sizeof error) != MH_OK) {
        fprintf(stderr, "loading %s: %s\n", MH_BARE6502_PLUGIN, error);
        return -1;
    }
    mh_harness_initialize(&h, "2025-11-25");
    return 0;
}

static int suite_cleanup(void)
{
    mh_files_free(&h.ctx);
    mh_harness_free(&h);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Assembles source into a .prg in the temp dir; returns its path (static
 * buffer per call site is not enough, so the caller passes one). */
static int make_prg(char *path, size_t size, const char *name, const char *source)
{
    snprintf(path, size, "%s/%s", tmpdir, name);
    mh_asm6502_result result;
    if (mh_asm6502_assemble(source, strlen(source), NULL, &result) != MH_OK) {
        fprintf(stderr, "assembly failed: %s\n", result.error);
        mh_asm6502_result_free(&result);
        return -1;
    }
    static uint8_t image[65536], written[8192];
    memset(image, 0, sizeof image);
    mh_asm6502_to_image(&result, image, written);
    mh_asm6502_result_free(&result);
    int lo = -1, hi = -1;
    for (int a = 0; a < 65536; a++)
        if (written[a / 8] & (1u << (a % 8))) {
            if (lo < 0) lo = a;
            hi = a;
        }
    FILE *f = fopen(path, "wb");
    if (!f || lo < 0) {
        if (f) fclose(f);
        return -1;
    }
    uint8_t header[2] = {(uint8_t)(lo & 0xFF), (uint8_t)(lo >> 8)};
    fwrite(header, 1, 2, f);
    fwrite(image + lo, 1, (size_t)(hi - lo + 1), f);
    return fclose(f);
}

static char *read_text(const char *path)
{
    static char text[4096];
    text[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (!f) return text;
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    return text;
}

/* ---- running a function on a session's emulation thread ---- */

typedef struct session_job {
    void (*fn)(void *arg, mh_session *s);
    void *arg;
    pthread_mutex_t lock;
    pthread_cond_t done_cond;
    int done;
} session_job;

static void job_trampoline(void *arg, mh_session *s)
{
    session_job *job = arg;
    if (s) job->fn(job->arg, s);
    pthread_mutex_lock(&job->lock);
    job->done = 1;
    pthread_cond_signal(&job->done_cond);
    pthread_mutex_unlock(&job->lock);
}

static void on_session_thread(mh_session *s, void (*fn)(void *, mh_session *), void *arg)
{
    session_job job = {fn, arg, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
    mh_session_post(s, job_trampoline, &job);
    pthread_mutex_lock(&job.lock);
    while (!job.done) pthread_cond_wait(&job.done_cond, &job.lock);
    pthread_mutex_unlock(&job.lock);
}

/* What a job reads from a session through its chips. */
typedef struct probe {
    int have_cpu, have_memory;
    uint8_t a;            /* CPU's A */
    uint16_t pc;
    char model[16];
    uint8_t result_byte;  /* cpu space $0200 */
    uint8_t ram_byte;     /* ram space $0200 */
    size_t spaces;
    char space0[16], space1[16];
} probe;

static void probe_job(void *arg, mh_session *s)
{
    probe *p = arg;
    const mh_chip *cpu = mh_session_service_impl.find_chip(s, MH_IFACE_CPU6502, "cpu");
    const mh_chip *mem = mh_session_service_impl.find_chip(s, MH_IFACE_MEMORY, "memory");
    p->have_cpu = cpu != NULL;
    p->have_memory = mem != NULL;
    if (cpu) {
        const mh_cpu6502_iface *iface = cpu->vtable;
        mh_cpu6502 *state = iface->state(cpu->context);
        p->a = state->a;
        p->pc = state->pc;
        snprintf(p->model, sizeof p->model, "%s", iface->model_name(cpu->context));
    }
    if (mem) {
        const mh_memory_iface *iface = mem->vtable;
        p->spaces = iface->space_count(mem->context);
        snprintf(p->space0, sizeof p->space0, "%s", iface->space(mem->context, 0)->name);
        snprintf(p->space1, sizeof p->space1, "%s", iface->space(mem->context, 1)->name);
        iface->peek(mem->context, 0, 0x0200, &p->result_byte, 1);
        iface->peek(mem->context, 1, 0x0200, &p->ram_byte, 1);
    }
}

/* A program that writes `letter` four times to the output port, stores
 * `value` at $0200 and in A, and exits with `code`. Both sessions run the
 * same addresses, so shared state would show. */
static int make_session_prg(char *path, size_t size, const char *name, char letter, int value,
                            int code)
{
    char source[1024];
    snprintf(source, sizeof source,
             "        *= $0800\n"
             "        LDX #4\n"
             "loop    LDA #'%c'\n"
             "        STA $F001\n"
             "        LDY #0\n"
             "delay   DEY\n"
             "        BNE delay\n"
             "        DEX\n"
             "        BNE loop\n"
             "        LDA #%d\n"
             "        STA $0200\n"
             "        LDY #%d\n"
             "        STY $F002\n",
             letter, value, code);
    return make_prg(path, size, name, source);
}

static void test_two_sessions_run_independently(void)
{
    char prg_a[512], prg_b[512], out_a[512], out_b[512], args[2048];
    CU_ASSERT_EQUAL_FATAL(make_session_prg(prg_a, sizeof prg_a, "a.prg", 'A', 0x11, 3), 0);
    CU_ASSERT_EQUAL_FATAL(make_session_prg(prg_b, sizeof prg_b, "b.prg", 'B', 0x22, 5), 0);
    snprintf(out_a, sizeof out_a, "%s/a.out", tmpdir);
    snprintf(out_b, sizeof out_b, "%s/b.out", tmpdir);

    /* Options as an agent sends them: a number and both address strings. */
    snprintf(args, sizeof args,
             "{\"machine\":\"bare6502\",\"name\":\"bare-a\",\"options\":{\"program\":\"%s\","
             "\"output\":\"%s\",\"exit_port\":61442,\"clock_hz\":2000000}}",
             prg_a, out_a);
    const cJSON *r = mh_harness_call_tool(&h, "session_create", args);
    CU_ASSERT_FALSE_FATAL(mh_harness_is_error(r));
    snprintf(args, sizeof args,
             "{\"machine\":\"bare6502\",\"name\":\"bare-b\",\"options\":{\"program\":\"%s\","
             "\"output\":\"%s\",\"output_port\":\"$F001\",\"irq_port\":\"0xF003\"}}",
             prg_b, out_b);
    r = mh_harness_call_tool(&h, "session_create", args);
    CU_ASSERT_FALSE_FATAL(mh_harness_is_error(r));

    /* Both sessions list the machine's two capability chips. */
    r = mh_harness_call_tool(&h, "session_list", "{}");
    const cJSON *sessions =
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r, "structuredContent"),
                                         "sessions");
    int seen = 0;
    const cJSON *session;
    cJSON_ArrayForEach(session, sessions)
    {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(session, "name");
        if (!cJSON_IsString(name) || strncmp(name->valuestring, "bare-", 5) != 0) continue;
        seen++;
        const cJSON *chips = cJSON_GetObjectItemCaseSensitive(session, "chips");
        CU_ASSERT_TRUE(mh_harness_has_chip(chips, "mh.cpu6502/1", "cpu"));
        CU_ASSERT_TRUE(mh_harness_has_chip(chips, "mh.memory/1", "memory"));
        CU_ASSERT_TRUE(mh_harness_has_chip(chips, "mh.caps/1", "caps"));
        CU_ASSERT_STRING_EQUAL(
            cJSON_GetObjectItemCaseSensitive(session, "machine")->valuestring, "bare6502");
    }
    CU_ASSERT_EQUAL(seen, 2);

    /* host_info lists the machine type and the sessions' chips too. */
    r = mh_harness_call_tool(&h, "host_info", "{}");
    const cJSON *info = cJSON_GetObjectItemCaseSensitive(r, "structuredContent");
    int machine_listed = 0;
    const cJSON *machine;
    cJSON_ArrayForEach(machine, cJSON_GetObjectItemCaseSensitive(info, "machines"))
    {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(machine, "name");
        if (cJSON_IsString(name) && strcmp(name->valuestring, "bare6502") == 0) machine_listed = 1;
    }
    CU_ASSERT_TRUE(machine_listed);
    int info_chips = 0;
    cJSON_ArrayForEach(session, cJSON_GetObjectItemCaseSensitive(info, "sessions"))
    {
        const cJSON *chips = cJSON_GetObjectItemCaseSensitive(session, "chips");
        if (mh_harness_has_chip(chips, "mh.cpu6502/1", "cpu") && mh_harness_has_chip(chips, "mh.memory/1", "memory"))
            info_chips++;
    }
    CU_ASSERT_EQUAL(info_chips, 2);

    /* Run both at once with the host's runner; each exits with its code. */
    mh_session *a = mh_sessions_find(h.ctx.sessions, "bare-a");
    mh_session *b = mh_sessions_find(h.ctx.sessions, "bare-b");
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    mh_session_start(a, 1, 10000000);
    mh_session_start(b, 1, 10000000);
    CU_ASSERT_EQUAL(mh_session_wait_finished(a), 3);
    CU_ASSERT_EQUAL(mh_session_wait_finished(b), 5);
    CU_ASSERT_STRING_EQUAL(read_text(out_a), "AAAA");
    CU_ASSERT_STRING_EQUAL(read_text(out_b), "BBBB");

    /* Each session's memory and CPU hold its own program's results. */
    probe pa = {0}, pb = {0};
    on_session_thread(a, probe_job, &pa);
    on_session_thread(b, probe_job, &pb);
    CU_ASSERT_TRUE(pa.have_cpu && pa.have_memory && pb.have_cpu && pb.have_memory);
    CU_ASSERT_EQUAL(pa.result_byte, 0x11);
    CU_ASSERT_EQUAL(pb.result_byte, 0x22);
    CU_ASSERT_EQUAL(pa.ram_byte, 0x11);
    CU_ASSERT_EQUAL(pb.ram_byte, 0x22);
    CU_ASSERT_EQUAL(pa.a, 0x11);
    CU_ASSERT_EQUAL(pb.a, 0x22);
    CU_ASSERT_EQUAL(pa.pc, pb.pc); /* same program layout, stopped after the exit store */
    CU_ASSERT_STRING_EQUAL(pa.model, "6502");
    CU_ASSERT_EQUAL(pa.spaces, 2);
    CU_ASSERT_STRING_EQUAL(pa.space0, "cpu");
    CU_ASSERT_STRING_EQUAL(pa.space1, "ram");
    mh_session_unref(a);
    mh_session_unref(b);

    r = mh_harness_call_tool(&h, "session_destroy", "{\"session\":\"bare-a\"}");
    CU_ASSERT_FALSE(mh_harness_is_error(r));
    r = mh_harness_call_tool(&h, "session_destroy", "{\"session\":\"bare-b\"}");
    CU_ASSERT_FALSE(mh_harness_is_error(r));
}

static void test_session_create_reports_option_errors(void)
{
    const cJSON *r = mh_harness_call_tool(&h, "session_create",
                               "{\"machine\":\"bare6502\",\"options\":{\"program\":"
                               "\"/no/such/file.prg\"}}");
    CU_ASSERT_TRUE(mh_harness_is_error(r));
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "program: path \"/no/such/file.prg\" is outside the allowed directories"));
    r = mh_harness_call_tool(&h, "session_create", "{\"machine\":\"bare6502\",\"options\":{\"start\":\"$12G4\"}}");
    CU_ASSERT_TRUE(mh_harness_is_error(r));
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "start: expected"));
    r = mh_harness_call_tool(&h, "session_create", "{\"machine\":\"bare6502\",\"options\":{\"speed\":3}}");
    CU_ASSERT_TRUE(mh_harness_is_error(r));
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "unknown option \"speed\""));
    r = mh_harness_call_tool(&h, "session_create",
                  "{\"machine\":\"bare6502\",\"options\":{\"irq_port\":true}}");
    CU_ASSERT_TRUE(mh_harness_is_error(r));
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "irq_port: expected"));
    /* Nothing is left behind by a failed create. */
    r = mh_harness_call_tool(&h, "session_list", "{}");
    const cJSON *sessions =
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r, "structuredContent"),
                                         "sessions");
    CU_ASSERT_EQUAL(cJSON_GetArraySize(sessions), 0);
}

/* ---- bare6502.machine: run() called directly on the session thread ---- */

typedef struct run_job {
    uint64_t budget;
    mh_run_result result;
    mh_status status;
} run_job;

static const mh_machine_desc *bare_desc(void)
{
    const mh_reg_machine *m = mh_registry_machine(&h.ctx.registry, "bare6502");
    return m ? &m->desc : NULL;
}

static void run_job_fn(void *arg, mh_session *s)
{
    run_job *job = arg;
    const mh_machine_desc *desc = bare_desc();
    job->result.struct_size = sizeof job->result;
    job->status = desc->run(mh_session_service_impl.instance(s), job->budget, &job->result);
}

static mh_run_result run_direct(mh_session *s, uint64_t budget)
{
    run_job job = {budget, {0}, MH_ERR_INTERNAL};
    on_session_thread(s, run_job_fn, &job);
    CU_ASSERT_EQUAL(job.status, MH_OK);
    return job.result;
}

static mh_session *create_session(const char *name, const char *source, const char *extra_options)
{
    char prg[512], args[2048], file[64];
    snprintf(file, sizeof file, "%s.prg", name);
    if (make_prg(prg, sizeof prg, file, source) != 0) return NULL;
    snprintf(args, sizeof args,
             "{\"machine\":\"bare6502\",\"name\":\"%s\",\"options\":{\"program\":\"%s\"%s%s}}",
             name, prg, extra_options ? "," : "", extra_options ? extra_options : "");
    const cJSON *r = mh_harness_call_tool(&h, "session_create", args);
    if (mh_harness_is_error(r)) {
        fprintf(stderr, "session_create: %s\n", mh_harness_text(r));
        return NULL;
    }
    return mh_sessions_find(h.ctx.sessions, name);
}

static void destroy_session(mh_session *s)
{
    char name[64];
    snprintf(name, sizeof name, "%s", mh_session_name(s));
    mh_session_unref(s);
    CU_ASSERT_EQUAL(mh_sessions_destroy(h.ctx.sessions, name), MH_OK);
}

typedef struct cpu_view {
    uint16_t pc;
    uint64_t cycles;
    uint8_t rdy, jammed, at_boundary;
} cpu_view;

static void cpu_view_job(void *arg, mh_session *s)
{
    cpu_view *v = arg;
    const mh_chip *chip = mh_session_service_impl.find_chip(s, MH_IFACE_CPU6502, NULL);
    const mh_cpu6502 *cpu = ((const mh_cpu6502_iface *)chip->vtable)->state(chip->context);
    v->pc = cpu->pc;
    v->cycles = cpu->cycles;
    v->rdy = cpu->rdy;
    v->jammed = cpu->jammed;
    v->at_boundary = (uint8_t)mh_cpu6502_at_boundary(cpu);
}

static cpu_view view_cpu(mh_session *s)
{
    cpu_view v = {0};
    on_session_thread(s, cpu_view_job, &v);
    return v;
}

static void test_exit_stops_at_the_exact_cycle(void)
{
    /* LDA # (2) + STA abs (4): the run ends after 6 cycles, right after the
     * store, with the CPU at the next instruction and RDY released; the
     * next run carries on from there. */
    mh_session *s = create_session("exact", "*= $0800\n"
                                            "LDA #5\n"
                                            "STA $F002\n"
                                            "LDA #6\n"
                                            "STA $F002\n",
                                   NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    cpu_view before = view_cpu(s);
    CU_ASSERT_EQUAL(before.pc, 0x0800);
    CU_ASSERT_EQUAL(before.cycles, 7); /* the reset sequence ran in create() */
    mh_run_result r = run_direct(s, 100000);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_EXIT);
    CU_ASSERT_EQUAL(r.exit_code, 5);
    CU_ASSERT_EQUAL(r.cycles, 6);
    cpu_view after = view_cpu(s);
    CU_ASSERT_EQUAL(after.pc, 0x0805);
    CU_ASSERT_EQUAL(after.cycles, 13);
    CU_ASSERT_EQUAL(after.rdy, 1);
    CU_ASSERT_TRUE(after.at_boundary);
    r = run_direct(s, 100000);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_EXIT);
    CU_ASSERT_EQUAL(r.exit_code, 6);
    CU_ASSERT_EQUAL(r.cycles, 6);
    /* A budget that ends before the exit store is just a budget. */
    destroy_session(s);
    s = create_session("exact2", "*= $0800\nLDA #5\nSTA $F002\n", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    r = run_direct(s, 5);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_BUDGET);
    CU_ASSERT_EQUAL(r.cycles, 5);
    r = run_direct(s, 5);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_EXIT);
    CU_ASSERT_EQUAL(r.cycles, 1);
    destroy_session(s);
}

static void test_read_modify_write_exit(void)
{
    /* INC abs writes twice (the old value, then the new): the first write
     * ends the run, with the old value, and the second still counts. */
    mh_session *s = create_session("rmw", "*= $0800\nINC $F002\nBRK\n", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    mh_run_result r = run_direct(s, 1000);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_EXIT);
    CU_ASSERT_EQUAL(r.exit_code, 0); /* the exit port reads 0 */
    CU_ASSERT_EQUAL(r.cycles, 6);
    cpu_view v = view_cpu(s);
    CU_ASSERT_EQUAL(v.pc, 0x0803);
    CU_ASSERT_TRUE(v.at_boundary);
    destroy_session(s);
}

static void test_jam_reports_jammed_and_the_clock_goes_on(void)
{
    mh_session *s = create_session("jam", "*= $0800\nNOP\nJAM\n", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    mh_run_result r = run_direct(s, 100000);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_JAMMED);
    CU_ASSERT_EQUAL(r.cycles, 2 + 3); /* NOP, then the JAM's three cycles */
    r = run_direct(s, 50000);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_JAMMED);
    CU_ASSERT_EQUAL(r.cycles, 50000);
    cpu_view v = view_cpu(s);
    CU_ASSERT_TRUE(v.jammed);
    CU_ASSERT_EQUAL(v.pc, 0x0801);
    CU_ASSERT_EQUAL(v.cycles, 7 + 5 + 50000);
    destroy_session(s);
}

/* Debug hooks: stop before the instruction at $0804. */
static int stop_at_0804(void *user, uint16_t pc)
{
    (*(int *)user)++;
    return pc == 0x0804;
}

static int hook_calls;

static void install_hook_job(void *arg, mh_session *s)
{
    const mh_chip *chip = mh_session_service_impl.find_chip(s, MH_IFACE_CPU6502, "cpu");
    const mh_cpu6502_iface *iface = chip->vtable;
    if (arg)
        iface->set_debug_hooks(chip->context, stop_at_0804, NULL, &hook_calls);
    else
        iface->set_debug_hooks(chip->context, NULL, NULL, NULL);
}

static void test_debug_hook_breaks(void)
{
    mh_session *s = create_session("hook", "*= $0800\nNOP\nNOP\nLDA #1\nSTA $F002\n", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    hook_calls = 0;
    on_session_thread(s, install_hook_job, (void *)1);
    mh_run_result r = run_direct(s, 100000);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_BREAK);
    CU_ASSERT_EQUAL(r.cycles, 6); /* NOP, NOP, LDA # */
    CU_ASSERT_EQUAL(view_cpu(s).pc, 0x0804);
    CU_ASSERT_EQUAL(hook_calls, 4); /* $0800, $0801, $0802, $0804 */
    r = run_direct(s, 100000); /* resumes the stopped instruction */
    CU_ASSERT_EQUAL(r.stop, MH_RUN_EXIT);
    CU_ASSERT_EQUAL(r.exit_code, 1);
    CU_ASSERT_EQUAL(r.cycles, 4);
    /* The instruction after the exit store never runs, so the hook is not
     * asked about it. */
    CU_ASSERT_EQUAL(hook_calls, 4);
    on_session_thread(s, install_hook_job, NULL);
    destroy_session(s);
}

typedef struct port_probe {
    uint8_t cpu_bytes[3], ram_bytes[3];
    size_t bank_port, bank_ram;
    mh_status bad_range;
    size_t bulk_bad; /* bytes the bulk reads got wrong */
} port_probe;

/* The reference for the bulk reads of "cpu": the plain RAM with the three
 * ports' values over it (output: the last byte, exit: 0, irq: the lines). */
typedef struct bare_reference {
    uint8_t ram[65536];
} bare_reference;

static uint8_t bare_ref_byte(const void *ref, uint16_t addr)
{
    switch (addr) {
    case 0xF001: return 'Z';
    case 0xF002: return 0;
    case 0xF003: return 0x03;
    default: return ((const bare_reference *)ref)->ram[addr];
    }
}

static void ports_job(void *arg, mh_session *s)
{
    port_probe *p = arg;
    const mh_chip *chip = mh_session_service_impl.find_chip(s, MH_IFACE_MEMORY, "memory");
    const mh_memory_iface *mem = chip->vtable;
    /* poke acts like a CPU write: output byte, interrupt lines, exit. */
    const uint8_t out = 'Z', irq = 0x03, under = 0x5A, exit_code = 77;
    mem->poke(chip->context, 0, 0xF001, &out, 1);
    mem->poke(chip->context, 0, 0xF003, &irq, 1);
    mem->poke(chip->context, 1, 0xF002, &under, 1); /* the RAM under the exit port */
    mem->peek(chip->context, 0, 0xF001, p->cpu_bytes, 3);
    mem->peek(chip->context, 1, 0xF001, p->ram_bytes, 3);
    p->bank_port = mem->bank_at(chip->context, 0xF002);
    p->bank_ram = mem->bank_at(chip->context, 0xF004);
    p->bad_range = mem->peek(chip->context, 0, 0xFFFF, p->cpu_bytes, 2) == MH_OK
                       ? MH_OK
                       : MH_ERR_INVALID_ARGUMENT;
    /* memory_read's bulk path: RAM runs in place between the ports. */
    bare_reference *ref = malloc(sizeof *ref);
    if (ref) {
        mrt_fill_pattern(ref->ram, sizeof ref->ram, 7);
        mem->poke(chip->context, 1, 0, ref->ram, sizeof ref->ram);
        p->bulk_bad = mrt_compare_cpu_space(chip, 1, ref, bare_ref_byte, "bare6502, three ports");
        free(ref);
    } else {
        p->bulk_bad = 1;
    }
    mem->poke(chip->context, 0, 0xF002, &exit_code, 1);
}

static void test_ports_through_the_memory_chip(void)
{
    char out[512], options[600];
    snprintf(out, sizeof out, "%s/ports.out", tmpdir);
    snprintf(options, sizeof options, "\"output\":\"%s\"", out);
    mh_session *s = create_session("ports", "*= $0800\nloop JMP loop\n", options);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    port_probe p = {{0}, {0}, 9, 9, MH_OK, 0};
    on_session_thread(s, ports_job, &p);
    CU_ASSERT_EQUAL(p.cpu_bytes[0], 'Z');  /* output port: last byte written */
    CU_ASSERT_EQUAL(p.cpu_bytes[1], 0);    /* exit port reads 0 */
    CU_ASSERT_EQUAL(p.cpu_bytes[2], 0x03); /* irq port: both lines */
    CU_ASSERT_EQUAL(p.ram_bytes[0], 0);    /* RAM under the ports is untouched by port writes */
    CU_ASSERT_EQUAL(p.ram_bytes[1], 0x5A);
    CU_ASSERT_EQUAL(p.ram_bytes[2], 0);
    CU_ASSERT_EQUAL(p.bank_port, 0);
    CU_ASSERT_EQUAL(p.bank_ram, 1);
    CU_ASSERT_EQUAL(p.bad_range, MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(p.bulk_bad, 0);
    /* The poked exit ends the next run at once. */
    mh_run_result r = run_direct(s, 1000);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_EXIT);
    CU_ASSERT_EQUAL(r.exit_code, 77);
    CU_ASSERT_EQUAL(r.cycles, 0);
    CU_ASSERT_STRING_EQUAL(read_text(out), "Z");
    destroy_session(s);
}

/* ---- mh_session_post_quick: a read-only job on an idle machine ---- */

typedef struct quick_record {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int done;
    int ran_with_session;
    pthread_t thread;       /* where the job ran */
    int on_its_thread;      /* mh_session_on_its_thread() inside the job */
    int order;              /* 1: ran first, 2: second */
    struct quick_record *follow; /* posted from inside the job (normal post) */
} quick_record;

static int quick_order; /* set by the jobs below, read after they are done */

static void quick_mark(quick_record *r, mh_session *s)
{
    r->ran_with_session = s != NULL;
    r->thread = pthread_self();
    r->on_its_thread = s ? mh_session_on_its_thread(s) : 0;
    pthread_mutex_lock(&r->lock);
    r->order = ++quick_order;
    r->done = 1;
    pthread_cond_signal(&r->cond);
    pthread_mutex_unlock(&r->lock);
}

static void quick_follow_job(void *arg, mh_session *s) { quick_mark(arg, s); }

static void quick_job(void *arg, mh_session *s)
{
    quick_record *r = arg;
    /* A job posted meanwhile waits for the borrowed machine and runs after. */
    if (r->follow && s) mh_session_post(s, quick_follow_job, r->follow);
    quick_mark(r, s);
}

static void quick_wait(quick_record *r)
{
    pthread_mutex_lock(&r->lock);
    while (!r->done) pthread_cond_wait(&r->cond, &r->lock);
    pthread_mutex_unlock(&r->lock);
}

static void quick_init(quick_record *r)
{
    memset(r, 0, sizeof *r);
    pthread_mutex_init(&r->lock, NULL);
    pthread_cond_init(&r->cond, NULL);
}

static void test_quick_job_runs_on_the_caller_when_idle(void)
{
    mh_session *s = create_session("quick", "*= $0800\nloop JMP loop\n", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_FALSE(mh_session_on_its_thread(s));
    /* Paused: the session's thread parks between jobs; a quick job then
     * runs at once on this thread (a few tries: the thread may not have
     * parked yet after creating the machine). */
    quick_record first, follow;
    int inline_seen = 0;
    for (int attempt = 0; attempt < 200 && !inline_seen; attempt++) {
        quick_init(&first);
        quick_init(&follow);
        first.follow = &follow;
        quick_order = 0;
        mh_session_post_quick(s, quick_job, &first);
        quick_wait(&first);
        quick_wait(&follow);
        inline_seen = pthread_equal(first.thread, pthread_self());
        if (!inline_seen) usleep(1000);
    }
    CU_ASSERT_TRUE(inline_seen);
    CU_ASSERT_TRUE(first.ran_with_session);
    CU_ASSERT_TRUE(first.on_its_thread);
    CU_ASSERT_FALSE(mh_session_on_its_thread(s)); /* only while the job runs */
    /* the job it posted ran afterwards, on the session's own thread */
    CU_ASSERT_EQUAL(first.order, 1);
    CU_ASSERT_EQUAL(follow.order, 2);
    CU_ASSERT_TRUE(follow.ran_with_session);
    CU_ASSERT_FALSE(pthread_equal(follow.thread, pthread_self()));
    CU_ASSERT_TRUE(follow.on_its_thread);

    /* Running: the machine's thread is busy, so the job is queued for it. */
    mh_session_start(s, 0, 0);
    quick_record running;
    quick_init(&running);
    mh_session_post_quick(s, quick_job, &running);
    quick_wait(&running);
    CU_ASSERT_TRUE(running.ran_with_session);
    CU_ASSERT_FALSE(pthread_equal(running.thread, pthread_self()));
    CU_ASSERT_TRUE(running.on_its_thread);
    mh_session_interrupt(s, 0);
    CU_ASSERT_EQUAL(mh_session_wait_finished(s), 0);
    destroy_session(s);
}

MH_SUITE("bare6502.sessions", suite_init, suite_cleanup,
         MH_TEST(test_session_create_reports_option_errors),
         MH_TEST(test_two_sessions_run_independently),
         MH_TEST(test_quick_job_runs_on_the_caller_when_idle))

MH_SUITE("bare6502.machine", suite_init, suite_cleanup, MH_TEST(test_exit_stops_at_the_exact_cycle),
         MH_TEST(test_read_modify_write_exit), MH_TEST(test_jam_reports_jammed_and_the_clock_goes_on),
         MH_TEST(test_debug_hook_breaks), MH_TEST(test_ports_through_the_memory_chip))
