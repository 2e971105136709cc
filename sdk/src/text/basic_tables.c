/* basic_tables.c - Commodore BASIC keywords by token and the brace names of
 * PETSCII control and graphics bytes (mcphost/basic.h). */
#include <string.h>
#include <strings.h>

#include "basic_internal.h"

/* BASIC 2.0, tokens $80-$CB, in token order: the cruncher takes the first
 * keyword that matches, so the order is part of the language
 * ("input#" before "input"). */
static const char *const v2_keywords[] = {
    "end",    "for",   "next",  "data",  "input#", "input",  "dim",    "read",   "let",
    "goto",   "run",   "if",    "restore", "gosub", "return", "rem",   "stop",   "on",
    "wait",   "load",  "save",  "verify", "def",   "poke",   "print#", "print",  "cont",
    "list",   "clr",   "cmd",   "sys",   "open",   "close",  "get",    "new",    "tab(",
    "to",     "fn",    "spc(",  "then",  "not",    "step",   "+",      "-",      "*",
    "/",      "^",     "and",   "or",    ">",      "=",      "<",      "sgn",    "int",
    "abs",    "usr",   "fre",   "pos",   "sqr",    "rnd",    "log",    "exp",    "cos",
    "sin",    "tan",   "atn",   "peek",  "len",    "str$",   "val",    "asc",    "chr$",
    "left$",  "right$", "mid$", "go"};

/* BASIC 3.5 adds $CC-$FD. */
static const char *const v35_keywords[] = {
    "rgr",    "rclr",  "rlum",  "joy",   "rdot",   "dec",    "hex$",   "err$",   "instr",
    "else",   "resume", "trap", "tron",  "troff",  "sound",  "vol",    "auto",   "pudef",
    "graphic", "paint", "char", "box",   "circle", "gshape", "sshape", "draw",   "locate",
    "color",  "scnclr", "scale", "help", "do",     "loop",   "exit",   "directory", "dsave",
    "dload",  "header", "scratch", "collect", "copy", "rename", "backup", "delete",
    "renumber", "key", "monitor", "using", "until", "while"};

#define V2_COUNT (sizeof v2_keywords / sizeof v2_keywords[0])
#define V35_COUNT (sizeof v35_keywords / sizeof v35_keywords[0])
_Static_assert(V2_COUNT == 0xCC - 0x80, "BASIC 2.0 has tokens $80-$CB");
_Static_assert(V35_COUNT == 0xFE - 0xCC, "BASIC 3.5 adds tokens $CC-$FD");

const char *mh_basic_keyword(mh_basic_dialect dialect, uint8_t token)
{
    if (token < MH_BASIC_TOKEN_FIRST) return NULL;
    size_t index = token - MH_BASIC_TOKEN_FIRST;
    if (index < V2_COUNT) return v2_keywords[index];
    index -= V2_COUNT;
    if (dialect == MH_BASIC_V35 && index < V35_COUNT) return v35_keywords[index];
    return NULL;
}

uint8_t mh_basic_last_token(mh_basic_dialect dialect)
{
    return (uint8_t)(MH_BASIC_TOKEN_FIRST + V2_COUNT - 1 + (dialect == MH_BASIC_V35 ? V35_COUNT : 0));
}

/* The characters outside ASCII that stand for PETSCII bytes, in UTF-8. */
static const struct {
    const char *utf8;
    uint8_t byte;
} specials[] = {{"\xC2\xA3", 0x5C}, {"\xE2\x86\x91", 0x5E}, {"\xE2\x86\x90", 0x5F}, {"\xCF\x80", 0xFF}};

int mh_basic_special_byte(const char *p, size_t *used)
{
    for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++) {
        size_t n = strlen(specials[i].utf8);
        if (strncmp(p, specials[i].utf8, n) == 0) {
            *used = n;
            return specials[i].byte;
        }
    }
    return -1;
}

const char *mh_basic_special_utf8(uint8_t byte)
{
    for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++)
        if (specials[i].byte == byte) return specials[i].utf8;
    return NULL;
}

typedef struct code_name {
    const char *name;
    uint8_t byte;
} code_name;

/* The first name of a byte is the one listings write. */
static const code_name codes[] = {
    {"wht", 0x05},     {"down", 0x11},    {"rvs on", 0x12},  {"home", 0x13},
    {"del", 0x14},     {"red", 0x1C},     {"rght", 0x1D},    {"grn", 0x1E},
    {"blu", 0x1F},     {"orng", 0x81},    {"f1", 0x85},      {"f3", 0x86},
    {"f5", 0x87},      {"f7", 0x88},      {"f2", 0x89},      {"f4", 0x8A},
    {"f6", 0x8B},      {"f8", 0x8C},      {"blk", 0x90},     {"up", 0x91},
    {"rvs off", 0x92}, {"clr", 0x93},     {"inst", 0x94},    {"brn", 0x95},
    {"lred", 0x96},    {"gry1", 0x97},    {"gry2", 0x98},    {"lgrn", 0x99},
    {"lblu", 0x9A},    {"gry3", 0x9B},    {"pur", 0x9C},     {"left", 0x9D},
    {"yel", 0x9E},     {"cyn", 0x9F},     {"CBM-@", 0xA4},   {"CBM-+", 0xA6},
    {"SHIFT-@", 0xBA}, {"SHIFT-*", 0xC0}, {"SHIFT-+", 0xDB}, {"CBM--", 0xDC},
    {"SHIFT--", 0xDD}, {"CBM-*", 0xDF},
};

int mh_basic_code_byte(const char *name, size_t length)
{
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        if (strlen(codes[i].name) == length && strncasecmp(codes[i].name, name, length) == 0)
            return codes[i].byte;
    /* {SHIFT-A}..{SHIFT-Z}: the shifted letters */
    char letter = length == 7 && strncasecmp(name, "SHIFT-", 6) == 0 ? name[6] : 0;
    if (letter >= 'a' && letter <= 'z') letter = (char)(letter - 'a' + 'A');
    if (letter >= 'A' && letter <= 'Z') return 0xC1 + (letter - 'A');
    return -1;
}

const char *mh_basic_code_name(uint8_t byte)
{
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        if (codes[i].byte == byte) return codes[i].name;
    return NULL;
}
