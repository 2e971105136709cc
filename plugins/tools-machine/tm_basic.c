/* tm_basic.c - basic_list and basic_type: the BASIC program in a machine's
 * memory as text, and text put into memory as BASIC keeps a program, with
 * the links and pointers right, without typing it key by key
 * (mcphost/basic.h does the tokens).
 *
 * Which BASIC a machine has comes from mh.caps/1 ("2.0" or "3.5"). The
 * program's pointers are where Commodore BASIC 2.0 and 3.5 both keep them:
 * TXTTAB $2B (the start), VARTAB $2D, ARYTAB $2F and STREND $31 (its end,
 * then the variables). Memory is what the CPU sees (mh.memory/1 space
 * "cpu"): reads have no side effects; a write to where no RAM answers is
 * found by reading it back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <mcphost/basic.h>
#include <mcphost/file_write.h>
#include <mcphost/media.h>

#include "tm.h"

#define TXTTAB 0x2B
#define VARTAB 0x2D
#define ARYTAB 0x2F
#define STREND 0x31
#define MAX_TEXT (1u << 20) /* a .bas file or text argument */

/* The session's BASIC dialect; -1 after an error result. */
static int dialect_of(tm_call *c)
{
    void *ctx = NULL;
    const mh_caps_iface *caps = tm_find(c, MH_IFACE_CAPS, sizeof(mh_caps_iface), &ctx);
    const mh_machine_caps *mc = caps ? caps->caps(ctx) : NULL;
    const char *basic = mc && mc->struct_size >= offsetof(mh_machine_caps, basic) + sizeof mc->basic
                            ? mc->basic
                            : NULL;
    if (basic && strcmp(basic, "2.0") == 0) return MH_BASIC_V2;
    if (basic && strcmp(basic, "3.5") == 0) return MH_BASIC_V35;
    return tm_fail(c, "%s: the %s machine of session \"%s\" has no Commodore BASIC", c->tool,
                   c->plugin->sessions->machine(c->session), tm_session_name(c));
}

/* mh.memory/1's space 0 is always "cpu": what the CPU sees now. */
#define CPU_SPACE 0

static uint16_t word_at(const uint8_t *memory, uint16_t address)
{
    return (uint16_t)(memory[address] | memory[address + 1] << 8);
}

/* The start argument, else TXTTAB: past the stack page, like BASIC's. */
static int start_of(tm_call *c, uint16_t txttab, uint16_t *start)
{
    int64_t value;
    if (tm_int(c, "start", 0x0200, 0xFFFE, -1, &value) != 0) return -1;
    if (value < 0 && (txttab < 0x0200 || txttab == 0xFFFF))
        return tm_fail(c, "%s: TXTTAB ($2B) is $%04X: BASIC has not set up its pointers (run "
                          "the machine to READY first) or give start",
                       c->tool, (unsigned)txttab);
    *start = value < 0 ? txttab : (uint16_t)value;
    return 0;
}

typedef struct list_state {
    mh_json_writer *w;
    tm_buf text;
} list_state;

static int list_line(void *user, const mh_basic_line *line)
{
    list_state *s = user;
    mh_json_write_object_begin(s->w);
    mh_json_write_key(s->w, "number");
    mh_json_write_uint(s->w, line->number);
    mh_json_write_key(s->w, "address");
    mh_json_write_uint(s->w, line->address);
    mh_json_write_key(s->w, "text");
    mh_json_write_string(s->w, line->text);
    mh_json_write_object_end(s->w);
    tm_buf_printf(&s->text, "%s\n", line->text);
    return 0;
}

static void basic_list(void *user, mh_call *call)
{
    tm_call c;
    uint8_t *memory = NULL;
    if (tm_begin(&c, user, call, "basic_list", MH_IFACE_MEMORY, MH_MEMORY_IFACE_SIZE_1_0) != 0)
        goto done;
    int dialect = dialect_of(&c);
    if (dialect < 0) goto done;
    const mh_memory_iface *mem = c.iface;
    memory = malloc(0x10000);
    if (!memory || mem->peek(c.ctx, CPU_SPACE, 0, memory, 0x10000) != MH_OK) {
        tm_fail(&c, "basic_list: cannot read the machine's memory");
        goto done;
    }
    uint16_t start = 0;
    if (start_of(&c, word_at(memory, TXTTAB), &start) != 0) goto done;
    char path[4096];
    int to_file = tm_path(&c, "path", 0, MH_FILES_WRITE, path, sizeof path);
    if (to_file < 0) goto done;

    list_state s = {mh_json_writer_new(), {0}};
    mh_json_write_object_begin(s.w);
    mh_json_write_key(s.w, "lines");
    mh_json_write_array_begin(s.w);
    mh_basic_listing result;
    mh_basic_list((mh_basic_dialect)dialect, 0, memory, start, list_line, &s, &result);
    mh_json_write_array_end(s.w);
    mh_json_write_key(s.w, "basic");
    mh_json_write_string(s.w, dialect == MH_BASIC_V35 ? "3.5" : "2.0");
    mh_json_write_key(s.w, "start");
    mh_json_write_uint(s.w, start);
    mh_json_write_key(s.w, "end");
    if (result.broken) mh_json_write_null(s.w);
    else mh_json_write_uint(s.w, result.end);
    mh_json_write_key(s.w, "vartab");
    mh_json_write_uint(s.w, word_at(memory, VARTAB));
    if (result.broken) {
        mh_json_write_key(s.w, "broken");
        mh_json_write_string(s.w, result.problem);
        tm_buf_printf(&s.text, "(listing stopped: %s)\n", result.problem);
    } else if (result.lines == 0) {
        tm_buf_printf(&s.text, "(no program at $%04X)\n", (unsigned)start);
    }
    if (to_file == 0) {
        char why[512];
        int overwrite = 0;
        const mh_json *o = mh_json_object_get(c.args, "overwrite");
        bool b = false;
        if (o && mh_json_as_bool(o, &b) == MH_OK) overwrite = b;
        const char *body = s.text.text ? s.text.text : "";
        struct stat st;
        char what[4096 + 64];
        snprintf(what, sizeof what, "%s exists and would be replaced", path);
        if (overwrite && lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
            !mh_toolkit_confirm(c.plugin->call, call, what))
            goto free_list;
        mh_status written = mh_file_write(path, body, strlen(body),
                                          overwrite ? MH_FILE_OVERWRITE : 0, why, sizeof why);
        if (written != MH_OK) {
            tm_fail(&c, "path: %s%s", why,
                    written == MH_ERR_EXISTS ? "; pass overwrite: true to replace it" : "");
            goto free_list;
        }
        mh_json_write_key(s.w, "path");
        mh_json_write_string(s.w, path);
    }
    mh_json_write_object_end(s.w);
    tm_result(&c, s.w, s.text.failed ? "(out of memory)" : s.text.text ? s.text.text : "");
free_list:
    tm_buf_free(&s.text);
    mh_json_writer_free(s.w);
done:
    free(memory);
    tm_end(&c);
}

/* The program text: the text argument or a .bas file. NULL after an error
 * result; *owned is what to free. */
static const char *program_text(tm_call *c, char **owned)
{
    const char *text = NULL;
    char path[4096];
    *owned = NULL;
    if (tm_string(c, "text", 0, &text) != 0) return NULL;
    int from_file = tm_path(c, "path", 0, MH_FILES_READ, path, sizeof path);
    if (from_file < 0) return NULL;
    if (!text == (from_file != 0)) {
        tm_fail(c, "basic_type: give the program as text or as a path to a .bas file (one of "
                   "the two)");
        return NULL;
    }
    if (text) return text;
    mh_media_error why;
    uint8_t *bytes = NULL;
    size_t size = 0;
    if (mh_media_load_file(path, MAX_TEXT, &bytes, &size, &why) != MH_OK) {
        tm_fail(c, "path: %s", why.message);
        return NULL;
    }
    *owned = realloc(bytes, size + 1);
    if (!*owned) {
        free(bytes);
        tm_fail(c, "basic_type: out of memory");
        return NULL;
    }
    (*owned)[size] = '\0';
    if (memchr(*owned, 0, size)) {
        tm_fail(c, "path: %s holds a NUL byte: not a BASIC text file", path);
        return NULL;
    }
    return *owned;
}

static void basic_type(void *user, mh_call *call)
{
    tm_call c;
    char *owned = NULL;
    uint8_t *program = NULL;
    if (tm_begin(&c, user, call, "basic_type", MH_IFACE_MEMORY, MH_MEMORY_IFACE_SIZE_1_0) != 0)
        goto done;
    int dialect = dialect_of(&c);
    if (dialect < 0) goto done;
    const char *text = program_text(&c, &owned);
    if (!text) goto done;
    const mh_memory_iface *mem = c.iface;
    uint8_t pointers[2];
    if (mem->peek(c.ctx, CPU_SPACE, TXTTAB, pointers, 2) != MH_OK) {
        tm_fail(&c, "basic_type: cannot read the machine's memory");
        goto done;
    }
    uint16_t start = 0;
    if (start_of(&c, (uint16_t)(pointers[0] | pointers[1] << 8), &start) != 0) goto done;
    program = malloc(0x10000);
    size_t length = 0;
    char error[256];
    if (!program) goto done;
    mh_status status = mh_basic_tokenize((mh_basic_dialect)dialect, 0, text, (uint16_t)start, program,
                                         0x10000u - (size_t)start, &length, error, sizeof error);
    if (status != MH_OK) {
        tm_fail(&c, "basic_type: %s", error);
        goto done;
    }
    /* Into memory as the CPU writes it; read back, so a program that runs
     * into ROM or unmapped space is refused, not half written. */
    uint8_t *check = malloc(length);
    status = check ? mem->poke(c.ctx, CPU_SPACE, (uint32_t)start, program, length) : MH_ERR_NO_MEMORY;
    if (status == MH_OK) status = mem->peek(c.ctx, CPU_SPACE, (uint32_t)start, check, length);
    size_t bad = 0;
    while (status == MH_OK && bad < length && check[bad] == program[bad]) bad++;
    free(check);
    if (status != MH_OK || bad < length) {
        tm_fail(&c, "basic_type: no RAM answers at $%04X (the program spans $%04X-$%04X); "
                    "give another start or a shorter program",
                (unsigned)(start + bad), (unsigned)start, (unsigned)(start + length - 1));
        goto done;
    }
    uint16_t end = (uint16_t)(start + length);
    const uint8_t ptrs[8] = {(uint8_t)start, (uint8_t)(start >> 8), (uint8_t)end, (uint8_t)(end >> 8),
                             (uint8_t)end,   (uint8_t)(end >> 8),   (uint8_t)end, (uint8_t)(end >> 8)};
    mem->poke(c.ctx, CPU_SPACE, TXTTAB, ptrs, 2);
    mem->poke(c.ctx, CPU_SPACE, VARTAB, ptrs + 2, 2);
    mem->poke(c.ctx, CPU_SPACE, ARYTAB, ptrs + 4, 2);
    mem->poke(c.ctx, CPU_SPACE, STREND, ptrs + 6, 2);
    unsigned lines = 0;
    for (size_t at = 0; at + 2 < length; at = (size_t)(program[at] | program[at + 1] << 8) - (size_t)start)
        lines++;
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "start");
    mh_json_write_uint(w, start);
    mh_json_write_key(w, "end");
    mh_json_write_uint(w, end);
    mh_json_write_key(w, "lines");
    mh_json_write_uint(w, lines);
    mh_json_write_object_end(w);
    char summary[160];
    snprintf(summary, sizeof summary,
             "%u lines of BASIC %s at $%04X-$%04X; TXTTAB, VARTAB, ARYTAB, STREND set: RUN it",
             lines, dialect == MH_BASIC_V35 ? "3.5" : "2.0", (unsigned)start, (unsigned)end - 1);
    tm_result(&c, w, summary);
    mh_json_writer_free(w);
done:
    free(program);
    free(owned);
    tm_end(&c);
}

static const mh_tool_desc tools[] = {
    {0, "basic_list", "List BASIC",
     "The BASIC program in memory as text (petcat style) from TXTTAB or start; reports a "
     "broken link chain. path: also write a .bas file.",
     "{\"type\":\"object\",\"properties\":{\"start\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"Address\"},\"path\":{\"type\":\"string\",\"description\":\".bas file\"},"
     "\"overwrite\":{\"type\":\"boolean\",\"description\":\"Replace path\"}}}",
     "{\"type\":\"object\",\"required\":[\"lines\",\"start\"]}",
     /* not read-only: path writes a file (an existing one only with
      * overwrite), as snapshot_save; the machine is left as it was */
     0, 0, MH_IFACE_MEMORY, NULL, basic_list, NULL},
    {0, "basic_type", "Type in BASIC",
     "Tokenises text (as basic_list writes it) or a .bas file into memory, links and BASIC's "
     "pointers set: ready to RUN.",
     "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\",\"description\":"
     "\"Program lines\"},\"path\":{\"type\":\"string\",\"description\":\".bas file\"},"
     "\"start\":{\"type\":[\"integer\",\"string\"],\"description\":\"Address\"}}}",
     "{\"type\":\"object\",\"required\":[\"start\",\"end\",\"lines\"]}",
     0, 0, MH_IFACE_MEMORY, NULL, basic_type, NULL},
};

mh_status tm_register_basic(tm_plugin *plugin)
{
    return tm_register_table(plugin, tools, sizeof tools / sizeof tools[0]);
}
