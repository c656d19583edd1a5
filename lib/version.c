/* SPDX-License-Identifier: MIT */
/* version.c - the library's version, and those of what it was built with. */

#include "config.h"

#include <stdio.h>
#include <elfutils/libdwfl.h>
#include <protobuf-c/protobuf-c.h>
#include <zlib.h>
#include <zstd.h>

#include "base/base.h"

const char *
profconv_version(void)
{
	return PACKAGE_VERSION;
}

unsigned int
profconv_version_number(void)
{
	return PROFCONV_VERSION_NUMBER;
}

const char *
profconv_version_details(void)
{
	static _Thread_local char buf[160];

	/* Run-time versions: what is loaded, not what was compiled against. */
	snprintf(buf, sizeof(buf), "libprofconv %s protobuf-c/%s zlib/%s "
	    "libdw/%s zstd/%s", PACKAGE_VERSION, protobuf_c_version(),
	    zlibVersion(), dwfl_version(NULL), ZSTD_versionString());
	return buf;
}
