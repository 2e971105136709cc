// Where the tests find the original Commodore ROMs (for tests only; never
// copied into the repository): $MCPHOST_TEST_ROMS, else ../shared/roms
// beside the repository. romDir('VIC20') is the machine's folder, or null
// with the reason in skipReason() when it is absent.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const ROMS = process.env.MCPHOST_TEST_ROMS ?? resolve(here, '..', '..', '..', '..', 'shared', 'roms');

/** The ROM folder of a machine ('VIC20', 'PLUS4'), or null when absent. */
export function romDir(machine) {
  const dir = join(ROMS, machine);
  return existsSync(dir) ? dir : null;
}

/** Why a test that needs the machine's original ROMs is skipped. */
export function skipReason(machine) {
  return romDir(machine) ? false
    : `skipped: no original ${machine} ROMs in ${join(ROMS, machine)} (set MCPHOST_TEST_ROMS to a folder with ${machine}/)`;
}
