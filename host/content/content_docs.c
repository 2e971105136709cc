/* content_docs.c - the documentation as MCP resources: every .md file in docs as
 * mcphost://docs/NAME, and sections of them where a reader wants one
 * subject: each machine's memory map (the "Memory map" section of
 * docs/machine-NAME.md), the symbol file formats symbols_load takes (the
 * "Symbol files" section of docs/tools-debug.md), the condition language
 * (docs/expressions.md). The files are read at each read, so the resource
 * is always the doc that is installed; nothing is copied into the binary.
 *
 * Where the docs are: $MCPHOST_DOCS_DIR, else beside the binary as
 * installed (bin/../share/doc/mcphost/docs, MH_DOCS_RELDIR), else the source
 * tree the binary was built from (MH_DOCS_SOURCE_DIR). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "call.h"
#include "content_internal.h"
#include "exe_dir.h"

#ifndef MH_DOCS_RELDIR
#define MH_DOCS_RELDIR "../share/doc/mcphost/docs"
#endif

/* Docs larger than this are not served (they are a few tens of KiB). */
#define MH_DOC_MAX_BYTES (1u << 20)

/* One resource read from the docs: a whole file or one section of it. */
typedef struct content_doc {
    char path[PATH_MAX];
    const char *section; /* heading text the section starts with, or NULL */
} content_doc;

/* Sections served as resources of their own. */
typedef struct section_resource {
    const char *uri, *name, *title, *file, *section, *description;
} section_resource;

static const section_resource sections[] = {
    {"mcphost://reference/symbol-formats", "symbol-formats", "Symbol file formats",
     "tools-debug.md", "Symbol files",
     "The label file formats symbols_load reads, and how symbols show in disassembly"},
    {"mcphost://reference/expressions", "expressions", "Condition expression language",
     "expressions.md", NULL,
     "The expression language of breakpoint conditions (breakpoints_set condition)"},
};

/* dir/file into out; 0 when it does not fit. */
static int join_path(char *out, size_t size, const char *dir, const char *file)
{
    size_t a = strlen(dir), b = strlen(file);
    if (a + 1 + b + 1 > size) return 0;
    memcpy(out, dir, a);
    out[a] = '/';
    memcpy(out + a + 1, file, b + 1);
    return 1;
}

static int is_docs_dir(const char *dir)
{
    char marker[PATH_MAX];
    return join_path(marker, sizeof marker, dir, "tools.md") && access(marker, R_OK) == 0;
}

static void find_docs_dir(content_state *st)
{
    const char *env = getenv("MCPHOST_DOCS_DIR");
    if (env && *env && is_docs_dir(env)) {
        snprintf(st->docs_dir, sizeof st->docs_dir, "%s", env);
        return;
    }
    char exe[PATH_MAX];
    if (mh_exe_dir(exe, sizeof exe) == 0) {
        char dir[PATH_MAX];
        if (join_path(dir, sizeof dir, exe, MH_DOCS_RELDIR) && is_docs_dir(dir) &&
            realpath(dir, st->docs_dir))
            return;
    }
#ifdef MH_DOCS_SOURCE_DIR
    if (is_docs_dir(MH_DOCS_SOURCE_DIR)) {
        snprintf(st->docs_dir, sizeof st->docs_dir, "%s", MH_DOCS_SOURCE_DIR);
        return;
    }
#endif
    st->docs_dir[0] = '\0';
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *text = malloc(MH_DOC_MAX_BYTES + 1);
    size_t n = text ? fread(text, 1, MH_DOC_MAX_BYTES, f) : 0;
    fclose(f);
    if (text) text[n] = '\0';
    return text;
}

/* The heading level of a line ("## x" is 2), 0 when it is no heading. */
static int heading_level(const char *line)
{
    int level = 0;
    while (line[level] == '#') level++;
    return level > 0 && line[level] == ' ' ? level : 0;
}

/* Cuts text down to the section whose heading starts with title (any
 * case), heading included, up to the next heading of the same or a higher
 * level; fenced code is not searched for headings. Returns 0 when there
 * is no such section. */
static int cut_section(char *text, const char *title)
{
    char *start = NULL;
    int level = 0, fenced = 0;
    for (char *line = text; *line;) {
        char *next = strchr(line, '\n');
        next = next ? next + 1 : line + strlen(line);
        if (strncmp(line, "```", 3) == 0) fenced = !fenced;
        int h = fenced ? 0 : heading_level(line);
        if (h && start && h <= level) {
            memmove(text, start, (size_t)(line - start));
            text[line - start] = '\0';
            return 1;
        }
        if (h && !start && strncasecmp(line + h + 1, title, strlen(title)) == 0) {
            start = line;
            level = h;
        }
        line = next;
    }
    if (!start) return 0;
    memmove(text, start, strlen(start) + 1);
    return 1;
}

static void read_doc(void *user, mh_call *call)
{
    const content_doc *doc = user;
    char *text = read_text(doc->path);
    if (!text) {
        mh_call_errorf(call, "the documentation file %s cannot be read; reinstall mcphost or set "
                             "MCPHOST_DOCS_DIR to its docs directory", doc->path);
    } else if (doc->section && !cut_section(text, doc->section)) {
        mh_call_errorf(call, "%s has no section \"%s\" any more; mcphost://docs/ lists the docs",
                       doc->path, doc->section);
    } else {
        mh_call_service_impl.text(call, text);
    }
    free(text);
}

static content_doc *new_doc(content_state *st, const char *file, const char *section)
{
    content_doc *doc = calloc(1, sizeof *doc);
    if (!doc) return NULL;
    if (!join_path(doc->path, sizeof doc->path, st->docs_dir, file)) {
        free(doc);
        return NULL;
    }
    doc->section = section;
    if (mh_ptrvec_push(&st->doc_items, doc) != 0) {
        free(doc);
        return NULL;
    }
    return doc;
}

/* The text of the first "# " line, at most size - 1 bytes. */
static void doc_title(const char *path, char *out, size_t size)
{
    out[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f) return;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "# ", 2) != 0) continue;
        line[strcspn(line, "\r\n")] = '\0';
        snprintf(out, size, "%.*s", (int)(size - 1), line + 2);
        break;
    }
    fclose(f);
}

static int md_filter(const struct dirent *e)
{
    size_t n = strlen(e->d_name);
    return n > 3 && e->d_name[0] != '.' && strcmp(e->d_name + n - 3, ".md") == 0;
}

static mh_status add(const mh_host *host, const mh_registry_service *reg, content_doc *doc,
                     const char *uri, const char *name, const char *title,
                     const char *description)
{
    if (!doc) return MH_ERR_NO_MEMORY;
    mh_resource_desc d = {sizeof d, uri, 0, name, title, description, "text/markdown",
                          read_doc, NULL, doc};
    return reg->add_resource(host, &d);
}

static mh_status register_files(content_state *st, const mh_host *host,
                                const mh_registry_service *reg)
{
    struct dirent **names = NULL;
    int n = scandir(st->docs_dir, &names, md_filter, alphasort);
    mh_status status = MH_OK;
    for (int i = 0; i < n; i++) {
        char stem[256], uri[300], title[200], description[300], path[PATH_MAX];
        snprintf(stem, sizeof stem, "%.*s", (int)(strlen(names[i]->d_name) - 3),
                 names[i]->d_name);
        snprintf(uri, sizeof uri, "mcphost://docs/%s", stem);
        if (!join_path(path, sizeof path, st->docs_dir, names[i]->d_name)) path[0] = '\0';
        doc_title(path, title, sizeof title);
        snprintf(description, sizeof description, "mcphost documentation: docs/%s",
                 names[i]->d_name);
        if (status == MH_OK)
            status = add(host, reg, new_doc(st, names[i]->d_name, NULL), uri, stem,
                         title[0] ? title : NULL, description);
        free(names[i]);
    }
    free(names);
    return status;
}

/* Each machine's memory map: the "Memory map" section of its doc. */
static mh_status register_memory_maps(content_state *st, const mh_host *host,
                                      const mh_registry_service *reg)
{
    const mh_ptrvec *machines = &st->ctx->registry.machines;
    for (size_t i = 0; i < machines->count; i++) {
        const char *machine = ((const mh_reg_machine *)machines->items[i])->name;
        char file[128], path[PATH_MAX];
        snprintf(file, sizeof file, "machine-%.100s.md", machine);
        char *text = join_path(path, sizeof path, st->docs_dir, file) ? read_text(path) : NULL;
        int has = text && cut_section(text, "Memory map");
        free(text);
        if (!has) continue;
        char uri[160], name[128], title[128], description[400];
        snprintf(uri, sizeof uri, "mcphost://machine/%.100s/memory-map", machine);
        snprintf(name, sizeof name, "%.100s-memory-map", machine);
        snprintf(title, sizeof title, "%.100s memory map", machine);
        snprintf(description, sizeof description,
                 "The %.100s's memory map and banking (docs/%s); memory_banks shows a live "
                 "session's banks",
                 machine, file);
        mh_status status =
            add(host, reg, new_doc(st, file, "Memory map"), uri, name, title, description);
        if (status != MH_OK) return status;
    }
    return MH_OK;
}

mh_status content_docs_register(content_state *st, const mh_host *host,
                                const mh_registry_service *reg)
{
    find_docs_dir(st);
    if (!st->docs_dir[0]) return MH_OK; /* no docs installed: no doc resources */
    mh_status status = register_files(st, host, reg);
    if (status == MH_OK) status = register_memory_maps(st, host, reg);
    for (size_t i = 0; status == MH_OK && i < sizeof sections / sizeof sections[0]; i++) {
        const section_resource *s = &sections[i];
        status = add(host, reg, new_doc(st, s->file, s->section), s->uri, s->name, s->title,
                     s->description);
    }
    return status;
}

void content_docs_free(content_state *st)
{
    for (size_t i = 0; i < st->doc_items.count; i++) free(st->doc_items.items[i]);
    mh_ptrvec_free(&st->doc_items);
}
