/* mh-asm: assembles the boot ROMs at build time (mh_asm_tool.h). */
#include "mh_asm_tool.h"

int main(int argc, char **argv)
{
    return mh_asm_tool_run(argc, argv, stderr);
}
