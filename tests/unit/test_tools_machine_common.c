/* test_tools_machine_common.c - the shared in-process host of the
 * tools_machine.* suites (test_tools_machine_common.h). */
#include "test_tools_machine_common.h"

#include <CUnit/CUnit.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "files.h"
#include "loader.h"
#include "mcphost/chip_cia.h"
#include "mcphost/machine.h"
#include "registry.h"
#include "sessions.h"
#include "test_c64_common.h"

mh_harness tmt_h;
char tmt_base[PATH_MAX];
char tmt_allowed[PATH_MAX + 16];
char tmt_outside[PATH_MAX + 16];
static int ready;

void tmt_path(const char *rel, char *out, size_t size) { snprintf(out, size, "%s/%s", tmt_base, rel); }

int tmt_write(const char *rel, const uint8_t *data, size_t size)
{
    char path[PATH_MAX + 64];
    tmt_path(rel, path, sizeof path);
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    size_t n = fwrite(data, 1, size, f);
    fclose(f);
    return n == size ? 0 : -1;
}

static int load(const char *path)
{
    char error[1024];
    if (mh_loader_load_file(&tmt_h.ctx, path, error, sizeof error) != MH_OK) {
        fprintf(stderr, "loading %s: %s\n", path, error);
        return -1;
    }
    return 0;
}

int tmt_setup(void)
{
    if (ready) return 0;
    char tmpl[] = "/tmp/mh_tools_machine_XXXXXX";
    if (!mkdtemp(tmpl) || !realpath(tmpl, tmt_base)) return -1;
    snprintf(tmt_allowed, sizeof tmt_allowed, "%s/allowed", tmt_base);
    snprintf(tmt_outside, sizeof tmt_outside, "%s/outside", tmt_base);
    if (mkdir(tmt_allowed, 0755) != 0 || mkdir(tmt_outside, 0755) != 0) return -1;
    static const uint8_t secret[] = "secret";
    if (tmt_write("outside/secret.txt", secret, sizeof secret) != 0) return -1;
    if (tmt_write("outside/secret.d64", secret, sizeof secret) != 0) return -1;
    static const uint8_t text[] = "not a disk image";
    if (tmt_write("allowed/notes.txt", text, sizeof text) != 0) return -1;
    char link[PATH_MAX + 64], target[PATH_MAX + 64];
    tmt_path("allowed/link_out.d64", link, sizeof link);
    tmt_path("outside/secret.d64", target, sizeof target);
    if (symlink(target, link) != 0) return -1;
    if (mh_harness_init(&tmt_h, 0) != 0) return -1;
    /* These suites are about the tools, not their confirmations (e2e.confirm
     * is): like mcphost --no-confirm. */
    tmt_h.ctx.no_confirm = 1;
    char error[1024];
    void *dirs_items[1] = {tmt_allowed};
    mh_ptrvec dirs = {dirs_items, 1, 1};
    if (mh_files_setup(&tmt_h.ctx, &dirs, error, sizeof error) != 0) return -1;
    if (load(MH_C64_PLUGIN) || load(MH_BARE6502_PLUGIN) ||
        load(MH_PLUGIN_BUILD_DIR "/tools-machine.so"))
        return -1;
    /* The chip toolsets show what machine_capabilities says of a missing
     * chip (bare6502 has none of them). */
    static const char *const chip_toolsets[] = {MH_PLUGIN_BUILD_DIR "/tools-vic2.so",
                                                MH_PLUGIN_BUILD_DIR "/tools-cia.so",
                                                MH_PLUGIN_BUILD_DIR "/tools-sid.so",
                                                MH_PLUGIN_BUILD_DIR "/tools-audio.so"};
    for (size_t i = 0; i < sizeof chip_toolsets / sizeof chip_toolsets[0]; i++)
        if (access(chip_toolsets[i], R_OK) == 0) load(chip_toolsets[i]);
    mh_harness_initialize(&tmt_h, "2025-11-25");
    const cJSON *r = mh_harness_call_tool(&tmt_h, "session_create",
                                          "{\"machine\":\"bare6502\",\"name\":\"bare\","
                                          "\"select\":false}");
    if (!r || mh_harness_is_error(r)) return -1;
    r = mh_harness_call_tool(&tmt_h, "session_create", "{\"machine\":\"c64\",\"name\":\"c64\"}");
    if (!r || mh_harness_is_error(r)) {
        fprintf(stderr, "c64: %s\n", r ? mh_harness_text(r) : "(no answer)");
        return -1;
    }
    tmt_run("c64", 150u * TMT_FRAME); /* boots to READY */
    ready = 1;
    atexit(tmt_teardown); /* when only some of the suites ran */
    return 0;
}

void tmt_teardown(void)
{
    if (!ready) return;
    mh_files_free(&tmt_h.ctx);
    mh_harness_free(&tmt_h);
    char cmd[PATH_MAX + 32];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmt_base);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmt_base);
    ready = 0;
}

const cJSON *tmt_call(const char *tool, const char *args)
{
    const cJSON *r = mh_harness_call_tool(&tmt_h, tool, args);
    if (!r) {
        const cJSON *last = mh_harness_last_response(&tmt_h);
        /* A JSON-RPC error (e.g. the host's schema check): give its message as text. */
        static cJSON *fake;
        cJSON_Delete(fake);
        fake = cJSON_CreateObject();
        cJSON_AddBoolToObject(fake, "isError", 1);
        cJSON *content = cJSON_AddArrayToObject(fake, "content");
        cJSON *item = cJSON_CreateObject();
        cJSON_AddStringToObject(item, "type", "text");
        cJSON_AddStringToObject(item, "text", last ? mh_harness_error_message(last) : "");
        cJSON_AddItemToArray(content, item);
        return fake;
    }
    return r;
}

void tmt_expect_error(const char *tool, const char *args, const char *needle1,
                      const char *needle2)
{
    const cJSON *r = tmt_call(tool, args);
    const char *text = mh_harness_text(r);
    int ok = mh_harness_is_error(r) && (!needle1 || strstr(text, needle1)) &&
             (!needle2 || strstr(text, needle2));
    if (!ok)
        fprintf(stderr, "\n  %s %s: expected an error with \"%s\" / \"%s\", got%s: %s\n", tool,
                args, needle1 ? needle1 : "", needle2 ? needle2 : "",
                mh_harness_is_error(r) ? " an error" : " success", text);
    CU_ASSERT_TRUE(ok);
}

const cJSON *tmt_expect_ok(const char *tool, const char *args)
{
    const cJSON *r = tmt_call(tool, args);
    if (mh_harness_is_error(r))
        fprintf(stderr, "\n  %s %s failed: %s\n", tool, args, mh_harness_text(r));
    CU_ASSERT_FALSE(mh_harness_is_error(r));
    return cJSON_GetObjectItemCaseSensitive(r, "structuredContent");
}

/* ---- jobs on a session's thread ---- */

typedef struct job {
    void (*fn)(struct job *j, mh_session *s);
    uint64_t cycles;
    size_t space;
    uint32_t address;
    uint8_t *data;
    size_t length;
    uint16_t reg;
    uint8_t value;
    unsigned count;
    int set_a;
    uint16_t pc;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int done;
} job;

static void trampoline(void *arg, mh_session *s)
{
    job *j = arg;
    if (s) j->fn(j, s);
    pthread_mutex_lock(&j->lock);
    j->done = 1;
    pthread_cond_signal(&j->cond);
    pthread_mutex_unlock(&j->lock);
}

static void run_job(const char *name, job *j)
{
    mh_session *s = mh_sessions_find(tmt_h.ctx.sessions, name);
    if (!s) {
        fprintf(stderr, "\n  no session \"%s\"\n", name);
        j->done = 1;
        return;
    }
    pthread_mutex_init(&j->lock, NULL);
    pthread_cond_init(&j->cond, NULL);
    mh_session_post(s, trampoline, j);
    pthread_mutex_lock(&j->lock);
    while (!j->done) pthread_cond_wait(&j->cond, &j->lock);
    pthread_mutex_unlock(&j->lock);
    pthread_cond_destroy(&j->cond);
    pthread_mutex_destroy(&j->lock);
    mh_session_unref(s);
}

static const void *vtable(mh_session *s, const char *iface, const char *instance, void **ctx)
{
    const mh_chip *chip = mh_session_service_impl.find_chip(s, iface, instance);
    if (!chip) return NULL;
    *ctx = chip->context;
    return chip->vtable;
}

static void do_run(job *j, mh_session *s)
{
    const char *machine = mh_session_machine_name(s);
    for (size_t i = 0; i < tmt_h.ctx.registry.machines.count; i++) {
        const mh_reg_machine *m = tmt_h.ctx.registry.machines.items[i];
        if (strcmp(m->name, machine) != 0) continue;
        void *instance = mh_session_service_impl.instance(s);
        uint64_t done = 0;
        while (done < j->cycles) {
            mh_run_result r = {sizeof r, 0, 0, 0};
            if (m->desc.run(instance, j->cycles - done, &r) != MH_OK || r.cycles == 0) break;
            done += r.cycles;
        }
    }
}

void tmt_run(const char *name, uint64_t cycles)
{
    job j = {.fn = do_run, .cycles = cycles};
    run_job(name, &j);
}

static void do_peek(job *j, mh_session *s)
{
    void *ctx = NULL;
    const mh_memory_iface *mem = vtable(s, MH_IFACE_MEMORY, NULL, &ctx);
    if (mem) mem->peek(ctx, j->space, j->address, j->data, j->length);
}

static void do_poke(job *j, mh_session *s)
{
    void *ctx = NULL;
    const mh_memory_iface *mem = vtable(s, MH_IFACE_MEMORY, NULL, &ctx);
    if (mem) mem->poke(ctx, j->space, j->address, j->data, j->length);
}

void tmt_peek(const char *name, size_t space, uint32_t address, uint8_t *out, size_t length)
{
    memset(out, 0xEE, length);
    job j = {.fn = do_peek, .space = space, .address = address, .data = out, .length = length};
    run_job(name, &j);
}

void tmt_poke(const char *name, size_t space, uint32_t address, const uint8_t *data,
              size_t length)
{
    job j = {.fn = do_poke, .space = space, .address = address, .data = (uint8_t *)data,
             .length = length};
    run_job(name, &j);
}

void tmt_screen(const char *name, char out[25 * 41 + 1])
{
    uint8_t screen[1000];
    tmt_peek(name, 1, 0x0400, screen, sizeof screen);
    c64t_screen_text(screen, out);
}

static void do_cia(job *j, mh_session *s)
{
    void *ctx = NULL;
    const mh_chip_cia_iface *cia = vtable(s, MH_CHIP_CIA_IFACE, "cia1", &ctx);
    if (!cia) return;
    j->value = cia->peek(ctx, j->reg);
    uint8_t held[8];
    j->count = 0;
    if (cia->keyboard && cia->keyboard(ctx, held) == MH_OK)
        for (int c = 0; c < 8; c++)
            for (int r = 0; r < 8; r++) j->count += (held[c] >> r) & 1;
}

uint8_t tmt_cia1(const char *name, uint16_t reg)
{
    job j = {.fn = do_cia, .reg = reg};
    run_job(name, &j);
    return j.value;
}

unsigned tmt_keys_held(const char *name)
{
    job j = {.fn = do_cia, .reg = 0};
    run_job(name, &j);
    return j.count;
}

static void do_cpu(job *j, mh_session *s)
{
    void *ctx = NULL;
    const mh_cpu6502_iface *cpu = vtable(s, MH_IFACE_CPU6502, NULL, &ctx);
    if (!cpu) return;
    mh_cpu6502 *state = cpu->state(ctx);
    if (j->set_a) state->a = j->value;
    j->reg = state->a;
    j->pc = state->pc;
}

void tmt_cpu(const char *name, uint8_t *a, uint16_t *pc, int set_a, uint8_t new_a)
{
    job j = {.fn = do_cpu, .set_a = set_a, .value = new_a};
    run_job(name, &j);
    if (a) *a = (uint8_t)j.reg;
    if (pc) *pc = j.pc;
}
