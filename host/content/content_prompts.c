/* content_prompts.c - guided debugging workflows as MCP prompts. Each is a
 * table entry: its arguments and a plan whose {argument} places take the
 * caller's values. Tools are named in backquotes, and only tools are: the
 * e2e test (tests/e2e/content.test.mjs) checks every one against a C64
 * session's tools/list, so a renamed tool cannot leave a prompt behind. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "call.h"
#include "content_internal.h"

#define MH_PROMPT_MAX_ARGS 3

typedef struct prompt_def {
    const char *name, *title, *description;
    mh_prompt_arg args[MH_PROMPT_MAX_ARGS];
    size_t arg_count;
    const char *plan; /* {name}: the argument's value, or "(not given)" */
} prompt_def;

static const prompt_def prompts[] = {
    {"debug_crash", "Debug a crash",
     "Run a program until it crashes (JAM, BRK into the monitor, a hang) and find the cause",
     {{"program", "Path of the program (.prg, .d64, .t64, .crt) inside the allowed directories",
       1},
      {"symbols", "Path of a label file for the program (optional)", 0}},
     2,
     "Debug a crash of the program {program} on this mcphost session.\n\n"
     "1. If a label file was given ({symbols}), load it with `symbols_load` so addresses show "
     "as names.\n"
     "2. Stop where crashes land before they hide: `breakpoints_set` an exec breakpoint on the "
     "BRK vector's handler if the program installs one, and remember that a JAM stops the CPU "
     "by itself (the stop reason says \"jammed\").\n"
     "3. Start it with `files_autostart` (path {program}), then `execution_run` and block with "
     "`execution_wait` (give timeout_ms): it returns the whole stop record - reason, PC, "
     "registers, the instruction and the access that stopped it. Never poll.\n"
     "4. At the stop: `registers_get`, `disassemble` around PC and before it, `backtrace` for "
     "the call chain from the stack, `memory_read` of the stack page ($0100-$01FF) and of any "
     "pointer the faulting instruction used.\n"
     "5. If PC is somewhere no code should be, find how it got there: `breakpoints_trace` with "
     "a log-only exec breakpoint on suspect RTS/JMP (xx) sites, or `execution_step` backwards "
     "in reasoning from the stack contents; then set an exec breakpoint on the last good "
     "routine, reset with `machine_reset`, run again and `execution_step` through it.\n"
     "6. Report the root cause (which instruction, which bad value, where the value came "
     "from) and the fix; confirm it by patching with `memory_write` or `assemble` and running "
     "again."},
    {"find_memory_corruption", "Find who corrupts an address",
     "Find the code that writes a wrong value to an address",
     {{"address", "The corrupted address or the first of a range: $C000, 0xC000 or 49152", 1},
      {"length", "How many bytes from address (default 1)", 0},
      {"expected", "The value it should keep, if known", 0}},
     3,
     "Find which code writes to {address} (bytes: {length}; the value it should keep: "
     "{expected}).\n\n"
     "1. Set a write watchpoint: `breakpoints_memory_watch` on {address} (and its length when "
     "more than one byte), on \"write\"; if only a wrong value matters, add a condition such as a "
     "check of the written value (see the mcphost://reference/expressions resource for the "
     "condition language), or use on \"change\".\n"
     "2. `execution_run`, then `execution_wait`: the stop record names the writing "
     "instruction, its PC and the access (address, value).\n"
     "3. `disassemble` around that PC and `backtrace` to see who called it; `registers_get` "
     "for the index registers that formed the address.\n"
     "4. Legitimate writers will hit too: give them an ignore count, disable the breakpoint "
     "with `breakpoints_toggle` while they run, or turn the breakpoint into a log-only one and "
     "read every hit with `breakpoints_trace`, then look for the odd one out.\n"
     "5. Read the memory with `memory_read` before and after, and compare runs with "
     "`memory_compare` (save_as) when the corruption is one of many bytes.\n"
     "6. Clean up with `breakpoints_delete` and report the writer, why it writes there "
     "(an overrun index, a stale pointer, a stack overflow into data) and the fix."},
    {"raster_flicker", "Why does my raster effect flicker",
     "Find why a raster effect (split, colour bar, sprite multiplexer) flickers or jitters",
     {{"line", "The raster line where the effect should happen (optional)", 0},
      {"handler", "Address or label of the raster interrupt handler (optional)", 0}},
     2,
     "Find why the raster effect at line {line} (handler {handler}) flickers.\n\n"
     "1. Look at it: `screen_capture` on a few consecutive frames (run a frame at a time with "
     "`execution_run_until` frames 1) and compare them.\n"
     "2. Stop exactly where the effect starts: `breakpoints_raster` on line {line}, "
     "`execution_run`, `execution_wait`; `vic2_raster_get` gives the raster line "
     "and cycle, `vic2_registers_get` the VIC-II state, `cia_timers_get` whether a CIA timer "
     "interrupt competes with the raster interrupt.\n"
     "3. If a handler was given, set an exec breakpoint on {handler} with `breakpoints_set` and "
     "compare the raster position when it is entered on several frames: a position that "
     "moves means jitter (interrupt latency from the instruction that was running, bad lines "
     "stealing cycles, sprites' DMA). `execution_step_cycle` walks cycle by cycle.\n"
     "4. Check that the interrupt is acknowledged ($D019) and the next raster line is set "
     "($D012 and bit 7 of $D011) every time, with `breakpoints_vic_register_write` on those "
     "registers, and that the handler does not run into the next frame: "
     "`cycles_stopwatch` from entry to exit.\n"
     "5. Look for writes at the wrong time: `breakpoints_memory_watch` on the changed colour "
     "or sprite registers, with a log-only breakpoint and `breakpoints_trace` to see on which "
     "line and cycle each write lands.\n"
     "6. Report which write lands too late or too early, why (timing, a missing "
     "stabilisation, double buffering), and a fix; verify with `screen_capture`."},
    {"profile_routine", "Profile a routine",
     "Measure how many cycles a routine takes and where they go",
     {{"routine", "Address or label of the routine's entry", 1},
      {"calls", "How many calls to measure (default 10)", 0}},
     2,
     "Profile the routine at {routine} over {calls} calls.\n\n"
     "A sampling profiler arrives with issue #18; until then measure with breakpoints and the "
     "cycle stopwatch:\n"
     "1. `symbols_list` (filter) if {routine} is a label, to get its address and its "
     "neighbours.\n"
     "2. `breakpoints_set` an exec breakpoint at the entry, `execution_run`, `execution_wait`; "
     "then `cycles_stopwatch` with reset true, and `execution_step_out` to the RTS: "
     "`cycles_stopwatch` gives the cycles of that call. Repeat for several calls (an ignore "
     "count or a condition picks which); note the minimum, maximum and typical value.\n"
     "3. To see where the cycles go inside, `disassemble` the routine and time its loops the "
     "same way (breakpoints at loop heads with `breakpoints_set`, log-only, then "
     "`breakpoints_trace` gives each hit's cycle), or `execution_step` through one call and "
     "read the cycle counter that `registers_get` reports.\n"
     "4. Remember what the machine steals: VIC-II bad lines and sprite DMA (see "
     "`vic2_raster_get`) make the same code slower on some lines.\n"
     "5. Report cycles per call, the hot loop, and concrete optimisations with their cycle "
     "savings; check each with `assemble` and a new measurement."},
    {"explain_routine", "Explain this routine",
     "Explain what a routine does, its inputs, outputs and side effects",
     {{"routine", "Address or label of the routine", 1}},
     1,
     "Explain the routine at {routine}.\n\n"
     "1. `symbols_list` to resolve {routine} if it is a label and to see the labels near it.\n"
     "2. `disassemble` from its entry until its RTS/RTI/JMP (give count or end), following "
     "branches; `memory_read` the tables and strings it indexes.\n"
     "3. Find its callers and inputs: a log-only exec breakpoint on the entry "
     "(`breakpoints_set`), `execution_run`, then `breakpoints_trace`; or stop at it with "
     "`execution_wait` and read `registers_get` and `backtrace`.\n"
     "4. Watch its effects: `execution_step_out` from the entry and compare memory with "
     "`memory_compare` (save_as before, compare after); `memory_banks` tells which of RAM, "
     "ROM or I/O an address reached.\n"
     "5. Explain in plain words: purpose, inputs (registers, zero page), outputs, memory and "
     "hardware registers it changes, cycles if they matter, and any trick it relies on."},
    {"write_and_test_routine", "Write and test a routine",
     "Write a 6502 routine, assemble it into memory, run it and check it with the debug cart",
     {{"task", "What the routine must do", 1},
      {"address", "Where to put it (default $C000)", 0}},
     2,
     "Write and test a 6502 routine that does: {task}. Put it at {address} (default $C000).\n\n"
     "1. Use a session with the debug cart, so a test can end the run with a result: "
     "`session_create` with machine c64, select true and options {\"debugcart\": true} (a "
     "write to $D7FF then ends the run with that byte as exit code), and `execution_run_until` a few frames "
     "so the machine reaches READY.\n"
     "2. Write the routine and assemble it with `assemble` at {address} (keep_labels true so "
     "its labels become symbols); errors come back with line and column.\n"
     "3. Assemble a test harness after it: set up inputs, JSR the routine, compare the "
     "results with the expected values, and store 0 to $D7FF when all match, or a non-zero "
     "code naming the failed check.\n"
     "4. Run it: `registers_set` pc to the harness, `execution_run`, then `execution_wait`: "
     "the stop record reports the exit and its code. On a failure, `breakpoints_set` inside "
     "the routine, `execution_step` through it and read `registers_get` and `memory_read`.\n"
     "5. Cover edge cases (0, $FF, page crossings, carry in and out) with one harness per "
     "case or a table, each run ending in the debug cart.\n"
     "6. Report the routine's source, its size and cycle count (`cycles_stopwatch`) and the "
     "cases that pass."},
};

/* The plan with every {name} replaced by its argument. */
static char *expand(const char *plan, const cJSON *args)
{
    size_t cap = strlen(plan) + 1, len = 0;
    for (const cJSON *a = args ? args->child : NULL; a; a = a->next)
        if (cJSON_IsString(a)) cap += 16 * (strlen(a->valuestring) + 16);
    char *out = malloc(cap + 256);
    if (!out) return NULL;
    for (const char *p = plan; *p;) {
        const char *close = *p == '{' ? strchr(p, '}') : NULL;
        const char *value = NULL;
        if (close && close - p < 32) {
            char name[32];
            snprintf(name, sizeof name, "%.*s", (int)(close - p - 1), p + 1);
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(args, name);
            int is_arg = 0;
            for (size_t i = 0; i < sizeof prompts / sizeof prompts[0] && !is_arg; i++)
                for (size_t k = 0; k < prompts[i].arg_count; k++)
                    if (strcmp(prompts[i].args[k].name, name) == 0) is_arg = 1;
            if (is_arg) value = cJSON_IsString(v) && *v->valuestring ? v->valuestring
                                                                       : "(not given)";
        }
        if (value) {
            size_t n = strlen(value);
            if (len + n + 1 > cap + 255) break;
            memcpy(out + len, value, n);
            len += n;
            p = close + 1;
        } else {
            if (len + 2 > cap + 255) break;
            out[len++] = *p++;
        }
    }
    out[len] = '\0';
    return out;
}

static void get_prompt(void *user, mh_call *call)
{
    const prompt_def *def = user;
    cJSON *args = cJSON_Parse(call->args_json);
    char *text = expand(def->plan, args);
    cJSON_Delete(args);
    if (!text) {
        mh_call_errorf(call, "out of memory building the prompt %s", def->name);
        return;
    }
    mh_call_service_impl.prompt_message(call, "user", text);
    free(text);
}

/* Address arguments complete to the current session's labels. */
static void complete_prompt(void *user, mh_call *call)
{
    (void)user;
    cJSON *args = cJSON_Parse(call->args_json);
    const cJSON *argument = cJSON_GetObjectItemCaseSensitive(args, "argument");
    const cJSON *value = cJSON_GetObjectItemCaseSensitive(args, "value");
    if (cJSON_IsString(argument) && cJSON_IsString(value))
        content_complete_label(call, argument->valuestring, value->valuestring, NULL);
    cJSON_Delete(args);
}

mh_status content_prompts_register(content_state *st, const mh_host *host,
                                   const mh_registry_service *reg)
{
    (void)st;
    for (size_t i = 0; i < sizeof prompts / sizeof prompts[0]; i++) {
        const prompt_def *p = &prompts[i];
        mh_prompt_desc d = {sizeof d, p->name, p->title, p->description, p->args, p->arg_count,
                            get_prompt, complete_prompt, (void *)p};
        mh_status status = reg->add_prompt(host, &d);
        if (status != MH_OK) return status;
    }
    return MH_OK;
}
