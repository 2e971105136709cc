/* The C64 PLA table against the documented memory configurations. */
#include "c64_pla.h"
#include "mh_test.h"

static void expect(unsigned config, c64_bank b8, c64_bank ba, c64_bank bd, c64_bank be)
{
    CU_ASSERT_EQUAL(c64_pla_read_bank(config, 0x8), b8);
    CU_ASSERT_EQUAL(c64_pla_read_bank(config, 0xA), ba);
    CU_ASSERT_EQUAL(c64_pla_read_bank(config, 0xD), bd);
    CU_ASSERT_EQUAL(c64_pla_read_bank(config, 0xE), be);
    CU_ASSERT_EQUAL(c64_pla_read_bank(config, 0x0), C64_BANK_RAM);
}

static void test_no_cartridge(void)
{
    /* $01 & 7 with EXROM = GAME = 1 */
    expect(c64_pla_config(7, 1, 1), C64_BANK_RAM, C64_BANK_BASIC, C64_BANK_IO, C64_BANK_KERNAL);
    expect(c64_pla_config(6, 1, 1), C64_BANK_RAM, C64_BANK_RAM, C64_BANK_IO, C64_BANK_KERNAL);
    expect(c64_pla_config(5, 1, 1), C64_BANK_RAM, C64_BANK_RAM, C64_BANK_IO, C64_BANK_RAM);
    expect(c64_pla_config(4, 1, 1), C64_BANK_RAM, C64_BANK_RAM, C64_BANK_RAM, C64_BANK_RAM);
    expect(c64_pla_config(3, 1, 1), C64_BANK_RAM, C64_BANK_BASIC, C64_BANK_CHAR, C64_BANK_KERNAL);
    expect(c64_pla_config(2, 1, 1), C64_BANK_RAM, C64_BANK_RAM, C64_BANK_CHAR, C64_BANK_KERNAL);
    expect(c64_pla_config(1, 1, 1), C64_BANK_RAM, C64_BANK_RAM, C64_BANK_CHAR, C64_BANK_RAM);
    expect(c64_pla_config(0, 1, 1), C64_BANK_RAM, C64_BANK_RAM, C64_BANK_RAM, C64_BANK_RAM);
    for (unsigned b = 1; b < 16; b++)
        if (b != 0x8 && b != 0x9 && b < 0xA)
            CU_ASSERT_EQUAL(c64_pla_read_bank(c64_pla_config(7, 1, 1), b), C64_BANK_RAM);
}

static void test_cartridges(void)
{
    /* 8K: ROML at $8000 only while BASIC is in */
    expect(c64_pla_config(7, 0, 1), C64_BANK_ROML, C64_BANK_BASIC, C64_BANK_IO, C64_BANK_KERNAL);
    expect(c64_pla_config(6, 0, 1), C64_BANK_RAM, C64_BANK_RAM, C64_BANK_IO, C64_BANK_KERNAL);
    /* 16K: ROMH replaces BASIC, needs HIRAM */
    expect(c64_pla_config(7, 0, 0), C64_BANK_ROML, C64_BANK_ROMH, C64_BANK_IO, C64_BANK_KERNAL);
    expect(c64_pla_config(6, 0, 0), C64_BANK_RAM, C64_BANK_ROMH, C64_BANK_IO, C64_BANK_KERNAL);
    expect(c64_pla_config(1, 0, 0), C64_BANK_RAM, C64_BANK_RAM, C64_BANK_RAM, C64_BANK_RAM);
    /* Ultimax: the port does not matter */
    for (uint8_t port = 0; port < 8; port++) {
        unsigned cfg = c64_pla_config(port, 1, 0);
        CU_ASSERT_TRUE(c64_pla_ultimax(cfg));
        expect(cfg, C64_BANK_ROML, C64_BANK_OPEN, C64_BANK_IO, C64_BANK_ROMH);
        CU_ASSERT_EQUAL(c64_pla_read_bank(cfg, 0x1), C64_BANK_OPEN);
        CU_ASSERT_EQUAL(c64_pla_read_bank(cfg, 0xC), C64_BANK_OPEN);
        CU_ASSERT_EQUAL(c64_pla_write_bank(cfg, 0xE), C64_BANK_OPEN);
    }
    CU_ASSERT_FALSE(c64_pla_ultimax(c64_pla_config(7, 1, 1)));
}

static void test_writes_go_below_roms(void)
{
    unsigned cfg = c64_pla_config(7, 0, 0);
    CU_ASSERT_EQUAL(c64_pla_write_bank(cfg, 0x8), C64_BANK_RAM);
    CU_ASSERT_EQUAL(c64_pla_write_bank(cfg, 0xA), C64_BANK_RAM);
    CU_ASSERT_EQUAL(c64_pla_write_bank(cfg, 0xE), C64_BANK_RAM);
    CU_ASSERT_EQUAL(c64_pla_write_bank(cfg, 0xD), C64_BANK_IO);
    CU_ASSERT_EQUAL(c64_pla_write_bank(c64_pla_config(3, 1, 1), 0xD), C64_BANK_RAM);
    CU_ASSERT_STRING_EQUAL(c64_bank_name(C64_BANK_KERNAL), "kernal");
}

MH_SUITE("c64.pla", NULL, NULL, MH_TEST(test_no_cartridge), MH_TEST(test_cartridges),
         MH_TEST(test_writes_go_below_roms))
