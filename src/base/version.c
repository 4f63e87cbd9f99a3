/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The version string; the build passes POOLSHARK_VERSION from the Makefile's VERSION. */
#include "poolshark/version.h"

#ifndef POOLSHARK_VERSION
#error "build with -DPOOLSHARK_VERSION=\"x.y\" (the Makefile does)"
#endif

const char poolshark_version[] = POOLSHARK_VERSION;
