/* test_tools_sid_common.c - helpers of the tools_sid.* suites (see
 * test_tools_sid_common.h). No suites here. */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "debug_engine.h"
#include "files.h"
#include "loader.h"
#include "mcphost/json.h"
#include "mcphost/machine.h"
#include "sessions.h"
#include "test_c64_common.h"
#include "test_tools_sid_common.h"

#ifndef MH_C64_PLUGIN
#error "MH_C64_PLUGIN must be defined"
#endif

int sidt_init(mh_harness *h, char *tmpdir, size_t tmpdir_size)
{
    char error[1024];
    snprintf(tmpdir, tmpdir_size, "/tmp/mh_tools_sid_XXXXXX");
    if (!mkdtemp(tmpdir)) return -1;
    if (mh_harness_init(h, 0) != 0) return -1;
    mh_ptrvec dirs = {0};
    mh_ptrvec_push(&dirs, tmpdir);
    int rc = mh_files_setup(&h->ctx, &dirs, error, sizeof error);
    mh_ptrvec_free(&dirs);
    if (rc != 0) {
        fprintf(stderr, "allowed dir %s: %s\n", tmpdir, error);
        return -1;
    }
    const char *plugins[3] = {MH_C64_PLUGIN, MH_PLUGIN_BUILD_DIR "/tools-sid.so",
                              MH_PLUGIN_BUILD_DIR "/tools-audio.so"};
    for (int i = 0; i < 3; i++) {
        if (mh_loader_load_file(&h->ctx, plugins[i], error, sizeof error) != MH_OK) {
            fprintf(stderr, "loading %s: %s\n", plugins[i], error);
            return -1;
        }
    }
    mh_harness_initialize(h, "2025-11-25");
    return 0;
}

void sidt_cleanup(mh_harness *h, const char *tmpdir)
{
    /* the harness clears its context: free the allowed directories after */
    static mh_hostctx files;
    memset(&files, 0, sizeof files);
    files.allowed_dirs = h->ctx.allowed_dirs;
    files.allowed_files = h->ctx.allowed_files;
    mh_harness_free(h);
    mh_files_free(&files);
    char command[512];
    snprintf(command, sizeof command, "rm -rf '%s'", tmpdir);
    if (tmpdir[0] && strncmp(tmpdir, "/tmp/mh_tools_sid_", 18) == 0 && system(command) != 0)
        fprintf(stderr, "could not remove %s\n", tmpdir);
}

const cJSON *sidt_call(mh_harness *h, const char *tool, const char *fmt, ...)
{
    char args[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    return mh_harness_call_tool(h, tool, args);
}

const cJSON *sidt_structured(const cJSON *result)
{
    return cJSON_GetObjectItemCaseSensitive(result, "structuredContent");
}

static const cJSON *walk(const cJSON *object, const char *path)
{
    char part[64];
    const cJSON *at = object;
    while (at && *path) {
        size_t n = strcspn(path, ".");
        snprintf(part, sizeof part, "%.*s", (int)n, path);
        if (cJSON_IsArray(at)) at = cJSON_GetArrayItem(at, atoi(part));
        else at = cJSON_GetObjectItemCaseSensitive(at, part);
        path += n;
        if (*path == '.') path++;
    }
    return at;
}

double sidt_num(const cJSON *object, const char *path)
{
    const cJSON *v = walk(object, path);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

const char *sidt_str(const cJSON *object, const char *path)
{
    const cJSON *v = walk(object, path);
    return cJSON_IsString(v) ? v->valuestring : "";
}

int sidt_session(mh_harness *h, const char *name, const char *options_json)
{
    const cJSON *r = sidt_call(h, "session_create", "{\"machine\":\"c64\",\"name\":\"%s\"%s%s}",
                               name, options_json ? ",\"options\":" : "",
                               options_json ? options_json : "");
    if (!r || mh_harness_is_error(r)) {
        fprintf(stderr, "session_create %s: %s\n", name, r ? mh_harness_text(r) : "(no result)");
        return -1;
    }
    return 0;
}

void sidt_destroy(mh_harness *h, const char *name)
{
    sidt_call(h, "session_destroy", "{\"session\":\"%s\"}", name);
}

/* ---- a program on the session thread ---- */

typedef struct program_job {
    const uint8_t *image;
    int lo, hi;
    uint16_t start;
    int ok;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int done;
} program_job;

static void program_run(void *arg, mh_session *s)
{
    program_job *job = arg;
    if (s) {
        int stopped = 0;
        mh_status st = mh_debug_service_impl.advance
                           ? mh_debug_service_impl.advance(s, 5000, &stopped)
                           : MH_ERR_UNSUPPORTED;
        const mh_chip *mem = mh_session_service_impl.find_chip(s, MH_IFACE_MEMORY, NULL);
        const mh_chip *cpu = mh_session_service_impl.find_chip(s, MH_IFACE_CPU6502, NULL);
        if (st == MH_OK && mem && cpu) {
            const mh_memory_iface *m = mem->vtable;
            const mh_cpu6502_iface *c = cpu->vtable;
            m->poke(mem->context, 1, (uint32_t)job->lo, job->image + job->lo,
                    (size_t)(job->hi - job->lo + 1));
            mh_cpu6502 *state = c->state(cpu->context);
            job->ok = mh_cpu6502_at_boundary(state);
            state->pc = job->start;
        }
    }
    pthread_mutex_lock(&job->lock);
    job->done = 1;
    pthread_cond_signal(&job->cond);
    pthread_mutex_unlock(&job->lock);
}

int sidt_program(mh_harness *h, const char *session, const char *source, uint16_t start)
{
    static uint8_t image[65536];
    program_job job = {image, 0, 0, start, 0, PTHREAD_MUTEX_INITIALIZER,
                       PTHREAD_COND_INITIALIZER, 0};
    if (c64t_assemble(source, image, &job.lo, &job.hi) != 0) return -1;
    mh_session *s = mh_sessions_find(h->ctx.sessions, session);
    if (!s) return -1;
    mh_session_post(s, program_run, &job);
    pthread_mutex_lock(&job.lock);
    while (!job.done) pthread_cond_wait(&job.cond, &job.lock);
    pthread_mutex_unlock(&job.lock);
    mh_session_unref(s);
    return job.ok ? 0 : -1;
}

typedef struct peek_job {
    uint16_t address;
    uint8_t *out;
    size_t length;
    int ok;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int done;
} peek_job;

static void peek_run(void *arg, mh_session *s)
{
    peek_job *job = arg;
    const mh_chip *mem = s ? mh_session_service_impl.find_chip(s, MH_IFACE_MEMORY, NULL) : NULL;
    if (mem) {
        const mh_memory_iface *m = mem->vtable;
        job->ok = m->peek(mem->context, 1, job->address, job->out, job->length) == MH_OK;
    }
    pthread_mutex_lock(&job->lock);
    job->done = 1;
    pthread_cond_signal(&job->cond);
    pthread_mutex_unlock(&job->lock);
}

int sidt_peek(mh_harness *h, const char *session, uint16_t address, uint8_t *out, size_t length)
{
    peek_job job = {address, out, length, 0, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
    mh_session *s = mh_sessions_find(h->ctx.sessions, session);
    if (!s) return -1;
    mh_session_post(s, peek_run, &job);
    pthread_mutex_lock(&job.lock);
    while (!job.done) pthread_cond_wait(&job.cond, &job.lock);
    pthread_mutex_unlock(&job.lock);
    mh_session_unref(s);
    return job.ok ? 0 : -1;
}

typedef struct advance_job {
    uint64_t cycles;
    int ok;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int done;
} advance_job;

static void advance_run(void *arg, mh_session *s)
{
    advance_job *job = arg;
    int stopped = 0;
    if (s && mh_debug_service_impl.advance)
        job->ok = mh_debug_service_impl.advance(s, job->cycles, &stopped) == MH_OK;
    pthread_mutex_lock(&job->lock);
    job->done = 1;
    pthread_cond_signal(&job->cond);
    pthread_mutex_unlock(&job->lock);
}

int sidt_advance(mh_harness *h, const char *session, uint64_t cycles)
{
    advance_job job = {cycles, 0, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
    mh_session *s = mh_sessions_find(h->ctx.sessions, session);
    if (!s) return -1;
    mh_session_post(s, advance_run, &job);
    pthread_mutex_lock(&job.lock);
    while (!job.done) pthread_cond_wait(&job.cond, &job.lock);
    pthread_mutex_unlock(&job.lock);
    mh_session_unref(s);
    return job.ok ? 0 : -1;
}

double sidt_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- WAV and measurements ---- */

static uint32_t le32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static uint16_t le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

int sidt_wav(const cJSON *result, int16_t **samples, size_t *count, unsigned *rate)
{
    const cJSON *content = cJSON_GetObjectItemCaseSensitive(result, "content"), *item;
    const cJSON *audio = NULL;
    cJSON_ArrayForEach(item, content)
    {
        if (strcmp(sidt_str(item, "type"), "audio") == 0) audio = item;
    }
    if (!audio || strcmp(sidt_str(audio, "mimeType"), "audio/wav") != 0) return -1;
    const char *b64 = sidt_str(audio, "data");
    size_t len = strlen(b64);
    uint8_t *wav = malloc(len * 3 / 4 + 4);
    size_t size = wav ? mh_base64_decode(wav, len * 3 / 4 + 4, b64, len) : SIZE_MAX;
    int rc = -1;
    if (size != SIZE_MAX && size >= 44 && memcmp(wav, "RIFF", 4) == 0 &&
        le32(wav + 4) == size - 8 && memcmp(wav + 8, "WAVEfmt ", 8) == 0 && le32(wav + 16) == 16 &&
        le16(wav + 20) == 1 && le16(wav + 22) == 1 && le16(wav + 34) == 16 &&
        memcmp(wav + 36, "data", 4) == 0 && le32(wav + 40) == size - 44 &&
        le32(wav + 28) == le32(wav + 24) * 2) {
        *rate = le32(wav + 24);
        *count = (size - 44) / 2;
        *samples = malloc(*count * 2 + 2);
        for (size_t i = 0; *samples && i < *count; i++)
            (*samples)[i] = (int16_t)le16(wav + 44 + 2 * i);
        rc = *samples ? 0 : -1;
    }
    free(wav);
    return rc;
}

static double mean_of(const int16_t *x, size_t n)
{
    double sum = 0.0;
    for (size_t i = 0; i < n; i++) sum += x[i];
    return n ? sum / (double)n : 0.0;
}

double sidt_crossing_hz(const int16_t *x, size_t n, unsigned rate)
{
    double mean = mean_of(x, n), peak = 0.0;
    for (size_t i = 0; i < n; i++)
        if (fabs(x[i] - mean) > peak) peak = fabs(x[i] - mean);
    double hyst = peak * 0.1, first = -1.0, last = -1.0;
    int armed = 0;
    size_t crossings = 0;
    for (size_t i = 1; i < n; i++) {
        double a = x[i - 1] - mean, b = x[i] - mean;
        if (b < -hyst) armed = 1;
        if (armed && a < 0.0 && b >= 0.0) {
            double t = (double)(i - 1) + (-a) / (b - a);
            if (first < 0.0) first = t;
            else crossings++;
            last = t;
            armed = 0;
        }
    }
    return crossings && last > first ? (double)crossings * rate / (last - first) : 0.0;
}

double sidt_goertzel(const int16_t *x, size_t n, unsigned rate, double hz)
{
    double mean = mean_of(x, n), w = 2.0 * M_PI * hz / rate, c = 2.0 * cos(w);
    double s1 = 0.0, s2 = 0.0;
    for (size_t i = 0; i < n; i++) {
        double s0 = (x[i] - mean) + c * s1 - s2;
        s2 = s1;
        s1 = s0;
    }
    return sqrt(s1 * s1 + s2 * s2 - c * s1 * s2) / (double)n;
}

unsigned sidt_freq_reg(double hz) { return (unsigned)lround(hz * 16777216.0 / SIDT_CLOCK_PAL); }

double sidt_reg_hz(unsigned reg) { return reg * SIDT_CLOCK_PAL / 16777216.0; }
