/* host/src/files.h - the mh.files/1 service (files.c): the allowed
 * directories of this host and path confinement. Thread: [thread-safe]. */
#ifndef MH_HOST_FILES_H
#define MH_HOST_FILES_H

#include "mcphost/files.h"

extern const mh_files_service mh_files_service_impl;

#endif
