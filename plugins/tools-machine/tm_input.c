/* tm_input.c - keyboard_type, keyboard_press and joystick_set through the
 * machine's "mh.input/1".
 *
 * keyboard_type translates its text (tm_keys.h) into PETSCII codes and
 * queues them with type_codes() in one call (all or nothing); the machine
 * feeds them to its keyboard routine as it reads them, so the text appears
 * once the machine runs. keyboard_press and joystick_set use key_hold() and
 * joystick_hold(): the machine releases the keys / centres the joystick
 * itself after N frames of emulation, so nothing here waits, and a paused
 * machine keeps them held until it has run those frames.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tm.h"
#include "tm_keys.h"

#define TYPE_MAX 4096
#define PRESS_MAX_KEYS 8
#define FRAMES_MAX 3000 /* a minute of PAL frames */

#define INPUT_HAS(input, fn) \
    ((input)->struct_size >= offsetof(mh_input_iface, fn) + sizeof(void *) && (input)->fn)

static const char *run_hint(tm_call *c)
{
    const char *state = tm_state(c);
    return state && strcmp(state, "running") != 0
               ? " (the machine is not running: it happens once it runs, e.g. execution_run)"
               : "";
}

/* ---- keyboard_type ---- */

static void keyboard_type(void *user, mh_call *call)
{
    tm_call c;
    uint8_t *codes = NULL;
    if (tm_begin(&c, user, call, "keyboard_type", MH_IFACE_INPUT,
                 offsetof(mh_input_iface, release_all) + sizeof(void *)) != 0)
        goto done;
    const char *text = NULL;
    size_t length = 0;
    mh_status status = mh_args_string(c.args, "text", &text, &length, c.err, sizeof c.err);
    if (status == MH_ERR_NOT_FOUND) {
        tm_fail(&c, "text: missing; give the text to type, e.g. \"LIST\\n\" or "
                    "\"{CLR}PRINT 1{RETURN}\"");
        goto done;
    }
    if (status != MH_OK) {
        tm_fail_arg(&c);
        goto done;
    }
    if (length == 0) {
        tm_fail(&c, "text: empty; give something to type");
        goto done;
    }
    codes = malloc(TYPE_MAX);
    char error[1024] = "";
    long n = codes ? tm_keys_translate(text, length, codes, TYPE_MAX, error, sizeof error) : -1;
    if (n < 0) {
        tm_fail(&c, "%s", codes ? error : "keyboard_type: out of memory");
        goto done;
    }
    const mh_input_iface *input = c.iface;
    if (INPUT_HAS(input, type_codes)) {
        status = input->type_codes(c.ctx, codes, (size_t)n, error, sizeof error);
    } else {
        /* An older machine: plain text and RETURN only, through type_text. */
        char *plain = malloc((size_t)n + 1);
        status = plain ? MH_OK : MH_ERR_NO_MEMORY;
        for (long i = 0; plain && i < n; i++) {
            int ascii = codes[i] == 0x0D ? '\n' : codes[i] >= 0x20 && codes[i] < 0x60 ? codes[i] : -1;
            if (ascii < 0) {
                snprintf(error, sizeof error,
                         "this machine can only type plain text and \\n (its %s has no "
                         "type_codes); remove the {KEY} names",
                         MH_IFACE_INPUT);
                status = MH_ERR_UNSUPPORTED;
                break;
            }
            plain[i] = (char)ascii;
        }
        if (status == MH_OK) {
            plain[n] = '\0';
            status = input->type_text(c.ctx, plain, error, sizeof error);
        }
        free(plain);
    }
    if (status != MH_OK) {
        tm_fail(&c, "keyboard_type: %s", error[0] ? error : mh_status_name(status));
        goto done;
    }
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "queued");
    mh_json_write_int(w, n);
    mh_json_write_key(w, "petscii");
    mh_json_write_array_begin(w);
    for (long i = 0; i < n && i < 256; i++) mh_json_write_uint(w, codes[i]);
    mh_json_write_array_end(w);
    tm_write_state(&c, w);
    mh_json_write_object_end(w);
    char summary[256];
    snprintf(summary, sizeof summary,
             "queued %ld character%s for the keyboard; the machine types them as its keyboard "
             "routine reads them%s",
             n, n == 1 ? "" : "s", run_hint(&c));
    tm_result(&c, w, summary);
    mh_json_writer_free(w);
done:
    free(codes);
    tm_end(&c);
}

/* ---- keyboard_press ---- */

/* The machine's name for a key the agent wrote ("run/stop", "crsr down",
 * "Return"): upper case, spaces and '-' as '_', a few aliases; NULL when
 * the machine has no such key. */
static const char *machine_key(const char *const *names, const char *given, char *buf,
                               size_t size)
{
    static const struct {
        const char *alias, *name;
    } aliases[] = {{"RUN/STOP", "RUNSTOP"}, {"RUN_STOP", "RUNSTOP"}, {"STOP", "RUNSTOP"},
                   {"ENTER", "RETURN"},     {"SHIFT", "SHIFT_LEFT"}, {"C=", "CBM"},
                   {"COMMODORE", "CBM"},    {"BACKSPACE", "DEL"},    {"DELETE", "DEL"},
                   {"INSERT", "INST"},      {"CLEAR", "CLR"},        {"DOWN", "CRSR_DOWN"},
                   {"UP", "CRSR_UP"},       {"LEFT", "CRSR_LEFT"},   {"RIGHT", "CRSR_RIGHT"},
                   {" ", "SPACE"}};
    size_t n = 0;
    for (const char *s = given; *s && n + 1 < size; s++) {
        /* In a name, ' ' and '-' stand for '_'; alone they are keys. */
        int separator = given[1] && (*s == ' ' || *s == '-');
        buf[n++] = separator ? '_' : (char)toupper((unsigned char)*s);
    }
    buf[n] = '\0';
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcmp(buf, aliases[i].alias) == 0) {
            snprintf(buf, size, "%s", aliases[i].name);
            break;
        }
    for (size_t i = 0; names && names[i]; i++) {
        size_t k = 0;
        while (names[i][k] && toupper((unsigned char)names[i][k]) == buf[k]) k++;
        if (!names[i][k] && !buf[k]) return names[i];
    }
    return NULL;
}

static void key_list(const char *const *names, char *out, size_t size)
{
    out[0] = '\0';
    for (size_t i = 0; names && names[i]; i++) {
        size_t used = strlen(out);
        if (used + 8 >= size) break;
        snprintf(out + used, size - used, "%s%s", i ? " " : "", names[i]);
    }
}

static void keyboard_press(void *user, mh_call *call)
{
    tm_call c;
    if (tm_begin(&c, user, call, "keyboard_press", MH_IFACE_INPUT,
                 offsetof(mh_input_iface, release_all) + sizeof(void *)) != 0)
        goto done;
    const mh_input_iface *input = c.iface;
    if (!INPUT_HAS(input, key_hold)) {
        tm_fail(&c, "keyboard_press: the %s machine's keyboard cannot hold keys for a number of "
                    "frames (no key_hold in %s)",
                c.plugin->sessions->machine(c.session), MH_IFACE_INPUT);
        goto done;
    }
    int64_t frames = 0;
    if (tm_int(&c, "frames", 1, FRAMES_MAX, 3, &frames) != 0) goto done;
    const char *given[PRESS_MAX_KEYS];
    size_t count = 0;
    const mh_json *keys = mh_json_object_get(c.args, "keys");
    const mh_json *key = mh_json_object_get(c.args, "key");
    if (keys && key) {
        tm_fail(&c, "give key (one) or keys (a list), not both");
        goto done;
    }
    if (key) {
        if (tm_string(&c, "key", 1, &given[0]) != 0) goto done;
        count = 1;
    } else if (keys && mh_json_typeof(keys) == MH_JSON_ARRAY) {
        count = mh_json_array_size(keys);
        if (count == 0 || count > PRESS_MAX_KEYS) {
            tm_fail(&c, "keys: give 1 to %d key names, got %zu", PRESS_MAX_KEYS, count);
            goto done;
        }
        for (size_t i = 0; i < count; i++) {
            const mh_json *item = mh_json_array_get(keys, i);
            size_t len = 0;
            given[i] = mh_json_typeof(item) == MH_JSON_STRING ? mh_json_as_string(item, &len) : NULL;
            if (!given[i] || len == 0 || strlen(given[i]) != len) {
                tm_fail(&c, "keys[%zu]: expected a key name such as \"RETURN\" or \"A\"", i);
                goto done;
            }
        }
    } else {
        tm_fail(&c, keys ? "keys: expected an array of key names, e.g. [\"SHIFT_LEFT\",\"A\"]"
                         : "give key (a key name such as \"SPACE\") or keys (a list held "
                           "together, e.g. [\"SHIFT_LEFT\",\"CLR\"])");
        goto done;
    }
    const char *const *names = input->key_names ? input->key_names(c.ctx) : NULL;
    const char *resolved[PRESS_MAX_KEYS];
    for (size_t i = 0; i < count; i++) {
        char buf[64];
        resolved[i] = machine_key(names, given[i], buf, sizeof buf);
        if (!resolved[i]) {
            char list[1024];
            key_list(names, list, sizeof list);
            tm_fail(&c, "unknown key \"%.*s\"; the %s keyboard has: %s (case does not matter; "
                        "RUN/STOP, ENTER, SHIFT, C= are accepted too)",
                    mh_utf8_prefix(given[i], 40), given[i], c.plugin->sessions->machine(c.session), list);
            goto done;
        }
    }
    for (size_t i = 0; i < count; i++) {
        mh_status status = input->key_hold(c.ctx, resolved[i], (uint32_t)frames);
        if (status != MH_OK) {
            tm_fail(&c, "keyboard_press: %s could not be pressed: %s%s", resolved[i],
                    mh_status_name(status),
                    status == MH_ERR_LIMIT ? " (too many keys held; wait for them to be released)"
                                           : "");
            goto done;
        }
    }
    mh_json_writer *w = mh_json_writer_new();
    tm_buf text = {0};
    tm_buf_printf(&text, "holding");
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "keys");
    mh_json_write_array_begin(w);
    for (size_t i = 0; i < count; i++) {
        mh_json_write_string(w, resolved[i]);
        tm_buf_printf(&text, " %s", resolved[i]);
    }
    mh_json_write_array_end(w);
    mh_json_write_key(w, "frames");
    mh_json_write_int(w, frames);
    tm_write_state(&c, w);
    mh_json_write_object_end(w);
    tm_buf_printf(&text, " for %lld frame%s; the machine releases %s itself%s", (long long)frames,
                  frames == 1 ? "" : "s", count == 1 ? "it" : "them", run_hint(&c));
    tm_result(&c, w, text.failed ? "(out of memory)" : text.text);
    tm_buf_free(&text);
    mh_json_writer_free(w);
done:
    tm_end(&c);
}

/* ---- joystick_set ---- */

static const struct {
    const char *name;
    uint32_t bit;
} directions[] = {{"up", MH_JOY_UP},       {"down", MH_JOY_DOWN}, {"left", MH_JOY_LEFT},
                  {"right", MH_JOY_RIGHT}, {"fire", MH_JOY_FIRE}};

static void joystick_set(void *user, mh_call *call)
{
    tm_call c;
    if (tm_begin(&c, user, call, "joystick_set", MH_IFACE_INPUT,
                 offsetof(mh_input_iface, release_all) + sizeof(void *)) != 0)
        goto done;
    const mh_input_iface *input = c.iface;
    int64_t port = 0, frames = 0;
    mh_status status = mh_args_int(c.args, "port", 1, 2, &port, c.err, sizeof c.err);
    if (status == MH_ERR_NOT_FOUND) {
        tm_fail(&c, "port: missing; give 1 or 2 (most games read port 2)");
        goto done;
    }
    if (status != MH_OK) {
        tm_fail_arg(&c);
        goto done;
    }
    if (tm_int(&c, "frames", 0, FRAMES_MAX, 0, &frames) != 0) goto done;
    uint32_t mask = 0;
    const mh_json *dirs = mh_json_object_get(c.args, "directions");
    if (dirs) {
        if (mh_json_typeof(dirs) != MH_JSON_ARRAY) {
            tm_fail(&c, "directions: expected an array such as [\"up\",\"left\"] ([] centres "
                        "the stick)");
            goto done;
        }
        for (size_t i = 0; i < mh_json_array_size(dirs); i++) {
            const mh_json *item = mh_json_array_get(dirs, i);
            size_t len = 0;
            const char *name =
                mh_json_typeof(item) == MH_JSON_STRING ? mh_json_as_string(item, &len) : NULL;
            uint32_t bit = 0;
            for (size_t k = 0; name && k < 4; k++)
                if (strlen(directions[k].name) == len && strncmp(directions[k].name, name, len) == 0)
                    bit = directions[k].bit;
            if (!bit) {
                tm_fail(&c, "directions[%zu]: expected \"up\", \"down\", \"left\" or \"right\" "
                            "(fire is its own argument)",
                        i);
                goto done;
            }
            mask |= bit;
        }
    }
    bool fire = false;
    status = mh_args_bool(c.args, "fire", &fire, c.err, sizeof c.err);
    if (status != MH_OK && status != MH_ERR_NOT_FOUND) {
        tm_fail_arg(&c);
        goto done;
    }
    if (fire) mask |= MH_JOY_FIRE;
    if ((mask & (MH_JOY_UP | MH_JOY_DOWN)) == (MH_JOY_UP | MH_JOY_DOWN) ||
        (mask & (MH_JOY_LEFT | MH_JOY_RIGHT)) == (MH_JOY_LEFT | MH_JOY_RIGHT)) {
        tm_fail(&c, "directions: up with down, or left with right, is impossible on a real "
                    "joystick; give one of each pair");
        goto done;
    }
    if (INPUT_HAS(input, joystick_hold))
        status = input->joystick_hold(c.ctx, (int)port, mask, (uint32_t)frames);
    else if (frames == 0)
        status = input->joystick(c.ctx, (int)port, mask);
    else {
        tm_fail(&c, "frames: this machine cannot hold a joystick for a number of frames; give "
                    "frames 0 and centre it later with joystick_set");
        goto done;
    }
    if (status != MH_OK) {
        tm_fail(&c, "joystick_set: port %lld: %s", (long long)port, mh_status_name(status));
        goto done;
    }
    mh_json_writer *w = mh_json_writer_new();
    tm_buf text = {0};
    tm_buf_printf(&text, "joystick %lld:", (long long)port);
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "port");
    mh_json_write_int(w, port);
    mh_json_write_key(w, "mask");
    mh_json_write_uint(w, mask);
    mh_json_write_key(w, "directions");
    mh_json_write_array_begin(w);
    for (size_t k = 0; k < 4; k++)
        if (mask & directions[k].bit) {
            mh_json_write_string(w, directions[k].name);
            tm_buf_printf(&text, " %s", directions[k].name);
        }
    mh_json_write_array_end(w);
    mh_json_write_key(w, "fire");
    mh_json_write_bool(w, (mask & MH_JOY_FIRE) != 0);
    mh_json_write_key(w, "frames");
    mh_json_write_int(w, frames);
    tm_write_state(&c, w);
    mh_json_write_object_end(w);
    if (!mask) tm_buf_printf(&text, " centred");
    if (mask & MH_JOY_FIRE) tm_buf_printf(&text, " fire");
    if (frames && mask)
        tm_buf_printf(&text, " for %lld frame%s, then centred by the machine%s", (long long)frames,
                      frames == 1 ? "" : "s", run_hint(&c));
    else if (mask)
        tm_buf_printf(&text, " until changed (joystick_set with no directions centres it)");
    tm_result(&c, w, text.failed ? "(out of memory)" : text.text);
    tm_buf_free(&text);
    mh_json_writer_free(w);
done:
    tm_end(&c);
}

static const mh_tool_desc tools[] = {
    {0, "keyboard_type", "Type text",
     "Types text through the machine's keyboard buffer once it runs: ASCII (letters upper "
     "case after power-on), \\n for RETURN, keys in braces ({CLR} {HOME} {CRSR DOWN} {DEL} "
     "{F1} {RUN/STOP} {RVS ON} {RED} ...), {$93} a PETSCII code, {CRSR DOWN*3} repeats.",
     "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\","
     "\"description\":\"The text, e.g. \\\"{CLR}PRINT 2+2{RETURN}\\\"\"}},"
     "\"required\":[\"text\"]}",
     "{\"type\":\"object\",\"required\":[\"queued\"]}",
     0, 0, MH_IFACE_INPUT,
     "vice.keyboard.type", keyboard_type, NULL},
    {0, "keyboard_press", "Hold keys",
     "Holds one key or several together in the keyboard matrix for some frames, then the "
     "machine releases them: RUN/STOP, RESTORE, keys a game polls, SHIFT/CBM combinations.",
     "{\"type\":\"object\",\"properties\":{\"key\":{\"type\":\"string\",\"description\":\"A "
     "key: A, 1, RETURN, SPACE, RUNSTOP, F1, CRSR_DOWN, SHIFT_LEFT, CBM, RESTORE ...\"},"
     "\"keys\":{\"type\":\"array\",\"description\":\"Several keys held together, e.g. "
     "[\\\"SHIFT_LEFT\\\",\\\"CLR\\\"]\",\"items\":{\"type\":\"string\"}},"
     "\"frames\":{\"type\":\"integer\",\"description\":\"Frames to hold them (default 3)\","
     "\"minimum\":1,\"maximum\":3000}}}",
     "{\"type\":\"object\",\"required\":[\"keys\",\"frames\"]}",
     0, 0, MH_IFACE_INPUT,
     "vice.keyboard.press", keyboard_press, NULL},
    {0, "joystick_set", "Set a joystick",
     "Sets a joystick's directions and fire; no directions and no fire centres it.",
     "{\"type\":\"object\",\"properties\":{\"port\":{\"type\":\"integer\","
     "\"description\":\"Port 1 or 2\",\"minimum\":1,\"maximum\":2},"
     "\"directions\":{\"type\":\"array\",\"description\":\"Held directions\","
     "\"items\":{\"type\":\"string\",\"enum\":[\"up\",\"down\",\"left\",\"right\"]}},"
     "\"fire\":{\"type\":\"boolean\",\"description\":\"Fire pressed\"},"
     "\"frames\":{\"type\":\"integer\",\"description\":\"Frames until the machine centres it "
     "(default 0: until changed)\",\"minimum\":0,\"maximum\":3000}},\"required\":[\"port\"]}",
     "{\"type\":\"object\",\"required\":[\"port\",\"mask\"]}",
     0, 0, MH_IFACE_INPUT,
     "vice.joystick.set", joystick_set, NULL},
};

mh_status tm_register_input(tm_plugin *plugin)
{
    return tm_register_table(plugin, tools, sizeof tools / sizeof tools[0]);
}
