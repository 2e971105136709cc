/* fe_panes.c - the window's layout and everything drawn beside the
 * emulated screen: registers, disassembly with breakpoints, the agent's
 * activity, and the status bar with the hotkeys. Renders the activity
 * model (activity.h) and nothing else. [main-thread] */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fe.h"

enum {
    MARGIN = 8,
    LINE_H = 11,          /* 8x8 glyphs with 3 pixels between lines */
    HEAD_H = 15,          /* a pane's title bar */
    STATUS_H = 2 * LINE_H + 10,
    BAND_LINES = 8,       /* the memory and chip panes under the screen */
    BAND_H = HEAD_H + 4 + BAND_LINES * LINE_H + 4,
    PANEL_W = FE_PANEL_COLUMNS * FE_GLYPH_W + 2 * MARGIN,
    /* Before the first frame, and for the window's first size: room for the
     * largest frame of the machines (a PAL Plus/4's 384x288; a C64's is
     * 384x272, a VIC-20's narrower), so each starts at DEFAULT_SCALE. */
    DEFAULT_FRAME_W = 384,
    DEFAULT_FRAME_H = 288
};

/* colours, 0xRRGGBB */
enum {
    C_BG = 0x181A1F, C_PANEL = 0x21242B, C_HEAD = 0x2C313B, C_HEAD_TEXT = 0x9CC3FF,
    C_TEXT = 0xD7DAE0, C_DIM = 0x7F8591, C_GREEN = 0x7FD47F, C_YELLOW = 0xE5C07B,
    C_RED = 0xF0717A, C_CYAN = 0x56B6C2, C_MAGENTA = 0xC792EA, C_CURRENT = 0x3A3F2A,
    C_STATUS = 0x2C313B
};

void fe_layout_preferred(int scale, int *width, int *height)
{
    *width = DEFAULT_FRAME_W * scale + PANEL_W + 3 * MARGIN;
    *height = DEFAULT_FRAME_H * scale + BAND_H + STATUS_H + 3 * MARGIN;
}

void fe_layout_compute(const fe_app *app, int width, int height, fe_layout *out)
{
    /* Wide pixels (a VIC-20's) are drawn as pixel_w screen pixels across,
     * so the picture keeps its shape at integer scales. */
    int fw = app->frame_w ? (int)(app->frame_w * (app->pixel_w ? app->pixel_w : 1)) : DEFAULT_FRAME_W;
    int fh = app->frame_h ? (int)app->frame_h : DEFAULT_FRAME_H;
    int aw = width - PANEL_W - 3 * MARGIN, ah = height - BAND_H - STATUS_H - 3 * MARGIN;
    int scale = aw / fw < ah / fh ? aw / fw : ah / fh;
    if (scale < 1) scale = 1;
    out->scale = scale;
    out->screen = (SDL_Rect){MARGIN + (aw - fw * scale > 0 ? (aw - fw * scale) / 2 : 0), MARGIN,
                             fw * scale, fh * scale};
    out->panel = (SDL_Rect){width - PANEL_W - MARGIN, MARGIN, PANEL_W, height - STATUS_H - 2 * MARGIN};
    out->status = (SDL_Rect){0, height - STATUS_H, width, STATUS_H};
    int band_y = out->screen.y + out->screen.h + MARGIN;
    int half = (aw - MARGIN) / 2;
    out->memory = (SDL_Rect){MARGIN, band_y, half, BAND_H};
    out->chips = (SDL_Rect){2 * MARGIN + half, band_y, aw - MARGIN - half, BAND_H};
    out->line_h = LINE_H;
    out->disasm = (SDL_Rect){0, 0, 0, 0}; /* set when drawn */
}

static void fill(fe_app *app, const SDL_Rect *r, uint32_t rgb)
{
    SDL_SetRenderDrawColor(app->renderer, (Uint8)(rgb >> 16), (Uint8)(rgb >> 8), (Uint8)rgb, 255);
    SDL_RenderFillRect(app->renderer, r);
}

static int text(fe_app *app, int x, int y, uint32_t rgb, size_t max, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static int text(fe_app *app, int x, int y, uint32_t rgb, size_t max, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return fe_font_draw(app->font, x, y, buf, rgb, 1, max);
}

/* A pane's title bar; returns the y of its first line. */
static int heading(fe_app *app, const SDL_Rect *panel, int y, const char *title, const char *right)
{
    SDL_Rect bar = {panel->x, y, panel->w, HEAD_H};
    fill(app, &bar, C_HEAD);
    text(app, panel->x + MARGIN, y + 4, C_HEAD_TEXT, 0, "%s", title);
    if (right && *right)
        text(app, panel->x + panel->w - MARGIN - (int)strlen(right) * FE_GLYPH_W, y + 4, C_DIM, 0,
             "%s", right);
    return y + HEAD_H + 4;
}

static uint32_t state_colour(const char *state)
{
    if (strcmp(state, "running") == 0) return C_GREEN;
    if (strcmp(state, "paused") == 0) return C_YELLOW;
    if (!*state) return C_DIM;
    return C_RED; /* stopped, jammed, exited */
}

static int registers_pane(fe_app *app, const SDL_Rect *p, int y, const fe_status *st,
                          const fe_inspection *in)
{
    int x = p->x + MARGIN;
    int running = strcmp(st->state, "running") == 0;
    y = heading(app, p, y, "REGISTERS", running ? "live" : st->stop_count ? "at the stop" : "");
    if (running || !st->stop_count) {
        text(app, x, y, C_TEXT, FE_PANEL_COLUMNS, "%s", in->valid ? in->cpu : "");
        y += LINE_H;
        text(app, x, y, C_DIM, FE_PANEL_COLUMNS, "%s",
             st->stop_count ? "" : "no stop yet: pause (F9) or step (F10)");
        if (st->stop_count)
            text(app, x, y, C_DIM, FE_PANEL_COLUMNS, "last stop: %s at $%04X", st->reason,
                 (unsigned)st->pc);
        return y + LINE_H + 4;
    }
    text(app, x, y, C_TEXT, FE_PANEL_COLUMNS, "PC $%04X  %s", (unsigned)st->pc, st->registers);
    y += LINE_H;
    text(app, x, y, C_DIM, FE_PANEL_COLUMNS, "raster %u/%u   cycles %llu",
         (unsigned)st->raster_line, (unsigned)st->raster_cycle, (unsigned long long)st->cycles);
    return y + LINE_H + 4;
}

static void memory_pane(fe_app *app, const SDL_Rect *p, const fe_inspection *in)
{
    fill(app, p, C_PANEL);
    int y = heading(app, p, p->y, "MEMORY", "wheel / Alt+Up/Down");
    int x = p->x + MARGIN;
    if (!in->valid || !in->memory_ok) {
        text(app, x, y, C_DIM, 0, "%s", in->valid ? "no memory to show" : "");
        return;
    }
    for (int line = 0; line < FE_MEMORY_BYTES / 8; line++) {
        const uint8_t *b = in->memory + 8 * line;
        char ascii[9];
        for (int i = 0; i < 8; i++) ascii[i] = b[i] >= 0x20 && b[i] < 0x7F ? (char)b[i] : '.';
        ascii[8] = '\0';
        int w = text(app, x, y, C_HEAD_TEXT, 0, "$%04X  ",
                     (unsigned)((in->memory_address + 8u * (unsigned)line) & 0xFFFF));
        w += text(app, x + w, y, C_TEXT, 0, "%02X %02X %02X %02X %02X %02X %02X %02X  ", b[0],
                  b[1], b[2], b[3], b[4], b[5], b[6], b[7]);
        text(app, x + w, y, C_DIM, 0, "%s", ascii);
        y += LINE_H;
    }
}

static void chips_pane(fe_app *app, const SDL_Rect *p, const fe_inspection *in)
{
    fill(app, p, C_PANEL);
    int y = heading(app, p, p->y, "CHIPS", "");
    size_t columns = (size_t)(p->w - 2 * MARGIN) / FE_GLYPH_W;
    for (size_t i = 0; i < in->chip_lines && i < BAND_LINES; i++)
        text(app, p->x + MARGIN, y + (int)i * LINE_H, C_TEXT, columns, "%s",
             in->chips[i]);
}

static int disasm_pane(fe_app *app, const SDL_Rect *p, int y, const fe_status *st, fe_layout *layout)
{
    y = heading(app, p, y, "DISASSEMBLY", "click a line: breakpoint");
    int x = p->x + MARGIN;
    layout->disasm = (SDL_Rect){p->x, y, p->w, (int)FE_DISASM_LINES * LINE_H};
    struct fe_breakpoint bps[64];
    pthread_mutex_lock(&app->report_lock);
    size_t nbp = app->breakpoint_count;
    memcpy(bps, app->breakpoints, nbp * sizeof bps[0]);
    pthread_mutex_unlock(&app->report_lock);
    for (size_t i = 0; i < FE_DISASM_LINES; i++) {
        int ly = y + (int)i * LINE_H;
        if (i >= st->disasm_count) continue;
        const fe_disasm_line *d = &st->disasm[i];
        int bp = 0;
        for (size_t b = 0; b < nbp; b++) bp |= bps[b].address == d->address;
        if (d->current) {
            SDL_Rect r = {p->x + 2, ly - 2, p->w - 4, LINE_H};
            fill(app, &r, C_CURRENT);
        }
        if (bp) text(app, x, ly, C_RED, 0, "%s", "*");
        if (d->current) text(app, x + FE_GLYPH_W, ly, C_YELLOW, 0, "%s", ">");
        text(app, x + 3 * FE_GLYPH_W, ly, C_DIM, 0, "$%04X  %-9s", (unsigned)d->address, d->bytes);
        text(app, x + 20 * FE_GLYPH_W, ly, d->current ? C_YELLOW : C_TEXT, 36, "%s", d->text);
    }
    return y + (int)FE_DISASM_LINES * LINE_H + 4;
}

static uint32_t client_colour(const char *client)
{
    return strcmp(client, "window") == 0 ? C_MAGENTA : C_CYAN;
}

/* One entry: two lines for a call (who, what; the result), one for an event. */
static int entry_lines(const fe_entry *e) { return e->kind == FE_ENTRY_CALL ? 2 : 1; }

static void draw_entry(fe_app *app, int x, int y, const fe_entry *e)
{
    if (e->kind == FE_ENTRY_EVENT) {
        text(app, x, y, C_YELLOW, FE_PANEL_COLUMNS, "** %s %s", e->tool, e->args);
        return;
    }
    char client[24];
    snprintf(client, sizeof client, "%.20s", e->client);
    char *space = strchr(client, ' '); /* "claude-code 2.0.1 (stdio)" -> "claude-code" */
    if (space) *space = '\0';
    int w = text(app, x, y, client_colour(e->client), 0, "%s ", client);
    w += text(app, x + w, y, C_TEXT, 0, "%s ", e->tool);
    char duration[16] = "...";
    if (!e->pending) {
        if (e->duration_ns >= 1000000000u)
            snprintf(duration, sizeof duration, "%.1fs", (double)e->duration_ns / 1e9);
        else
            snprintf(duration, sizeof duration, "%.1fms", (double)e->duration_ns / 1e6);
    }
    size_t room = FE_PANEL_COLUMNS - (size_t)(w / FE_GLYPH_W) - strlen(duration) - 1;
    text(app, x + w, y, C_DIM, room, "%s", e->args);
    text(app, x + (FE_PANEL_COLUMNS - (int)strlen(duration)) * FE_GLYPH_W, y, C_DIM, 0, "%s",
         duration);
    if (e->pending)
        text(app, x + 2 * FE_GLYPH_W, y + LINE_H, C_DIM, 0, "%s", "running");
    else
        text(app, x + 2 * FE_GLYPH_W, y + LINE_H, e->is_error ? C_RED : C_GREEN,
             FE_PANEL_COLUMNS - 2, "%s%s", e->is_error ? "error: " : "", e->summary);
}

static void activity_pane(fe_app *app, const SDL_Rect *p, int y)
{
    fe_entry entries[64];
    size_t n = fe_activity_entries(app->activity, entries, 64);
    y = heading(app, p, y, "AGENT ACTIVITY", "");
    int bottom = p->y + p->h - 2;
    int lines = (bottom - y) / LINE_H;
    /* the newest entries that fit, oldest at the top */
    size_t first = n;
    int used = 0;
    while (first > 0 && used + entry_lines(&entries[first - 1]) <= lines)
        used += entry_lines(&entries[--first]);
    if (n == 0) text(app, p->x + MARGIN, y, C_DIM, 0, "%s", "no tool calls yet");
    for (size_t i = first; i < n; i++) {
        draw_entry(app, p->x + MARGIN, y, &entries[i]);
        y += entry_lines(&entries[i]) * LINE_H;
    }
}

static void status_bar(fe_app *app, const fe_layout *l, const fe_status *st)
{
    fill(app, &l->status, C_STATUS);
    int x = MARGIN, y = l->status.y + 5;
    char state[16];
    snprintf(state, sizeof state, "%s", st->state[0] ? st->state : "no session");
    for (char *c = state; *c; c++) *c = (char)(*c >= 'a' && *c <= 'z' ? *c - 32 : *c);
    x += text(app, x, y, state_colour(st->state), 0, "%s  ", state);
    x += text(app, x, y, C_TEXT, 0, "%s (%s)  ", app->session[0] ? app->session : "-",
              app->machine[0] ? app->machine : "-");
    x += text(app, x, y, C_DIM, 0, "speed %3.0f%%%s  ", app->speed, st->warp ? " WARP" : "");
    if (st->stop_count) {
        char bp[24] = "";
        if (st->breakpoint) snprintf(bp, sizeof bp, " #%llu", (unsigned long long)st->breakpoint);
        text(app, x, y, strcmp(st->state, "running") == 0 ? C_DIM : C_YELLOW, 0,
             "stop: %s%s%s%s at $%04X  %s", st->reason, bp, st->requested_by[0] ? " by " : "",
             st->requested_by, (unsigned)st->pc, st->instruction);
    }
    text(app, MARGIN, y + LINE_H + 2, C_DIM, 0, "%s",
         "F9 pause/run  F10 step  F11 step over  F12 warp  Alt+Enter fullscreen  "
         "Alt+V paste  Alt+S next session  Alt+J joystick port  keypad: joystick");
}

void fe_panes_draw(fe_app *app, const fe_layout *layout_in)
{
    fe_layout layout = *layout_in;
    fe_status st;
    fe_activity_status(app->activity, &st);
    fe_inspection in;
    pthread_mutex_lock(&app->report_lock);
    in = app->inspection;
    pthread_mutex_unlock(&app->report_lock);
    fill(app, &(SDL_Rect){0, 0, 1 << 15, 1 << 15}, C_BG);
    if (app->screen_tex && app->frame_number)
        SDL_RenderCopy(app->renderer, app->screen_tex, NULL, &layout.screen);
    else
        fill(app, &layout.screen, 0);
    const SDL_Rect *p = &layout.panel;
    fill(app, p, C_PANEL);
    int y = registers_pane(app, p, p->y, &st, &in);
    y = disasm_pane(app, p, y, &st, &layout);
    app->disasm_rect = layout.disasm;
    activity_pane(app, &(SDL_Rect){p->x, y, p->w, p->y + p->h - y}, y);
    memory_pane(app, &layout.memory, &in);
    chips_pane(app, &layout.chips, &in);
    status_bar(app, &layout, &st);
}

int fe_panes_disasm_hit(fe_app *app, int x, int y)
{
    fe_status st;
    fe_activity_status(app->activity, &st);
    SDL_Rect d = app->disasm_rect;
    if (x < d.x || x >= d.x + d.w || y < d.y || y >= d.y + d.h) return -1;
    size_t i = (size_t)((y - d.y) / LINE_H);
    return i < st.disasm_count ? (int)st.disasm[i].address : -1;
}
