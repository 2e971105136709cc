/* fuzz_symbols.c - libFuzzer target for symbol files (symbols_load's
 * parser, plugins/tools-debug/td_symfile.c) and the symbol table they fill
 * (td_store.c).
 *
 * The input is a symbol file. Every line is parsed; invariants, each
 * aborting on violation (ASan/UBSan catch memory and undefined-behaviour
 * bugs):
 *   1. the parser moves forward and ends exactly at the end of the text;
 *   2. a symbol's name lies inside its line, is 1-TD_MAX_SYMBOL_NAME name
 *      characters and its value is 0-$FFFF; a bad line has a message;
 *   3. the symbols go into a table, which is sorted; every one is then
 *      found by name (its last definition wins) and by address, and the
 *      table is in address order.
 *
 *   build: CC=clang cmake -B build-fuzz -DMH_FUZZ=ON && make -C build-fuzz fuzz_symbols
 *   run:   build-fuzz/tests/fuzz/fuzz_symbols -max_total_time=60 -max_len=4096 CORPUS_DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "td_store.h"
#include "td_symfile.h"
#include "fuzz_check.h"

static int name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == '@';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data, *end = text + size;
    td_session_state state;
    memset(&state, 0, sizeof state);
    td_symfile_line line;
    const char *pos = text;
    for (;;) {
        const char *before = pos;
        if (!td_symfile_next(&pos, end, &line)) break;
        CHECK(pos > before && pos <= end);
        if (line.kind == TD_SYMFILE_SYMBOL) {
            CHECK(line.name >= before && line.name + line.name_length <= pos);
            CHECK(line.name_length >= 1 && line.name_length <= TD_MAX_SYMBOL_NAME);
            CHECK(!(line.name[0] >= '0' && line.name[0] <= '9'));
            for (size_t i = 0; i < line.name_length; i++) CHECK(name_char(line.name[i]));
            CHECK(line.value <= 0xFFFF);
            CHECK(td_symbols_add(&state, line.name, line.name_length, line.value) == MH_OK);
        } else if (line.kind == TD_SYMFILE_BAD) {
            CHECK(line.why && line.why[0]);
        } else {
            CHECK(line.kind == TD_SYMFILE_NOTHING);
        }
    }
    CHECK(pos == end);

    td_symbols_sort(&state);
    for (size_t i = 0; i < state.symbol_count; i++) {
        const td_symbol *sym = &state.symbols[i];
        if (i) CHECK(state.symbols[i - 1].address <= sym->address);
        CHECK(td_symbols_find(&state, sym->name, strlen(sym->name)) == sym);
        const td_symbol *at = td_symbols_at(&state, sym->address);
        CHECK(at && at->address == sym->address);
        const td_symbol *below = td_symbols_below(&state, sym->address);
        CHECK(below && below->address == sym->address);
    }
    td_symbols_clear(&state);
    free(state.symbols);
    return 0;
}
