/* mcphost/chip_io.h - where a chip's registers sit in the CPU's map, for
 * the chip interfaces (chip_vic2.h, chip_cia.h, chip_sid.h): a machine
 * answers io_range() with its own decoding (a C64's VIC-II at $D000-$D3FF,
 * a VIC-20's VIC at $9000), so toolsets never hard-code an address.
 *
 * Offers: mh_chip_io_range; mh_chip_io_register(), the register a number
 * or an address names; MH_CHIP_IFACE_HAS(), whether a vtable a machine
 * registered is new enough to have a field (check before calling one
 * appended after the interface's first version).
 *
 * Ownership: plain values. Threads: any (pure functions).
 */
#ifndef MCPHOST_CHIP_IO_H
#define MCPHOST_CHIP_IO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mh_chip_io_range {
    uint32_t base; /* CPU address of register 0 */
    uint32_t size; /* bytes of the CPU's map the registers fill, their
                    * mirrors included; 0: not in the map (or unknown) */
} mh_chip_io_range;

/* The register (0 .. registers-1) that value names: a number below
 * registers as itself, or an address inside range, where the registers
 * repeat every stride bytes (the mirrors; an address in a mirror's gap
 * past the last register names none). -1 otherwise. */
static inline int mh_chip_io_register(const mh_chip_io_range *range, uint32_t registers,
                                      uint32_t stride, uint32_t value)
{
    if (value < registers) return (int)value;
    if (!range || !range->size || !stride || value < range->base ||
        value - range->base >= range->size)
        return -1;
    uint32_t offset = (value - range->base) % stride;
    return offset < registers ? (int)offset : -1;
}

/* 1 when the vtable iface (a pointer to a struct of type `type` that
 * starts with struct_size) is large enough to hold field and sets it. */
#define MH_CHIP_IFACE_HAS(iface, type, field)                                                   \
    ((iface)->struct_size >= offsetof(type, field) + sizeof(((type *)0)->field) &&             \
     (iface)->field != NULL)

#ifdef __cplusplus
}
#endif
#endif
