/* mcphost/machine.h - the capability interfaces every machine plugin
 * registers in its sessions (as mh_chip entries, see session.h), so toolsets
 * work on any machine without knowing which one it is.
 *
 * Offers, by interface id:
 *   "mh.cpu6502/1"  MH_IFACE_CPU6502: the machine's 6502-family CPU (the
 *                   SDK core's state, and the debug hook slot the machine
 *                   chains with its own traps);
 *   "mh.memory/1"   MH_IFACE_MEMORY: the machine's memory spaces ("cpu" is
 *                   what the CPU sees now, then RAM, ROMs, I/O ...) with
 *                   side-effect-free peek and real poke, and which space
 *                   backs each CPU address at this moment; since ABI 1.6
 *                   peek_runs(), the same bytes as runs in place (no copy).
 *   "mh.video/1"    MH_IFACE_VIDEO: the last complete frame as indexed
 *                   pixels with the visible border area, the palette, and
 *                   where the beam is now;
 *   "mh.input/1"    MH_IFACE_INPUT: keys by name, typed text, joysticks.
 *   "mh.machine/1"  MH_IFACE_MACHINE: the machine as a whole: soft and
 *                   hard reset.
 *   "mh.snapshot/1" MH_IFACE_SNAPSHOT: the machine's state as a
 *                   self-checking blob (magic "MHSNAP", machine name,
 *                   format version, checksum), and loading one back.
 *   "mh.config/1"   MH_IFACE_CONFIG: the machine's settings by name, read
 *                   as text, and set where they can change at runtime.
 *   "mh.media/1"    MH_IFACE_MEDIA: attaching and detaching disks, tapes,
 *                   cartridges and programs by kind.
 *   "mh.caps/1"     MH_IFACE_CAPS: what the machine is (CPU, video
 *                   standards, media kinds) as static text.
 *   "mh.audio/1"    MH_IFACE_AUDIO: the machine's mixed sound output as a
 *                   stream of samples (since ABI 1.3). The host drains it
 *                   into the multi-reader stream of mh.observe/1; tools and
 *                   frontends read it there, not here.
 *   "mh.textscreen/1" MH_IFACE_TEXT_SCREEN (mcphost/text_screen.h): the
 *                   characters on the text screen, for screen_text.
 * Later capabilities get their own ids beside these.
 *
 * Ownership: vtables and contexts belong to the machine instance and live
 * until its destroy(). Strings returned are static or live as long as the
 * instance.
 * Threads: every function is [emu-thread]: call it from a tool handler that
 * runs on the session's thread (MH_TOOL_NEEDS_SESSION or `requires`).
 */
#ifndef MCPHOST_MACHINE_H
#define MCPHOST_MACHINE_H

#include <stddef.h>
#include <stdint.h>
#include "mcphost/cpu6502.h"
#include "mcphost/machine_events.h"
#include "mcphost/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MH_IFACE_CPU6502 "mh.cpu6502/1"
#define MH_IFACE_MEMORY "mh.memory/1"
#define MH_IFACE_VIDEO "mh.video/1"
#define MH_IFACE_INPUT "mh.input/1"

typedef struct mh_cpu6502_iface {
    uint32_t struct_size;
    /* The CPU core's state. Registers may be read and written at an
     * instruction boundary (mh_cpu6502_at_boundary). */
    mh_cpu6502 *(*state)(void *context);
    /* Installs the debugger's hooks (NULL, NULL to remove). The machine
     * calls them from its own hooks, so its traps keep working. */
    void (*set_debug_hooks)(void *context, mh_cpu6502_sync_fn sync, mh_cpu6502_access_fn access,
                            void *user);
    /* "6502", "6510", "8501" */
    const char *(*model_name)(void *context);
    /* ABI 1.5 (check struct_size): installs the debugger's chip event
     * sink (mcphost/machine_events.h; fn NULL removes it). May be NULL: the
     * machine reports no chip events. */
    void (*set_event_sink)(void *context, mh_chip_event_fn fn, void *user);
} mh_cpu6502_iface;

/* One memory space. Space 0 is always "cpu": the 64 KiB the CPU sees with
 * the current banking. */
typedef struct mh_memory_space {
    const char *name;        /* "cpu", "ram", "kernal", "io", "color" */
    const char *description;
    uint32_t size;           /* bytes; addresses are 0 .. size-1 */
    uint32_t base;           /* where it appears in the CPU's map, if fixed */
    int writable;            /* poke allowed */
} mh_memory_space;

typedef struct mh_memory_iface {
    uint32_t struct_size;
    size_t (*space_count)(void *context);
    const mh_memory_space *(*space)(void *context, size_t index);
    /* Reads length bytes without side effects (I/O registers are read as
     * they stand, never acknowledged). MH_ERR_INVALID_ARGUMENT when the
     * range leaves the space. */
    mh_status (*peek)(void *context, size_t space, uint32_t address, uint8_t *out,
                      size_t length);
    /* Writes like the CPU would (in "cpu", I/O registers take effect).
     * MH_ERR_UNSUPPORTED for a read-only space. */
    mh_status (*poke)(void *context, size_t space, uint32_t address, const uint8_t *data,
                      size_t length);
    /* The space a CPU read of address reaches right now. */
    size_t (*bank_at)(void *context, uint16_t address);

    /* ---- later additions: check struct_size before using them ---- */

    /* ABI 1.6, may be NULL: the same bytes as peek(space, address, length),
     * handed over in order as runs instead of copied: fn(user, bytes, n)
     * once per run, the runs' n adding up to length. A run of RAM or ROM
     * points into the machine's own array; bytes that have to be worked
     * out (I/O registers, open bus, a CPU port) come in a buffer of the
     * machine's. `bytes` is valid only during that call of fn, which must
     * not call into the machine. A reader that encodes a large range
     * (hex, base64) writes straight from the runs, with no copy of its
     * own. MH_ERR_INVALID_ARGUMENT (and no call of fn) when the range
     * leaves the space. */
    mh_status (*peek_runs)(void *context, size_t space, uint32_t address, size_t length,
                           void (*fn)(void *user, const uint8_t *bytes, size_t n), void *user);
} mh_memory_iface;

/* The size of mh.memory/1 as ABI 1.0 defined it (through bank_at): what a
 * caller requires; later members are checked with MH_MEMORY_IFACE_HAS. */
#define MH_MEMORY_IFACE_SIZE_1_0                                                                \
    (offsetof(mh_memory_iface, bank_at) + sizeof(((mh_memory_iface *)0)->bank_at))

/* 1 when the mh.memory/1 vtable iface holds member field and sets it. */
#define MH_MEMORY_IFACE_HAS(iface, field)                                                       \
    ((iface)->struct_size >= offsetof(mh_memory_iface, field) +                                 \
                                 sizeof(((mh_memory_iface *)0)->field) &&                        \
     (iface)->field != NULL)

/* Whether [address, address + length) lies inside space `space` of a
 * machine's table of `count` spaces: the check every peek/poke makes. */
static inline int mh_memory_range_ok(const mh_memory_space *spaces, size_t count, size_t space,
                                     uint32_t address, size_t length)
{
    return space < count && address <= spaces[space].size &&
           length <= spaces[space].size - address;
}

/* A video frame: width x height indexed pixels, one byte each, rows pitch
 * bytes apart; palette[i] is 0xRRGGBB. The pointers stay valid until the
 * next call into the machine. */
typedef struct mh_video_frame {
    uint32_t struct_size;
    uint32_t width, height, pitch;
    const uint8_t *pixels;
    const uint32_t *palette;
    uint32_t palette_size;
    uint64_t frame_number; /* frames completed since power-on */
    /* Appended in ABI 1.3 (set when struct_size holds it): the width of
     * one pixel over its height on a TV (VIC-20 PAL about 1.66: its pixels
     * are wide); 0: square, or unknown. A window uses it to show the
     * picture in its true shape. */
    double pixel_aspect;
} mh_video_frame;

typedef struct mh_video_iface {
    uint32_t struct_size;
    /* The last complete frame (the one on screen). */
    mh_status (*frame)(void *context, mh_video_frame *out);
    /* The beam now: raster line and cycle within the line (1-based). */
    void (*beam)(void *context, uint32_t *line, uint32_t *cycle);
    /* "PAL" or "NTSC". */
    const char *(*standard)(void *context);
} mh_video_iface;

/* Joystick bits for mh_input_iface.joystick(). */
enum {
    MH_JOY_UP = 1,
    MH_JOY_DOWN = 2,
    MH_JOY_LEFT = 4,
    MH_JOY_RIGHT = 8,
    MH_JOY_FIRE = 16
};

typedef struct mh_input_iface {
    uint32_t struct_size;
    /* Presses (down 1) or releases a key by name: letters and digits as
     * themselves, and "RETURN", "SPACE", "RUNSTOP", "SHIFT_LEFT",
     * "SHIFT_RIGHT", "CBM", "CTRL", "F1".."F8", "CRSR_DOWN", "CRSR_RIGHT",
     * "HOME", "DEL", "RESTORE" ... as the machine has them.
     * MH_ERR_NOT_FOUND for a key the machine lacks. */
    mh_status (*key)(void *context, const char *name, int down);
    /* The machine's key names, NULL-terminated (static). */
    const char *const *(*key_names)(void *context);
    /* Queues text to be typed (ASCII; "\n" is RETURN). The machine feeds it
     * at the pace its keyboard routine reads it. error says what could not
     * be typed. */
    mh_status (*type_text)(void *context, const char *text, char *error, size_t error_size);
    /* Sets a joystick port (1 or 2) to a mask of MH_JOY_* bits. */
    mh_status (*joystick)(void *context, int port, uint32_t mask);
    /* Releases every key and joystick (and ends every hold). */
    void (*release_all)(void *context);

    /* ---- later additions: check struct_size before using them ---- */

    /* Presses a key now (like key(name, 1)); the machine releases it
     * itself after `frames` (1 or more) complete frames of emulation. The
     * machine stays running or paused as it was: on a paused machine the
     * key is released once that many frames have run, whenever that is.
     * MH_ERR_NOT_FOUND for an unknown key, MH_ERR_INVALID_ARGUMENT for 0
     * frames, MH_ERR_LIMIT when too many holds are pending. */
    mh_status (*key_hold)(void *context, const char *name, uint32_t frames);
    /* Sets a joystick port (1 or 2) to mask now; after `frames` frames of
     * emulation it goes back to 0 (frames 0: it stays until changed). A
     * later joystick() or joystick_hold() on the port replaces it. */
    mh_status (*joystick_hold)(void *context, int port, uint32_t mask, uint32_t frames);
    /* Queues the machine's own character codes (PETSCII on Commodore
     * machines: $0D RETURN, $93 CLR, $11 CRSR DOWN, $85 F1 ...) to be
     * typed, in order with type_text()'s text, all or nothing. error says
     * what could not be queued. */
    mh_status (*type_codes)(void *context, const uint8_t *codes, size_t count, char *error,
                            size_t error_size);

    /* Appended for time travel (check struct_size): the input state that
     * snapshots leave out on purpose (the holds' countdowns: a snapshot
     * load keeps them) as a small blob; time travel saves it beside every
     * ring snapshot and restores it with the snapshot. save writes at most
     * max bytes (MH_INPUT_HOLD_STATE_MAX suffice), *size 0 when nothing is
     * pending; load replaces the pending holds with a blob from save (size
     * 0: none), checking it first (MH_ERR_INVALID_ARGUMENT: untouched).
     * The keys and joysticks that are down are in the snapshot. */
    mh_status (*hold_state_save)(void *context, uint8_t *out, size_t max, size_t *size);
    mh_status (*hold_state_load)(void *context, const uint8_t *data, size_t size);
} mh_input_iface;

#define MH_INPUT_HOLD_STATE_MAX 256u

#define MH_IFACE_MACHINE "mh.machine/1"

typedef struct mh_machine_iface {
    uint32_t struct_size;
    /* Resets the machine: hard 0 is the CPU's reset line (the CPU and the
     * chips reset, RAM kept), hard 1 a power cycle (RAM back to the
     * power-on pattern too). Media stay attached. */
    mh_status (*reset)(void *context, int hard);
} mh_machine_iface;

/* ---- mh.snapshot/1 ---- */

#define MH_IFACE_SNAPSHOT "mh.snapshot/1"

typedef struct mh_snapshot_iface {
    uint32_t struct_size;
    /* The machine's state as a malloc'ed blob (*data; the caller frees it)
     * of *size bytes: a header with the magic "MHSNAP", the machine's
     * name, the format version and a checksum, then the state. Call
     * between runs. */
    mh_status (*save)(void *context, void **data, size_t *size);
    /* Loads a blob from save(). Everything is checked first (magic,
     * machine, version, size, checksum, and what the machine needs to
     * match); on failure error says why and the machine is untouched. */
    mh_status (*load)(void *context, const void *data, size_t size, char *error,
                      size_t error_size);
} mh_snapshot_iface;

/* ---- mh.config/1 ---- */

#define MH_IFACE_CONFIG "mh.config/1"

typedef struct mh_config_item {
    const char *name;
    const char *description;
    const char *allowed; /* e.g. "pal|ntsc", "6526|6526a", "a path" */
    int runtime;         /* 1 when set() works on a running machine */
} mh_config_item;

typedef struct mh_config_iface {
    uint32_t struct_size;
    size_t (*count)(void *context);
    const mh_config_item *(*item)(void *context, size_t index); /* NULL past the end */
    /* The current value as text. MH_ERR_NOT_FOUND for an unknown name. */
    mh_status (*get)(void *context, const char *name, char *out, size_t out_size);
    /* Sets a runtime setting from text; the others are refused
     * (MH_ERR_UNSUPPORTED) with a message saying why. */
    mh_status (*set)(void *context, const char *name, const char *value, char *error,
                     size_t error_size);
} mh_config_iface;

/* ---- mh.media/1 ---- */

#define MH_IFACE_MEDIA "mh.media/1"

typedef struct mh_media_iface {
    uint32_t struct_size;
    /* kind: "disk", "tape", "cartridge", "program" (as the machine has
     * them). autostart 1: start it the way the machine's autostart does. */
    mh_status (*attach)(void *context, const char *kind, const char *path, int autostart,
                        char *error, size_t error_size);
    mh_status (*detach)(void *context, const char *kind, char *error, size_t error_size);
    /* The attached file's path, or NULL. */
    const char *(*attached)(void *context, const char *kind);
} mh_media_iface;

/* ---- mh.caps/1 ---- */

#define MH_IFACE_CAPS "mh.caps/1"

typedef struct mh_machine_caps {
    uint32_t struct_size;
    const char *cpu;             /* "6510" */
    const char *video_standards; /* "pal,ntsc"; "" without video */
    const char *media;           /* "disk,tape,cartridge,program"; "" without */
    const char *description;
    /* Appended in ABI 1.3 (check struct_size): the BASIC in ROM, "2.0"
     * (C64, VIC-20) or "3.5" (Plus/4, C16); NULL or "": none. */
    const char *basic;
} mh_machine_caps;

typedef struct mh_caps_iface {
    uint32_t struct_size;
    const mh_machine_caps *(*caps)(void *context);
} mh_caps_iface;

/* ---- mh.audio/1 ---- */

#define MH_IFACE_AUDIO "mh.audio/1"

typedef struct mh_audio_iface {
    uint32_t struct_size;
    /* Samples per second of the stream. */
    uint32_t (*sample_rate)(void *context);
    /* 1 when the machine synthesises sound (0: a machine option turned it
     * off and the stream stays empty). */
    int (*enabled)(void *context);
    /* Takes up to max mono signed 16-bit samples made since the last call,
     * oldest first; returns how many. The machine keeps at least 100 ms;
     * older samples nobody took are dropped. */
    size_t (*read)(void *context, int16_t *out, size_t max);
    /* What makes the sound: "SID 6581", "VIC 6561", "TED 8360". */
    const char *(*source)(void *context);
    /* The machine's clock (Hz) and its video frame in cycles (0: no
     * video), so tools can run the machine for a number of samples or
     * frames. */
    uint32_t (*clock_hz)(void *context);
    uint32_t (*frame_cycles)(void *context);
} mh_audio_iface;

#ifdef __cplusplus
}
#endif
#endif
