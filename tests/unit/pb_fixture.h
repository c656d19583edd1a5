/* SPDX-License-Identifier: MIT */
/*
 * pb_fixture.h - the pprof codec tests' fixture (test_decode.c and
 * test_encode.c): PROF, the model a test decodes into or encodes from,
 * freed by drop(), each suite's .fini, and PbProfile, the short name of
 * protobuf-c's message type, the reference the codec is checked against.
 */
#ifndef PROFCONV_TEST_PB_FIXTURE_H
#define PROFCONV_TEST_PB_FIXTURE_H

#include "helpers.h"
#include "profile.pb-c.h"

typedef Perftools__Profiles__Profile PbProfile;

static struct profconv_profile *prof;

static void
drop(void)
{
	profconv_profile_free(prof);
	prof = NULL;
}

#endif /* PROFCONV_TEST_PB_FIXTURE_H */
