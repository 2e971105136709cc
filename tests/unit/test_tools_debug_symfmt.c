/* test_tools_debug_symfmt.c - the symbol and debug-info file parsers of
 * tools-debug (td_symfmt.h) and the source line table (td_lines.h), linked
 * directly (tools_debug_decode): each format is detected and read (ca65
 * scopes and span lists, KickAssembler namespaces and sections, dasm,
 * xa65, label files), and hostile inputs (every prefix of every sample,
 * random bytes, huge ids and numbers, scope cycles, deep namespaces, NUL
 * bytes, long names) never break the parsers' promises: names of 1 to
 * TD_MAX_SYMBOL_NAME bytes, values and ranges within $0000-$FFFF, lines
 * from 1, no read past the text (ASan builds check that). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mh_test.h"
#include "td_annot.h"
#include "td_lines.h"
#include "td_store.h"
#include "td_symfmt.h"

typedef struct seen {
    char names[64][TD_MAX_SYMBOL_NAME + 1];
    uint32_t values[64];
    size_t symbols, files, lines, bad;
    uint32_t line_file[64], line_no[64], line_start[64], line_end[64];
    int broken; /* a promise was not kept */
} seen;

static int on_symbol(void *user, const char *name, size_t length, uint32_t value)
{
    seen *s = user;
    if (length == 0 || length > TD_MAX_SYMBOL_NAME || value > 0xFFFF) s->broken = 1;
    if (s->symbols < 64 && length <= TD_MAX_SYMBOL_NAME) {
        memcpy(s->names[s->symbols], name, length);
        s->names[s->symbols][length] = '\0';
        s->values[s->symbols] = value;
    }
    s->symbols++;
    return 0;
}

static int on_file(void *user, uint32_t id, const char *name, size_t length)
{
    seen *s = user;
    (void)id;
    if (length == 0 || length > TD_SYMFMT_MAX_PATH || memchr(name, '\n', length)) s->broken = 1;
    s->files++;
    return 0;
}

static int on_line(void *user, uint32_t file, uint32_t line, uint32_t start, uint32_t end)
{
    seen *s = user;
    if (line == 0 || line > TD_SYMFMT_MAX_LINE || start > end || end > 0xFFFF) s->broken = 1;
    if (s->lines < 64) {
        s->line_file[s->lines] = file;
        s->line_no[s->lines] = line;
        s->line_start[s->lines] = start;
        s->line_end[s->lines] = end;
    }
    s->lines++;
    return 0;
}

static void on_bad(void *user, uint32_t line_no, const char *why)
{
    seen *s = user;
    if (line_no == 0 || !why || !*why) s->broken = 1;
    s->bad++;
}

static void parse_as(const char *format, const char *text, size_t size, seen *s)
{
    memset(s, 0, sizeof *s);
    const td_symfmt *f = td_symfmt_named(format);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    td_symfmt_sink sink = {s, on_symbol, on_file, on_line, on_bad};
    f->parse(text, size, &sink);
    if (s->broken) fprintf(stderr, "\nBROKEN %s [%.*s]\n", format, (int)(size < 300 ? size : 300), text);
    CU_ASSERT_FALSE(s->broken);
}

static uint32_t value_of(const seen *s, const char *name)
{
    for (size_t i = 0; i < s->symbols && i < 64; i++)
        if (strcmp(s->names[i], name) == 0) return s->values[i];
    return 0xFFFFFFFFu;
}

/* ---- samples, as the tools write them ---- */

static const char CA65[] =
    "version\tmajor=2,minor=0\n"
    "info\tcsym=0,file=2,lib=0,line=4,mod=1,scope=2,seg=2,span=4,sym=5,type=0\n"
    "file\tid=0,name=\"main.s\",size=208,mtime=0x6B062CDB,mod=0\n"
    "file\tid=1,name=\"inc/macros.inc\",size=20,mtime=0x6B062CDB,mod=0\n"
    "line\tid=0,file=0,line=4,span=0\n"
    "line\tid=1,file=0,line=6,span=1+2\n"
    "line\tid=2,file=1,line=2,type=2,span=3\n"
    "line\tid=3,file=0,line=1\n"
    "mod\tid=0,name=\"main.o\",file=0\n"
    "seg\tid=0,name=\"CODE\",start=0x00C000,size=0x0013,addrsize=absolute,type=ro\n"
    "seg\tid=1,name=\"DATA\",start=0x001000,size=0x0010,addrsize=absolute,type=rw\n"
    "span\tid=0,seg=0,start=0,size=2\n"
    "span\tid=1,seg=0,start=2,size=2\n"
    "span\tid=2,seg=1,start=4,size=1\n"
    "span\tid=3,seg=0,start=4,size=3\n"
    "scope\tid=0,name=\"\",mod=0,size=19\n"
    "scope\tid=1,name=\"fill\",mod=0,type=scope,size=4,parent=0\n"
    "sym\tid=0,name=\"start\",addrsize=absolute,scope=0,def=0,val=0xC000,seg=0,type=lab\n"
    "sym\tid=1,name=\"loop\",addrsize=absolute,scope=1,def=1,val=0xC002,seg=0,type=lab\n"
    "sym\tid=2,name=\"printf\",addrsize=absolute,scope=0,type=imp\n"
    "sym\tid=3,name=\"BIG\",addrsize=absolute,scope=0,val=0x123456,type=equ\n"
    "sym\tid=4,name=\"BORDER\",addrsize=absolute,scope=0,val=0xD020,type=equ\n"
    "sym\tid=5,name=\"@wait\",addrsize=absolute,parent=1,val=0xC003,type=lab\n"
    "sym\tid=6,name=\"@odd\",addrsize=absolute,parent=99,val=0xC004,type=lab\n"
    "sym\tid=7,name=\"@nest\",addrsize=absolute,parent=5,val=0xC005,type=lab\n";

static const char KICK_SYM[] = ".label start=$c000\n"
                               ".namespace music {\n"
                               "\t.label play=$c010\n"
                               "\t.namespace inner {\n"
                               "\t\t.label deep=$c020\n"
                               "\t}\n"
                               "\t.label after=$c011\n"
                               "}\n"
                               ".const SCREEN=$0400\n"
                               ".const NAME=\"text\"\n";

static const char KICK_DBG[] =
    "<C64debugger version=\"1.0\">\n"
    "  <Sources values=\"INDEX,FILE\">\n"
    "    0,KickAss.jar:/include/autoinclude.asm\n"
    "    1,/home/me/main.asm\n"
    "  </Sources>\n"
    "  <Segment name=\"Default\" dest=\"\" values=\"START,END,FILE_IDX,LINE1,COL1,LINE2,COL2\">\n"
    "    <Block name=\"Basic\">\n"
    "      $0801,$080c,0,4,1,4,33\n"
    "    </Block>\n"
    "    $0810,$0811,1,12,9,12,14\n"
    "    <Block name=\"Code\">\n"
    "      $0812,$0814,1,13,9,13,19\n"
    "    </Block>\n"
    "  </Segment>\n"
    "  <Labels values=\"SEGMENT,ADDRESS,NAME,START,END,FILE_IDX,LINE1,COL1,LINE2,COL2\">\n"
    "    Default,$0810,start,1,12,1,12,6\n"
    "  </Labels>\n"
    "  <Breakpoints values=\"SEGMENT,ADDRESS,ARGUMENT\">\n"
    "    Default,$0812,\n"
    "  </Breakpoints>\n"
    "</C64debugger>\n";

static const char DASM[] = "--- Symbol List (sorted by symbol)\n"
                           "fill_screen              c002              (R )\n"
                           "start                    c000                  \n"
                           "msg                      \"hello\"             \n"
                           "--- End of Symbol List.\n";

static const char XA[] = "start, 0xc000, 0, 0x0000\n"
                         "fill_screen, 0xc002, 1, 0x0000\n";

static const char LABELS[] = "al C:c000 .start\n"
                             "al 00C002 .fill_screen\n"
                             "\tvalue\t= $1234\t; unused\n";

static void test_detect(void)
{
    static const struct {
        const char *text, *format;
    } cases[] = {{CA65, "ca65-dbg"},  {KICK_SYM, "kickass-sym"}, {KICK_DBG, "kickass-dbg"},
                 {DASM, "dasm"},      {XA, "xa65"},              {LABELS, "labels"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const td_symfmt *f = td_symfmt_detect(cases[i].text, strlen(cases[i].text));
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        CU_ASSERT_STRING_EQUAL(f->name, cases[i].format);
    }
    CU_ASSERT_PTR_NULL(td_symfmt_detect("", 0));
    CU_ASSERT_PTR_NULL(td_symfmt_detect("hello world\nthis is prose\n", 26));
    CU_ASSERT_PTR_NULL(td_symfmt_named("nonsense"));
}

static void test_ca65(void)
{
    seen s;
    parse_as("ca65-dbg", CA65, strlen(CA65), &s);
    CU_ASSERT_EQUAL(s.bad, 0);
    CU_ASSERT_EQUAL(s.files, 2);
    CU_ASSERT_EQUAL(value_of(&s, "start"), 0xC000);
    CU_ASSERT_EQUAL(value_of(&s, "fill::loop"), 0xC002); /* qualified by its scope */
    CU_ASSERT_EQUAL(value_of(&s, "BORDER"), 0xD020);
    CU_ASSERT_EQUAL(value_of(&s, "fill::loop@wait"), 0xC003); /* a cheap local of fill::loop */
    CU_ASSERT_EQUAL(value_of(&s, "@odd"), 0xC004);            /* its parent is not there */
    CU_ASSERT_EQUAL(value_of(&s, "@nest"), 0xC005);           /* cheap locals do not nest */
    CU_ASSERT_EQUAL(value_of(&s, "printf"), 0xFFFFFFFFu); /* an import: no value */
    CU_ASSERT_EQUAL(value_of(&s, "BIG"), 0xFFFFFFFFu);    /* a constant above $FFFF */
    /* line 4: span 0; line 6: spans 1 and 2 (two segments); the macro line
     * and the line without a span give nothing */
    CU_ASSERT_EQUAL_FATAL(s.lines, 3);
    CU_ASSERT_EQUAL(s.line_no[0], 4);
    CU_ASSERT_EQUAL(s.line_start[0], 0xC000);
    CU_ASSERT_EQUAL(s.line_end[0], 0xC001);
    CU_ASSERT_EQUAL(s.line_start[1], 0xC002);
    CU_ASSERT_EQUAL(s.line_end[1], 0xC003);
    CU_ASSERT_EQUAL(s.line_start[2], 0x1004);
    CU_ASSERT_EQUAL(s.line_end[2], 0x1004);
}

static void test_kickass(void)
{
    seen s;
    parse_as("kickass-sym", KICK_SYM, strlen(KICK_SYM), &s);
    CU_ASSERT_EQUAL(value_of(&s, "start"), 0xC000);
    CU_ASSERT_EQUAL(value_of(&s, "music.play"), 0xC010);
    CU_ASSERT_EQUAL(value_of(&s, "music.inner.deep"), 0xC020);
    CU_ASSERT_EQUAL(value_of(&s, "music.after"), 0xC011);
    CU_ASSERT_EQUAL(value_of(&s, "SCREEN"), 0x0400);
    CU_ASSERT_EQUAL(s.symbols, 5); /* the string constant is not an address */
    CU_ASSERT_EQUAL(s.bad, 0);
    parse_as("kickass-dbg", KICK_DBG, strlen(KICK_DBG), &s);
    CU_ASSERT_EQUAL(s.bad, 0);
    CU_ASSERT_EQUAL(s.files, 2);
    CU_ASSERT_EQUAL(s.symbols, 1);
    CU_ASSERT_EQUAL(value_of(&s, "start"), 0x0810);
    CU_ASSERT_EQUAL_FATAL(s.lines, 3); /* in blocks and directly in the segment */
    CU_ASSERT_EQUAL(s.line_file[1], 1);
    CU_ASSERT_EQUAL(s.line_no[1], 12);
    CU_ASSERT_EQUAL(s.line_start[2], 0x0812);
    CU_ASSERT_EQUAL(s.line_end[2], 0x0814);
    /* unbalanced and too deep namespaces are reported, never overflow */
    char deep[4096] = "";
    for (int i = 0; i < 40; i++) strcat(deep, ".namespace abcdefgh {\n");
    strcat(deep, ".label x=$1000\n}\n}\n}\n}\n");
    parse_as("kickass-sym", deep, strlen(deep), &s);
    CU_ASSERT(s.bad > 0);
}

static void test_lists(void)
{
    seen s;
    parse_as("dasm", DASM, strlen(DASM), &s);
    CU_ASSERT_EQUAL(s.symbols, 2);
    CU_ASSERT_EQUAL(value_of(&s, "fill_screen"), 0xC002);
    parse_as("xa65", XA, strlen(XA), &s);
    CU_ASSERT_EQUAL(s.symbols, 2);
    CU_ASSERT_EQUAL(value_of(&s, "fill_screen"), 0xC002);
    parse_as("labels", LABELS, strlen(LABELS), &s);
    CU_ASSERT_EQUAL(value_of(&s, "fill_screen"), 0xC002);
    CU_ASSERT_EQUAL(value_of(&s, "value"), 0x1234);
}

/* Every prefix of every sample, in every format: promises kept. */
static void test_prefixes(void)
{
    const char *samples[] = {CA65, KICK_SYM, KICK_DBG, DASM, XA, LABELS};
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        size_t n = strlen(samples[i]);
        for (size_t cut = 0; cut <= n; cut++) {
            /* an exact-size heap copy: ASan sees a read past the end */
            char *copy = malloc(cut ? cut : 1);
            memcpy(copy, samples[i], cut);
            for (size_t f = 0; f < td_symfmt_count(); f++) {
                seen s;
                parse_as(td_symfmt_at(f)->name, copy, cut, &s);
            }
            (void)td_symfmt_detect(copy, cut);
            free(copy);
        }
    }
}

static void test_hostile(void)
{
    static const char *const texts[] = {
        /* huge ids, values and line numbers; references to nothing */
        "version\tmajor=2\nseg\tid=4294967295,start=0xFFFFFF\nspan\tid=1,seg=4294967295,start=0xFFFFFF,size=0xFFFFFF\n"
        "line\tid=1,file=0,line=99999999999,span=1\nline\tid=2,file=0,line=1,span=1+1+1+99+\n",
        "version\tmajor=2\nsym\tid=0,name=\"\",val=0x10\nsym\tid=1,name=\"x\",val=-1\nsym\tid=2,name=\"y\",val=0x\n",
        /* a scope that is its own parent, and a cycle */
        "version\tmajor=2\nscope\tid=0,name=\"a\",parent=0\nscope\tid=1,name=\"b\",parent=2\nscope\tid=2,name=\"c\",parent=1\n"
        "sym\tid=0,name=\"s\",scope=1,val=0x1000\nsym\tid=1,name=\"t\",scope=0,val=0x1001\n",
        /* unnamed scopes in a cycle (fuzz_symfmt hung on one) */
        "version\tmajor=2\nscope\tid=0,name=\"\",parent=1\nscope\tid=1,name=\"\",parent=0\n"
        "sym\tid=0,name=\"u\",scope=1,val=0x1000\n",
        /* unterminated quotes, stray separators, tabs only */
        "version\tmajor=2\nfile\tid=0,name=\"never closed\nsym\t,,,,=,=\n\t\t\t\n=\n",
        /* a span past $FFFF */
        "version\tmajor=2\nseg\tid=0,start=0xFFFF\nspan\tid=0,seg=0,start=0,size=4\nline\tid=0,file=0,line=1,span=0\n",
        /* KickAssembler: records outside sections, bad numbers, a closing tag first */
        "<C64debugger>\n$1000,$0FFF,1,1,1,1,1\n</Segment>\n<Segment>\n$1000,$0FFF,1,1\n$10000,$10001,1,1\n,,,,\n"
        "<Labels>\nx,y,z\nDefault,$1000,\nDefault,$1000,9bad\n<Sources>\n99999999,a\n1,\n",
        "}\n}\n.namespace {\n.label =$1000\n.label x=\n.label y=$10000\n",
        /* dasm and xa65 oddities */
        "--- Symbol List\n   \nname\nname zz\n\"q\" 1000\n",
        "a, 0x, 0, 0\n, 0x1000, 0, 0\nb, 0x10000, 0, 0\n",
        /* NUL bytes inside */
        "al C:1000 .a\0b\nx = $10\n",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        size_t n = i == sizeof texts / sizeof texts[0] - 1 ? 24 : strlen(texts[i]);
        for (size_t f = 0; f < td_symfmt_count(); f++) {
            seen s;
            parse_as(td_symfmt_at(f)->name, texts[i], n, &s);
        }
    }
    /* names longer than the limit are refused, not cut */
    char line[600];
    memset(line, 'n', sizeof line);
    memcpy(line, ".label ", 7);
    memcpy(line + 300, "=$1000\n", 7);
    seen s;
    parse_as("kickass-sym", line, 307, &s);
    CU_ASSERT_EQUAL(s.symbols, 0);
    CU_ASSERT_EQUAL(s.bad, 1);
    /* random bytes */
    srand(17);
    char *junk = malloc(4096);
    for (int round = 0; round < 200; round++) {
        size_t n = (size_t)(rand() % 4096);
        for (size_t k = 0; k < n; k++) {
            static const char alphabet[] = "\n\t ,=+\"$0x1aF{}<>/.:@version\tmajor=spanlinesegsymscope";
            junk[k] = rand() % 4 ? alphabet[rand() % (int)(sizeof alphabet - 1)] : (char)rand();
        }
        for (size_t f = 0; f < td_symfmt_count(); f++) {
            seen r;
            parse_as(td_symfmt_at(f)->name, junk, n, &r);
        }
    }
    free(junk);
}

static void test_lines(void)
{
    td_lines lines;
    memset(&lines, 0, sizeof lines);
    uint32_t main_s = 0, inc = 0;
    CU_ASSERT_EQUAL(td_lines_add_file(&lines, "src/main.s", 10, "/proj", &main_s), MH_OK);
    CU_ASSERT_EQUAL(td_lines_add_file(&lines, "/abs/inc.s", 10, "/proj", &inc), MH_OK);
    CU_ASSERT_STRING_EQUAL(lines.files[main_s].path, "/proj/src/main.s");
    CU_ASSERT_STRING_EQUAL(lines.files[inc].path, "/abs/inc.s");
    td_lines_add(&lines, main_s, 10, 0xC000, 0xC0FF); /* a long data line */
    td_lines_add(&lines, main_s, 11, 0xC010, 0xC011);
    td_lines_add(&lines, inc, 3, 0xC012, 0xC014);
    td_lines_add(&lines, main_s, 40, 0xD000, 0xD000);
    const td_line *l = td_lines_at(&lines, 0xC011);
    CU_ASSERT_PTR_NOT_NULL_FATAL(l);
    CU_ASSERT_EQUAL(l->line, 11); /* the narrowest range wins */
    l = td_lines_at(&lines, 0xC080);
    CU_ASSERT_PTR_NOT_NULL_FATAL(l);
    CU_ASSERT_EQUAL(l->line, 10);
    CU_ASSERT_PTR_NULL(td_lines_at(&lines, 0xC100));
    CU_ASSERT_PTR_NULL(td_lines_at(&lines, 0xBFFF));
    const td_line *found[4];
    CU_ASSERT_EQUAL(td_lines_find(&lines, "main.s", 11, found, 4), 1);
    CU_ASSERT_EQUAL(found[0]->start, 0xC010);
    CU_ASSERT_EQUAL(td_lines_find(&lines, "src/main.s", 40, found, 4), 1);
    CU_ASSERT_EQUAL(td_lines_find(&lines, "ain.s", 11, found, 4), 0); /* whole names only */
    CU_ASSERT_EQUAL(td_lines_find(&lines, "inc.s", 3, found, 4), 1);
    td_lines_clear(&lines);
    CU_ASSERT_EQUAL(lines.count, 0);
}

/* ---- @mcp annotations ---- */

typedef struct notes {
    size_t count;
    uint32_t line[8];
    char type[8][TD_ANNOT_MAX_TYPE + 1];
    char text[8][TD_ANNOT_MAX_TEXT + 1];
    int broken;
} notes;

static int on_note(void *user, uint32_t line_no, const char *type, size_t type_length,
                   const char *text, size_t text_length)
{
    notes *n = user;
    if (line_no == 0 || type_length == 0 || type_length > TD_ANNOT_MAX_TYPE ||
        text_length > TD_ANNOT_MAX_TEXT)
        n->broken = 1;
    if (n->count < 8 && !n->broken) {
        n->line[n->count] = line_no;
        snprintf(n->type[n->count], sizeof n->type[0], "%.*s", (int)type_length, type);
        snprintf(n->text[n->count], sizeof n->text[0], "%.*s", (int)text_length, text);
    }
    n->count++;
    return 0;
}

static void test_annotations(void)
{
    static const char src[] = "; @mcp-function: fills the screen  \n"
                               "start:  lda #1 ; @mcp-timing-critical:stable raster\r\n"
                               "        // @mcp-my-own-type: kept as written\n"
                               "/* @mcp-state: in a block comment */\n"
                               "        lda #1 @mcp-memory: not in a comment\n"
                               "; @mcp-: no type\n"
                               "; @mcp-bad type: a space\n"
                               "; @mcp-notype\n";
    notes n = {0};
    CU_ASSERT_EQUAL(td_annot_scan(src, strlen(src), on_note, &n), 4);
    CU_ASSERT_FALSE(n.broken);
    CU_ASSERT_EQUAL(n.line[0], 1);
    CU_ASSERT_STRING_EQUAL(n.type[0], "function");
    CU_ASSERT_STRING_EQUAL(n.text[0], "fills the screen");
    CU_ASSERT_EQUAL(n.line[1], 2);
    CU_ASSERT_STRING_EQUAL(n.text[1], "stable raster");
    CU_ASSERT_STRING_EQUAL(n.type[2], "my-own-type");
    CU_ASSERT_STRING_EQUAL(n.text[3], "in a block comment");
    const char *name = NULL;
    size_t length = 0;
    CU_ASSERT_TRUE(td_annot_line_label("fill_screen: lda", 16, &name, &length));
    CU_ASSERT_EQUAL(length, 11);
    CU_ASSERT_FALSE(td_annot_line_label("  lda #1", 8, &name, &length));
    /* hostile: every prefix, long texts cut, NUL bytes */
    for (size_t cut = 0; cut <= sizeof src - 1; cut++) {
        char *copy = malloc(cut ? cut : 1);
        memcpy(copy, src, cut);
        notes m = {0};
        td_annot_scan(copy, cut, on_note, &m);
        CU_ASSERT_FALSE(m.broken);
        free(copy);
    }
    char longer[1200];
    memset(longer, 'x', sizeof longer);
    memcpy(longer, "; @mcp-memory: ", 15);
    notes m = {0};
    CU_ASSERT_EQUAL(td_annot_scan(longer, sizeof longer, on_note, &m), 1);
    CU_ASSERT_EQUAL(strlen(m.text[0]), TD_ANNOT_MAX_TEXT);
    static const char nul[] = "; @mcp-memory: a\0b\n; @mcp-state: ok\n";
    notes k = {0};
    CU_ASSERT_EQUAL(td_annot_scan(nul, sizeof nul - 1, on_note, &k), 1);
}

MH_SUITE("tools_debug.symfmt", NULL, NULL, MH_TEST(test_detect), MH_TEST(test_ca65),
         MH_TEST(test_kickass), MH_TEST(test_lists), MH_TEST(test_prefixes),
         MH_TEST(test_hostile), MH_TEST(test_lines), MH_TEST(test_annotations))
