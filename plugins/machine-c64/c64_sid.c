/* c64_sid.c - SID register storage (see c64_sid.h). */
#include "c64_sid.h"

#include <string.h>

void c64_sid_init(c64_sid *sid, c64_sid_model model)
{
    memset(sid, 0, sizeof *sid);
    sid->model = (uint8_t)model;
}

void c64_sid_reset(c64_sid *sid) { memset(sid->reg, 0, sizeof sid->reg); }

uint8_t c64_sid_peek(const c64_sid *sid, uint16_t reg)
{
    reg &= 0x1F;
    switch (reg) {
    case 0x19: case 0x1A: return 0xFF; /* POTX/POTY: no paddles */
    case 0x1B: case 0x1C: return 0x00; /* OSC3/ENV3: no synthesis yet */
    case 0x1D: case 0x1E: case 0x1F: return 0xFF;
    default: return sid->reg[reg];
    }
}

uint8_t c64_sid_read(c64_sid *sid, uint16_t reg) { return c64_sid_peek(sid, reg); }

void c64_sid_write(c64_sid *sid, uint16_t reg, uint8_t value) { sid->reg[reg & 0x1F] = value; }

const char *c64_sid_model_name(c64_sid_model model)
{
    return model == C64_SID_8580 ? "8580" : "6581";
}
