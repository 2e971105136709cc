/* bare6502_program.c - loads the `program` option's file into RAM.
 *
 * Two formats:
 *   .prg        (no load_address option) the first two bytes are the load
 *               address, little-endian; the rest is loaded there;
 *   raw binary  (load_address given) the whole file is loaded there.
 * Refused, with a message naming the file: a file that cannot be opened or
 * read, a directory, an empty file, a .prg of fewer than 3 bytes (a load
 * address and at least one byte), and data that would run past $FFFF.
 *
 * bare6502_confine_paths() puts the `program` and `output` paths through the
 * host's mh.files/1 service first (the allowed directories, --allow-dir), so
 * a session_create from a client cannot read or write files elsewhere.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bare6502.h"
#include "mcphost/files.h"

/* Large enough to tell "fits" from "too big" for any load address: 64 KiB
 * of data plus a .prg header plus one byte. */
#define READ_LIMIT (65536u + 2u + 1u)

static mh_status read_file(const char *path, uint8_t *buffer, size_t *size, char *error,
                           size_t error_size)
{
    FILE *file = fopen(path, "rb");
    if (!file) {
        snprintf(error, error_size, "program \"%s\": cannot open it: %s", path, strerror(errno));
        return MH_ERR_IO;
    }
    struct stat info;
    if (fstat(fileno(file), &info) == 0 && S_ISDIR(info.st_mode)) {
        snprintf(error, error_size, "program \"%s\": is a directory, not a program file", path);
        fclose(file);
        return MH_ERR_IO;
    }
    size_t total = 0, got;
    while (total < READ_LIMIT && (got = fread(buffer + total, 1, READ_LIMIT - total, file)) > 0)
        total += got;
    int failed = ferror(file);
    int saved_errno = errno;
    fclose(file);
    if (failed) {
        snprintf(error, error_size, "program \"%s\": cannot read it: %s", path,
                 strerror(saved_errno));
        return MH_ERR_IO;
    }
    *size = total;
    return MH_OK;
}

mh_status bare6502_program_load(const bare6502_config *config, uint8_t *ram,
                                uint16_t *load_address, size_t *size, char *error,
                                size_t error_size)
{
    static const size_t buffer_size = READ_LIMIT;
    uint8_t *buffer = malloc(buffer_size); /* too big for an emulation thread's stack */
    if (!buffer) {
        snprintf(error, error_size, "program \"%s\": out of memory", config->program);
        return MH_ERR_NO_MEMORY;
    }
    size_t length = 0;
    mh_status status = read_file(config->program, buffer, &length, error, error_size);
    int cut_off = length == READ_LIMIT; /* the file is at least this long */
    const uint8_t *data = buffer;
    uint32_t address = config->load_address;
    if (status == MH_OK && length == 0) {
        snprintf(error, error_size, "program \"%s\": the file is empty", config->program);
        status = MH_ERR_INVALID_ARGUMENT;
    } else if (status == MH_OK && !config->has_load_address) {
        if (length < 3) {
            snprintf(error, error_size,
                     "program \"%s\": a .prg needs a 2-byte load address and at least 1 byte "
                     "of data, the file has %zu byte%s (for a raw binary give load_address)",
                     config->program, length, length == 1 ? "" : "s");
            status = MH_ERR_INVALID_ARGUMENT;
        } else {
            address = (uint32_t)buffer[0] | (uint32_t)buffer[1] << 8;
            data += 2;
            length -= 2;
        }
    }
    if (status == MH_OK && address + length > 65536u) {
        snprintf(error, error_size,
                 "program \"%s\": %s%zu bytes loaded at $%04X run past $FFFF (at most %u "
                 "bytes fit there)",
                 config->program, cut_off ? "at least " : "", length,
                 (unsigned)address, (unsigned)(65536u - address));
        status = MH_ERR_LIMIT;
    }
    if (status == MH_OK) {
        memcpy(ram + address, data, length);
        *load_address = (uint16_t)address;
        *size = length;
    }
    free(buffer);
    return status;
}

mh_status bare6502_confine_paths(const mh_host *host, bare6502_config *config, char *error,
                                 size_t error_size)
{
    const mh_files_service *files = host ? host->get_service(host, MH_FILES_SERVICE_ID) : NULL;
    if (!files) return MH_OK; /* a host without file confinement (tests) */
    mh_status status = MH_OK;
    if (config->program)
        status = mh_files_confine(files, host, "program", &config->program, MH_FILES_READ, error,
                                  error_size);
    if (status == MH_OK && strcmp(config->output, "stderr") != 0 &&
        strcmp(config->output, "stdout") != 0)
        status = mh_files_confine(files, host, "output", &config->output, MH_FILES_WRITE, error,
                                  error_size);
    return status;
}
