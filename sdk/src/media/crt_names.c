/* crt_names.c - CRT hardware type names (the CRT documentation's list). */
#include "mcphost/media_crt.h"

static const char *const names[] = {
    "Normal cartridge",               /* 0 */
    "Action Replay",
    "KCS Power Cartridge",
    "Final Cartridge III",
    "Simons' BASIC",
    "Ocean type 1",                   /* 5 */
    "Expert Cartridge",
    "Fun Play, Power Play",
    "Super Games",
    "Atomic Power",
    "Epyx Fastload",                  /* 10 */
    "Westermann Learning",
    "Rex Utility",
    "Final Cartridge I",
    "Magic Formel",
    "C64 Game System, System 3",      /* 15 */
    "WarpSpeed",
    "Dinamic",
    "Zaxxon, Super Zaxxon (Sega)",
    "Magic Desk, Domark, HES Australia",
    "Super Snapshot V5",              /* 20 */
    "Comal-80",
    "Structured BASIC",
    "Ross",
    "Dela EP64",
    "Dela EP7x8",                     /* 25 */
    "Dela EP256",
    "Rex EP256",
    "Mikro Assembler",
    "Final Cartridge Plus",
    "Action Replay 4",                /* 30 */
    "Stardos",
    "EasyFlash",
    "EasyFlash Xbank",
    "Capture",
    "Action Replay 3",                /* 35 */
    "Retro Replay",
    "MMC64",
    "MMC Replay",
    "IDE64",
    "Super Snapshot V4",              /* 40 */
    "IEEE-488",
    "Game Killer",
    "Prophet64",
    "EXOS",
    "Freeze Frame",                   /* 45 */
    "Freeze Machine",
    "Snapshot64",
    "Super Explode V5.0",
    "Magic Voice",
    "Action Replay 2",                /* 50 */
    "MACH 5",
    "Diashow-Maker",
    "Pagefox",
    "Kingsoft",
    "Silverrock 128K Cartridge",      /* 55 */
    "Formel 64",
    "RGCD",
    "RR-Net MK3",
    "EasyCalc",
    "GMod2",                          /* 60 */
    "MAX Basic",
    "GMod3",
    "ZIPP-CODE 48",
    "Blackbox V8",
    "Blackbox V3",                    /* 65 */
    "Blackbox V4",
    "REX RAM-Floppy",
    "BIS-Plus",
    "SD-BOX",
    "MultiMAX",                       /* 70 */
    "Blackbox V9",
    "Lt. Kernal Host Adaptor",
    "RAMLink",
    "H.E.R.O.",
    "IEEE Flash! 64",                 /* 75 */
    "Turtle Graphics II",
    "Freeze Frame MK2",
    "Partner 64",                     /* 78 */
};

const char *mh_crt_hardware_name(unsigned hardware_type)
{
    return hardware_type < sizeof names / sizeof names[0] ? names[hardware_type] : "unknown";
}
