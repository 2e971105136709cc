/* boot_rom_bus.c - the test bus of boot_rom_bus.h. */
#include "boot_rom_bus.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const mh_kernal_layout boot_rom_vic20_layout = {
    sizeof(mh_kernal_layout), 0x90, 0x93, 0xAE, 0xB7, 0xB9, 0xBA, 0xBB, 0xC3,
    0xC6, 0x0277, 10, 0x2B, 0x2D, 0x1001, 0xFFD5, 0x1001, 0xFFD8, 0xC1};
const mh_kernal_layout boot_rom_plus4_layout = {
    sizeof(mh_kernal_layout), 0x90, 0x93, 0x9D, 0xAB, 0xAD, 0xAE, 0xAF, 0xB4,
    0xEF, 0x0527, 10, 0x2B, 0x2D, 0x1001, 0xFFD5, 0x1001, 0xFFD8, 0xB2};

/* The key lines that read low for the current select lines. */
static uint8_t key_lines(const rom_bus *b)
{
    uint8_t pressed = 0;
    for (int s = 0; s < 8; s++)
        if (!(b->select & (1u << s))) pressed |= b->matrix[s];
    return (uint8_t)~pressed;
}

static int vic_ram(const rom_bus *b, uint16_t a)
{
    if (a < 0x0400 || (a >= 0x1000 && a < 0x2000) || (a >= 0x9400 && a < 0x9800)) return 1;
    return b->expanded && ((a >= 0x0400 && a < 0x1000) || (a >= 0x2000 && a < 0x8000));
}

static uint8_t bus_read(void *user, uint16_t a)
{
    rom_bus *b = user;
    if (b->plus4) {
        if (a >= 0xFF00 && a < 0xFF40) return a == 0xFF08 ? key_lines(b) : b->io[a & 0x3F];
        if (a >= 0xFD00 && a < 0xFF00) return 0xFF;
        if (a >= b->rom_base) return b->rom[a - b->rom_base];
        return b->ram[a];
    }
    if (a >= b->rom_base) return b->rom[a - b->rom_base];
    if (a >= 0x9000 && a < 0x9200) {
        if (a == 0x9121 || a == 0x912F) return key_lines(b);
        if (a == 0x9124) b->cpu.irq = 0; /* reading T1's low byte acknowledges */
        return b->io[a & 0xFF];
    }
    return vic_ram(b, a) ? b->ram[a] : 0xFF;
}

static void bus_write(void *user, uint16_t a, uint8_t v)
{
    rom_bus *b = user;
    if (b->plus4) {
        if (a == 0xFD30) b->select = v;
        if (a == 0xFF09) { /* writing 1s acknowledges the TED's flags */
            b->io[0x09] &= (uint8_t)~v;
            if (!(b->io[0x09] & 0x7E)) b->cpu.irq = 0;
            return;
        }
        if (a >= 0xFF00 && a < 0xFF40) b->io[a & 0x3F] = v;
        if (a >= 0xFD00 && a < 0xFF40) return;
        b->ram[a] = v; /* RAM under the ROM is written */
        return;
    }
    if (a >= 0x9000 && a < 0x9200) {
        if (a == 0x9120) b->select = v;
        b->io[a & 0xFF] = v;
        return;
    }
    if (vic_ram(b, a)) b->ram[a] = v;
}

static uint8_t bus_peek(const void *machine, uint16_t a)
{
    const rom_bus *b = machine; /* what autostart checks: ROM, RAM */
    if (a >= b->rom_base && !(b->plus4 && a >= 0xFD00 && a < 0xFF40)) return b->rom[a - b->rom_base];
    return b->ram[a];
}

void rom_bus_init(rom_bus *b, int plus4, const uint8_t *rom, size_t size)
{
    memset(b, 0, sizeof *b);
    b->plus4 = plus4;
    b->select = 0xFF;
    memcpy(b->rom, rom, size);
    b->rom_base = (uint16_t)(0x10000u - size);
    mh_cpu6502_desc desc = {plus4 ? MH_CPU6502_MODEL_7501 : MH_CPU6502_MODEL_6502, bus_read,
                            bus_write, b, NULL, NULL};
    mh_cpu6502_init(&b->cpu, &desc);
    b->kernal.layout = plus4 ? &boot_rom_plus4_layout : &boot_rom_vic20_layout;
    b->kernal.cpu = &b->cpu;
    b->kernal.ram = b->ram;
    b->kernal.peek = bus_peek;
    b->kernal.machine = b;
}

int rom_bus_run_to_prompt(rom_bus *b, uint64_t max_cycles)
{
    uint64_t end = b->cpu.cycles + max_cycles;
    while (b->cpu.cycles < end) {
        mh_cpu6502_step(&b->cpu);
        if (b->disk && b->cpu.pc == 0xFFD5) {
            char message[128];
            mh_kernal_load_trap(&b->kernal, 8, b->disk, message, sizeof message);
        }
        if (b->save_disk && b->cpu.pc == 0xFFD8) {
            b->save_result = mh_kernal_save_trap(&b->kernal, 8, &b->save_disk, b->save_path,
                                                 b->save_message, sizeof b->save_message);
            b->disk = b->save_disk;
        }
        if (b->cpu.pc >= b->rom_base && mh_kernal_waits_for_key(&b->kernal, b->cpu.pc)) return 1;
    }
    return 0;
}

int rom_bus_call(rom_bus *b, uint16_t address, uint8_t *a, uint8_t *x, uint8_t *y, uint8_t *p)
{
    /* $0340: JSR address; STA $03F1; PHP; PLA; STA $03F0; JMP * */
    const uint8_t stub[] = {0x20, (uint8_t)address, (uint8_t)(address >> 8), 0x8D, 0xF1, 0x03,
                            0x08, 0x68, 0x8D, 0xF0, 0x03, 0x4C, 0x4B, 0x03};
    memcpy(b->ram + 0x0340, stub, sizeof stub);
    b->cpu.pc = 0x0340;
    b->cpu.a = *a;
    b->cpu.x = *x;
    b->cpu.y = *y;
    b->cpu.p = (uint8_t)(*p | MH_CPU6502_FLAG_U);
    uint64_t end = b->cpu.cycles + 2000000;
    while (b->cpu.cycles < end) {
        mh_cpu6502_step(&b->cpu);
        if (b->cpu.pc == 0x034B) {
            *a = b->ram[0x03F1];
            *x = b->cpu.x;
            *y = b->cpu.y;
            *p = b->ram[0x03F0];
            return 1;
        }
    }
    return 0;
}

int rom_bus_interrupt(rom_bus *b)
{
    if (b->plus4) b->io[0x09] |= 0x82; /* raster, IRQ */
    b->cpu.irq = 1;
    mh_cpu6502_step(&b->cpu);
    return rom_bus_run_to_prompt(b, 200000) && b->cpu.irq == 0;
}

static uint16_t screen_base(const rom_bus *b)
{
    return b->plus4 ? 0x0C00 : (uint16_t)(b->ram[0x0288] << 8);
}

void rom_bus_screen_row(const rom_bus *b, int row, char *out)
{
    int cols = b->plus4 ? 40 : 22;
    uint16_t base = (uint16_t)(screen_base(b) + row * cols);
    int n = 0;
    for (int c = 0; c < cols; c++) {
        uint8_t code = b->ram[(uint16_t)(base + c)] & 0x7F;
        out[n++] = code < 0x20 ? (char)(code + 0x40) : code < 0x40 ? (char)code : '?';
    }
    while (n > 0 && out[n - 1] == ' ') n--;
    out[n] = '\0';
}

int rom_bus_screen_has(const rom_bus *b, const char *text)
{
    int rows = b->plus4 ? 25 : 23;
    char line[64];
    for (int r = 0; r < rows; r++) {
        rom_bus_screen_row(b, r, line);
        if (strstr(line, text)) return 1;
    }
    return 0;
}

int rom_bus_load_original(const char *relative, uint8_t *out, size_t size)
{
    const char *base = getenv("MCPHOST_TEST_ROMS");
    char path[1024];
    if (base) snprintf(path, sizeof path, "%s/%s", base, relative);
    else snprintf(path, sizeof path, "%s/../roms/%s", MH_SHARED_TESTDATA_DIR, relative);
    FILE *f = fopen(path, "rb");
    size_t n = 0;
    if (f) {
        n = fread(out, 1, size, f);
        fclose(f);
    }
    if (n != size) {
        fprintf(stderr, "\n  skipped: original ROM %s not found (set MCPHOST_TEST_ROMS)\n", path);
        return 0;
    }
    return 1;
}
